//! The work a script does between two frames, counted so that a script that never yields is
//! stopped at the same point on any machine: Lua instructions (counted by a hook on every
//! thread, coroutines and callbacks included) and the work of the host's functions that loop
//! in Rust (pattern matching, hook registration), charged in the same unit.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Most work (Lua instructions, or their equivalent) a script may do between two frames,
/// callbacks included: a loop that never yields is stopped within a fraction of a second.
pub const INSTRUCTION_LIMIT: u64 = 100_000_000;

/// The work counter, shared by the instruction hook and the host's functions.
#[derive(Debug, Clone, Default)]
pub struct Work(Arc<AtomicU64>);

impl Work {
    /// A new frame boundary: nothing done yet.
    pub fn reset(&self) {
        self.0.store(0, Ordering::Relaxed);
    }

    /// Counts `amount` of work; an error once the frame's work passes [`INSTRUCTION_LIMIT`],
    /// and on every charge after (so an error caught by the script comes back at once).
    pub fn charge(&self, amount: u64) -> mlua::Result<()> {
        let before = self.0.fetch_add(amount, Ordering::Relaxed);
        if before.saturating_add(amount) > INSTRUCTION_LIMIT {
            return Err(Self::stopped());
        }
        Ok(())
    }

    /// Whether the frame's work has passed the limit: the script is being stopped, and
    /// nothing it does may catch that.
    pub fn over(&self) -> bool {
        self.0.load(Ordering::Relaxed) > INSTRUCTION_LIMIT
    }

    /// The counter itself, for the functions that charge it from elsewhere.
    pub fn counter(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.0)
    }

    /// The error that stops a script that does not yield.
    pub fn stopped() -> mlua::Error {
        mlua::Error::RuntimeError(format!(
            "the script ran {INSTRUCTION_LIMIT} instructions without emu.frameadvance(): stopped"
        ))
    }
}
