//! Library functions charged for the work they do in C. One call of `table.sort`, of
//! `string.rep` or of `unpack` can loop over a whole table or string, which the instruction
//! count does not see; nor does the allocator when the result is a string Lua already holds
//! (Lua 5.1 keeps one copy of each string, so making it again allocates nothing).
//!
//! Each of these functions is replaced by a C function that charges the work the call is asked
//! to do, reading its arguments, then runs the library's own function in its own place: on the
//! same stack and in the same call frame, so that the results and the errors are the
//! original's to the byte (an error names the function and the script's line as before, which
//! a wrapper in Lua or a second call would change); the host's `loadstring`, a Rust function,
//! is called as any function is. That takes Lua's C API: this module and
//! [`crate::allocator`] hold the crate's only unsafe code.

#![allow(unsafe_code)]

use crate::work::{Work, INSTRUCTION_LIMIT};
use crate::MEMORY_LIMIT;
use mlua::{ffi, Function, Lua, Table};
use std::os::raw::c_int;

/// Bytes per unit walked one at a time by a C loop (`string.rep` adds a byte at a time,
/// `string.upper` maps each, `tonumber` and `loadstring` read each): 0.6 to 2 units' worth a
/// byte measured, against the time of one VM instruction.
const WALKED: f64 = 1.0;
/// Bytes per unit copied or compared, as the allocator counts them.
const COPIED: f64 = crate::allocator::BYTES_PER_UNIT as f64;
/// Units per comparison of `table.sort` (n·log2(n) of them): its loop, with `<` read through
/// the C API, ran 4.4 times as long as one unit each.
const PER_COMPARISON: f64 = 4.0;
/// Units per element a table function reads and writes (or hands to a function): 3 to 7
/// instructions' worth measured.
const PER_ELEMENT: f64 = 4.0;
/// Work below which a call is not charged: the call's own instructions pay for it, and a
/// call into Rust costs more.
const PAID: f64 = 16.0;
/// The most values a C function may push (`LUAI_MAXCSTACK`): `unpack` fails past it.
const MOST_RESULTS: f64 = 8000.0;

/// How a function's work follows from its arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cost {
    /// `table.sort(t)`: n·log2(n) comparisons, each [`PER_COMPARISON`].
    Sort,
    /// `table.insert(t, pos, v)`: the elements from `pos` on move up.
    Insert,
    /// `table.remove(t, pos)`: the elements after `pos` move down.
    Remove,
    /// `table.concat(t, sep, i, j)`: the elements from i to j, and a separator after each.
    Concat,
    /// `unpack(t, i, j)`: the values pushed.
    Unpack,
    /// `table.foreach(t, f)`, `table.maxn(t)`: every entry.
    Entries,
    /// `table.foreachi(t, f)`: the elements 1 to #t.
    Elements,
    /// `string.rep(s, n)`: n·#s bytes walked (n turns of the loop for an empty string).
    Rep,
    /// `string.upper(s)`, `lower`, `reverse`, `tonumber(s)`, `loadstring(s)`: the string
    /// walked.
    Walk,
    /// `string.sub(s, i, j)`: the bytes copied (or compared with a string held).
    Sub,
    /// `string.byte(s, i, j)`: the values pushed.
    Byte,
    /// `string.char(...)`, the values read.
    Char,
    /// `string.format(f, ...)`: every string given, walked.
    Format,
    /// `collectgarbage()`: a collection goes over all the state holds.
    Collect,
}

const COSTS: [Cost; 14] = [
    Cost::Sort,
    Cost::Insert,
    Cost::Remove,
    Cost::Concat,
    Cost::Unpack,
    Cost::Entries,
    Cost::Elements,
    Cost::Rep,
    Cost::Walk,
    Cost::Sub,
    Cost::Byte,
    Cost::Char,
    Cost::Format,
    Cost::Collect,
];

/// The functions charged, by library (`None`: the global table).
const CHARGED: [(Option<&str>, &str, Cost); 19] = [
    (Some("table"), "sort", Cost::Sort),
    (Some("table"), "insert", Cost::Insert),
    (Some("table"), "remove", Cost::Remove),
    (Some("table"), "concat", Cost::Concat),
    (Some("table"), "foreach", Cost::Entries),
    (Some("table"), "maxn", Cost::Entries),
    (Some("table"), "foreachi", Cost::Elements),
    (Some("string"), "rep", Cost::Rep),
    (Some("string"), "upper", Cost::Walk),
    (Some("string"), "lower", Cost::Walk),
    (Some("string"), "reverse", Cost::Walk),
    (Some("string"), "sub", Cost::Sub),
    (Some("string"), "byte", Cost::Byte),
    (Some("string"), "char", Cost::Char),
    (Some("string"), "format", Cost::Format),
    (None, "tonumber", Cost::Walk),
    (None, "unpack", Cost::Unpack),
    (None, "collectgarbage", Cost::Collect),
    (None, "loadstring", Cost::Walk),
];

/// Replaces the library functions that loop in C with charged ones, charging `work`.
pub fn install(lua: &Lua, work: &Work) -> mlua::Result<()> {
    let counted = work.clone();
    // Charges the units given; raises the error that stops the script once it is past a limit.
    let charge = lua.create_function(move |_, units: f64| {
        // At most just past the limit, so that the counter cannot wrap.
        counted.charge(units.min((INSTRUCTION_LIMIT + 1) as f64) as u64)
    })?;
    let globals = lua.globals();
    for (library, name, cost) in CHARGED {
        let table: Table = match library {
            Some(library) => globals.get(library)?,
            None => globals.clone(),
        };
        let original: Function = table.get(name)?;
        table.set(name, charged(lua, &original, cost, &charge)?)?;
    }
    Ok(())
}

/// `original`, charged by `cost` through `charge`.
fn charged(
    lua: &Lua,
    original: &Function,
    cost: Cost,
    charge: &Function,
) -> mlua::Result<Function> {
    let index = COSTS.iter().position(|&c| c == cost).unwrap_or_default();
    // SAFETY: `exec_raw` holds the state's lock and runs this in a protected call, with its
    // arguments on the stack's top (so at -3, -2 and -1) and the closure made left as the
    // result. A C function without upvalues (Lua's library) runs in `charged_in_place`'s
    // frame as in its own, since it reads only its arguments; any other (the host's
    // `loadstring`, a Rust function with upvalues of its own) is called by `charged_call`.
    unsafe {
        lua.exec_raw((original, index, charge), |state| {
            let mut plain = ffi::lua_tocfunction(state, -3).is_some();
            if !ffi::lua_getupvalue(state, -3, 1).is_null() {
                ffi::lua_pop(state, 1);
                plain = false;
            }
            let wrapper = if plain {
                charged_in_place
            } else {
                charged_call
            };
            ffi::lua_pushcclosure(state, wrapper, 3);
        })
    }
}

/// A charged function of Lua's library: upvalues 1, the library's function; 2, its
/// [`Cost`]'s index in [`COSTS`]; 3, the `charge` function.
///
/// # Safety
/// Called by Lua as a C function, made by [`charged`] with those upvalues.
unsafe extern "C-unwind" fn charged_in_place(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: as `charge_for`; then the library's function runs on the same stack, in this
    // call's frame. A Lua error it raises unwinds through this frame, which owns nothing to
    // drop.
    unsafe {
        charge_for(state);
        match ffi::lua_tocfunction(state, ffi::lua_upvalueindex(1)) {
            Some(original) => original(state),
            None => 0,
        }
    }
}

/// A charged function of the host's, called with the arguments given: upvalues as
/// [`charged_in_place`]'s.
///
/// # Safety
/// As [`charged_in_place`].
unsafe extern "C-unwind" fn charged_call(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: as `charge_for`; the function goes under its arguments (one slot more of the
    // 20 a C function has free) and its results are this call's.
    unsafe {
        charge_for(state);
        let given = ffi::lua_gettop(state);
        ffi::lua_pushvalue(state, ffi::lua_upvalueindex(1));
        ffi::lua_insert(state, 1);
        ffi::lua_call(state, given, ffi::LUA_MULTRET);
        ffi::lua_gettop(state)
    }
}

/// Charges the call's work, by its arguments; `charge` raises the error that stops the
/// script once the frame's work is past the limit.
///
/// # Safety
/// `state` runs a function made by [`charged`], with its upvalues.
unsafe fn charge_for(state: *mut ffi::lua_State) {
    // SAFETY: the upvalues are as `charged` made them; a C function has LUA_MINSTACK (20)
    // free slots, of which this takes two, leaving the stack as it found it. A Lua error
    // raised by `charge` unwinds through the caller's frame, which owns nothing to drop.
    unsafe {
        let index = ffi::lua_tointeger(state, ffi::lua_upvalueindex(2));
        let cost = COSTS[usize::try_from(index).unwrap_or_default() % COSTS.len()];
        let units = units(state, cost);
        if units >= PAID {
            ffi::lua_pushvalue(state, ffi::lua_upvalueindex(3));
            ffi::lua_pushnumber(state, units);
            ffi::lua_call(state, 1, 0);
        }
    }
}

/// The work a call is asked to do, from its arguments (on `state`'s stack, left untouched).
///
/// # Safety
/// `state` is running a C function; only its arguments are read.
unsafe fn units(state: *mut ffi::lua_State, cost: Cost) -> f64 {
    // SAFETY: reads of the arguments of the running C function (an index past the last reads
    // as none), and a count of a table's entries that pops what it pushes.
    unsafe {
        match cost {
            Cost::Sort => {
                let n = table_length(state, 1).unwrap_or(0.0);
                if n > 1.0 {
                    n * n.log2() * PER_COMPARISON
                } else {
                    0.0
                }
            }
            Cost::Insert => match (table_length(state, 1), number(state, 2)) {
                (Some(n), Some(position)) if ffi::lua_gettop(state) == 3 => {
                    (n + 1.0 - position) * PER_ELEMENT
                }
                _ => 0.0,
            },
            Cost::Remove => match (table_length(state, 1), number(state, 2)) {
                (Some(n), Some(position)) if n > 0.0 => (n - position) * PER_ELEMENT,
                _ => 0.0,
            },
            Cost::Concat => range(state, 3) * (PER_ELEMENT + length(state, 2) / WALKED),
            Cost::Unpack => range(state, 2).min(MOST_RESULTS),
            Cost::Entries => entries(state, 1) * PER_ELEMENT,
            Cost::Elements => table_length(state, 1).unwrap_or(0.0) * PER_ELEMENT,
            Cost::Rep => {
                let times = number(state, 2).unwrap_or(0.0);
                let each = length(state, 1);
                let bytes = times * each.max(1.0);
                if each > 0.0 && bytes > MEMORY_LIMIT as f64 {
                    // It fails for memory on the way, within the limit's bytes, which the
                    // allocator counts: charged in advance, it would stop the script instead.
                    0.0
                } else {
                    bytes / WALKED
                }
            }
            Cost::Walk => length(state, 1) / WALKED,
            Cost::Sub => match string_length(state, 1) {
                Some(len) => span(len, number(state, 2), number(state, 3).or(Some(-1.0))) / COPIED,
                None => 0.0,
            },
            Cost::Byte => match string_length(state, 1) {
                Some(len) => {
                    let first = number(state, 2).unwrap_or(1.0);
                    span(len, Some(first), number(state, 3).or(Some(first)))
                }
                None => 0.0,
            },
            Cost::Char => f64::from(ffi::lua_gettop(state)),
            Cost::Format => {
                let given = ffi::lua_gettop(state);
                (1..=given).map(|i| length(state, i)).sum::<f64>() / WALKED
            }
            Cost::Collect => {
                let option = ffi::lua_type(state, 1);
                let collects = option <= ffi::LUA_TNIL || {
                    let text = string_bytes(state, 1);
                    text == b"collect" || text == b"step"
                };
                if collects {
                    let kibibytes = ffi::lua_gc(state, ffi::LUA_GCCOUNT, 0);
                    f64::from(kibibytes) * 1024.0 / COPIED
                } else {
                    0.0
                }
            }
        }
    }
}

/// Argument `i` as a number, if it is one (or a string that reads as one).
unsafe fn number(state: *mut ffi::lua_State, i: c_int) -> Option<f64> {
    // SAFETY: see `units`; `lua_tonumber` converts a string without changing the argument.
    unsafe { (ffi::lua_isnumber(state, i) != 0).then(|| ffi::lua_tonumber(state, i)) }
}

/// The length of argument `i`, if it is a table (its border, `#t`).
unsafe fn table_length(state: *mut ffi::lua_State, i: c_int) -> Option<f64> {
    // SAFETY: see `units`; a table's length reads no metamethod in Lua 5.1.
    unsafe {
        (ffi::lua_type(state, i) == ffi::LUA_TTABLE).then(|| ffi::lua_objlen(state, i) as f64)
    }
}

/// The length of argument `i`, if it is a string.
unsafe fn string_length(state: *mut ffi::lua_State, i: c_int) -> Option<f64> {
    // SAFETY: see `units`; only a string's length is read (a number's would convert it).
    unsafe {
        (ffi::lua_type(state, i) == ffi::LUA_TSTRING).then(|| ffi::lua_objlen(state, i) as f64)
    }
}

/// The bytes of argument `i` if it is a string, else none.
unsafe fn string_bytes<'a>(state: *mut ffi::lua_State, i: c_int) -> &'a [u8] {
    // SAFETY: see `units`; the string stays on the stack while the call runs.
    unsafe {
        if ffi::lua_type(state, i) != ffi::LUA_TSTRING {
            return &[];
        }
        let mut len = 0;
        let bytes = ffi::lua_tolstring(state, i, &raw mut len);
        std::slice::from_raw_parts(bytes.cast(), len)
    }
}

/// The length of argument `i` as a string: a number converts to at most 32 bytes.
unsafe fn length(state: *mut ffi::lua_State, i: c_int) -> f64 {
    // SAFETY: see `units`.
    unsafe {
        match ffi::lua_type(state, i) {
            ffi::LUA_TSTRING => ffi::lua_objlen(state, i) as f64,
            ffi::LUA_TNUMBER => 32.0,
            _ => 0.0,
        }
    }
}

/// The elements from argument `first` (default 1) to the next (default #t) of the table that
/// is argument 1.
unsafe fn range(state: *mut ffi::lua_State, first: c_int) -> f64 {
    // SAFETY: see `units`.
    unsafe {
        let Some(n) = table_length(state, 1) else {
            return 0.0;
        };
        let bound = |i, default| {
            if ffi::lua_type(state, i) <= ffi::LUA_TNIL {
                Some(default)
            } else {
                number(state, i)
            }
        };
        match (bound(first, 1.0), bound(first + 1, n)) {
            (Some(i), Some(j)) if j >= i => j - i + 1.0,
            _ => 0.0,
        }
    }
}

/// The entries of the table that is argument `i`.
unsafe fn entries(state: *mut ffi::lua_State, i: c_int) -> f64 {
    // SAFETY: see `units`; each key pushed by `lua_next` is popped by the next (or by its
    // end), each value at once.
    unsafe {
        if ffi::lua_type(state, i) != ffi::LUA_TTABLE {
            return 0.0;
        }
        let mut n = 0.0;
        ffi::lua_pushnil(state);
        while ffi::lua_next(state, i) != 0 {
            ffi::lua_pop(state, 1);
            n += 1.0;
        }
        n
    }
}

/// Bytes from `i` to `j` of a string of `len` bytes, as `string.sub` counts them.
fn span(len: f64, i: Option<f64>, j: Option<f64>) -> f64 {
    let (Some(mut i), Some(mut j)) = (i, j) else {
        return 0.0;
    };
    if i < 0.0 {
        i += len + 1.0;
    }
    if j < 0.0 {
        j += len + 1.0;
    }
    let (i, j) = (i.max(1.0), j.min(len));
    (j - i + 1.0).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::span;

    #[test]
    fn span_counts_as_string_sub() {
        assert_eq!(span(10.0, Some(1.0), Some(-1.0)), 10.0);
        assert_eq!(span(10.0, Some(-3.0), Some(-1.0)), 3.0);
        assert_eq!(span(10.0, Some(5.0), Some(2.0)), 0.0);
        assert_eq!(span(10.0, Some(-100.0), Some(100.0)), 10.0);
        assert_eq!(span(10.0, None, Some(1.0)), 0.0);
    }
}
