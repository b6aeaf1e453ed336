//! The wild column, levels and speeds, counters rolling over, game over and continue, pause, and
//! a spawn over a full column.

use super::controls::{filler, stack};
use super::driver::{ensure, Check, Driver, Fact};
use super::matches::{play_case, HORIZONTAL, RESOLVE_FRAMES};
use crate::game_view::Grid;
use crate::game_view::Jewels;
use crate::memory_map as map;
use jewelbot_plugin::Buttons;

/// Frames from the end of a resolution to the wild column's spawn: one frame, then the 16
/// frames of the PRG checksum.
const WILD_SPAWN: u64 = 17;

/// Sets the cells-removed counter so that a match of three brings the wild column, plays
/// [`HORIZONTAL`] and waits for the wild column; the frames from the last step's end to its
/// spawn.
fn bring_wild(d: &mut Driver<'_>) -> Check<u64> {
    d.poke(map::REMOVED, 68);
    let resolution = play_case(d, &HORIZONTAL)?;
    let end = resolution.steps.last().map_or(0, |s| s.end);
    let spawn = resolution.spawn.unwrap_or_default();
    ensure!(
        d.column().jewels == [7; 3],
        "the column after 71 cells removed is {:?}, not the wild column",
        d.column().jewels
    );
    Ok(spawn - end)
}

pub fn wild_generated(d: &mut Driver<'_>) -> Check {
    let next = d.next_jewels();
    let delay = bring_wild(d)?;
    Ok(Fact::compare(
        (WILD_SPAWN, [7, 7, 7], next, 1, 1, 1),
        (
            delay,
            d.column().jewels,
            d.next_jewels(),
            d.byte(map::REMOVED),
            d.level()?,
            d.byte(map::COMBO),
        ),
    ))
}

/// (level index, fall speed) on the spawn after the wild column and on the frame after.
fn level_up(d: &mut Driver<'_>) -> Check<[(u8, u8); 2]> {
    let at_spawn = (d.byte(map::LEVEL_INDEX), d.fall_speed());
    d.step(Buttons::NONE)?;
    Ok([at_spawn, (d.byte(map::LEVEL_INDEX), d.fall_speed())])
}

pub fn wild_on_floor(d: &mut Driver<'_>) -> Check {
    bring_wild(d)?;
    d.move_to(0)?;
    let resolution = d.drop_and_resolve(RESOLVE_FRAMES)?;
    ensure!(
        resolution.spawn.is_some(),
        "no column came after the wild column landed"
    );
    let board = d.board_without_column().to_string();
    let combo = d.byte(map::COMBO);
    let levels = level_up(d)?;
    Ok(Fact::compare(
        (
            vec![3],
            330,
            Grid::from_rows(&["..2...", "..3..."]).to_string(),
            2,
            [(0, 63), (1, 52)],
            1,
        ),
        (
            resolution.counts(),
            resolution.score,
            board,
            combo,
            levels,
            d.level()?,
        ),
    ))
}

pub fn wild_on_jewel(d: &mut Driver<'_>) -> Check {
    bring_wild(d)?;
    d.set_board(&Grid::from_rows(&["...1..", "121312"]));
    let resolution = d.drop_and_resolve(RESOLVE_FRAMES)?;
    ensure!(
        resolution.spawn.is_some(),
        "no column came after the wild column landed"
    );
    let board = d.board_without_column().to_string();
    let levels = level_up(d)?;
    // Four 1s and the three X's; 2 + 110 * (7 + 4*5/2).
    Ok(Fact::compare(
        (
            vec![7],
            1872,
            Grid::from_rows(&[".2.3.2"]).to_string(),
            [(0, 63), (1, 52)],
        ),
        (resolution.counts(), resolution.score, board, levels),
    ))
}

pub fn speed_table(d: &mut Driver<'_>) -> Check {
    let mut seen = Vec::new();
    for index in [0u8, 4, 11, 18, 22, 30, 31, 47, 254, 255] {
        d.poke(map::LEVEL_INDEX, index);
        d.poke(map::LEVEL_UP, 1);
        d.step(Buttons::NONE)?;
        seen.push((
            d.byte(map::LEVEL_INDEX),
            d.fall_speed(),
            d.byte(map::LEVEL_UP),
        ));
    }
    let expected: Vec<(u8, u8, u8)> = [
        (1, 52),
        (5, 25),
        (12, 19),
        (19, 18),
        (23, 17),
        (31, 13),
        (32, 11),
        (48, 8),
        (255, 8),
        (0, 63),
    ]
    .into_iter()
    .map(|(index, speed)| (index, speed, 0))
    .collect();
    Ok(Fact::compare(expected, seen))
}

pub fn counters_roll_over(d: &mut Driver<'_>) -> Check {
    d.set_counter(map::JEWEL_COUNTER, 999_999);
    d.set_counter(map::SCORE, 99_999_999);
    play_case(d, &HORIZONTAL)?;
    Ok(Fact::compare(
        (1_000_002, 299),
        (d.jewel_counter()?, d.score()?),
    ))
}

pub fn level_counter(d: &mut Driver<'_>) -> Check {
    d.set_counter(map::LEVEL, 9_999);
    bring_wild(d)?;
    Ok(Fact::compare(10_000, d.level()?))
}

/// The pattern the real game's recording pokes at a spawn: rows 1-12 full, no line anywhere.
fn full_board() -> Grid {
    let mut board = Grid::default();
    for row in 1..=12i8 {
        for column in 0..6 {
            let pair = [[2, 4], [3, 1], [4, 2], [1, 3]][(row as usize - 1) % 4];
            board.set(row, column, pair[column % 2]);
        }
    }
    board
}

/// The frames of the game-over fill, counted from the lock that ended the game.
struct Fill {
    /// The lock: the frame the first 7 appeared (row 12, column 5).
    lock: u64,
    /// All 78 visible cells 7.
    cells: u64,
    /// Row 0's left border byte 7 too: the fill's last write.
    border: u64,
}

fn watch_fill(d: &mut Driver<'_>, limit: u64) -> Check<Fill> {
    let lock = d.until("the game over", limit, Buttons::NONE, |d| {
        d.cell(12, 5) == 7
    })?;
    let full = |d: &Driver<'_>| (0..=12).all(|row| (0..6).all(|c| d.cell(row, c) == 7));
    let cells = d.until("the 7-fill of the playfield", 300, Buttons::NONE, full)?;
    let border = map::cell_address(0, 0) - 1;
    let border = if d.byte(border) == 7 {
        cells
    } else {
        d.until("the fill of the border", 20, Buttons::NONE, |d| {
            d.byte(border) == 7
        })?
    };
    Ok(Fill {
        lock,
        cells,
        border,
    })
}

/// Fills rows 1-12 three frames after the spawn, as the recording does: the column rests on
/// row 1, locks one fall period after its spawn with jewels in rows -2 and -1, and the game
/// ends. The fill's frames.
fn end_game(d: &mut Driver<'_>) -> Check<(u64, Fill)> {
    let spawn = d.frame();
    d.idle(2)?;
    d.set_board(&full_board());
    let fill = watch_fill(d, 100)?;
    Ok((spawn, fill))
}

pub fn game_over(d: &mut Driver<'_>) -> Check {
    let middle = d.column().jewels[1];
    let (spawn, fill) = end_game(d)?;
    Ok(Fact::compare(
        (63, 178, 180, [0, middle], false),
        (
            fill.lock - spawn,
            fill.cells - fill.lock,
            fill.border - fill.lock,
            [d.cell(-2, 3), d.cell(-1, 3)],
            d.on_title(),
        ),
    ))
}

pub fn game_over_wait(d: &mut Driver<'_>) -> Check {
    let (_, fill) = end_game(d)?;
    let lock = fill.lock;
    // A one-frame Start press during the fill is missed.
    d.idle_until_frame(lock + 99)?;
    d.step(Buttons::START)?;
    // The wait has no limit.
    d.idle_until_frame(lock + 600)?;
    let waiting = (
        d.on_title(),
        (0..=12).all(|row| (0..6).all(|c| d.cell(row, c) == 7)),
    );
    // Start held: a reset, the title, and (Start still held) a new game.
    let press = d.frame() + 1;
    d.step(Buttons::START)?;
    let empty = |d: &Driver<'_>| d.board().jewels() == 0;
    let cleared = d.until("the reset", 20, Buttons::START, empty)?;
    let title = d.until("the title", 20, Buttons::START, Driver::on_title)?;
    let game = d.until("the new game", 20, Buttons::START, |d| !d.on_title())?;
    let spawn = d.until_spawn(20, Buttons::START)?;
    Ok(Fact::compare(
        ((false, true), [2, 4, 6, 11]),
        (
            waiting,
            [cleared, title, game, spawn].map(|frame| frame - press),
        ),
    ))
}

/// The buttons of the hidden continue, exactly.
const CONTINUE: Buttons =
    Buttons::from_bits(Buttons::SELECT.bits() | Buttons::START.bits() | Buttons::RIGHT.bits());

/// Sets the counters a continue keeps, ends the game and waits out the 7-fill; the next
/// column shown at the game over.
fn game_over_with_counters(d: &mut Driver<'_>) -> Check<Jewels> {
    d.set_counter(map::SCORE, 12_345);
    d.set_counter(map::JEWEL_COUNTER, 678);
    d.set_counter(map::LEVEL, 7);
    d.poke(map::LEVEL_INDEX, 5);
    d.poke(map::FALL_SPEED, 25);
    d.poke(map::REMOVED, 30);
    let next = d.next_jewels();
    let (_, fill) = end_game(d)?;
    d.idle_until_frame(fill.lock + 250)?;
    Ok(next)
}

/// Bytes of the playfield ($0380-$03F7), border bytes included, that are not 0.
fn playfield_bytes_set(d: &Driver<'_>) -> usize {
    (0..map::ROWS as u16 * map::PLAYFIELD_STRIDE)
        .filter(|&i| d.byte(map::PLAYFIELD + i) != 0)
        .count()
}

/// The generator after one column: three steps of the game's LCG.
fn after_one_column(state: u16) -> u16 {
    (0..3).fold(state, |s, _| s.wrapping_mul(25_173).wrapping_add(13_849))
}

pub fn continue_game(d: &mut Driver<'_>) -> Check {
    let next = game_over_with_counters(d)?;
    let generator = d.generator();
    // Select and Right alone do nothing; Start added continues in that frame.
    d.hold(20, Buttons::SELECT | Buttons::RIGHT)?;
    let before = d.byte(map::TITLE);
    d.step(CONTINUE)?;
    let logo = (d.byte(map::TITLE), d.paused(), playfield_bytes_set(d));
    // Held on, or released for two seconds: no column comes.
    d.hold(4, CONTINUE)?;
    d.idle(120)?;
    let waited = (d.byte(map::TITLE), playfield_bytes_set(d), d.at_spawn());
    // A new Start press spawns the next column in its frame, counters kept.
    d.step(Buttons::START)?;
    let spawned = (
        d.at_spawn(),
        d.column().jewels,
        d.byte(map::TITLE),
        d.paused(),
    );
    let kept = (
        d.score()?,
        d.jewel_counter()?,
        d.level()?,
        d.byte(map::LEVEL_INDEX),
        d.fall_speed(),
        d.byte(map::REMOVED),
        d.generator(),
    );
    Ok(Fact::compare(
        (
            0,
            (map::CONTINUE_LOGO, false, 0),
            (map::CONTINUE_LOGO, 0, false),
            (true, next, 0, false),
            (12_345, 678, 7, 5, 25, 30, after_one_column(generator)),
        ),
        (before, logo, waited, spawned, kept),
    ))
}

pub fn continue_needs_exact_buttons(d: &mut Driver<'_>) -> Check {
    game_over_with_counters(d)?;
    // A as well: any other button with Start resets, as Start alone does.
    let press = d.frame() + 1;
    d.step(CONTINUE | Buttons::A)?;
    let title = d.until(
        "the title after the reset",
        20,
        Buttons::NONE,
        Driver::on_title,
    )?;
    Ok(Fact::compare(
        (4, 0, 0),
        (title - press, d.score()?, d.level()?),
    ))
}

pub fn start_during_fill(d: &mut Driver<'_>) -> Check {
    let (_, fill) = end_game(d)?;
    // A Start press during the fill only toggles the pause byte; the fill goes on.
    d.idle_until_frame(fill.lock + 99)?;
    d.step(Buttons::START)?;
    let toggled = d.byte(map::PAUSE);
    d.idle_until_frame(fill.lock + 250)?;
    let filled = (0..=12).all(|row| (0..6).all(|c| d.cell(row, c) == 7));
    Ok(Fact::compare(
        (0xFF, true, false),
        (toggled, filled, d.on_title()),
    ))
}

/// Column 3 full from row 0 while the column before falls elsewhere.
fn fill_spawn_column(d: &mut Driver<'_>) -> Check<u8> {
    d.move_to(0)?;
    d.set_board(&stack(3, 0));
    let resolution = d.drop_and_resolve(RESOLVE_FRAMES)?;
    ensure!(
        resolution.spawn.is_some() && resolution.steps.is_empty(),
        "the column before did not lock quietly: {resolution:?}"
    );
    Ok(filler(0, 3))
}

pub fn spawn_over_full_column(d: &mut Driver<'_>) -> Check {
    fill_spawn_column(d)?;
    let spawn = d.frame();
    let jewels = d.column().jewels;
    let cells = [-2, -1, 0].map(|row| d.cell(row, 3));
    let fill = watch_fill(d, 100)?;
    Ok(Fact::compare((jewels, 63), (cells, fill.lock - spawn)))
}

pub fn spawn_overwrites(d: &mut Driver<'_>) -> Check {
    let covered = fill_spawn_column(d)?;
    let spawn = d.frame();
    let bottom = d.column().jewels[2];
    ensure!(
        covered != bottom,
        "the new column's bottom jewel has the colour of the jewel it covers"
    );
    let on_spawn = d.cell(0, 3);
    d.step(Buttons::LEFT)?;
    let moved = (d.column().x, d.cell(0, 3));
    let fell = d.until("the next fall", 80, Buttons::NONE, |d| d.column().y == 1)?;
    // The jewel under the spawn was overwritten: gone once the column moves away, and the
    // column falls on.
    Ok(Fact::compare(
        (bottom, (2, 0), 63),
        (on_spawn, moved, fell - spawn),
    ))
}

pub fn pause(d: &mut Driver<'_>) -> Check {
    let spawn = d.frame();
    d.idle(10)?;
    d.step(Buttons::START)?;
    let paused = d.paused();
    d.step(Buttons::NONE)?;
    d.hold(5, Buttons::LEFT)?;
    d.idle_until_frame(spawn + 100)?;
    let during = (d.column().x, d.column().y, d.byte(map::FALL_TIMER));
    d.step(Buttons::START)?;
    let resumed = (d.paused(), d.column().y);
    Ok(Fact::compare(
        (true, (3, 0, 100), (false, 1)),
        (paused, during, resumed),
    ))
}

pub fn pause_during_clear(d: &mut Driver<'_>) -> Check {
    d.set_current(HORIZONTAL.current);
    d.set_board(&Grid::from_rows(HORIZONTAL.board));
    d.move_to(HORIZONTAL.x)?;
    d.step(Buttons::NONE)?;
    let start = d.until("the match", 40, Buttons::DOWN, Driver::clearing)?;
    d.idle(20)?;
    d.step(Buttons::START)?;
    let end = d.until("the collapse", 100, Buttons::NONE, |d| !d.clearing())?;
    let placed = d.until("the next column", 5, Buttons::NONE, |d| {
        d.placed() && (d.column().x, d.column().y) == (3, 0)
    })?;
    d.idle(100)?;
    let held = (d.paused(), d.column().y);
    d.step(Buttons::START)?;
    let resumed = (d.paused(), d.column().y);
    Ok(Fact::compare(
        (85, 1, (true, 0), (false, 1)),
        (end - start, placed - end, held, resumed),
    ))
}
