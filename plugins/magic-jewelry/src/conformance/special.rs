//! The wild column, game over and counters rolling over.

use super::board::{Board, Jewels};
use super::driver::{ensure, Check, Driver, Failure};
use super::matches::{play_case, HORIZONTAL, RESOLVE_FRAMES};
use crate::memory_map as map;
use jewelbot_plugin::Buttons;

const WILD: Jewels = [7; 3];
/// Frames to watch a finished game for a column that should never come.
const GAME_OVER_FRAMES: u32 = 240;

/// Makes the next column wild, drops `first` at `x` and waits for the wild column.
fn bring_wild(d: &mut Driver<'_>, first: Jewels, x: u8) -> Check<()> {
    d.set_current(first);
    d.set_next(WILD);
    d.move_to(x)?;
    let resolution = d.drop_and_resolve(RESOLVE_FRAMES)?;
    ensure!(
        resolution.spawned && resolution.clears.is_empty(),
        "the column before the wild one did not lock quietly: {resolution:?}"
    );
    let current = d.column().jewels;
    ensure!(
        current == WILD,
        "the next column was set wild but {current:?} spawned"
    );
    Ok(())
}

/// Drops the wild column where it is and returns the jewels counted and the board after.
fn land_wild(d: &mut Driver<'_>) -> Check<(u32, Board)> {
    let resolution = d.drop_and_resolve(RESOLVE_FRAMES)?;
    ensure!(
        resolution.spawned,
        "no column spawned after the wild column landed"
    );
    Ok((resolution.counts().iter().sum(), d.board_without_column()))
}

pub fn wild_on_floor(d: &mut Driver<'_>) -> Check {
    bring_wild(d, [2, 3, 4], 0)?;
    let (level, speed) = (d.level()?, d.fall_speed());
    let (counted, board) = land_wild(d)?;
    let expected = Board::from_rows(&["2.....", "3.....", "4....."]);
    ensure!(
        board == expected,
        "after the wild column landed on the floor: {board} ({expected} expected)"
    );
    ensure!(
        counted == 0 || counted == 3,
        "the jewel counter went up by {counted}"
    );
    let (new_level, new_speed) = (d.level()?, d.fall_speed());
    ensure!(
        new_level == (level + 1) % 10_000,
        "the level went from {level} to {new_level}"
    );
    ensure!(
        new_speed < speed,
        "the fall speed went from {speed} to {new_speed} frames per row"
    );
    Ok(format!(
        "the X's vanished; level {level} -> {new_level}, fall speed {speed} -> {new_speed}"
    ))
}

pub fn wild_on_colour(d: &mut Driver<'_>) -> Check {
    d.set_board(&Board::from_rows(&["...1..", "121312"]));
    bring_wild(d, [4, 5, 6], 0)?;
    let level = d.level()?;
    let (counted, board) = land_wild(d)?;
    let expected = Board::from_rows(&["4.....", "5.....", "62.3.2"]);
    ensure!(
        board == expected,
        "after the wild column landed on a 1: {board} ({expected} expected: every 1 gone)"
    );
    ensure!(
        (4..=7).contains(&counted),
        "the jewel counter went up by {counted} for four jewels and three X's"
    );
    let new_level = d.level()?;
    ensure!(
        new_level == (level + 1) % 10_000,
        "the level went from {level} to {new_level}"
    );
    Ok(format!(
        "every 1 vanished with the X's ({counted} counted); level {level} -> {new_level}"
    ))
}

/// Presses buttons for a while and checks that no column comes and the counters stay.
fn stays_over(d: &mut Driver<'_>) -> Check<()> {
    let (score, jewels) = (d.score()?, d.jewel_counter()?);
    let presses = [Buttons::LEFT, Buttons::RIGHT, Buttons::A, Buttons::DOWN];
    let mut spawned = d.is_spawned();
    for frame in 0..GAME_OVER_FRAMES {
        let buttons = if frame % 8 == 0 {
            presses[(frame / 8) as usize % 4]
        } else {
            Buttons::NONE
        };
        d.step(buttons)?;
        let now = d.is_spawned();
        ensure!(
            !now || spawned,
            "a new column spawned {frame} frames into the game over"
        );
        spawned = now;
    }
    ensure!(
        d.score()? == score && d.jewel_counter()? == jewels,
        "the counters changed after the game ended"
    );
    Ok(())
}

/// Start begins a new game on an empty board.
fn restarts(d: &mut Driver<'_>) -> Check<()> {
    d.start_game()
        .map_err(|Failure(why)| Failure(format!("after the game over: {why}")))
}

/// Alternating colours up `column`, from `top` to row 12: no line anywhere.
fn stack(column: usize, top: i8) -> Board {
    let mut board = Board::default();
    for row in top..=12 {
        board.set(row, column, if row % 2 == 0 { 5 } else { 6 });
    }
    board
}

pub fn game_over_hidden_row(d: &mut Driver<'_>) -> Check {
    // Away from the spawn column, so that only the lock can end the game.
    d.set_current([2, 3, 4]);
    d.move_to(0)?;
    d.set_board(&stack(0, 1));
    let resolution = d.resolve(u32::from(d.fall_speed()) + 10)?;
    ensure!(
        !resolution.spawned && resolution.clears.is_empty(),
        "the column locked with two jewels in the hidden rows but play went on: {resolution:?}"
    );
    stays_over(d)?;
    restarts(d)?;
    Ok(
        "locking at x=0 with jewels in the hidden rows ends the game; Start begins a new one"
            .into(),
    )
}

pub fn game_over_blocked_spawn(d: &mut Driver<'_>) -> Check {
    d.set_current([2, 3, 4]);
    d.move_to(0)?;
    d.set_board(&stack(3, 0));
    let resolution = d.drop_and_resolve(2 * u32::from(d.fall_speed()))?;
    ensure!(
        !resolution.spawned && resolution.clears.is_empty(),
        "a column spawned over a stack reaching row 0: {resolution:?}"
    );
    stays_over(d)?;
    restarts(d)?;
    Ok("no column spawns over a stack reaching row 0: game over; Start begins a new one".into())
}

pub fn counter_rollover(d: &mut Driver<'_>) -> Check {
    d.set_counter(map::JEWEL_COUNTER, map::COUNTER_DIGITS, 999_999);
    d.set_counter(map::SCORE, map::COUNTER_DIGITS, 99_999_999);
    play_case(d, &HORIZONTAL)?;
    let jewels = d.jewel_counter()?;
    ensure!(
        jewels == 2,
        "the jewel counter went from 999999 to {jewels} after 3 jewels (2 expected)"
    );
    let score = d.score()?;
    ensure!(
        score < 99_999_999,
        "the score went from 99999999 to {score}: it did not roll over"
    );
    Ok(format!(
        "jewels 999999 -> {jewels:06}, score 99999999 -> {score:08}"
    ))
}

pub fn level_rollover(d: &mut Driver<'_>) -> Check {
    d.set_counter(map::LEVEL, map::COUNTER_DIGITS, 9_999);
    bring_wild(d, [2, 3, 4], 0)?;
    land_wild(d)?;
    let level = d.level()?;
    ensure!(
        level == 0,
        "the level went from 9999 to {level} (0 expected)"
    );
    Ok("level 9999 -> 0000 when the wild column lands".into())
}
