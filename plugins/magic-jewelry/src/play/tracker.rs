//! Follows the game frame by frame and tells what happened: spawns, locks, game starts and game
//! overs, and the counters, by the rules of `docs/magic-jewelry.md` ("States and how RAM shows
//! them"): a spawn is a new column at (3, 0) with its fall timer at 0, a lock is the column
//! under control whose timer wrapped to 0 where it stood, and a frame that ends halfway through
//! drawing a new column counts as the spawn it is.

use crate::engine::SPAWN_X;
use crate::game_view::{FallingColumn, GameView, Phase};
use crate::memory_map::COUNTER_DIGITS;

/// Running counts of one session of play.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PlayStats {
    /// New columns seen.
    pub columns_placed: u64,
    /// Columns seen locking.
    pub locks: u64,
    pub jewels_cleared: u64,
    pub game_overs: u64,
    pub games_started: u64,
    /// Frames whose RAM did not decode.
    pub inconsistent_frames: u64,
}

/// What changed between the previous frame and this one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Events {
    /// A new column appeared at the spawn point.
    pub spawned: bool,
    /// The column under control locked, where it stood.
    pub locked: Option<FallingColumn>,
    pub game_started: bool,
    pub game_over: bool,
    pub jewels_cleared: u32,
}

/// Remembers the previous frame to turn snapshots into events.
#[derive(Debug, Clone, Default)]
pub struct Tracker {
    previous: Option<GameView>,
    /// The column under control, as last seen falling.
    live: Option<FallingColumn>,
    stats: PlayStats,
}

impl Tracker {
    pub fn stats(&self) -> &PlayStats {
        &self.stats
    }

    /// The last frame observed.
    pub fn previous(&self) -> Option<&GameView> {
        self.previous.as_ref()
    }

    /// True when no column is under control: nothing of a column is carried over a frame.
    pub fn between_columns(&self) -> bool {
        self.live.is_none()
    }

    /// Carries on from a checkpoint taken between columns: its counts, and the frame it was
    /// taken at as the previous frame.
    pub fn resume(&mut self, stats: PlayStats, previous: Option<GameView>) {
        self.stats = stats;
        self.previous = previous;
        self.live = None;
    }

    /// Forgets the previous frame (after a reset or state load) but keeps the counts.
    pub fn forget(&mut self) {
        self.previous = None;
        self.live = None;
    }

    pub fn note_inconsistent(&mut self) {
        self.stats.inconsistent_frames += 1;
        self.forget();
    }

    pub fn observe(&mut self, view: &GameView) -> Events {
        let mut events = Events::default();
        if let Some(before) = &self.previous {
            events.spawned = is_spawn(before, view);
            events.game_started = before.phase == Phase::Title && view.phase == Phase::Setup;
            events.game_over = before.phase != Phase::GameOver && view.phase == Phase::GameOver;
            if before.phase.in_game() && view.phase.in_game() {
                events.jewels_cleared =
                    counter_gain(before.jewels, view.jewels, MOST_JEWELS_A_FRAME);
            }
        }
        events.locked = self.live.filter(|live| {
            // A column's timer wraps to 0 where it stands only when it locks.
            let stood = (view.column_x, view.column_y) == (live.x, live.y) && view.fall_timer == 0;
            // A frame may lock one column and spawn the next.
            events.spawned || stood
        });
        // The column seen on a lock frame is the one that just locked.
        self.live = if events.spawned || (events.locked.is_none() && view.phase == Phase::Falling) {
            view.falling
        } else if events.locked.is_some() || !view.phase.in_game() {
            None
        } else {
            self.live
        };
        let stats = &mut self.stats;
        stats.columns_placed += u64::from(events.spawned);
        stats.locks += u64::from(events.locked.is_some());
        stats.games_started += u64::from(events.game_started);
        stats.game_overs += u64::from(events.game_over);
        stats.jewels_cleared += u64::from(events.jewels_cleared);
        self.previous = Some(view.clone());
        events
    }
}

/// A new column at the spawn point: at (3, 0) with its fall timer at 0, drawn or half drawn, on
/// a frame whose previous frame did not show it so already; or, where the spawn raced the NMI's
/// timer tick (once in the recordings), at (3, 0) with its timer at 1 on the frame after a
/// column stood lower (row 0 holds only a column that has just spawned).
fn is_spawn(before: &GameView, now: &GameView) -> bool {
    let at_spawn = |v: &GameView| {
        matches!(v.phase, Phase::Falling | Phase::Spawning)
            && (v.column_x, v.column_y) == (SPAWN_X, 0)
    };
    let fresh = |v: &GameView| at_spawn(v) && v.fall_timer == 0;
    let ticked = at_spawn(now) && now.fall_timer == 1 && before.column_y != 0;
    ticked
        || (fresh(now)
            && !(fresh(before) && before.current == now.current && before.phase == Phase::Falling))
}

/// The most jewels the game counts in one frame (a board's worth); more is RAM rewritten.
pub const MOST_JEWELS_A_FRAME: u32 = 90;

/// What an 8-digit counter gained between two readings, across its wrap; a gain over `most`
/// is RAM rewritten (a new game, a poke) and counts as nothing.
pub fn counter_gain(before: u32, now: u32, most: u32) -> u32 {
    let modulus = 10u64.pow(u32::from(COUNTER_DIGITS));
    let delta = (u64::from(now) % modulus + modulus - u64::from(before) % modulus) % modulus;
    if delta <= u64::from(most) {
        delta as u32
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counter_rollover_counts_the_wrapped_jewels() {
        assert_eq!(counter_gain(99_999_998, 3, MOST_JEWELS_A_FRAME), 5);
        assert_eq!(counter_gain(999_999, 1_000_002, MOST_JEWELS_A_FRAME), 3);
        assert_eq!(counter_gain(10, 13, MOST_JEWELS_A_FRAME), 3);
        assert_eq!(counter_gain(13, 13, MOST_JEWELS_A_FRAME), 0);
        assert_eq!(counter_gain(0, 500_000, MOST_JEWELS_A_FRAME), 0);
    }
}
