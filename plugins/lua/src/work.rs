//! The work a script does between two frames, counted so that a script that never yields is
//! stopped at the same point on any machine: Lua instructions (counted by a hook on every
//! thread, coroutines and callbacks included), the memory the Lua state allocates (counted by
//! its allocator, [`crate::allocator`]), the work of the library functions that loop in C over
//! what they are given ([`crate::charged`]) and that of the host's functions that loop in Rust
//! (pattern matching, hook registration), all charged in the same unit. The memory the state
//! holds is checked at the same points.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

/// Most work (Lua instructions, or their equivalent) a script may do between two frames,
/// callbacks included: a loop that never yields is stopped within a fraction of a second.
pub const INSTRUCTION_LIMIT: u64 = 100_000_000;

/// The work counter, shared by the instruction hook, the allocator and the host's functions,
/// and the bytes the Lua state holds, kept by the allocator.
#[derive(Debug, Clone, Default)]
pub struct Work {
    done: Arc<AtomicU64>,
    held: Arc<AtomicUsize>,
}

impl Work {
    /// A new frame boundary: nothing done yet.
    pub fn reset(&self) {
        self.done.store(0, Ordering::Relaxed);
    }

    /// Counts `amount` of work; an error once the frame's work passes [`INSTRUCTION_LIMIT`] or
    /// the state holds more than [`crate::MEMORY_LIMIT`], and on every charge after (so an
    /// error caught by the script comes back at once).
    pub fn charge(&self, amount: u64) -> mlua::Result<()> {
        self.done.fetch_add(amount, Ordering::Relaxed);
        self.check()
    }

    /// The error that stops the script, if it is past a limit.
    pub fn check(&self) -> mlua::Result<()> {
        if self.done.load(Ordering::Relaxed) > INSTRUCTION_LIMIT {
            return Err(Self::stopped());
        }
        if self.holds_too_much() {
            return Err(mlua::Error::MemoryError("not enough memory".to_owned()));
        }
        Ok(())
    }

    /// Whether the script is past a limit: it is being stopped, and nothing it does may catch
    /// that.
    pub fn over(&self) -> bool {
        self.done.load(Ordering::Relaxed) > INSTRUCTION_LIMIT || self.holds_too_much()
    }

    /// More than a script may hold: the allocator lets small allocations past the limit (see
    /// [`crate::allocator`]), and the script is stopped at its next check instead.
    fn holds_too_much(&self) -> bool {
        self.held.load(Ordering::Relaxed) > crate::MEMORY_LIMIT
    }

    /// The counter itself, for the functions that charge it from elsewhere.
    pub fn counter(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.done)
    }

    /// The bytes held, for the allocator that keeps them.
    pub fn held(&self) -> Arc<AtomicUsize> {
        Arc::clone(&self.held)
    }

    /// The error that stops a script that does not yield.
    pub fn stopped() -> mlua::Error {
        mlua::Error::RuntimeError(format!(
            "the script ran {INSTRUCTION_LIMIT} instructions without emu.frameadvance(): stopped"
        ))
    }
}
