//! Matches in every direction, longer lines, simultaneous lines, chains and the score formula.
//!
//! Each case pokes a settled board, gives the falling column known colours, soft-drops it
//! where it completes the lines and measures each match step: the jewels counted when it
//! starts, the score added when its animation ends 85 frames later, and the board when the
//! next column spawns the frame after.

use super::board::Jewels;
use super::controls::filler;
use super::driver::{ensure, Check, Driver, Fact, Resolution};
use crate::game_view::Grid;
use crate::memory_map as map;

/// Frames allowed from the drop to the next spawn: two match steps and the drop.
pub const RESOLVE_FRAMES: u64 = 400;
/// Frames of a match step from the frame it starts to the collapse.
pub const STEP_FRAMES: u64 = 85;

pub struct MatchCase {
    /// The settled board, bottom rows (the last string is row 12).
    pub board: &'static [&'static str],
    /// The falling column, top to bottom.
    pub current: Jewels,
    /// Where to drop it.
    pub x: u8,
    /// Jewels counted at each match step.
    pub counts: &'static [u32],
    /// Score added by each match step.
    pub scores: &'static [u32],
    /// The board when the next column spawns.
    pub after: &'static [&'static str],
}

pub const HORIZONTAL: MatchCase = MatchCase {
    board: &["11...."],
    current: [2, 3, 1],
    x: 2,
    counts: &[3],
    scores: &[300],
    after: &["..2...", "..3..."],
};

/// The column lands on row 10: 2 + 300.
pub const VERTICAL: MatchCase = MatchCase {
    board: &["...1..", "...1.."],
    current: [2, 3, 1],
    x: 3,
    counts: &[3],
    scores: &[302],
    after: &["...2..", "...3.."],
};

/// Down-right: (10,0), (11,1), (12,2); the column's bottom on row 10.
pub const DIAGONAL_DOWN: MatchCase = MatchCase {
    board: &["41....", "561..."],
    current: [2, 3, 1],
    x: 0,
    counts: &[3],
    scores: &[302],
    after: &["2.....", "3.....", "4.....", "56...."],
};

/// Up-right: (12,0), (11,1), (10,2); the column's bottom on row 10.
pub const DIAGONAL_UP: MatchCase = MatchCase {
    board: &[".14...", "165..."],
    current: [2, 3, 1],
    x: 2,
    counts: &[3],
    scores: &[302],
    after: &["..2...", "..3...", "..4...", ".65..."],
};

pub const FOUR: MatchCase = MatchCase {
    board: &["111..."],
    current: [2, 3, 1],
    x: 3,
    counts: &[4],
    scores: &[500],
    after: &["...2..", "...3.."],
};

pub const FIVE: MatchCase = MatchCase {
    board: &["11.11."],
    current: [2, 3, 1],
    x: 2,
    counts: &[5],
    scores: &[800],
    after: &["..2...", "..3..."],
};

/// Two lines of different colours at once: six cells in one step.
pub const SIX: MatchCase = MatchCase {
    board: &["22....", "11...."],
    current: [3, 2, 1],
    x: 2,
    counts: &[6],
    scores: &[1200],
    after: &["..3..."],
};

/// A line across and a line down sharing one jewel: five jewels, counted once each.
pub const OVERLAPPING: MatchCase = MatchCase {
    board: &["11...."],
    current: [1, 1, 1],
    x: 2,
    counts: &[5],
    scores: &[800],
    after: &[],
};

/// The first line's collapse brings a 3 down next to two more: 300 then 600.
pub const CHAIN: MatchCase = MatchCase {
    board: &["11.33."],
    current: [2, 3, 1],
    x: 2,
    counts: &[3, 3],
    scores: &[300, 600],
    after: &["..2..."],
};

/// Sets up `case`, drops the column and resolves the board.
pub fn play_case(d: &mut Driver<'_>, case: &MatchCase) -> Check<Resolution> {
    d.set_current(case.current);
    d.set_board(&Grid::from_rows(case.board));
    d.move_to(case.x)?;
    let resolution = d.drop_and_resolve(RESOLVE_FRAMES)?;
    ensure!(
        resolution.spawn.is_some(),
        "no new column within {RESOLVE_FRAMES} frames of the drop; board {}",
        d.board()
    );
    Ok(resolution)
}

/// What a resolution showed, in the order [`check_case`] compares it.
type Measured = (
    Vec<u32>,
    Vec<u32>,
    Vec<u64>,
    Vec<u64>,
    Option<u64>,
    u32,
    u32,
    String,
);

/// Measures a resolution: counts, scores, step lengths, the gaps between steps, the frame of
/// the spawn after the last step, jewels counted late, score added early, the board after.
fn measure(d: &Driver<'_>, resolution: &Resolution) -> Measured {
    let steps = &resolution.steps;
    let lengths = steps.iter().map(|s| s.end - s.start).collect();
    let gaps = steps.windows(2).map(|w| w[1].start - w[0].end).collect();
    let spawn = resolution
        .spawn
        .zip(steps.last())
        .map(|(spawn, last)| spawn - last.end);
    (
        resolution.counts(),
        resolution.scores(),
        lengths,
        gaps,
        spawn,
        steps.iter().map(|s| s.counted_late).sum(),
        steps.iter().map(|s| s.score_early).sum(),
        d.board_without_column().to_string(),
    )
}

/// Plays `case`: the counts and scores it states, 85 frames a step, a chain's next step on the
/// frame after the collapse, the next column on the frame after the last, the jewels counted
/// when a step starts and the score when it ends, and the board it states.
pub fn check_case(d: &mut Driver<'_>, case: &MatchCase) -> Check {
    let resolution = play_case(d, case)?;
    let steps = case.counts.len();
    let expected: Measured = (
        case.counts.to_vec(),
        case.scores.to_vec(),
        vec![STEP_FRAMES; steps],
        vec![1; steps - 1],
        Some(1),
        0,
        0,
        Grid::from_rows(case.after).to_string(),
    );
    Ok(Fact::compare(expected, measure(d, &resolution)))
}

macro_rules! scenario_for {
    ($($name:ident => $case:ident),* $(,)?) => {
        $(pub fn $name(d: &mut Driver<'_>) -> Check {
            check_case(d, &$case)
        })*
    };
}

scenario_for! {
    horizontal => HORIZONTAL,
    vertical => VERTICAL,
    diagonal_down => DIAGONAL_DOWN,
    diagonal_up => DIAGONAL_UP,
    four => FOUR,
    five => FIVE,
    six => SIX,
    overlapping => OVERLAPPING,
    chain => CHAIN,
}

/// The lock of a matching column with Down held: 2 frames after landing, where the first
/// match step starts.
pub fn lock_after_landing(d: &mut Driver<'_>) -> Check {
    let resolution = play_case(d, &HORIZONTAL)?;
    let landed = resolution.landed.unwrap_or_default();
    let start = resolution.steps.first().map_or(0, |s| s.start);
    Ok(Fact::compare(2, start.saturating_sub(landed)))
}

pub fn combo(d: &mut Driver<'_>) -> Check {
    let mut scores = Vec::new();
    let mut combos = Vec::new();
    for _ in 0..2 {
        let resolution = play_case(d, &HORIZONTAL)?;
        scores.push(resolution.score);
        combos.push(d.byte(map::COMBO));
    }
    // A lock without a match.
    d.set_board(&Grid::default());
    d.move_to(5)?;
    let quiet = d.drop_and_resolve(RESOLVE_FRAMES)?;
    ensure!(quiet.steps.is_empty(), "the quiet drop matched: {quiet:?}");
    combos.push(d.byte(map::COMBO));
    Ok(Fact::compare(
        (vec![300, 330], vec![1, 2, 0]),
        (scores, combos),
    ))
}

/// A match of 3 with the column's bottom on row 3 and the combo counter at 9: 9 + 190·3.
pub fn high_lock_bonus(d: &mut Driver<'_>) -> Check {
    let mut board = Grid::from_rows(&[]);
    for row in 4..=12 {
        for column in 0..3 {
            board.set(row, column, filler(row, column));
        }
    }
    board.set(3, 0, 1);
    board.set(3, 1, 1);
    d.set_current([2, 3, 1]);
    d.set_board(&board);
    d.poke(map::COMBO, 9);
    d.move_to(2)?;
    let resolution = d.drop_and_resolve(RESOLVE_FRAMES)?;
    Ok(Fact::compare(
        (vec![3], 579, 9),
        (resolution.counts(), resolution.score, d.byte(map::COMBO)),
    ))
}

/// A column resting with its top in row -2 completes a line on row 0: the collapse drops its
/// middle jewel into row 0 and erases the top one instead of letting it fall.
pub fn row_minus_2_erased(d: &mut Driver<'_>) -> Check {
    d.set_current([2, 3, 1]);
    d.move_to(0)?;
    let mut board = Grid::default();
    for row in 1..=12 {
        for column in 0..3 {
            board.set(row, column, filler(row, column));
        }
    }
    board.set(0, 1, 1);
    board.set(0, 2, 1);
    d.set_board(&board);
    // A Down press on a resting column locks it at once.
    let resolution = d.drop_and_resolve(RESOLVE_FRAMES)?;
    Ok(Fact::compare(
        (vec![3], 309, [0, 0, 3], true),
        (
            resolution.counts(),
            resolution.score,
            [-2, -1, 0].map(|row| d.cell(row, 0)),
            resolution.spawn.is_some(),
        ),
    ))
}
