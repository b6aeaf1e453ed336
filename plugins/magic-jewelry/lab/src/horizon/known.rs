//! What the games already decided teach the others: a state met again has the same fate.

use super::game_so_far::Progress;
use super::state::{Blind, Fnv, SpawnState};
use super::Outcome;
use serde::{Deserialize, Serialize};
use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};
use std::sync::RwLock;

/// One state in this many of the decided games is kept for the others to meet (by its
/// fingerprint): memory and lessons files an eighth of every state's, for a game that meets a
/// decided one a few columns later.
pub const KEEP_ONE_IN: u64 = 8;

/// What a state at a spawn is known to lead to, from a start played before.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "fate")]
pub enum Fate {
    /// Into the proven cycle of the game from `start`, with at most `most_jewels` jewels on
    /// the way and in the cycle.
    Perpetual {
        start: u16,
        /// The cycle's name ([`Known::cycle_name`]).
        cycle: u64,
        period: u64,
        most_jewels: u32,
    },
    /// To a game over `columns` columns on, with at most `most_jewels` jewels before it.
    Lost { columns: u64, most_jewels: u32 },
}

/// A state of a decided game and what it leads to.
pub type Lesson = (SpawnState, Fate);

/// The states of the games already decided, shared by the starts: a start whose game reaches
/// one is decided with it (the same state has the same future). Full states are kept, so a
/// fingerprint that two states share decides nothing.
pub struct Known {
    hasher: RandomState,
    /// What states are told apart without.
    pub(super) blind: Blind,
    /// One state in this many is kept (by its fingerprint): a game that meets a decided game
    /// goes on through its states, so it meets a kept one a few columns later.
    keep_one_in: u64,
    states: RwLock<HashMap<u64, Lesson>>,
}

impl Default for Known {
    /// Every state kept, and told apart by everything.
    fn default() -> Self {
        Self::new(Blind::default(), 1)
    }
}

impl Known {
    /// States told apart by all but what the player is `blind` to. Blind to the level, the
    /// games of two starts can meet, which the counters would otherwise keep apart: every
    /// start begins at level 0, and the level counts the cells removed.
    pub fn new(blind: Blind, keep_one_in: u64) -> Self {
        Self {
            hasher: RandomState::new(),
            blind,
            keep_one_in: keep_one_in.max(1),
            states: RwLock::new(HashMap::new()),
        }
    }

    pub(super) fn fingerprint(&self, state: &SpawnState) -> u64 {
        self.hasher.hash_one(state.key(self.blind))
    }

    /// A state's FNV-1a hash (as the player tells states apart): the same in every run.
    pub(super) fn stable_hash(&self, state: &SpawnState) -> u64 {
        let mut hash = Fnv::default();
        state.key(self.blind).hash(&mut hash);
        std::hash::Hasher::finish(&hash)
    }

    /// A name for the cycle through `states` that every run gives it, wherever it entered the
    /// cycle: the least of its states' FNV-1a hashes (as the player tells states apart).
    pub fn cycle_name(&self, states: &[SpawnState]) -> u64 {
        states
            .iter()
            .map(|state| self.stable_hash(state))
            .min()
            .unwrap_or(0)
    }

    /// The two states have the same future.
    pub(super) fn same(&self, a: &SpawnState, b: &SpawnState) -> bool {
        a.key(self.blind) == b.key(self.blind)
    }

    pub(super) fn fate(&self, key: u64, state: &SpawnState) -> Option<Fate> {
        let states = self.states.read().ok()?;
        states
            .get(&key)
            .filter(|(known, _)| self.same(known, state))
            .map(|&(_, fate)| fate)
    }

    /// What a decided start's game teaches: the fate of each state it went through (those
    /// kept): of a lost game each is that many columns from its end, of a perpetual one each
    /// leads into its cycle, with the most jewels from it on.
    pub(super) fn lessons(
        &self,
        start: u16,
        progress: &Progress,
        outcome: &Outcome,
    ) -> Vec<Lesson> {
        let (states, steps) = (&progress.order, &progress.steps);
        let (end, tail_most, fate): (usize, u32, _) = match *outcome {
            Outcome::Perpetual {
                cycle_start,
                cycle,
                period,
                most_jewels_in_cycle,
                ..
            } => (
                (cycle_start + period) as usize,
                most_jewels_in_cycle,
                Fate::Perpetual {
                    start,
                    cycle,
                    period,
                    most_jewels: 0,
                },
            ),
            Outcome::Joined {
                column,
                start,
                cycle,
                period,
                most_jewels_ahead,
                ..
            } => (
                column as usize,
                most_jewels_ahead,
                Fate::Perpetual {
                    start,
                    cycle,
                    period,
                    most_jewels: 0,
                },
            ),
            Outcome::GameOver { column, .. } if column + 1 == progress.columns() => (
                progress.columns() as usize,
                0,
                Fate::Lost {
                    columns: column,
                    most_jewels: 0,
                },
            ),
            // A game over learned from another start's game (whose states are known), or an
            // undecided game: nothing to learn.
            Outcome::GameOver { .. } | Outcome::Undecided { .. } | Outcome::Stopped { .. } => {
                return Vec::new()
            }
        };
        // The states not kept (a game resumed without its column log) teach nothing.
        let end = end.saturating_sub(progress.kept_from as usize);
        let (Some(states), Some(steps)) = (states.get(..end), steps.get(..end)) else {
            return Vec::new();
        };
        let mut lessons = Vec::new();
        let mut most = tail_most;
        for (k, (state, step)) in states.iter().zip(steps).enumerate().rev() {
            let k = progress.kept_from as usize + k;
            most = most.max(step.jewels);
            // Chosen by a hash every run computes alike, so that every run keeps the same.
            if !self.stable_hash(state).is_multiple_of(self.keep_one_in) {
                continue;
            }
            let fate = match fate {
                Fate::Lost { columns, .. } => Fate::Lost {
                    columns: columns - k as u64,
                    most_jewels: most,
                },
                Fate::Perpetual {
                    start,
                    cycle,
                    period,
                    ..
                } => Fate::Perpetual {
                    start,
                    cycle,
                    period,
                    most_jewels: most,
                },
            };
            lessons.push((*state, fate));
        }
        lessons
    }

    /// Learns `lessons` (a state known already keeps its first fate).
    pub fn insert(&self, lessons: &[Lesson]) {
        let Ok(mut known) = self.states.write() else {
            return;
        };
        known.reserve(lessons.len());
        for &(state, fate) in lessons {
            known
                .entry(self.fingerprint(&state))
                .or_insert((state, fate));
        }
    }

    /// Learns what a decided start's game teaches, and returns it.
    pub(super) fn learn(&self, start: u16, progress: &Progress, outcome: &Outcome) -> Vec<Lesson> {
        let lessons = self.lessons(start, progress, outcome);
        self.insert(&lessons);
        lessons
    }

    /// States known.
    pub fn len(&self) -> usize {
        self.states.read().map_or(0, |s| s.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
