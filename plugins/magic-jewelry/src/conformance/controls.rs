//! Spawn, gravity and the controls: positions and frame timings measured on Magic Jewelry.

use super::board::Jewels;
use super::driver::{ensure, Check, Driver};
use crate::memory_map as map;
use jewelbot_plugin::Buttons;

/// Frames per row at the first level.
pub const FIRST_LEVEL_SPEED: u8 = 63;
/// Frame offsets of the moves while Right is held, counted from the press.
const HOLD_MOVES: [u32; 5] = [0, 6, 14, 22, 30];
/// Frames allowed between a lock without a match and the next column.
const SPAWN_DELAY: u32 = 6;

/// Checks that the falling column's cells in the playfield hold its colours.
fn column_is_drawn(d: &Driver<'_>) -> Check<()> {
    let column = d.column();
    let board = d.board();
    let cells: Jewels =
        [0, 1, 2].map(|i| board.get(column.y as i8 - 2 + i as i8, column.x as usize));
    ensure!(
        cells == column.jewels,
        "the playfield cells at x={}, rows {}..{} hold {cells:?}, not the column's colours {:?}",
        column.x,
        column.y as i8 - 2,
        column.y,
        column.jewels
    );
    Ok(())
}

pub fn spawn(d: &mut Driver<'_>) -> Check {
    let column = d.column();
    ensure!(
        column.x == 3 && column.y == 0,
        "the first column is at x={}, y={} (x=3, y=0 expected)",
        column.x,
        column.y
    );
    column_is_drawn(d)?;
    let colour = |j: &u8| (1..=6).contains(j);
    ensure!(
        column.jewels.iter().all(colour),
        "the first column {:?} is not three colours 1-6",
        column.jewels
    );
    let next = d.next_jewels();
    ensure!(
        next.iter().all(colour) || next == [7; 3],
        "the next column {next:?} is not three colours or the wild column"
    );
    let board = d.board_without_column();
    ensure!(
        board.jewels() == 0,
        "the board holds more than the column: {board}"
    );
    let speed = d.fall_speed();
    ensure!(
        speed == FIRST_LEVEL_SPEED,
        "fall speed is {speed} at the first level ({FIRST_LEVEL_SPEED} expected)"
    );
    let index = d.byte(map::LEVEL_INDEX);
    ensure!(
        index == 0,
        "the level index is {index} at the start (0 expected)"
    );
    let (score, jewels) = (d.score()?, d.jewel_counter()?);
    ensure!(
        score == 0 && jewels == 0,
        "a new game starts with score {score} and {jewels} jewels"
    );
    Ok(format!(
        "column {:?} at x=3, rows -2..0 (two hidden), next {next:?}, fall speed {speed}",
        column.jewels
    ))
}

pub fn gravity(d: &mut Driver<'_>) -> Check {
    let speed = d.fall_speed();
    let mut drops = Vec::new();
    let mut y = d.column().y;
    let mut timer = d.byte(map::FALL_TIMER);
    for frame in 1..=3 * u32::from(speed) + 10 {
        d.step(Buttons::NONE)?;
        let (now_y, now_timer) = (d.column().y, d.byte(map::FALL_TIMER));
        if now_y == y {
            ensure!(
                now_timer == timer.wrapping_add(1),
                "the fall timer went from {timer} to {now_timer} on frame {frame} without a drop"
            );
        } else {
            ensure!(
                now_y == y + 1,
                "the column went from row {y} to row {now_y}"
            );
            drops.push(frame);
        }
        (y, timer) = (now_y, now_timer);
        if drops.len() == 3 {
            break;
        }
    }
    ensure!(
        drops.len() == 3,
        "the column dropped {} times in {} frames",
        drops.len(),
        3 * u32::from(speed) + 10
    );
    let intervals: Vec<u32> = drops.windows(2).map(|w| w[1] - w[0]).collect();
    ensure!(
        intervals.iter().all(|&i| i == u32::from(speed)),
        "drops came {intervals:?} frames apart; the fall speed says {speed}"
    );
    ensure!(
        drops[0] <= u32::from(speed) + 2,
        "the first drop came {} frames after the spawn (fall speed {speed})",
        drops[0]
    );
    column_is_drawn(d)?;
    let board = d.board();
    ensure!(
        board.get(-2, 3) == 0 && board.get(-1, 3) == 0,
        "the hidden rows still hold jewels after three drops: {board}"
    );
    Ok(format!(
        "a row every {speed} frames (drops at frames {drops:?}); the fall timer counts up by one a frame"
    ))
}

pub fn moves(d: &mut Driver<'_>) -> Check {
    d.step(Buttons::LEFT)?;
    let x = d.column().x;
    ensure!(
        x == 2,
        "Left moved the column to x={x} on its press frame (x=2 expected)"
    );
    column_is_drawn(d)?;
    let board = d.board();
    let y = d.column().y as i8;
    ensure!(
        (y - 2..=y).all(|row| board.get(row, 3) == 0),
        "the column's old cells at x=3 were not emptied: {board}"
    );
    d.step(Buttons::NONE)?;
    let mut path = vec![x];
    for (button, expected) in [
        (Buttons::LEFT, 1),
        (Buttons::LEFT, 0),
        (Buttons::LEFT, 0),
        (Buttons::RIGHT, 1),
        (Buttons::RIGHT, 2),
        (Buttons::RIGHT, 3),
        (Buttons::RIGHT, 4),
        (Buttons::RIGHT, 5),
        (Buttons::RIGHT, 5),
    ] {
        d.step(button)?;
        let x = d.column().x;
        path.push(x);
        ensure!(
            x == expected,
            "tapping (one frame down, one up) went through x={path:?}; x={expected} expected last"
        );
        column_is_drawn(d)?;
        d.step(Buttons::NONE)?;
    }
    Ok(format!(
        "moves on the press frame; taps every 2 frames went through x={path:?}; walls at 0 and 5"
    ))
}

pub fn hold_repeat(d: &mut Driver<'_>) -> Check {
    d.move_to(0)?;
    d.idle(2)?;
    let mut moves = Vec::new();
    let mut x = d.column().x;
    for frame in 0..=HOLD_MOVES[4] + 2 {
        d.step(Buttons::RIGHT)?;
        let now = d.column().x;
        if now != x {
            moves.push(frame);
            x = now;
        }
    }
    d.step(Buttons::NONE)?;
    ensure!(
        moves == HOLD_MOVES,
        "holding Right moved the column on frames {moves:?} after the press ({HOLD_MOVES:?} expected)"
    );
    Ok(format!(
        "holding Right moves on frames {moves:?} after the press"
    ))
}

pub fn rotation(d: &mut Driver<'_>) -> Check {
    d.set_current([2, 4, 3]);
    let mut seen = vec![d.column().jewels];
    for (button, expected) in [(Buttons::A, [3, 2, 4]), (Buttons::B, [4, 3, 2])] {
        d.step(button)?;
        let jewels = d.column().jewels;
        seen.push(jewels);
        ensure!(
            jewels == expected,
            "rotating went {seen:?}; {expected:?} expected last (bottom jewel to the top)"
        );
        column_is_drawn(d)?;
        d.step(Buttons::NONE)?;
    }
    // Holding a button rotates once.
    for _ in 0..4 {
        d.step(Buttons::A)?;
    }
    d.step(Buttons::NONE)?;
    let jewels = d.column().jewels;
    ensure!(
        jewels == [2, 4, 3],
        "holding A for 4 frames gave {jewels:?} ([2, 4, 3] expected: one rotation)"
    );
    Ok(format!(
        "A and B move the bottom jewel to the top: {seen:?}; holding rotates once"
    ))
}

pub fn soft_drop(d: &mut Driver<'_>) -> Check {
    let jewels = d.column().jewels;
    let mut changes = Vec::new();
    let mut y = d.column().y;
    for frame in 0..2 * 13 + 4 {
        d.step(Buttons::DOWN)?;
        let now = d.column().y;
        if now != y {
            changes.push(frame);
            y = now;
        }
        if now == 12 {
            break;
        }
    }
    ensure!(
        y == 12,
        "holding Down for 30 frames brought the column to row {y}, not the floor"
    );
    let intervals: Vec<u32> = changes.windows(2).map(|w| w[1] - w[0]).collect();
    ensure!(
        intervals.iter().all(|&i| i == 2),
        "with Down held the column moved {intervals:?} frames apart (2 expected)"
    );
    let spawn = d.wait_for(SPAWN_DELAY, Driver::is_spawned)?;
    let Some(delay) = spawn else {
        return Err(super::driver::Failure(format!(
            "no new column within {SPAWN_DELAY} frames of landing with Down held"
        )));
    };
    let board = d.board();
    let locked: Jewels = [10, 11, 12].map(|row| board.get(row, 3));
    ensure!(
        locked == jewels,
        "the column locked as {locked:?} at x=3, rows 10-12, not {jewels:?}"
    );
    Ok(format!(
        "a row every 2 frames ({} rows); locked on landing; next column {delay} frame(s) later",
        changes.len()
    ))
}

pub fn slide_before_lock(d: &mut Driver<'_>) -> Check {
    let speed = u32::from(d.fall_speed());
    for _ in 0..2 * 12 {
        if d.column().y >= 11 {
            break;
        }
        d.step(Buttons::DOWN)?;
    }
    ensure!(
        d.column().y == 11,
        "soft drop did not bring the column to row 11"
    );
    d.step(Buttons::NONE)?;
    let landed = d.wait_for(speed + 4, |d| d.column().y == 12)?;
    ensure!(
        landed.is_some(),
        "gravity did not bring the column to the floor"
    );
    let jewels = d.column().jewels;
    let wait = speed / 3;
    for frame in 1..=wait {
        d.step(Buttons::NONE)?;
        let column = d.column();
        ensure!(
            (column.x, column.y) == (3, 12) && !d.is_spawned(),
            "{frame} frames after landing the column is no longer at x=3, row 12: it locked at once"
        );
    }
    d.step(Buttons::LEFT)?;
    let column = d.column();
    ensure!(
        (column.x, column.y) == (2, 12),
        "{wait} frames after landing, Left left the column at x={}, row {} (x=2, row 12 expected)",
        column.x,
        column.y
    );
    d.step(Buttons::NONE)?;
    let spawn = d.wait_for(speed + 10, Driver::is_spawned)?;
    let Some(spawn) = spawn else {
        return Err(super::driver::Failure(format!(
            "no new column within {} frames of landing",
            wait + 2 + speed + 10
        )));
    };
    let lock = wait + 2 + spawn;
    ensure!(
        (speed..=speed + 4).contains(&lock),
        "the next column came {lock} frames after landing: one fall period ({speed}) expected"
    );
    let board = d.board();
    let slid: Jewels = [10, 11, 12].map(|row| board.get(row, 2));
    ensure!(
        slid == jewels,
        "the column locked as {slid:?} at x=2, rows 10-12, not {jewels:?}"
    );
    Ok(format!(
        "slid {wait} frames after landing; locked there, next column {lock} frames after landing"
    ))
}
