//! The Lua state's allocator, with the script's accounts: every allocation (or growth) is
//! counted as work, [`PER_ALLOCATION`] units and one per [`BYTES_PER_UNIT`] bytes, and the
//! memory the state holds is kept to [`MEMORY_LIMIT`]. One VM instruction or one library call can allocate as much as a
//! string or a table is long (`s .. t`, `string.rep`, a table's growth), which the instruction
//! count alone does not see.
//!
//! The state is mlua's own, made by `Lua::new_with` (its safe mode, its libraries, its single
//! `lua_close`); [`Accounts::install`] puts a function in front of mlua's allocator that counts
//! and limits, then hands every call on to it, and [`Accounts`]'s `drop` puts mlua's back before
//! the state can be closed, so the accounts never outlive their use.
//!
//! Why small allocations may pass the limit: mlua relaxes its own memory limit while it makes
//! the two C functions of each protected call, made outside any protection, where a failed
//! allocation would end the process (Lua 5.1 calls `exit`). mlua cannot see this allocator's
//! limit to relax it, so allocations of at most [`ALWAYS_SMALL`] bytes (mlua's are 40) may go
//! up to [`SLACK`] past the limit, and [`crate::work::Work`] stops the script at its next check
//! once it holds more than the limit. Larger allocations past the limit fail, and Lua raises
//! its "not enough memory" error.

#![allow(unsafe_code)]

use crate::work::Work;
use crate::MEMORY_LIMIT;
use mlua::{ffi, Lua};
use std::os::raw::c_void;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

/// Bytes allocated per unit of work. Allocating fresh memory and filling it (what Lua does
/// with every block it asks for) measured 13 bytes in the time of one VM instruction: a new
/// string of 64 MiB made by `..` took as long as 5 million instructions.
pub const BYTES_PER_UNIT: usize = 16;

/// Units per allocation, whatever its size: making a small table, freeing it and collecting
/// it took as long as 36 instructions (a loop of `t[i] = {}` ran 4.6 times as long as its
/// instructions and bytes were charged before this was).
const PER_ALLOCATION: u64 = 32;

/// The largest allocation that may pass the limit (see the module's documentation).
const ALWAYS_SMALL: usize = 64;

/// How far past the limit small allocations may go: far more than a frame's checks let
/// through (10,000 instructions between two, each making a few small objects).
const SLACK: usize = 16 << 20;

/// What the allocator needs: mlua's allocator to hand calls on to, and the script's accounts.
struct Ledger {
    inner: ffi::lua_Alloc,
    inner_data: *mut c_void,
    /// Work done this frame, in instructions' worth.
    work: Arc<AtomicU64>,
    /// Bytes the state holds.
    held: Arc<AtomicUsize>,
}

/// The accounts of one Lua state: while this lives, the state's allocations are counted as
/// work and held to the memory limit.
pub struct Accounts {
    /// Keeps the state open until mlua's allocator is back in place.
    lua: Lua,
    /// A box's contents, given to Lua: owned here, freed once mlua's allocator is back.
    ledger: NonNull<Ledger>,
}

// SAFETY: the ledger (mlua's allocator data among it) goes with the Lua state, which mlua moves
// between threads (its `send` feature); Lua uses it only while the state's lock is held.
unsafe impl Send for Accounts {}

impl Accounts {
    /// Counts `lua`'s allocations into `work` from now on.
    pub fn install(lua: &Lua, work: &Work) -> mlua::Result<Self> {
        let ledger = NonNull::from(Box::leak(Box::new(Ledger {
            inner: counted,
            inner_data: std::ptr::null_mut(),
            work: work.counter(),
            held: work.held(),
        })));
        let data = ledger.as_ptr();
        // SAFETY: `exec_raw` holds the state's lock and gives its current thread; reading and
        // setting the allocator are plain field accesses in Lua 5.1, with no allocation and no
        // error. `data` is the box's, freed only once the allocator is handed back (`drop`).
        let installed = unsafe {
            lua.exec_raw::<()>((), |state| {
                let mut inner_data = std::ptr::null_mut();
                (*data).inner = ffi::lua_getallocf(state, &raw mut inner_data);
                (*data).inner_data = inner_data;
                // What mlua's allocator has handed out so far (Lua counts every byte).
                let kibibytes = ffi::lua_gc(state, ffi::LUA_GCCOUNT, 0);
                let rest = ffi::lua_gc(state, ffi::LUA_GCCOUNTB, 0);
                let held = usize::try_from(kibibytes).unwrap_or(0) * 1024
                    + usize::try_from(rest).unwrap_or(0);
                (*data).held.store(held, Ordering::Relaxed);
                ffi::lua_setallocf(state, counted, data.cast());
            })
        };
        // On an error the box is left to leak: whether Lua was given it is not known.
        installed?;
        Ok(Self {
            lua: lua.clone(),
            ledger,
        })
    }
}

impl Drop for Accounts {
    fn drop(&mut self) {
        let ledger = self.ledger.as_ptr();
        // SAFETY: as in `install`; `self.lua` keeps the state open, so it is not closed yet.
        // From here on mlua's allocator serves the state, which mlua closes later as usual.
        let handed_back = unsafe {
            self.lua.exec_raw::<()>((), |state| {
                ffi::lua_setallocf(state, (*ledger).inner, (*ledger).inner_data);
            })
        };
        if handed_back.is_ok() {
            // SAFETY: from `Box::leak` in `install`, and Lua no longer has it.
            drop(unsafe { Box::from_raw(ledger) });
        }
        // Otherwise Lua may still call `counted` with the ledger: it is left to outlive the state.
    }
}

/// Lua's allocator (`lua_Alloc`): counts and limits, then hands the call on to mlua's.
///
/// # Safety
/// `data` is the `Ledger` that [`Accounts::install`] gave Lua, alive while it is installed; Lua
/// calls this as it calls any allocator, with the block and size it was given before.
unsafe extern "C" fn counted(
    data: *mut c_void,
    block: *mut c_void,
    old_size: usize,
    new_size: usize,
) -> *mut c_void {
    // SAFETY: see the function's contract; the ledger is only read (its counters are atomic).
    let ledger = unsafe { &*data.cast::<Ledger>() };
    // Lua 5.1 passes 0 as the old size of a new block.
    let old_size = if block.is_null() { 0 } else { old_size };
    if new_size > old_size {
        let held = ledger.held.load(Ordering::Relaxed);
        let ceiling = if new_size <= ALWAYS_SMALL {
            MEMORY_LIMIT + SLACK
        } else {
            MEMORY_LIMIT
        };
        if held.saturating_add(new_size - old_size) > ceiling {
            return std::ptr::null_mut();
        }
        // A block that grows may be copied whole: its new size is the work.
        let units = PER_ALLOCATION + new_size.div_ceil(BYTES_PER_UNIT) as u64;
        ledger.work.fetch_add(units, Ordering::Relaxed);
    }
    // SAFETY: mlua's allocator with its own data, called as Lua would call it.
    let result = unsafe { (ledger.inner)(ledger.inner_data, block, old_size, new_size) };
    if new_size == 0 {
        ledger.held.fetch_sub(old_size, Ordering::Relaxed);
    } else if !result.is_null() {
        ledger.held.fetch_sub(old_size, Ordering::Relaxed);
        ledger.held.fetch_add(new_size, Ordering::Relaxed);
    }
    result
}
