//! Lua 5.1's pattern matching (`string.find`, `match`, `gmatch`, `gsub`), ported from
//! lstrlib.c of Lua 5.1.5 so that its work is counted: the C functions run outside the
//! instruction hook, and one call with a backtracking pattern would hang the run. Each step of
//! the matcher is charged to the counter the hook shares, and a call that takes the count past
//! the limit stops with the hook's error; recursion is bounded as Lua 5.2 bounds it
//! ("pattern too complex" past 200 nested calls of the matcher).
//!
//! What is charged, one unit each: a step of the matcher (each call of `match` and each pattern
//! item it moves on to), each character tested against a single-character class (quantifiers'
//! expansion included), each character `%b` scans, each candidate start of a plain search and
//! each call of the functions. Bulk byte work (a plain search's scanning and comparing, a
//! back-reference's comparison, a set's length, a replacement string's length, gsub's output)
//! costs one unit per 16 bytes. Units are added to the shared counter every 1,024 and when the
//! call ends (or calls Lua), so a run stops at the same point on any machine.
//!
//! Strings are bytes; classes are those of the "C" locale (bytes from 0x80 are in none).

use mlua::{Function, Lua, MultiValue, Table, Value};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

/// Most captures a pattern may have (`LUA_MAXCAPTURES`).
const MAXCAPTURES: usize = 32;
/// Deepest nesting of the matcher's calls (Lua 5.2's `MAXCCALLS`).
const MAXCCALLS: u32 = 200;
const CAP_UNFINISHED: isize = -1;
const CAP_POSITION: isize = -2;
const L_ESC: u8 = b'%';
const SPECIALS: &[u8] = b"^$*+?.([%-";
/// Units counted locally before they are added to the shared counter.
const BATCH: u64 = 1024;
/// Bulk byte work costs one unit per `1 << BULK_SHIFT` bytes.
const BULK_SHIFT: u32 = 4;
/// gsub's result is handed to Lua (whose allocator holds the memory limit) in pieces this big.
const CHUNK: usize = 1 << 20;

type Result<T> = mlua::Result<T>;

fn error(message: impl Into<String>) -> mlua::Error {
    mlua::Error::RuntimeError(message.into())
}

fn bulk(bytes: usize) -> u64 {
    (bytes >> BULK_SHIFT) as u64
}

/// The shared counter and its limit.
#[derive(Clone)]
struct Budget {
    work: Arc<AtomicU64>,
    limit: u64,
}

/// A call's work, counted locally and added to the budget's counter in batches.
struct Meter {
    budget: Budget,
    pending: u64,
}

impl Meter {
    fn new(budget: &Budget) -> Self {
        Self {
            budget: budget.clone(),
            pending: 0,
        }
    }

    #[inline]
    fn charge(&mut self, units: u64) -> Result<()> {
        self.pending += units;
        if self.pending >= BATCH {
            self.flush()
        } else {
            Ok(())
        }
    }

    /// Adds the pending units to the shared counter; an error once it has passed the limit.
    fn flush(&mut self) -> Result<()> {
        let units = std::mem::take(&mut self.pending);
        if units == 0 {
            return Ok(());
        }
        let before = self.budget.work.fetch_add(units, Ordering::Relaxed);
        if before.saturating_add(units) > self.budget.limit {
            return Err(error(format!(
                "the script ran {} instructions without emu.frameadvance(): stopped",
                self.budget.limit
            )));
        }
        Ok(())
    }

    /// `result`, after the call's last units are counted (the result's error first).
    fn settle<T>(&mut self, result: Result<T>) -> Result<T> {
        let flushed = self.flush();
        let value = result?;
        flushed?;
        Ok(value)
    }
}

#[derive(Clone, Copy)]
struct Capture {
    init: usize,
    len: isize,
}

/// A capture's value: a piece of the subject or a position (1-based).
enum Cap {
    Text(usize, usize),
    Position(usize),
}

/// lstrlib.c's `MatchState`, with the pattern and subject as byte slices: a byte past either's
/// end reads as the `'\0'` that ends Lua's strings (a `'\0'` inside the pattern ends it, as
/// in C).
struct MatchState<'a> {
    src: &'a [u8],
    pat: &'a [u8],
    level: usize,
    capture: [Capture; MAXCAPTURES],
    depth: u32,
    meter: Meter,
}

fn match_class(c: u8, cl: u8) -> bool {
    let res = match cl.to_ascii_lowercase() {
        b'a' => c.is_ascii_alphabetic(),
        b'c' => c.is_ascii_control(),
        b'd' => c.is_ascii_digit(),
        b'l' => c.is_ascii_lowercase(),
        b'p' => c.is_ascii_punctuation(),
        // C's isspace: also the vertical tab, which Rust's is_ascii_whitespace leaves out.
        b's' => matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'),
        b'u' => c.is_ascii_uppercase(),
        b'w' => c.is_ascii_alphanumeric(),
        b'x' => c.is_ascii_hexdigit(),
        b'z' => c == 0,
        _ => return cl == c,
    };
    if cl.is_ascii_lowercase() {
        res
    } else {
        !res
    }
}

impl<'a> MatchState<'a> {
    fn new(src: &'a [u8], pat: &'a [u8], budget: &Budget) -> Self {
        Self {
            src,
            pat,
            level: 0,
            capture: [Capture { init: 0, len: 0 }; MAXCAPTURES],
            depth: 0,
            meter: Meter::new(budget),
        }
    }

    /// Runs `body` (charged one unit for the call), then counts its last units.
    fn run<T>(&mut self, body: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let result = self.meter.charge(1).and_then(|()| body(self));
        self.meter.settle(result)
    }

    #[inline]
    fn p(&self, i: usize) -> u8 {
        self.pat.get(i).copied().unwrap_or(0)
    }

    #[inline]
    fn s(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }

    fn check_capture(&self, l: u8) -> Result<usize> {
        let l = i32::from(l) - i32::from(b'1');
        if l < 0 || l as usize >= self.level || self.capture[l as usize].len == CAP_UNFINISHED {
            return Err(error("invalid capture index"));
        }
        Ok(l as usize)
    }

    fn capture_to_close(&self) -> Result<usize> {
        (0..self.level)
            .rev()
            .find(|&level| self.capture[level].len == CAP_UNFINISHED)
            .ok_or_else(|| error("invalid pattern capture"))
    }

    fn classend(&mut self, mut p: usize) -> Result<usize> {
        let start = p;
        let c = self.p(p);
        p += 1;
        match c {
            L_ESC => {
                if self.p(p) == 0 {
                    return Err(error("malformed pattern (ends with '%')"));
                }
                Ok(p + 1)
            }
            b'[' => {
                if self.p(p) == b'^' {
                    p += 1;
                }
                loop {
                    // look for a ']'
                    if self.p(p) == 0 {
                        return Err(error("malformed pattern (missing ']')"));
                    }
                    let c = self.p(p);
                    p += 1;
                    if c == L_ESC && self.p(p) != 0 {
                        p += 1; // skip escapes (e.g. '%]')
                    }
                    if self.p(p) == b']' {
                        break;
                    }
                }
                self.meter.charge(bulk(p - start))?;
                Ok(p + 1)
            }
            _ => Ok(p),
        }
    }

    /// Whether `c` is in the set from `p` (its '[') to `ec` (its ']').
    fn matchbracketclass(&self, c: u8, mut p: usize, ec: usize) -> bool {
        let mut sig = true;
        if self.p(p + 1) == b'^' {
            sig = false;
            p += 1; // skip the '^'
        }
        loop {
            p += 1;
            if p >= ec {
                break;
            }
            if self.p(p) == L_ESC {
                p += 1;
                if match_class(c, self.p(p)) {
                    return sig;
                }
            } else if self.p(p + 1) == b'-' && p + 2 < ec {
                p += 2;
                if self.p(p - 2) <= c && c <= self.p(p) {
                    return sig;
                }
            } else if self.p(p) == c {
                return sig;
            }
        }
        !sig
    }

    /// Whether the subject's character at `s` exists and is in the single-character class
    /// from `p` to `ep`: one unit, and a set's length.
    #[inline]
    fn single(&mut self, s: usize, p: usize, ep: usize) -> Result<bool> {
        let Some(&c) = self.src.get(s) else {
            return Ok(false);
        };
        self.meter.charge(1)?;
        Ok(match self.p(p) {
            b'.' => true, // matches any char
            L_ESC => match_class(c, self.p(p + 1)),
            b'[' => {
                self.meter.charge(bulk(ep - p))?;
                self.matchbracketclass(c, p, ep - 1)
            }
            other => other == c,
        })
    }

    fn matchbalance(&mut self, mut s: usize, p: usize) -> Result<Option<usize>> {
        if self.p(p) == 0 || self.p(p + 1) == 0 {
            return Err(error("unbalanced pattern"));
        }
        if self.s(s) != self.p(p) {
            return Ok(None);
        }
        let b = self.p(p);
        let e = self.p(p + 1);
        let mut cont = 1;
        loop {
            s += 1;
            if s >= self.src.len() {
                break;
            }
            self.meter.charge(1)?;
            let c = self.src[s];
            if c == e {
                cont -= 1;
                if cont == 0 {
                    return Ok(Some(s + 1));
                }
            } else if c == b {
                cont += 1;
            }
        }
        Ok(None) // string ends out of balance
    }

    fn max_expand(&mut self, s: usize, p: usize, ep: usize) -> Result<Option<usize>> {
        let mut i = 0; // counts maximum expand for item
        while self.single(s + i, p, ep)? {
            i += 1;
        }
        // keeps trying to match with the maximum repetitions
        loop {
            if let Some(res) = self.do_match(s + i, ep + 1)? {
                return Ok(Some(res));
            }
            if i == 0 {
                return Ok(None);
            }
            i -= 1; // else didn't match; reduce 1 repetition to try again
        }
    }

    fn min_expand(&mut self, mut s: usize, p: usize, ep: usize) -> Result<Option<usize>> {
        loop {
            if let Some(res) = self.do_match(s, ep + 1)? {
                return Ok(Some(res));
            } else if self.single(s, p, ep)? {
                s += 1; // try with one more repetition
            } else {
                return Ok(None);
            }
        }
    }

    fn start_capture(&mut self, s: usize, p: usize, what: isize) -> Result<Option<usize>> {
        let level = self.level;
        if level >= MAXCAPTURES {
            return Err(error("too many captures"));
        }
        self.capture[level] = Capture { init: s, len: what };
        self.level = level + 1;
        let res = self.do_match(s, p)?;
        if res.is_none() {
            self.level -= 1; // undo capture
        }
        Ok(res)
    }

    fn end_capture(&mut self, s: usize, p: usize) -> Result<Option<usize>> {
        let l = self.capture_to_close()?;
        self.capture[l].len = (s - self.capture[l].init) as isize; // close capture
        let res = self.do_match(s, p)?;
        if res.is_none() {
            self.capture[l].len = CAP_UNFINISHED; // undo capture
        }
        Ok(res)
    }

    fn match_capture(&mut self, s: usize, l: u8) -> Result<Option<usize>> {
        let l = self.check_capture(l)?;
        let Capture { init, len } = self.capture[l];
        // A position capture's length is negative: as C's size_t, more than any subject.
        if len < 0 {
            return Ok(None);
        }
        let len = len as usize;
        self.meter.charge(bulk(len))?;
        if self.src.len() - s >= len && self.src[init..init + len] == self.src[s..s + len] {
            Ok(Some(s + len))
        } else {
            Ok(None)
        }
    }

    /// lstrlib.c's `match`: where the match of the pattern from `p` on the subject from `s`
    /// ends, if it does.
    fn do_match(&mut self, s: usize, p: usize) -> Result<Option<usize>> {
        if self.depth >= MAXCCALLS {
            return Err(error("pattern too complex"));
        }
        self.depth += 1;
        let result = self.match_body(s, p);
        self.depth -= 1;
        result
    }

    fn match_body(&mut self, mut s: usize, mut p: usize) -> Result<Option<usize>> {
        loop {
            self.meter.charge(1)?;
            match self.p(p) {
                b'(' => {
                    // start capture
                    return if self.p(p + 1) == b')' {
                        // position capture?
                        self.start_capture(s, p + 2, CAP_POSITION)
                    } else {
                        self.start_capture(s, p + 1, CAP_UNFINISHED)
                    };
                }
                b')' => return self.end_capture(s, p + 1), // end capture
                L_ESC if self.p(p + 1) == b'b' => {
                    // balanced string?
                    match self.matchbalance(s, p + 2)? {
                        None => return Ok(None),
                        Some(end) => {
                            s = end;
                            p += 4;
                        }
                    }
                }
                L_ESC if self.p(p + 1) == b'f' => {
                    // frontier?
                    p += 2;
                    if self.p(p) != b'[' {
                        return Err(error("missing '[' after '%f' in pattern"));
                    }
                    let ep = self.classend(p)?; // points to what is next
                    let previous = if s == 0 { 0 } else { self.src[s - 1] };
                    if self.matchbracketclass(previous, p, ep - 1)
                        || !self.matchbracketclass(self.s(s), p, ep - 1)
                    {
                        return Ok(None);
                    }
                    p = ep;
                }
                L_ESC if self.p(p + 1).is_ascii_digit() => {
                    // capture results (%0-%9)?
                    match self.match_capture(s, self.p(p + 1))? {
                        None => return Ok(None),
                        Some(end) => {
                            s = end;
                            p += 2;
                        }
                    }
                }
                0 => return Ok(Some(s)), // end of pattern: match succeeded
                b'$' if self.p(p + 1) == 0 => {
                    // the '$' is the last char in pattern: check end of string
                    return Ok((s == self.src.len()).then_some(s));
                }
                _ => {
                    // a pattern item
                    let ep = self.classend(p)?; // points to what is next
                    let m = self.single(s, p, ep)?;
                    match self.p(ep) {
                        b'?' => {
                            // optional
                            if m {
                                if let Some(res) = self.do_match(s + 1, ep + 1)? {
                                    return Ok(Some(res));
                                }
                            }
                            p = ep + 1;
                        }
                        b'*' => return self.max_expand(s, p, ep), // 0 or more repetitions
                        b'+' => {
                            // 1 or more repetitions
                            return if m {
                                self.max_expand(s + 1, p, ep)
                            } else {
                                Ok(None)
                            };
                        }
                        b'-' => return self.min_expand(s, p, ep), // 0 or more, minimum
                        _ => {
                            if !m {
                                return Ok(None);
                            }
                            s += 1;
                            p = ep;
                        }
                    }
                }
            }
        }
    }

    /// Capture `i`, or the whole match `whole` when the pattern has none and `i` is 0.
    fn get_capture(&self, i: usize, whole: Option<(usize, usize)>) -> Result<Cap> {
        if i >= self.level {
            return match whole {
                Some((s, e)) if i == 0 => Ok(Cap::Text(s, e)),
                _ => Err(error("invalid capture index")),
            };
        }
        let Capture { init, len } = self.capture[i];
        match len {
            CAP_UNFINISHED => Err(error("unfinished capture")),
            CAP_POSITION => Ok(Cap::Position(init + 1)),
            len => Ok(Cap::Text(init, init + len as usize)),
        }
    }

    fn capture_value(&self, lua: &Lua, i: usize, whole: Option<(usize, usize)>) -> Result<Value> {
        Ok(match self.get_capture(i, whole)? {
            Cap::Text(s, e) => Value::String(lua.create_string(&self.src[s..e])?),
            Cap::Position(at) => Value::Integer(at as i64),
        })
    }

    /// `push_captures`: every capture, or the whole match when the pattern has none and
    /// `whole` is given.
    fn captures(&self, lua: &Lua, whole: Option<(usize, usize)>) -> Result<Vec<Value>> {
        let levels = if self.level == 0 && whole.is_some() {
            1
        } else {
            self.level
        };
        (0..levels)
            .map(|i| self.capture_value(lua, i, whole))
            .collect()
    }
}

/// The name `lua_typename` gives a value's type (`None`: no value).
fn type_name(value: Option<&Value>) -> &'static str {
    match value {
        None => "no value",
        Some(Value::Nil) => "nil",
        Some(Value::Boolean(_)) => "boolean",
        Some(Value::Integer(_) | Value::Number(_)) => "number",
        Some(Value::String(_)) => "string",
        Some(Value::Table(_)) => "table",
        Some(Value::Function(_)) => "function",
        Some(Value::Thread(_)) => "thread",
        Some(_) => "userdata",
    }
}

fn truthy(value: Option<&Value>) -> bool {
    !matches!(value, None | Some(Value::Nil | Value::Boolean(false)))
}

fn bad_argument(n: usize, function: &str, why: &str) -> mlua::Error {
    error(format!("bad argument #{n} to '{function}' ({why})"))
}

/// `luaL_checklstring`: a string, or a number as Lua writes it.
fn check_string(lua: &Lua, args: &MultiValue, i: usize, function: &str) -> Result<mlua::String> {
    let value = args.get(i);
    let string = match value {
        Some(Value::String(s)) => Some(s.clone()),
        Some(v @ (Value::Integer(_) | Value::Number(_))) => lua.coerce_string(v.clone())?,
        _ => None,
    };
    string.ok_or_else(|| {
        bad_argument(
            i + 1,
            function,
            &format!("string expected, got {}", type_name(value)),
        )
    })
}

/// A double as C converts it to `lua_Integer` on x86-64: truncated, and the "integer
/// indefinite" (the least integer) when out of range or NaN.
fn c_integer(n: f64) -> i64 {
    if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&n) {
        n as i64
    } else {
        i64::MIN
    }
}

/// `luaL_optinteger`: `default` for nothing or nil.
fn opt_integer(
    lua: &Lua,
    args: &MultiValue,
    i: usize,
    default: i64,
    function: &str,
) -> Result<i64> {
    let value = args.get(i);
    let number = match value {
        None | Some(Value::Nil) => return Ok(default),
        Some(Value::Integer(n)) => return Ok(*n),
        Some(Value::Number(n)) => Some(*n),
        Some(v @ Value::String(_)) => lua.coerce_number(v.clone())?,
        _ => None,
    };
    number.map(c_integer).ok_or_else(|| {
        bad_argument(
            i + 1,
            function,
            &format!("number expected, got {}", type_name(value)),
        )
    })
}

/// Relative string position: negative means back from end.
fn posrelat(pos: i64, len: usize) -> i64 {
    let pos = if pos < 0 {
        pos.wrapping_add(len as i64 + 1)
    } else {
        pos
    };
    pos.max(0)
}

/// Where `needle` first occurs in `hay` (one unit a candidate start, and the bytes scanned).
fn lmemfind(meter: &mut Meter, hay: &[u8], needle: &[u8]) -> Result<Option<usize>> {
    let Some((&first, rest)) = needle.split_first() else {
        return Ok(Some(0)); // empty strings are everywhere
    };
    if needle.len() > hay.len() {
        return Ok(None);
    }
    let last = hay.len() - needle.len(); // `needle` cannot start after that
    let mut from = 0;
    while from <= last {
        let Some(offset) = hay[from..=last].iter().position(|&c| c == first) else {
            meter.charge(bulk(last + 1 - from))?;
            return Ok(None);
        };
        let at = from + offset;
        let same = hay[at + 1..at + needle.len()]
            .iter()
            .zip(rest)
            .take_while(|(a, b)| a == b)
            .count();
        meter.charge(1 + bulk(offset + same))?;
        if same == rest.len() {
            return Ok(Some(at));
        }
        from = at + 1;
    }
    Ok(None)
}

/// Whether the pattern (up to its first `'\0'`, as C's `strpbrk` reads it) has a special
/// character.
fn has_specials(pat: &[u8]) -> bool {
    pat.iter()
        .take_while(|&&c| c != 0)
        .any(|c| SPECIALS.contains(c))
}

/// `str_find_aux`: `string.find` (`find`) or `string.match`.
fn str_find_aux(lua: &Lua, budget: &Budget, args: &MultiValue, find: bool) -> Result<MultiValue> {
    let name = if find { "find" } else { "match" };
    let subject = check_string(lua, args, 0, name)?;
    let pattern = check_string(lua, args, 1, name)?;
    let init = opt_integer(lua, args, 2, 1, name)?;
    let src = subject.as_bytes();
    let pat = pattern.as_bytes();
    let l1 = src.len();
    let init = posrelat(init, l1) - 1;
    let init = if init < 0 {
        0
    } else if init as u64 > l1 as u64 {
        l1
    } else {
        init as usize
    };
    if find && (truthy(args.get(3)) || !has_specials(&pat)) {
        // do a plain search
        let mut meter = Meter::new(budget);
        let found = meter
            .charge(1)
            .and_then(|()| lmemfind(&mut meter, &src[init..], &pat));
        if let Some(at) = meter.settle(found)? {
            let start = init + at;
            return Ok(MultiValue::from_vec(vec![
                Value::Integer(start as i64 + 1),
                Value::Integer((start + pat.len()) as i64),
            ]));
        }
        return Ok(MultiValue::from_vec(vec![Value::Nil]));
    }
    let mut ms = MatchState::new(&src, &pat, budget);
    ms.run(|ms| {
        let anchor = ms.p(0) == b'^';
        let p = usize::from(anchor);
        let mut s1 = init;
        loop {
            ms.level = 0;
            if let Some(res) = ms.do_match(s1, p)? {
                return Ok(MultiValue::from_vec(if find {
                    let mut values =
                        vec![Value::Integer(s1 as i64 + 1), Value::Integer(res as i64)];
                    values.extend(ms.captures(lua, None)?);
                    values
                } else {
                    ms.captures(lua, Some((s1, res)))?
                }));
            }
            if s1 >= l1 || anchor {
                break;
            }
            s1 += 1;
        }
        Ok(MultiValue::from_vec(vec![Value::Nil])) // not found
    })
}

/// `gmatch_aux`: the next match from the iterator's position `start`.
fn gmatch_aux(
    lua: &Lua,
    budget: &Budget,
    subject: &mlua::String,
    pattern: &mlua::String,
    start: &AtomicUsize,
) -> Result<MultiValue> {
    let src = subject.as_bytes();
    let pat = pattern.as_bytes();
    let mut ms = MatchState::new(&src, &pat, budget);
    ms.run(|ms| {
        let mut at = start.load(Ordering::Relaxed);
        while at <= ms.src.len() {
            ms.level = 0;
            if let Some(e) = ms.do_match(at, 0)? {
                // empty match? go at least one position
                start.store(if e == at { e + 1 } else { e }, Ordering::Relaxed);
                return Ok(MultiValue::from_vec(ms.captures(lua, Some((at, e)))?));
            }
            at += 1;
        }
        Ok(MultiValue::new()) // not found
    })
}

/// gsub's result, built in Rust and handed to Lua a piece at a time so that Lua's memory limit
/// bounds it.
#[derive(Default)]
struct Output {
    pieces: Vec<mlua::String>,
    buffer: Vec<u8>,
}

impl Output {
    fn add(&mut self, lua: &Lua, meter: &mut Meter, bytes: &[u8]) -> Result<()> {
        meter.charge(bulk(bytes.len()))?;
        self.buffer.extend_from_slice(bytes);
        if self.buffer.len() >= CHUNK {
            self.pieces.push(lua.create_string(&self.buffer)?);
            self.buffer.clear();
        }
        Ok(())
    }

    fn finish(self, lua: &Lua) -> Result<mlua::String> {
        if self.pieces.is_empty() {
            return lua.create_string(&self.buffer);
        }
        let length = self
            .pieces
            .iter()
            .map(|p| p.as_bytes().len())
            .sum::<usize>()
            + self.buffer.len();
        let mut whole = Vec::with_capacity(length);
        for piece in &self.pieces {
            whole.extend_from_slice(&piece.as_bytes());
        }
        drop(self.pieces);
        whole.extend_from_slice(&self.buffer);
        lua.create_string(&whole)
    }
}

/// gsub's replacement (its third argument).
enum Replacement {
    Text(mlua::String),
    Table(Table),
    Function(Function),
}

/// `add_s`: the replacement string with `%0`-`%9` and `%x` resolved.
fn add_s(
    lua: &Lua,
    ms: &mut MatchState<'_>,
    out: &mut Output,
    news: &[u8],
    s: usize,
    e: usize,
) -> Result<()> {
    ms.meter.charge(1 + bulk(news.len()))?;
    let at = |i: usize| news.get(i).copied().unwrap_or(0);
    let mut i = 0;
    while i < news.len() {
        let c = at(i);
        if c == L_ESC {
            i += 1; // skip ESC
            let src = ms.src;
            match at(i) {
                b'0' => out.add(lua, &mut ms.meter, &src[s..e])?,
                d @ b'1'..=b'9' => match ms.get_capture(usize::from(d - b'1'), Some((s, e)))? {
                    Cap::Text(from, to) => out.add(lua, &mut ms.meter, &src[from..to])?,
                    Cap::Position(position) => {
                        out.add(lua, &mut ms.meter, position.to_string().as_bytes())?;
                    }
                },
                // '%' before anything else (the '\0' past the end too) is that character
                other => out.add(lua, &mut ms.meter, &[other])?,
            }
        } else {
            out.add(lua, &mut ms.meter, &[c])?;
        }
        i += 1;
    }
    Ok(())
}

/// `add_value`: the replacement of the match from `s` to `e`.
fn add_value(
    lua: &Lua,
    ms: &mut MatchState<'_>,
    out: &mut Output,
    repl: &Replacement,
    s: usize,
    e: usize,
) -> Result<()> {
    let value = match repl {
        Replacement::Text(news) => return add_s(lua, ms, out, &news.as_bytes(), s, e),
        Replacement::Function(function) => {
            let args = ms.captures(lua, Some((s, e)))?;
            ms.meter.flush()?;
            function.call::<Value>(MultiValue::from_vec(args))?
        }
        Replacement::Table(table) => {
            let key = ms.capture_value(lua, 0, Some((s, e)))?;
            ms.meter.flush()?;
            table.get::<Value>(key)?
        }
    };
    let src = ms.src;
    match value {
        Value::Nil | Value::Boolean(false) => out.add(lua, &mut ms.meter, &src[s..e]), // keep original text
        Value::String(text) => out.add(lua, &mut ms.meter, &text.as_bytes()),
        number @ (Value::Integer(_) | Value::Number(_)) => {
            let text = lua
                .coerce_string(number)?
                .ok_or_else(|| error("invalid replacement value (a number)"))?;
            out.add(lua, &mut ms.meter, &text.as_bytes())
        }
        other => Err(error(format!(
            "invalid replacement value (a {})",
            type_name(Some(&other))
        ))),
    }
}

fn str_gsub(lua: &Lua, budget: &Budget, args: &MultiValue) -> Result<MultiValue> {
    let subject = check_string(lua, args, 0, "gsub")?;
    let pattern = check_string(lua, args, 1, "gsub")?;
    let src = subject.as_bytes();
    let srcl = src.len();
    // luaL_optint: an int.
    let max_s = opt_integer(lua, args, 3, srcl as i64 + 1, "gsub")? as i32;
    let repl = match args.get(2) {
        Some(Value::String(text)) => Replacement::Text(text.clone()),
        Some(number @ (Value::Integer(_) | Value::Number(_))) => Replacement::Text(
            lua.coerce_string(number.clone())?
                .ok_or_else(|| error("invalid replacement value (a number)"))?,
        ),
        Some(Value::Table(table)) => Replacement::Table(table.clone()),
        Some(Value::Function(function)) => Replacement::Function(function.clone()),
        _ => {
            return Err(bad_argument(3, "gsub", "string/function/table expected"));
        }
    };
    let pat = pattern.as_bytes();
    let mut ms = MatchState::new(&src, &pat, budget);
    let mut out = Output::default();
    let n = ms.run(|ms| {
        let anchor = ms.p(0) == b'^';
        let p = usize::from(anchor);
        let mut n: i32 = 0;
        let mut at = 0;
        while n < max_s {
            ms.level = 0;
            let e = ms.do_match(at, p)?;
            if let Some(e) = e {
                n += 1;
                add_value(lua, ms, &mut out, &repl, at, e)?;
            }
            match e {
                Some(e) if e > at => at = e, // non empty match? skip it
                _ if at < srcl => {
                    out.add(lua, &mut ms.meter, &src[at..=at])?;
                    at += 1;
                }
                _ => break,
            }
            if anchor {
                break;
            }
        }
        out.add(lua, &mut ms.meter, &src[at..])?;
        Ok(n)
    })?;
    Ok(MultiValue::from_vec(vec![
        Value::String(out.finish(lua)?),
        Value::Integer(i64::from(n)), // number of substitutions
    ]))
}

/// Replaces string.find, string.match, string.gmatch and string.gsub in `lua`'s `string` table with
/// versions whose matching work is charged to `work` (shared with the instruction hook): every step of the
/// matcher (each call of the recursive `match`, each character tried by a quantifier's expansion) adds one;
/// once `work` passes `limit` the call raises a Lua error saying the script ran more than `limit`
/// instructions without emu.frameadvance() (the message of lib.rs's hook:
/// "the script ran {limit} instructions without emu.frameadvance(): stopped").
/// `string.gfind` (5.1's old name for gmatch), when the table has it, becomes the new gmatch too.
pub fn install(lua: &Lua, work: Arc<AtomicU64>, limit: u64) -> mlua::Result<()> {
    let budget = Budget { work, limit };
    let string: Table = lua.globals().get("string")?;
    let b = budget.clone();
    string.set(
        "find",
        lua.create_function(move |lua, args: MultiValue| str_find_aux(lua, &b, &args, true))?,
    )?;
    let b = budget.clone();
    string.set(
        "match",
        lua.create_function(move |lua, args: MultiValue| str_find_aux(lua, &b, &args, false))?,
    )?;
    let b = budget.clone();
    let gmatch = lua.create_function(move |lua, args: MultiValue| {
        let subject = check_string(lua, &args, 0, "gmatch")?;
        let pattern = check_string(lua, &args, 1, "gmatch")?;
        let start = AtomicUsize::new(0);
        let b = b.clone();
        lua.create_function(move |lua, _: MultiValue| {
            gmatch_aux(lua, &b, &subject, &pattern, &start)
        })
    })?;
    if !string.raw_get::<Value>("gfind")?.is_nil() {
        string.set("gfind", gmatch.clone())?;
    }
    string.set("gmatch", gmatch)?;
    let b = budget;
    string.set(
        "gsub",
        lua.create_function(move |lua, args: MultiValue| str_gsub(lua, &b, &args))?,
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use mlua::{LuaOptions, StdLib};
    use proptest::prelude::*;

    const NAMES: [&str; 5] = ["find", "match", "gmatch", "gsub", "gfind"];

    /// A Lua state with the ported functions in `string` and C's kept in `c`.
    struct Both {
        lua: Lua,
        c: Table,
        rust: Table,
        work: Arc<AtomicU64>,
    }

    fn state(limit: u64) -> Both {
        let lua = Lua::new_with(
            StdLib::STRING | StdLib::TABLE | StdLib::MATH,
            LuaOptions::default(),
        )
        .unwrap();
        let string: Table = lua.globals().get("string").unwrap();
        let c = lua.create_table().unwrap();
        for name in NAMES {
            c.set(name, string.get::<Function>(name).unwrap()).unwrap();
        }
        lua.globals().set("c_string", c.clone()).unwrap();
        let work = Arc::new(AtomicU64::new(0));
        install(&lua, Arc::clone(&work), limit).unwrap();
        for name in NAMES {
            let mine: Function = string.get(name).unwrap();
            let original: Function = c.get(name).unwrap();
            assert_ne!(mine, original, "string.{name} was replaced");
        }
        Both {
            lua,
            c,
            rust: string,
            work,
        }
    }

    /// A Lua value, comparable.
    #[derive(Debug, PartialEq)]
    enum Out {
        Nil,
        Bool(bool),
        Num(f64),
        Str(Vec<u8>),
        Other(&'static str),
    }

    fn norm(value: Value) -> Out {
        match value {
            Value::Nil => Out::Nil,
            Value::Boolean(b) => Out::Bool(b),
            Value::Integer(n) => Out::Num(n as f64),
            Value::Number(n) => Out::Num(n),
            Value::String(s) => Out::Str(s.as_bytes().to_vec()),
            other => Out::Other(type_name(Some(&other))),
        }
    }

    /// The error's own message (what Lua's `error` value would say), without mlua's wrapping
    /// or a traceback.
    fn message(error: &mlua::Error) -> String {
        match error {
            mlua::Error::CallbackError { cause, .. } => message(cause),
            mlua::Error::RuntimeError(text) => text
                .split("\nstack traceback:")
                .next()
                .unwrap_or_default()
                .to_owned(),
            other => other.to_string(),
        }
    }

    type Outcome = std::result::Result<Vec<Out>, String>;

    fn outcome(result: mlua::Result<MultiValue>) -> Outcome {
        result
            .map(|values| values.into_iter().map(norm).collect())
            .map_err(|e| message(&e))
    }

    /// Whether the two outcomes agree: the same values, or both errors with the same message
    /// (argument errors name the function as Lua's debug information finds it: error-ness
    /// only).
    fn agree(c: &Outcome, rust: &Outcome) -> bool {
        match (c, rust) {
            (Ok(a), Ok(b)) => a == b,
            (Err(a), Err(b)) => {
                a == b || (a.starts_with("bad argument") && b.starts_with("bad argument"))
            }
            _ => false,
        }
    }

    fn call(table: &Table, name: &str, args: &[Value]) -> Outcome {
        let function: Function = table.get(name).unwrap();
        outcome(function.call::<MultiValue>(MultiValue::from_vec(args.to_vec())))
    }

    /// Every result of a gmatch loop (at most 200), then its error if it raised one.
    fn gmatch_all(table: &Table, name: &str, args: &[Value]) -> Vec<Outcome> {
        let function: Function = table.get(name).unwrap();
        let iterator = match function.call::<Function>(MultiValue::from_vec(args.to_vec())) {
            Ok(iterator) => iterator,
            Err(e) => return vec![Err(message(&e))],
        };
        let mut all = Vec::new();
        for _ in 0..200 {
            let next = outcome(iterator.call::<MultiValue>(()));
            let done = match &next {
                Ok(values) => values.first().is_none_or(|v| *v == Out::Nil),
                Err(_) => true,
            };
            all.push(next);
            if done {
                break;
            }
        }
        all
    }

    impl Both {
        fn text(&self, bytes: &[u8]) -> Value {
            Value::String(self.lua.create_string(bytes).unwrap())
        }

        fn eval(&self, code: &str) -> Value {
            self.lua.load(code).eval().unwrap()
        }

        /// C's and the port's outcomes of `string.name(args)`, asserted equal.
        fn same(&self, name: &str, args: &[Value]) {
            let _ = self.checked(name, args);
        }

        /// C's outcome of `string.name(args)`, once the port's is asserted equal.
        fn checked(&self, name: &str, args: &[Value]) -> Outcome {
            let c = call(&self.c, name, args);
            let rust = call(&self.rust, name, args);
            assert!(
                agree(&c, &rust),
                "string.{name}{:?}: C {c:?}, port {rust:?}",
                args.iter().map(|v| norm(v.clone())).collect::<Vec<_>>()
            );
            c
        }

        fn same_gmatch(&self, args: &[Value]) {
            for name in ["gmatch", "gfind"] {
                let c = gmatch_all(&self.c, name, args);
                let rust = gmatch_all(&self.rust, name, args);
                assert!(
                    c.len() == rust.len() && c.iter().zip(&rust).all(|(a, b)| agree(a, b)),
                    "string.{name}{:?}: C {c:?}, port {rust:?}",
                    args.iter().map(|v| norm(v.clone())).collect::<Vec<_>>()
                );
            }
        }
    }

    const SUBJECTS: &[&[u8]] = &[
        b"",
        b"a",
        b"abc",
        b"aaa",
        b"aab",
        b"aaaa",
        b"hello world",
        b"hello",
        b"abcabc",
        b"ab ab",
        b"x = 1, y = 22",
        b"THE (quick) fox",
        b"f(a(b)c)d)",
        b" \t\n\x0b\x0c\rx",
        b"a\0b\0",
        b"\x80\xff abc\x7f",
        b"[]]-%^$",
        b"1.5e10 0x1F",
        b"  trim  ",
        b"a,b,,c",
        b"THE (quick) fox jumps",
        b"^a^a",
    ];

    const PATTERNS: &[&[u8]] = &[
        b"",
        b"a",
        b"abc",
        b"^abc",
        b"abc$",
        b"^$",
        b"$",
        b"^",
        b"^^",
        b"a$b",
        b"$$",
        b"a*",
        b"a+",
        b"a-",
        b"a?",
        b"a?b",
        b"^a?a?b",
        b".",
        b".-",
        b".*",
        b"%a+",
        b"%A+",
        b"%c",
        b"%C+",
        b"%d+",
        b"%D+",
        b"%l+",
        b"%L+",
        b"%p+",
        b"%P+",
        b"%s+",
        b"%S+",
        b"%u+",
        b"%U+",
        b"%w+",
        b"%W+",
        b"%x+",
        b"%X+",
        b"%z",
        b"%Z+",
        b"%g",
        b"%.",
        b"%%",
        b"%^",
        b"[abc]+",
        b"[^abc]+",
        b"[a-z]+",
        b"[%a_][%w_]*",
        b"[%]]",
        b"[]]",
        b"[^]]+",
        b"[a-]",
        b"[-a]+",
        b"[%-]",
        b"[a%-z]+",
        b"[%s%p]+",
        b"[^%s]+",
        b"[\x80-\xff]+",
        b"[%z]",
        b"[z-a]",
        b"[%^]",
        b"[^^]",
        b"\x80",
        b"a\0b",
        b"\0",
        b"a\0.",
        b"%z+",
        b"()",
        b"(a)",
        b"(a)(b)",
        b"((a)(b))",
        b"(a*(.)%w(%s*))",
        b"()a()",
        b"()a*()",
        b"(%a+)=(%w+)",
        b"(%w+) = (%w+)",
        b"(.)%1",
        b"(%a)%1",
        b"(a+)%1",
        b"()%1",
        b"(a)%2",
        b"%1",
        b"%0",
        b"(a%1)",
        b"%b()",
        b"%b)(",
        b"%b((",
        b"%b(",
        b"%b",
        b"%bxy",
        b"%f[%a]%a+",
        b"%f[%A]",
        b"%f[%z]",
        b"%f[%Z]",
        b"%f[^%z]",
        b"%fa",
        b"%f",
        b"%f[a",
        b"[a",
        b"[^",
        b"[",
        b"[%",
        b"[a%",
        b"%",
        b"a%",
        b"(",
        b")",
        b"a)",
        b"(()",
        b"((a)",
        b"(a",
        b"a.-b",
        b"a.*b",
        b"^(a-)b",
        b"x*$",
        b"^(%s*)(.-)(%s*)$",
        b"(h)(e)(l)(l)(o)",
        b"([^,]*)",
        b"%s*$",
        b"a-$",
        b"^.-$",
        b"%d+%.?%d*",
        b"0x%x+",
        b"^a^a",
        b"%^a",
        b"[%a-z]",
        b"[a-%%]+",
        b"-",
        b"*",
        b"+a",
        b"?",
        b"a**",
        b"(?)",
    ];

    #[test]
    fn find_and_match_agree_with_c() {
        let both = state(u64::MAX);
        let mut patterns: Vec<Vec<u8>> = PATTERNS.iter().map(|p| p.to_vec()).collect();
        patterns.push(b"(a)".repeat(32));
        patterns.push(b"(a)".repeat(33)); // too many captures
        patterns.push(b"()".repeat(33));
        patterns.push(b"(()".repeat(20));
        let mut inits = vec![None];
        inits.extend(
            [
                1.0, 2.0, 0.0, -1.0, -3.0, 4.0, 5.0, 100.0, -100.0, 2.7, -2.5, 1e300, -1e300,
            ]
            .map(Some),
        );
        for subject in SUBJECTS {
            let s = both.text(subject);
            for pattern in &patterns {
                let p = both.text(pattern);
                for init in &inits {
                    let mut args = vec![s.clone(), p.clone()];
                    if let Some(init) = init {
                        args.push(Value::Number(*init));
                    }
                    both.same("find", &args);
                    both.same("match", &args);
                    args.resize(3, Value::Nil);
                    for plain in [
                        Value::Boolean(true),
                        Value::Boolean(false),
                        Value::Integer(0),
                    ] {
                        args.push(plain);
                        both.same("find", &args);
                        args.pop();
                    }
                }
                both.same_gmatch(&[s.clone(), p.clone()]);
            }
        }
        // Some answers, to be sure both are not wrong together in the harness.
        let find = |code: &str| {
            both.checked(
                "find",
                &both
                    .lua
                    .load(code)
                    .eval::<MultiValue>()
                    .unwrap()
                    .into_iter()
                    .collect::<Vec<_>>(),
            )
        };
        assert_eq!(
            find(r#"return "hello world", "o w""#),
            Ok(vec![Out::Num(5.0), Out::Num(7.0)])
        );
        assert_eq!(
            find(r#"return "key = val", "(%w+) = (%w+)""#),
            Ok(vec![
                Out::Num(1.0),
                Out::Num(9.0),
                Out::Str(b"key".to_vec()),
                Out::Str(b"val".to_vec())
            ])
        );
        assert_eq!(
            find(r#"return "a+b", "+", 1, true"#),
            Ok(vec![Out::Num(2.0), Out::Num(2.0)])
        );
        assert_eq!(
            find(r#"return "abc", "%""#),
            Err("malformed pattern (ends with '%')".to_owned())
        );
        assert_eq!(
            find(r#"return "abc", "[a""#),
            Err("malformed pattern (missing ']')".to_owned())
        );
        assert_eq!(
            find(r#"return "abc", "%fa""#),
            Err("missing '[' after '%f' in pattern".to_owned())
        );
        assert_eq!(
            find(r#"return "abc", "%1""#),
            Err("invalid capture index".to_owned())
        );
        assert_eq!(
            find(r#"return "abc", "a.)""#),
            Err("invalid pattern capture".to_owned())
        );
        assert_eq!(
            find(r#"return "abc", "(a""#),
            Err("unfinished capture".to_owned())
        );
        assert_eq!(
            find(r#"return "abc", "%b""#),
            Err("unbalanced pattern".to_owned())
        );
        assert_eq!(
            find(r#"return ("a"):rep(40), ("(a)"):rep(33)"#),
            Err("too many captures".to_owned())
        );
    }

    #[test]
    fn argument_conversions_agree_with_c() {
        let both = state(u64::MAX);
        let values = [
            Value::Nil,
            Value::Boolean(true),
            Value::Integer(12),
            Value::Number(1.5),
            both.text(b"2"),
            both.text(b" 0x10 "),
            both.text(b"1"),
            both.text(b"x"),
            both.eval("return {}"),
            both.eval("return function() end"),
        ];
        for a in &values {
            for b in &values {
                both.same("find", &[a.clone(), b.clone()]);
                both.same("match", &[a.clone(), b.clone()]);
                both.same("gsub", &[a.clone(), b.clone(), both.text(b"<%0>")]);
                both.same_gmatch(&[a.clone(), b.clone()]);
                for c in &values {
                    both.same(
                        "find",
                        &[both.text(b"12 1.5 x 2"), a.clone(), b.clone(), c.clone()],
                    );
                    both.same("match", &[both.text(b"12 1.5 x 2"), a.clone(), b.clone()]);
                    both.same(
                        "gsub",
                        &[both.text(b"12 1.5 x 2"), a.clone(), b.clone(), c.clone()],
                    );
                }
            }
        }
        both.same("find", &[]);
        both.same("gsub", &[both.text(b"abc"), both.text(b"b")]);
        both.same_gmatch(&[]);
    }

    #[test]
    fn gsub_agrees_with_c() {
        let both = state(u64::MAX);
        let mut repls: Vec<Value> = [
            &b""[..],
            b"x",
            b"%0",
            b"%1",
            b"%2",
            b"<%1|%2>",
            b"%%",
            b"%",
            b"a%",
            b"%a%",
            b"%9",
            b"[%0%0]",
            b"\0%\0",
        ]
        .iter()
        .map(|r| both.text(r))
        .collect();
        repls.push(Value::Number(12.5));
        repls.push(Value::Integer(7));
        for code in [
            r#"{ hello = "HI", world = false, a = "A", b = 1, l = {}, [1] = "one", [2] = 2.5 }"#,
            "setmetatable({}, { __index = function(_, k) return type(k) == 'string' and k:upper() or nil end })",
            r##"function(...)
                local parts = {}
                for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
                return table.concat(parts, "|") .. "#" .. select("#", ...)
            end"##,
            "function() end",
            "function() return false end",
            "function(x) if x == 'a' then return nil end return 42 end",
            "function() return {} end",
            "function() return true end",
            "function(x) return x == 'b' and x or nil end",
        ] {
            repls.push(both.eval(&format!("return {code}")));
        }
        let limits = [
            None,
            Some(Value::Integer(0)),
            Some(Value::Integer(1)),
            Some(Value::Integer(2)),
            Some(Value::Integer(-1)),
            Some(Value::Number(1.7)),
            Some(both.text(b"1")),
            Some(Value::Nil),
        ];
        let mut patterns: Vec<Vec<u8>> = PATTERNS.iter().map(|p| p.to_vec()).collect();
        patterns.push(b"(a)".repeat(33));
        for subject in SUBJECTS {
            let s = both.text(subject);
            for pattern in &patterns {
                let p = both.text(pattern);
                for repl in &repls {
                    for limit in &limits {
                        let mut args = vec![s.clone(), p.clone(), repl.clone()];
                        args.extend(limit.clone());
                        both.same("gsub", &args);
                    }
                }
            }
        }
        let gsub = |code: &str| {
            let args: Vec<Value> = both
                .lua
                .load(code)
                .eval::<MultiValue>()
                .unwrap()
                .into_iter()
                .collect();
            both.checked("gsub", &args)
        };
        assert_eq!(
            gsub(r#"return "hello world", "(%w+)", "<%1>""#),
            Ok(vec![Out::Str(b"<hello> <world>".to_vec()), Out::Num(2.0)])
        );
        assert_eq!(
            gsub(r#"return "abc", "", "-""#),
            Ok(vec![Out::Str(b"-a-b-c-".to_vec()), Out::Num(4.0)])
        );
        assert_eq!(
            gsub(r#"return "abc", "%w", "%2""#),
            Err("invalid capture index".to_owned())
        );
        assert_eq!(
            gsub(r#"return "abc", "%w", function() return {} end"#),
            Err("invalid replacement value (a table)".to_owned())
        );
    }

    #[test]
    fn gmatch_iterates_like_c_with_anchors() {
        let both = state(u64::MAX);
        // In 5.1, gmatch takes '^' as a plain character.
        let words: Vec<String> = both
            .lua
            .load(
                r#"local t = {}
                   for w in string.gmatch("^a^a a", "^a") do t[#t + 1] = w end
                   for k, v in ("k1=v1, k2=v2"):gmatch("(%w+)=(%w+)") do t[#t + 1] = k .. ":" .. v end
                   for p in ("abc"):gmatch("()") do t[#t + 1] = tostring(p) end
                   return t"#,
            )
            .eval::<Vec<String>>()
            .unwrap();
        assert_eq!(words, ["^a", "^a", "k1:v1", "k2:v2", "1", "2", "3", "4"]);
        for (s, p) in [
            ("^a^a a", "^a"),
            ("aaa", "^"),
            ("", "^"),
            ("abc", "$"),
            ("abc", "a*"),
            ("abc", "x*"),
            ("abc", ".-"),
            ("a b", "%f[%w]%w*"),
        ] {
            both.same_gmatch(&[both.text(s.as_bytes()), both.text(p.as_bytes())]);
        }
        // An exhausted iterator keeps returning nothing.
        let left: MultiValue = both
            .lua
            .load(r#"local it = string.gmatch("ab", "%a") it() it() it() return it()"#)
            .eval()
            .unwrap();
        assert!(left.is_empty());
    }

    /// The error of a run that stops at `limit`.
    fn stopped(limit: u64) -> String {
        format!("the script ran {limit} instructions without emu.frameadvance(): stopped")
    }

    const BACKTRACKING: &str =
        r#"return string.find(string.rep("a", 5000), string.rep("a-", 30) .. "b")"#;

    #[test]
    fn backtracking_stops_at_the_limit() {
        let limit = 1_000_000;
        let counts: Vec<u64> = (0..2)
            .map(|_| {
                let both = state(limit);
                let result = both.lua.load(BACKTRACKING).exec();
                assert_eq!(message(&result.unwrap_err()), stopped(limit));
                both.work.load(Ordering::Relaxed)
            })
            .collect();
        // Counted, not timed: the same count on every run, just past the limit.
        assert_eq!(counts[0], counts[1]);
        assert!(
            counts[0] > limit && counts[0] <= limit + BATCH + 64,
            "{counts:?}"
        );
        // The method syntax goes through the string table too.
        let both = state(limit);
        let method = both
            .lua
            .load(r#"local s = ("a"):rep(5000) return s:find(("a-"):rep(30) .. "b")"#)
            .exec();
        assert_eq!(message(&method.unwrap_err()), stopped(limit));
        let both = state(0);
        let method = both.lua.load(r#"return ("x"):match("x")"#).exec();
        assert_eq!(message(&method.unwrap_err()), stopped(0));
        // Once the count is past the limit every call stops, gsub's and gmatch's included.
        for code in [
            r#"return ("x"):gsub("x", "y")"#,
            r#"return ("x"):gmatch("x")()"#,
            r#"return ("x"):find("x", 1, true)"#,
        ] {
            assert_eq!(
                message(&both.lua.load(code).exec().unwrap_err()),
                stopped(0)
            );
        }
        // A plain search is counted too.
        let both = state(10_000);
        let plain = both
            .lua
            .load(r#"return (("a"):rep(100000)):find(("a"):rep(5000) .. "b", 1, true)"#)
            .exec();
        assert_eq!(message(&plain.unwrap_err()), stopped(10_000));
    }

    #[test]
    fn normal_work_fits_a_big_limit() {
        let both = state(crate::INSTRUCTION_LIMIT);
        let result: String = both
            .lua
            .load(
                r#"local out = {}
                   for i = 1, 200 do
                     local line = "score=" .. i * 10 .. " lines=" .. i
                     local score, lines = line:match("score=(%d+) lines=(%d+)")
                     assert(tonumber(score) == i * 10 and tonumber(lines) == i)
                     assert(line:find("lines", 1, true))
                     out[#out + 1] = (line:gsub("%d+", function(d) return "<" .. d .. ">" end))
                   end
                   local n = 0
                   for w in table.concat(out, " "):gmatch("%a+") do n = n + 1 end
                   assert(n == 400)
                   return out[200]"#,
            )
            .eval()
            .unwrap();
        assert_eq!(result, "score=<2000> lines=<200>");
        let work = both.work.load(Ordering::Relaxed);
        assert!(work > 1_000 && work < 1_000_000, "{work}");
    }

    #[test]
    fn deep_patterns_are_too_complex() {
        let both = state(u64::MAX);
        let deep = both
            .lua
            .load(r#"return string.find(("a"):rep(300), ("a?"):rep(300))"#)
            .exec();
        assert_eq!(message(&deep.unwrap_err()), "pattern too complex");
        let fine: (i64, i64) = both
            .lua
            .load(r#"return string.find(("a"):rep(150), ("a?"):rep(150))"#)
            .eval()
            .unwrap();
        assert_eq!(fine, (1, 150));
    }

    #[test]
    fn gsub_propagates_its_functions_errors() {
        let both = state(u64::MAX);
        let error = both
            .lua
            .load(r#"return string.gsub("abc", "b", function() error("boom") end)"#)
            .exec()
            .unwrap_err();
        assert!(message(&error).contains("boom"), "{error}");
        let caught: bool = both
            .lua
            .load(
                r#"local ok, e = pcall(string.gsub, "abc", "%w", function(c)
                       if c == "c" then error("no c") end
                       return c:upper()
                   end)
                   return not ok and tostring(e):find("no c", 1, true) ~= nil"#,
            )
            .eval()
            .unwrap();
        assert!(caught);
        // A repl function that runs out of instructions stops the call too (here through the
        // count of the matches the function itself makes).
        let both = state(5_000);
        let error = both
            .lua
            .load(
                r#"return ("x"):rep(100):gsub("x", function(c)
                       return (("a"):rep(50)):find("a-b")
                   end)"#,
            )
            .exec()
            .unwrap_err();
        assert_eq!(message(&error), stopped(5_000));
    }

    #[test]
    fn gsub_output_is_held_by_luas_memory_limit() {
        let both = state(u64::MAX);
        both.lua.set_memory_limit(16 << 20).unwrap();
        let error = both
            .lua
            .load(r#"return string.gsub(string.rep("a", 1000), "", string.rep("b", 100000))"#)
            .exec()
            .unwrap_err();
        assert!(
            matches!(error, mlua::Error::MemoryError(_)) || message(&error).contains("memory"),
            "{error}"
        );
        // Output of several pieces comes out whole.
        both.lua.set_memory_limit(0).unwrap();
        let (out, n): (mlua::String, i64) = both
            .lua
            .load(r#"return string.gsub(string.rep("ab", 700000), "a", "xyz")"#)
            .eval()
            .unwrap();
        assert_eq!(n, 700_000);
        assert_eq!(&out.as_bytes()[..], &b"xyzb".repeat(700_000)[..]);
    }

    /// A pattern from a small grammar: items, quantifiers, captures, anchors.
    fn pattern() -> impl Strategy<Value = Vec<u8>> {
        let token = prop::sample::select(vec![
            "a", "b", " ", ".", "%a", "%d", "%s", "%A", "%W", "[ab]", "[^a]", "[a-b]", "[%a(]",
            "(", ")", "()", "%b()", "%f[ab]", "%f[^a]", "%1", "%2", "%z", "x", "%(",
        ]);
        let quantifier = prop::sample::select(vec!["", "", "", "*", "+", "-", "?"]);
        (
            any::<bool>(),
            prop::collection::vec((token, quantifier), 0..6),
            any::<bool>(),
        )
            .prop_map(|(anchor, items, end)| {
                let mut p = String::new();
                if anchor {
                    p.push('^');
                }
                for (token, quantifier) in items {
                    p.push_str(token);
                    p.push_str(quantifier);
                }
                if end {
                    p.push('$');
                }
                p.into_bytes()
            })
    }

    /// Any short string of the pattern's special characters (malformed ones included).
    fn raw_pattern() -> impl Strategy<Value = Vec<u8>> {
        prop::collection::vec(prop::sample::select(b"ab^$*+?.()[]%-1fz".to_vec()), 0..9)
    }

    fn subject() -> impl Strategy<Value = Vec<u8>> {
        prop::collection::vec(prop::sample::select(b"ab() x1".to_vec()), 0..12)
    }

    fn replacement() -> impl Strategy<Value = Vec<u8>> {
        prop::collection::vec(
            prop::sample::select(vec!["x", "%0", "%1", "%2", "%%", "-", "%"]),
            0..4,
        )
        .prop_map(|parts| parts.concat().into_bytes())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn random_patterns_agree_with_c(
            s in subject(),
            p in prop_oneof![pattern(), raw_pattern()],
            init in prop::option::of(-14i64..14),
            plain in any::<bool>(),
            repl in replacement(),
            n in prop::option::of(-1i64..4),
        ) {
            let both = state(u64::MAX);
            let (s, p) = (both.text(&s), both.text(&p));
            let mut args = vec![s.clone(), p.clone()];
            args.extend(init.map(Value::Integer));
            both.same("find", &args);
            both.same("match", &args);
            args.resize(3, Value::Nil);
            args.push(Value::Boolean(plain));
            both.same("find", &args);
            both.same_gmatch(&[s.clone(), p.clone()]);
            let mut gsub = vec![s.clone(), p.clone(), both.text(&repl)];
            gsub.extend(n.map(Value::Integer));
            both.same("gsub", &gsub);
            let function = both.eval("return function(...) return table.concat({...}, ',') .. select('#', ...) end");
            both.same("gsub", &[s, p, function]);
        }
    }
}
