//! The work a script does between two frames, counted so that a script that never yields is
//! stopped at the same point on any machine: Lua instructions (counted by a hook on every
//! thread, coroutines and callbacks included), the memory the Lua state allocates (counted by
//! its allocator, [`crate::allocator`]), the work of the library functions that loop in C over
//! what they are given ([`crate::charged`]) and that of the host's functions that loop in Rust
//! (pattern matching, hook registration), all charged in the same unit. The memory the state
//! holds is checked at the same points.
//!
//! Two stops do not count work: a signal that asks jewelbot to end (the run ends whatever the
//! script is doing), and, as a last resort, [`WALL_LIMIT`] of one frame's script work, for the
//! work the count cannot see (Lua 5.1's `..` and `<` on long strings it already holds).

use std::sync::atomic::{AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Most work (Lua instructions, or their equivalent) a script may do between two frames,
/// callbacks included: a loop that never yields is stopped within a fraction of a second.
pub const INSTRUCTION_LIMIT: u64 = 100_000_000;

/// The longest one frame's script work may take, whatever was counted: two orders of magnitude
/// past what [`INSTRUCTION_LIMIT`] takes (a fraction of a second), so only work the count does
/// not see reaches it.
pub const WALL_LIMIT: Duration = Duration::from_secs(30);

/// Why a script was stopped without passing a count.
const RUNNING: u8 = 0;
const SIGNALLED: u8 = 1;
const TOO_LONG: u8 = 2;

/// The work counter, shared by the instruction hook, the allocator and the host's functions,
/// and the bytes the Lua state holds, kept by the allocator.
#[derive(Debug, Clone)]
pub struct Work {
    done: Arc<AtomicU64>,
    held: Arc<AtomicUsize>,
    /// When the frame's script work began.
    began: Arc<Mutex<Instant>>,
    /// [`SIGNALLED`] or [`TOO_LONG`] once the script is stopped for that.
    halted: Arc<AtomicU8>,
}

impl Default for Work {
    fn default() -> Self {
        Self {
            done: Arc::default(),
            held: Arc::default(),
            began: Arc::new(Mutex::new(Instant::now())),
            halted: Arc::default(),
        }
    }
}

impl Work {
    /// A new frame boundary: nothing done yet.
    pub fn reset(&self) {
        self.done.store(0, Ordering::Relaxed);
        self.halted.store(RUNNING, Ordering::Relaxed);
        *self
            .began
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Instant::now();
    }

    /// The instruction hook's check: a signal to end the run and [`WALL_LIMIT`] stop the script
    /// too.
    pub fn watch(&self) -> mlua::Result<()> {
        if jewelbot_plugin::stop_requested() {
            self.halted.store(SIGNALLED, Ordering::Relaxed);
        } else {
            let began = *self
                .began
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if began.elapsed() > WALL_LIMIT {
                self.halted.store(TOO_LONG, Ordering::Relaxed);
            }
        }
        self.check()
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
        match self.halted.load(Ordering::Relaxed) {
            SIGNALLED => {
                return Err(mlua::Error::RuntimeError(
                    "jewelbot was asked to stop (a signal) while the script ran: stopped"
                        .to_owned(),
                ))
            }
            TOO_LONG => {
                return Err(mlua::Error::RuntimeError(format!(
                    "one frame's script work took more than {} s without emu.frameadvance(), \
                     in work the instruction count does not see (`..` or `<` on long strings): \
                     stopped",
                    WALL_LIMIT.as_secs()
                )))
            }
            _ => {}
        }
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
        self.halted.load(Ordering::Relaxed) != RUNNING
            || self.done.load(Ordering::Relaxed) > INSTRUCTION_LIMIT
            || self.holds_too_much()
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
