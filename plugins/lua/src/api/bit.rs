//! LuaBitOp's `bit` library, which FCEUX ships with its Lua 5.1: 32-bit operations on numbers,
//! results as signed 32-bit integers.

use mlua::{Lua, Variadic};

/// A Lua number as LuaBitOp takes it: modulo 2^32.
fn to_bits(value: f64) -> u32 {
    // LuaBitOp normalises through a double; whole numbers wrap, fractions round to even.
    let rounded = value.round_ties_even();
    (rounded.rem_euclid(4_294_967_296.0)) as u32
}

fn signed(bits: u32) -> f64 {
    f64::from(bits as i32)
}

fn fold(values: &[f64], start: u32, op: fn(u32, u32) -> u32) -> f64 {
    signed(values.iter().fold(start, |acc, &v| op(acc, to_bits(v))))
}

pub fn install(lua: &Lua) -> mlua::Result<()> {
    let bit = lua.create_table()?;
    bit.set(
        "tobit",
        lua.create_function(|_, x: f64| Ok(signed(to_bits(x))))?,
    )?;
    bit.set(
        "bnot",
        lua.create_function(|_, x: f64| Ok(signed(!to_bits(x))))?,
    )?;
    bit.set(
        "band",
        lua.create_function(|_, xs: Variadic<f64>| Ok(fold(&xs, u32::MAX, |a, b| a & b)))?,
    )?;
    bit.set(
        "bor",
        lua.create_function(|_, xs: Variadic<f64>| Ok(fold(&xs, 0, |a, b| a | b)))?,
    )?;
    bit.set(
        "bxor",
        lua.create_function(|_, xs: Variadic<f64>| Ok(fold(&xs, 0, |a, b| a ^ b)))?,
    )?;
    let shift = |op: fn(u32, u32) -> u32| {
        move |_: &Lua, (x, n): (f64, f64)| Ok(signed(op(to_bits(x), to_bits(n) & 31)))
    };
    bit.set("lshift", lua.create_function(shift(|x, n| x << n))?)?;
    bit.set("rshift", lua.create_function(shift(|x, n| x >> n))?)?;
    bit.set(
        "arshift",
        lua.create_function(shift(|x, n| ((x as i32) >> n) as u32))?,
    )?;
    bit.set("rol", lua.create_function(shift(u32::rotate_left))?)?;
    bit.set("ror", lua.create_function(shift(u32::rotate_right))?)?;
    bit.set(
        "bswap",
        lua.create_function(|_, x: f64| Ok(signed(to_bits(x).swap_bytes())))?,
    )?;
    bit.set(
        "tohex",
        lua.create_function(|_, (x, n): (f64, Option<f64>)| {
            let n = n.map_or(8, |n| n as i64);
            let digits = n.unsigned_abs().min(8) as usize;
            let bits = to_bits(x);
            let masked = if digits == 8 {
                bits
            } else {
                bits & ((1u32 << (4 * digits)) - 1)
            };
            Ok(if n < 0 {
                format!("{masked:0digits$X}")
            } else {
                format!("{masked:0digits$x}")
            })
        })?,
    )?;
    lua.globals().set("bit", bit)
}
