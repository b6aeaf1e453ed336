//! The player's counts: its decisions and how long they took, locks where planned, misses.

use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Decision times in buckets of 10 µs (the last collects longer ones), for the median.
const TIME_BUCKETS: usize = 2000;
const BUCKET_MICROS: u64 = 10;

/// How long decisions took.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "DecisionTimesData", try_from = "DecisionTimesData")]
pub struct DecisionTimes {
    buckets: Box<[u32; TIME_BUCKETS]>,
    count: u64,
    total: Duration,
    max: Duration,
}

impl Default for DecisionTimes {
    fn default() -> Self {
        Self {
            buckets: Box::new([0; TIME_BUCKETS]),
            count: 0,
            total: Duration::ZERO,
            max: Duration::ZERO,
        }
    }
}

/// [`DecisionTimes`] as serde sees it (its bucket array is longer than serde's arrays).
#[derive(Serialize, Deserialize)]
struct DecisionTimesData {
    buckets: Vec<u32>,
    count: u64,
    total_us: u64,
    max_us: u64,
}

impl From<DecisionTimes> for DecisionTimesData {
    fn from(times: DecisionTimes) -> Self {
        Self {
            buckets: times.buckets.to_vec(),
            count: times.count,
            total_us: times.total.as_micros() as u64,
            max_us: times.max.as_micros() as u64,
        }
    }
}

impl TryFrom<DecisionTimesData> for DecisionTimes {
    type Error = String;
    fn try_from(data: DecisionTimesData) -> Result<Self, String> {
        let buckets: Box<[u32; TIME_BUCKETS]> = data
            .buckets
            .into_boxed_slice()
            .try_into()
            .map_err(|_| format!("decision times need {TIME_BUCKETS} buckets"))?;
        Ok(Self {
            buckets,
            count: data.count,
            total: Duration::from_micros(data.total_us),
            max: Duration::from_micros(data.max_us),
        })
    }
}

impl DecisionTimes {
    pub fn record(&mut self, elapsed: Duration) {
        let bucket = (elapsed.as_micros() as u64 / BUCKET_MICROS) as usize;
        self.buckets[bucket.min(TIME_BUCKETS - 1)] += 1;
        self.count += 1;
        self.total += elapsed;
        self.max = self.max.max(elapsed);
    }

    pub fn count(&self) -> u64 {
        self.count
    }

    pub fn mean(&self) -> Duration {
        self.total
            .checked_div(self.count.max(1) as u32)
            .unwrap_or_default()
    }

    pub fn max(&self) -> Duration {
        self.max
    }

    /// The median, to 10 µs.
    pub fn median(&self) -> Duration {
        let mut seen = 0u64;
        for (bucket, &n) in self.buckets.iter().enumerate() {
            seen += u64::from(n);
            if 2 * seen >= self.count && self.count > 0 {
                return Duration::from_micros(bucket as u64 * BUCKET_MICROS + BUCKET_MICROS / 2);
            }
        }
        Duration::ZERO
    }
}

/// Counts of the player's own work.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerStats {
    /// Searches finished (some for columns predicted wrongly, never used).
    pub decisions: u64,
    pub replans: u64,
    /// Locks where the plan said, and elsewhere.
    pub locked_as_planned: u64,
    pub locked_off_plan: u64,
    /// Locks of columns the player had no plan for: one that could not move at all from
    /// where it spawned, or one in hand when control passed to the player.
    #[serde(default)]
    pub locked_without_plan: u64,
    /// Frames on which RAM showed the column elsewhere than the presses should have put it.
    pub missed_presses: u64,
    pub confirmed_presses: u64,
    /// How long the searches took (on the search thread).
    pub decision_times: DecisionTimes,
    /// Plans made from a decision searched for before the column spawned, on the board the
    /// column before was predicted to leave.
    pub foreseen: u64,
    /// Decisions that could not be carried out from where the column was when they came, so
    /// were searched for again.
    pub stale: u64,
    /// Frames a column fell with no plan, pressing nothing, while its search ran.
    pub waiting_frames: u64,
    /// Time the emulator's thread spent waiting for the search (deterministic budgets only).
    pub blocked: Duration,
    /// Search threads started again after one died.
    pub worker_restarts: u64,
    /// Times the player pressed the game-over screen's way out because RAM had held no state
    /// of the game for long ([`crate::play::parameters::STUCK_FRAMES`]).
    #[serde(default)]
    pub recoveries: u64,
}
