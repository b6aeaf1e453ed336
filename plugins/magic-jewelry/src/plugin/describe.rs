//! What the plug-in tells the plug-ins after it about the game: the events it sees and the
//! game as it decodes it, in the shape `docs/bot-protocol.md` documents for bots.

use crate::game_view::{cell_char, FallingColumn, GameView, Grid, Phase, EMPTY};
use crate::memory_map::{HIDDEN_ROWS, VISIBLE_ROWS};
use crate::play::tracker::Events;
use jewelbot_plugin::{FrameContext, Ram};
use serde_json::json;

/// A new column appeared at the spawn point.
pub const SPAWN: &str = "spawn";
/// The column under control locked.
pub const LOCK: &str = "lock";
/// Jewels were removed (each step of a chain).
pub const CLEAR: &str = "clear";
/// A game began (its setup).
pub const GAME_START: &str = "game_start";
/// The game ended: the playfield fills, then the game waits for Start held.
pub const GAME_OVER: &str = "game_over";

/// Every event, in the order a frame announces them.
pub const EVENTS: [&str; 5] = [GAME_START, LOCK, CLEAR, SPAWN, GAME_OVER];

/// Announces the events of a frame.
pub fn announce(ctx: &mut FrameContext<'_>, events: &Events) {
    let seen = [
        events.game_started,
        events.locked.is_some(),
        events.step,
        events.spawned,
        events.game_over,
    ];
    for (event, seen) in EVENTS.iter().zip(seen) {
        if seen {
            ctx.announce(event);
        }
    }
}

/// The game in `ram` as one JSON object, or `None` when RAM holds no state of the game.
pub fn describe(ram: &Ram) -> Option<String> {
    let view = GameView::decode(ram).ok()?;
    // A frame that ended halfway through drawing a new column: the column is in place all the
    // same (RAM holds its position and colours), and the next frame shows it whole.
    let spawning = (view.phase == Phase::Spawning).then_some(FallingColumn {
        x: view.column_x,
        y: view.column_y,
        jewels: view.current,
        drawn: false,
        landed: false,
    });
    let falling = view.falling.or(spawning).map(|column| {
        json!({
            "x": column.x,
            "y": column.y,
            "jewels": column.jewels,
            "wild": column.is_wild(),
            "landed": column.landed,
        })
    });
    let description = json!({
        "phase": phase_name(view.phase),
        "board": rows(&view.board),
        "heights": heights(&view.board),
        "falling": falling,
        "current": view.current,
        "next": view.next,
        "fall_speed": view.fall_speed,
        "soft_drop": view.soft_drop,
        "level": view.level,
        "score": view.score,
        "jewels": view.jewels,
        "removed": view.removed,
        "combo": view.combo,
    });
    Some(description.to_string())
}

/// The phase's words as one identifier (`column falling` is `column_falling`).
fn phase_name(phase: Phase) -> String {
    phase.to_string().replace(' ', "_")
}

/// The playfield without the falling column, one string a row from row -2 down to row 12.
fn rows(board: &Grid) -> Vec<String> {
    board
        .0
        .iter()
        .map(|row| row.iter().map(|&cell| cell_char(cell)).collect())
        .collect()
}

/// Each column's height: from the floor to its highest jewel in the visible rows.
fn heights(board: &Grid) -> Vec<usize> {
    (0..board.0[0].len())
        .map(|x| {
            board.0[HIDDEN_ROWS..]
                .iter()
                .position(|row| row[x] != EMPTY)
                .map_or(0, |top| VISIBLE_ROWS - top)
        })
        .collect()
}
