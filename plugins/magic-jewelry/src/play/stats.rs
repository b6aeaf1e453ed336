//! The player's counts: its decisions and how long they took, locks where planned, misses.

use crate::stats::DecisionTimes;
use serde::{Deserialize, Serialize};
use std::time::Duration;

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
