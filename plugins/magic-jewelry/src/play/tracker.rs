//! Follows the game frame by frame and tells what happened: spawns, locks, game starts and game
//! overs, and the counters, by the rules of `docs/magic-jewelry.md` ("States and how RAM shows
//! them"): a spawn is a new column at (3, 0) with its fall timer at 0, a lock is the column
//! under control whose timer wrapped to 0 where it stood, and a frame that ends halfway through
//! drawing a new column counts as the spawn it is.

use crate::game_view::{FallingColumn, GameView, Phase, CLEAR_TIMER_START};
use crate::memory_map::COUNTER_DIGITS;
use magic_jewelry_engine::SPAWN_X;

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
    /// A match step began: its clear animation started (the clear timer at 17).
    pub step: bool,
    /// Points the game added: the score's rise on the frame a match step ends (its collapse,
    /// after a frame with the clear timer at 1; the frame may end before the timer shows 0),
    /// the only frame the game adds to it; a rise on any other frame is RAM written behind
    /// the game's back.
    pub points: u32,
    /// What the jewels counter gained, read as the game counts (a carry the frame caught
    /// halfway, 1,309 then 1,300 then 1,310, gains 1).
    pub jewels_cleared: u32,
}

/// Remembers the previous frame to turn snapshots into events.
#[derive(Debug, Clone, Default)]
pub struct Tracker {
    previous: Option<GameView>,
    /// The column under control, as last seen falling.
    live: Option<FallingColumn>,
    /// The jewels counter as last counted: a reading the game cannot have come to from it (a
    /// carry caught halfway) is not counted from, unless the next frame holds it too (a poke).
    jewels_counted: Option<u32>,
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
        self.jewels_counted = None;
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
            events.step = view.clear_timer() == Some(CLEAR_TIMER_START)
                && before.clear_timer() != Some(CLEAR_TIMER_START);
            if before.clear_timer() == Some(1) && view.phase.in_game() {
                events.points = counter_gain(before.score, view.score, MOST_POINTS_A_FRAME);
            }
        }
        events.jewels_cleared = self.count_jewels(view);
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

impl Tracker {
    /// What the jewels counter gained since it was last counted, in a game.
    fn count_jewels(&mut self, view: &GameView) -> u32 {
        let in_game = |v: &GameView| v.phase.in_game();
        if !in_game(view) || !self.previous.as_ref().is_some_and(in_game) {
            self.jewels_counted = in_game(view).then_some(view.jewels);
            return 0;
        }
        let Some(counted) = self.jewels_counted else {
            self.jewels_counted = Some(view.jewels);
            return 0;
        };
        let gain = counter_gain(counted, view.jewels, MOST_JEWELS_A_FRAME);
        let held = self
            .previous
            .as_ref()
            .is_some_and(|v| v.jewels == view.jewels);
        if gain > 0 || held {
            self.jewels_counted = Some(view.jewels);
        }
        gain
    }
}

/// A new column at the spawn point: at (3, 0) with its fall timer at 0, drawn or half drawn, on
/// a frame whose previous frame did not show it so already; or, where the spawn raced the NMI's
/// timer tick (once in the recordings), at (3, 0) with its timer at 1 on the frame after a
/// column stood lower (row 0 holds only a column that has just spawned); or a spawn whose
/// frame ended before its timer was reset (a wild column's, in the score objective's game).
fn is_spawn(before: &GameView, now: &GameView) -> bool {
    let at_spawn = |v: &GameView| {
        matches!(v.phase, Phase::Falling | Phase::Spawning)
            && (v.column_x, v.column_y) == (SPAWN_X, 0)
    };
    let fresh = |v: &GameView| at_spawn(v) && v.fall_timer == 0;
    let ticked = at_spawn(now) && now.fall_timer == 1 && before.column_y != 0;
    let begun = now.phase == Phase::Spawning && !at_spawn(before);
    ticked
        || begun
        || (fresh(now)
            && !(fresh(before) && before.current == now.current && before.phase == Phase::Falling))
}

/// The most jewels the game counts in one frame (a board's worth); more is RAM rewritten.
pub const MOST_JEWELS_A_FRAME: u32 = 90;

/// The most points one step is taken to add: under half the 8-digit counter (a long chain's
/// late steps bring millions each); a larger rise is the counter falling.
pub const MOST_POINTS_A_FRAME: u32 = 49_999_999;

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
    use crate::memory_map as map;

    /// A game in progress with `jewels` on the jewels counter (a column falling at (2, 5)).
    fn playing(jewels: u32) -> GameView {
        let mut ram = [0u8; 0x800];
        ram[map::FALL_SPEED as usize] = 63;
        ram[map::SPEED_IN_FORCE as usize] = 63;
        ram[map::COLUMN_X as usize] = 2;
        ram[map::COLUMN_Y as usize] = 5;
        ram[map::CURRENT_COLUMN as usize..][..3].copy_from_slice(&[1, 2, 3]);
        ram[map::NEXT_COLUMN as usize..][..3].copy_from_slice(&[4, 5, 6]);
        for (row, jewel) in (3..=5).zip([1, 2, 3]) {
            ram[map::cell_address(row, 2) as usize] = jewel;
        }
        let mut view = GameView::decode(&ram).expect("consistent");
        view.jewels = jewels;
        view
    }

    /// The jewels counted over frames whose counter reads `readings`.
    fn counted(readings: &[u32]) -> u64 {
        let mut tracker = Tracker::default();
        for &jewels in readings {
            tracker.observe(&playing(jewels));
        }
        tracker.stats().jewels_cleared
    }

    /// The survival player's frame 42,468 of `player-fast-60k-2`: the counter caught halfway
    /// through a carry (1,309, then 1,300, then 1,310) gains 1, not 10.
    #[test]
    fn a_carry_caught_halfway_counts_what_the_game_counts() {
        assert_eq!(counted(&[1_305, 1_309, 1_300, 1_310]), 5);
        // A counter written lower and held there is counted from anew.
        assert_eq!(counted(&[1_310, 500, 500, 503]), 3);
    }

    #[test]
    fn counter_rollover_counts_the_wrapped_jewels() {
        assert_eq!(counter_gain(99_999_998, 3, MOST_JEWELS_A_FRAME), 5);
        assert_eq!(counter_gain(999_999, 1_000_002, MOST_JEWELS_A_FRAME), 3);
        assert_eq!(counter_gain(10, 13, MOST_JEWELS_A_FRAME), 3);
        assert_eq!(counter_gain(13, 13, MOST_JEWELS_A_FRAME), 0);
        assert_eq!(counter_gain(0, 500_000, MOST_JEWELS_A_FRAME), 0);
    }
}
