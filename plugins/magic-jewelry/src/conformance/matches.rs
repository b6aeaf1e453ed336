//! Matches in every direction, longer lines, simultaneous lines and chains.
//!
//! Each case pokes a settled board, gives the falling column known colours, drops it where it
//! completes the lines and checks what the jewel counter says at each match step and what the
//! board looks like when the next column spawns.

use super::board::{Board, Jewels};
use super::driver::{ensure, Check, Driver, Resolution};

/// Frames allowed from the lock to the next spawn: two clear animations and a fall period.
pub const RESOLVE_FRAMES: u32 = 400;
/// The clear animation: 17 steps of 5 frames, give or take a frame of phase at each end.
const CLEAR_FRAMES: std::ops::RangeInclusive<u32> = 83..=87;

pub struct MatchCase {
    /// The settled board, bottom rows (the last string is row 12).
    pub board: &'static [&'static str],
    /// The falling column, top to bottom.
    pub current: Jewels,
    /// Where to drop it.
    pub x: u8,
    /// Jewels counted at each match step.
    pub counts: &'static [u32],
    /// The board when the next column spawns.
    pub after: &'static [&'static str],
}

pub const HORIZONTAL: MatchCase = MatchCase {
    board: &["11...."],
    current: [2, 3, 1],
    x: 2,
    counts: &[3],
    after: &["..2...", "..3..."],
};

pub const VERTICAL: MatchCase = MatchCase {
    board: &["...1..", "...1.."],
    current: [2, 3, 1],
    x: 3,
    counts: &[3],
    after: &["...2..", "...3.."],
};

/// Down-right: (10,0), (11,1), (12,2).
pub const DIAGONAL_DOWN: MatchCase = MatchCase {
    board: &["41....", "561..."],
    current: [2, 3, 1],
    x: 0,
    counts: &[3],
    after: &["2.....", "3.....", "4.....", "56...."],
};

/// Up-right: (12,0), (11,1), (10,2).
pub const DIAGONAL_UP: MatchCase = MatchCase {
    board: &[".14...", "165..."],
    current: [2, 3, 1],
    x: 2,
    counts: &[3],
    after: &["..2...", "..3...", "..4...", ".65..."],
};

pub const FOUR: MatchCase = MatchCase {
    board: &["111..."],
    current: [2, 3, 1],
    x: 3,
    counts: &[4],
    after: &["...2..", "...3.."],
};

pub const FIVE: MatchCase = MatchCase {
    board: &["11.11."],
    current: [2, 3, 1],
    x: 2,
    counts: &[5],
    after: &["..2...", "..3..."],
};

/// Two lines of different colours at once.
pub const SIMULTANEOUS: MatchCase = MatchCase {
    board: &["22....", "11...."],
    current: [3, 2, 1],
    x: 2,
    counts: &[6],
    after: &["..3..."],
};

/// A line across and a line down sharing one jewel: five jewels, counted once each.
pub const OVERLAPPING: MatchCase = MatchCase {
    board: &["11...."],
    current: [1, 1, 1],
    x: 2,
    counts: &[5],
    after: &[],
};

/// The first line's collapse brings a 3 down next to two more.
pub const CHAIN: MatchCase = MatchCase {
    board: &["11.33."],
    current: [2, 3, 1],
    x: 2,
    counts: &[3, 3],
    after: &["..2..."],
};

/// Sets up `case`, drops the column and resolves the board.
pub fn play_case(d: &mut Driver<'_>, case: &MatchCase) -> Check<Resolution> {
    d.set_current(case.current);
    d.set_board(&Board::from_rows(case.board));
    d.move_to(case.x)?;
    let resolution = d.drop_and_resolve(RESOLVE_FRAMES)?;
    ensure!(
        resolution.spawned,
        "no new column within {RESOLVE_FRAMES} frames of the lock; board {}",
        d.board()
    );
    Ok(resolution)
}

/// Plays `case` and checks the counts, the animation and the final board.
pub fn check_case(d: &mut Driver<'_>, case: &MatchCase) -> Check {
    let score = d.score()?;
    let resolution = play_case(d, case)?;
    let counts = resolution.counts();
    ensure!(
        counts == case.counts,
        "jewels counted at each match step: {counts:?} ({:?} expected)",
        case.counts
    );
    for clear in &resolution.clears {
        ensure!(
            clear.jewels_at_end == clear.jewels_at_match,
            "the jewel counter went from {} to {} during the clear animation (it counts at the match)",
            clear.jewels_at_match,
            clear.jewels_at_end
        );
        ensure!(
            CLEAR_FRAMES.contains(&clear.frames),
            "a clear animation lasted {} frames (85 expected: $001A from 17 to 0, a step every 5 frames)",
            clear.frames
        );
    }
    let board = d.board_without_column();
    let expected = Board::from_rows(case.after);
    ensure!(
        board == expected,
        "board after the matches {board} ({expected} expected)"
    );
    let now = d.score()?;
    ensure!(now > score, "the score stayed at {now}");
    Ok(format!(
        "counted {counts:?}, then {board}; score {score} -> {now}"
    ))
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
    simultaneous => SIMULTANEOUS,
    overlapping => OVERLAPPING,
    chain => CHAIN,
}
