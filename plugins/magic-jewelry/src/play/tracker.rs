//! Follows the game frame by frame and counts what happened: spawns, jewels, game overs.

use crate::game_view::{GameView, Phase};
use crate::memory_map::JEWEL_COUNTER_DIGITS;

/// Running counts of one session of play.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlayStats {
    pub columns_placed: u64,
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
    pub game_started: bool,
    pub game_over: bool,
    pub jewels_cleared: u32,
}

/// Remembers the previous frame's view to turn snapshots into events.
#[derive(Debug, Clone, Default)]
pub struct Tracker {
    previous: Option<GameView>,
    stats: PlayStats,
}

impl Tracker {
    pub fn stats(&self) -> &PlayStats {
        &self.stats
    }

    pub fn previous(&self) -> Option<&GameView> {
        self.previous.as_ref()
    }

    /// Forgets the previous frame (after a reset or state load) but keeps the counts.
    pub fn forget(&mut self) {
        self.previous = None;
    }

    pub fn note_inconsistent(&mut self) {
        self.stats.inconsistent_frames += 1;
        self.previous = None;
    }

    pub fn observe(&mut self, view: &GameView) -> Events {
        let mut events = Events::default();
        if let Some(before) = &self.previous {
            events.spawned = is_spawn(before, view);
            events.game_started = before.phase == Phase::Title && view.phase != Phase::Title;
            events.game_over = before.phase != Phase::GameOver && view.phase == Phase::GameOver;
            if !events.game_started {
                events.jewels_cleared = counter_delta(before.jewels, view.jewels);
            }
        }
        self.stats.columns_placed += u64::from(events.spawned);
        self.stats.games_started += u64::from(events.game_started);
        self.stats.game_overs += u64::from(events.game_over);
        self.stats.jewels_cleared += u64::from(events.jewels_cleared);
        self.previous = Some(view.clone());
        events
    }
}

/// A column is new when it is falling at the spawn point and the previous frame did not show
/// the same column (possibly moved or cycled) in the top row.
fn is_spawn(before: &GameView, now: &GameView) -> bool {
    let Some(column) = now.falling else {
        return false;
    };
    let same_column = before
        .falling
        .is_some_and(|old| old.y == 0 && (0..3).any(|r| rotated(old.jewels, r) == column.jewels));
    column.x == 3 && column.y == 0 && !same_column
}

/// The jewels after `times` presses of A or B (bottom to top).
pub fn rotated(jewels: [u8; 3], times: usize) -> [u8; 3] {
    let mut out = jewels;
    out.rotate_right(times % 3);
    out
}

/// Jewels cleared between two readings of the counter, which rolls over at 10^6.
fn counter_delta(before: u32, now: u32) -> u32 {
    let modulus = 10u32.pow(u32::from(JEWEL_COUNTER_DIGITS));
    let delta = (now + modulus - before % modulus) % modulus;
    // The game adds at most a board's worth per frame; more means RAM was rewritten.
    if delta <= 90 {
        delta
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_moves_the_bottom_jewel_to_the_top() {
        assert_eq!(rotated([2, 4, 3], 1), [3, 2, 4]);
        assert_eq!(rotated([2, 4, 3], 3), [2, 4, 3]);
    }

    #[test]
    fn counter_rollover_counts_the_wrapped_jewels() {
        assert_eq!(counter_delta(999_998, 3), 5);
        assert_eq!(counter_delta(10, 13), 3);
        assert_eq!(counter_delta(13, 13), 0);
        assert_eq!(counter_delta(0, 500_000), 0);
    }
}
