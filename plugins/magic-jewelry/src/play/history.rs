//! What a run has done, for long runs and their reports: a record of every column placed (the
//! jewels on the board, the level and speed, the points it brought, the decision behind it)
//! and the frames at which the counters' displays rolled over.
//!
//! The counters hold 8 digits and the screen shows fewer (score 7, jewels 5, level 3): a
//! display rolls over when its counter carries past its last shown digit. A perpetual player
//! shows it has played perpetually when all three have rolled over.

use crate::game_view::{GameView, Grid, EMPTY};
use crate::memory_map::{COLUMNS, ROWS};
use crate::play::tracker::{counter_gain, Events};
use crate::stats::Chains;
use jewelbot_plugin::{Milestone, Series};
use serde::{Deserialize, Serialize};

/// Reads a counter from a view.
type Reader = fn(&GameView) -> u32;

/// The counters' displays: name, digits shown, and how to read the counter from a view.
const DISPLAYS: [(&str, u32, Reader); 3] = [
    ("score", 7, |v| v.score),
    ("jewels", 5, |v| v.jewels),
    ("level", 3, |v| v.level),
];

/// The most a counter is taken to gain between two readings (two frames, or the score between
/// two spawns): under half the 8-digit counter, since a long chain brings millions in one lock
/// and one of its steps millions in one frame. A larger rise is the counter falling (a new
/// game, a poke).
const MOST_GAIN: u32 = 49_999_999;

/// Progress, in thousandths, once every display has rolled over.
pub const ALL_ROLLED_OVER: i64 = 1000;

/// One column placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ColumnRecord {
    /// The frame it spawned.
    pub frame: u64,
    /// Jewels on the board as it spawned (itself not counted).
    pub jewels_on_board: u8,
    /// The level (the whole counter) and the fall speed in frames per row.
    pub level: u32,
    pub fall_speed: u8,
    /// Points scored since the column before spawned: what that column's lock brought.
    pub points: u32,
    /// The last decision the player had made, in microseconds.
    pub decision_us: u32,
    /// Match steps the column before set off (0: it matched nothing): the clear animations
    /// that began since it spawned (the jewels counter may rise over two frames of one step).
    #[serde(default)]
    pub steps: u8,
    /// The tallest stack on the board as it spawned, in cells.
    #[serde(default)]
    pub tallest: u8,
}

/// One counter's display.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
struct Display {
    /// The counter when the run began, or when the game it is in began.
    base: Option<u32>,
    /// The frame its display first rolled over, since the run began.
    rolled_at: Option<u64>,
}

impl Display {
    /// Thousandths of the way from its base to the counter's next carry past the display.
    fn progress(&self, value: u32, digits: u32) -> i64 {
        if self.rolled_at.is_some() {
            return ALL_ROLLED_OVER;
        }
        let Some(base) = self.base else { return 0 };
        let span = 10u64.pow(digits);
        let next = (u64::from(base) / span + 1) * span;
        let done = u64::from(value).saturating_sub(u64::from(base));
        (done * 1000 / (next - u64::from(base))).min(999) as i64
    }
}

/// The run's history.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct History {
    columns: Vec<ColumnRecord>,
    displays: [Display; 3],
    /// The score when the last column of this game spawned: none before a game's first, whose
    /// spawn no lock of the game set off.
    score_at_spawn: Option<u32>,
    /// The counters at the last frame seen in a game.
    last: Option<[u32; 3]>,
    /// Match steps seen since the last column spawned.
    #[serde(default)]
    steps_since_spawn: u8,
    /// Points the game added since the last column spawned.
    #[serde(default)]
    points_since_spawn: u64,
    /// Times each counter (score, jewels, level) wrapped past its 8 digits in this game.
    #[serde(default)]
    wraps: [u32; 3],
    /// The chains of every lock whose resolution was seen whole (from the spawn of its column to
    /// the next spawn or the game over), kept as they come so a dashboard reads them at once.
    #[serde(default)]
    chains: Chains,
    /// The tallest stack any column spawned over.
    #[serde(default)]
    tallest: u8,
}

impl History {
    /// Takes in one frame of play at `frame`: a column placed, a display rolling over, a new
    /// game (whose counters start from 0).
    pub fn observe(&mut self, frame: u64, view: &GameView, events: Events, decision_us: u32) {
        self.points_since_spawn += u64::from(events.points);
        if events.game_over {
            // The lock that ended the game, resolved before the game over began.
            let (steps, points) = self.take_lock();
            if self.score_at_spawn.is_some() {
                self.chains.record(steps, points);
            }
            self.score_at_spawn = None;
        }
        if !view.phase.in_game() {
            return;
        }
        let values = DISPLAYS.map(|(_, _, read)| read(view));
        if events.game_started || self.last.is_none() {
            for (display, &value) in self.displays.iter_mut().zip(&values) {
                if events.game_started || display.base.is_none() {
                    display.base = Some(value);
                }
            }
            if events.game_started {
                self.score_at_spawn = None;
                self.wraps = [0; 3];
            }
        }
        if let Some(last) = self.last.filter(|_| !events.game_started) {
            for ((display, (_, digits, _)), (&before, &now)) in self
                .displays
                .iter_mut()
                .zip(DISPLAYS)
                .zip(last.iter().zip(&values))
            {
                if display.rolled_at.is_none() && carried(before, now, digits) {
                    display.rolled_at = Some(frame);
                }
            }
            for ((wraps, &before), &now) in self.wraps.iter_mut().zip(&last).zip(&values) {
                if now < before && counter_gain(before, now, MOST_GAIN) > 0 {
                    *wraps += 1;
                }
            }
        }
        self.last = Some(values);
        if events.step {
            self.steps_since_spawn = self.steps_since_spawn.saturating_add(1);
        }
        if events.spawned {
            // What the lock before did: nothing for a game's first column, which no lock of
            // this game set off.
            let (steps, points) = self.take_lock();
            let locked = self.score_at_spawn.is_some();
            self.score_at_spawn = Some(values[0]);
            let jewels_on_board = view
                .board
                .0
                .iter()
                .flatten()
                .filter(|&&c| c != EMPTY)
                .count() as u8;
            let record = ColumnRecord {
                frame,
                jewels_on_board,
                level: view.level,
                fall_speed: view.fall_speed,
                points: u32::try_from(points).unwrap_or(u32::MAX),
                decision_us,
                steps,
                tallest: tallest_stack(&view.board),
            };
            if locked {
                self.chains.record(steps, points);
            }
            self.tallest = self.tallest.max(record.tallest);
            self.columns.push(record);
        }
    }

    /// The steps and points of the last column's lock, counted afresh from here.
    fn take_lock(&mut self) -> (u8, u64) {
        (
            std::mem::take(&mut self.steps_since_spawn),
            std::mem::take(&mut self.points_since_spawn),
        )
    }

    /// After a reset or a state load: the counters may have changed behind its back.
    pub fn forget(&mut self) {
        self.last = None;
        self.score_at_spawn = None;
        self.take_lock();
    }

    /// The counters (score, jewels, level) as they last were, their 8-digit wraps in this game
    /// counted: what the game would show with room for every digit.
    pub fn counted(&self) -> [i64; 3] {
        let modulus = 10i64.pow(u32::from(crate::memory_map::COUNTER_DIGITS));
        let last = self.last.unwrap_or_default();
        [0, 1, 2].map(|i| i64::from(last[i]) + i64::from(self.wraps[i]) * modulus)
    }

    pub fn columns(&self) -> &[ColumnRecord] {
        &self.columns
    }

    /// The chains of every column placed so far.
    pub fn chains(&self) -> &Chains {
        &self.chains
    }

    /// The tallest stack any column spawned over.
    pub fn tallest(&self) -> u8 {
        self.tallest
    }

    /// Displays rolled over so far.
    pub fn rolled_over(&self) -> usize {
        self.displays
            .iter()
            .filter(|d| d.rolled_at.is_some())
            .count()
    }

    /// The frame each display (score, jewels, level) first rolled over, if it has.
    pub fn rollover_frames(&self) -> [(&'static str, Option<u64>); 3] {
        [0, 1, 2].map(|i| (DISPLAYS[i].0, self.displays[i].rolled_at))
    }

    /// Thousandths of the way to every display having rolled over: the least advanced
    /// display's progress ([`ALL_ROLLED_OVER`] once all have).
    pub fn rollover_progress(&self) -> i64 {
        let Some(values) = self.last else {
            return if self.rolled_over() == 3 {
                ALL_ROLLED_OVER
            } else {
                0
            };
        };
        self.displays
            .iter()
            .zip(DISPLAYS)
            .zip(values)
            .map(|((display, (_, digits, _)), value)| display.progress(value, digits))
            .min()
            .unwrap_or(0)
    }

    /// The columns' records as plot series.
    pub fn series(&self) -> Vec<Series> {
        let series = |key: &str, label: &str, value: fn(&ColumnRecord) -> f64| Series {
            key: key.to_owned(),
            label: label.to_owned(),
            points: self.columns.iter().map(|c| (c.frame, value(c))).collect(),
        };
        vec![
            series(
                "jewels_on_board",
                "jewels on the board as each column spawns",
                |c| f64::from(c.jewels_on_board),
            ),
            series(
                "level",
                "level (the counter; the screen shows its last 3 digits)",
                |c| f64::from(c.level),
            ),
            series("fall_speed", "fall speed (frames a row)", |c| {
                f64::from(c.fall_speed)
            }),
            series("points_per_column", "points a column", |c| {
                f64::from(c.points)
            }),
            series("decision_us", "decision time (microseconds)", |c| {
                f64::from(c.decision_us)
            }),
        ]
    }

    /// The rollovers, as milestones.
    pub fn milestones(&self) -> Vec<Milestone> {
        self.rollover_frames()
            .into_iter()
            .filter_map(|(name, frame)| {
                frame.map(|frame| Milestone {
                    label: format!("{name} display rolled over"),
                    frame,
                })
            })
            .collect()
    }
}

/// The tallest stack of `board`, in cells from the floor (the hidden rows count above the 13
/// visible ones).
fn tallest_stack(board: &Grid) -> u8 {
    (0..COLUMNS)
        .map(|column| {
            board
                .0
                .iter()
                .position(|row| row[column] != EMPTY)
                .map_or(0, |top| (ROWS - top) as u8)
        })
        .max()
        .unwrap_or(0)
}

/// The counter carried past its last shown digit between two frames of one game: it rose and
/// the shown part fell, or the whole 8-digit counter wrapped.
fn carried(before: u32, now: u32, digits: u32) -> bool {
    let shown = 10u32.pow(digits);
    let delta = counter_gain(before, now, MOST_GAIN);
    delta > 0 && (now % shown < before % shown || now < before)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory_map as map;

    #[test]
    fn a_display_rolls_over_when_its_counter_carries_past_it() {
        assert!(carried(99_990, 100_002, 5));
        assert!(!carried(99_990, 99_999, 5));
        assert!(carried(9_999_700, 10_000_000, 7));
        assert!(carried(999, 1_000, 3));
        assert!(!carried(1_000, 1_001, 3));
        // The 8-digit counter wrapping carries every display.
        assert!(carried(99_999_999, 299, 7));
        // A new game is no carry.
        assert!(!carried(123_456, 0, 5));
    }

    /// A column at the spawn point with `score` on the counter.
    fn at_spawn(score: u32) -> GameView {
        let mut ram = [0u8; 0x800];
        ram[map::FALL_SPEED as usize] = 63;
        ram[map::SPEED_IN_FORCE as usize] = 63;
        ram[map::COLUMN_X as usize] = 3;
        ram[map::CURRENT_COLUMN as usize..][..3].copy_from_slice(&[1, 2, 3]);
        ram[map::NEXT_COLUMN as usize..][..3].copy_from_slice(&[4, 5, 6]);
        for (row, jewel) in (-2..=0).zip([1, 2, 3]) {
            ram[map::cell_address(row, 3) as usize] = jewel;
        }
        let mut view = GameView::decode(&ram).expect("consistent");
        view.score = score;
        view
    }

    #[test]
    fn a_chain_worth_millions_is_recorded_with_its_points() {
        let spawn = Events {
            spawned: true,
            ..Events::default()
        };
        // Eleven steps, whose points carry the counter past its 8 digits.
        let step = |points| Events {
            step: true,
            jewels_cleared: 3,
            points,
            ..Events::default()
        };
        let mut history = History::default();
        history.observe(0, &at_spawn(98_000_000), spawn, 0);
        for frame in 1..=10 {
            history.observe(frame, &at_spawn(98_000_000), step(300_000), 0);
        }
        history.observe(11, &at_spawn(1_276_800), step(276_800), 0);
        history.observe(100, &at_spawn(1_276_800), spawn, 0);
        history.observe(150, &at_spawn(1_277_100), step(300), 0);
        history.observe(200, &at_spawn(1_277_100), spawn, 0);
        let points: Vec<u32> = history.columns().iter().map(|c| c.points).collect();
        assert_eq!(points, [0, 3_276_800, 300]);
        let chains = history.chains();
        assert_eq!((chains.longest, chains.longest_points), (11, 3_276_800));
        assert_eq!(chains.best_points, 3_276_800);
        // The game's first column was set off by no lock: two locks.
        assert_eq!((chains.locks, chains.points), (2, 3_277_100));
        // A counter written behind the game's back (a poke) brings nothing.
        history.observe(300, &at_spawn(5), spawn, 0);
        assert_eq!(history.columns().last().map(|c| c.points), Some(0));
    }

    /// The lock that ends a game is counted at the game over, with the steps and points it
    /// brought before it.
    #[test]
    fn the_lock_that_ends_a_game_is_counted() {
        let mut history = History::default();
        let spawn = Events {
            spawned: true,
            ..Events::default()
        };
        history.observe(0, &at_spawn(0), spawn, 0);
        history.observe(50, &at_spawn(0), spawn, 0);
        let step = Events {
            step: true,
            points: 300,
            ..Events::default()
        };
        history.observe(60, &at_spawn(300), step, 0);
        let over = Events {
            game_over: true,
            ..Events::default()
        };
        history.observe(200, &at_spawn(300), over, 0);
        let chains = history.chains();
        assert_eq!(
            (chains.locks, chains.clearing_locks, chains.points),
            (2, 1, 300)
        );
    }

    #[test]
    fn progress_runs_from_the_base_to_the_next_carry() {
        let display = Display {
            base: Some(40_000),
            rolled_at: None,
        };
        assert_eq!(display.progress(40_000, 5), 0);
        assert_eq!(display.progress(70_000, 5), 500);
        assert_eq!(display.progress(99_999, 5), 999);
        let rolled = Display {
            rolled_at: Some(7),
            ..display
        };
        assert_eq!(rolled.progress(0, 5), ALL_ROLLED_OVER);
    }
}
