//! `memory`: the CPU's bus. Reads of $0000-$1FFF (RAM and its mirrors) see RAM at the end of
//! the last frame with the script's own writes since; reads of the rest see the bus as the
//! frame left it, without side effects (PPU and APU registers as a debugger sees them, work
//! RAM, ROM as banked now). Writes go to RAM at once for the script and to the console before
//! the next frame.

use super::{during_frame, refuse, unsupported, PEEK};
use crate::console::{Console, Shared};
use mlua::Lua;

const NO_CALLBACKS: &str = "memory callbacks are not supported: the plug-in API does not yet \
                            give plug-ins the CPU's reads, writes and executions";

/// A bus address from Lua, or an error naming `function`.
fn bus_address(function: &str, address: f64) -> mlua::Result<u16> {
    if address.fract() != 0.0 || !(0.0..=65535.0).contains(&address) {
        return Err(refuse(
            function,
            &format!("address {address} is not one of the CPU's ($0000-$FFFF)"),
        ));
    }
    Ok(address as u16)
}

/// The byte at `address`, as the script sees it.
pub(crate) fn read(lua: &Lua, console: &Console, function: &str, address: f64) -> mlua::Result<u8> {
    let address = bus_address(function, address)?;
    match address {
        0x0000..=0x1FFF => Ok(console.ram[usize::from(address) & 0x07FF]),
        _ => during_frame(lua, PEEK, function)?.call(address),
    }
}

/// The little-endian word at `low` and `high` (by default the byte after `low`).
fn read_word(
    lua: &Lua,
    console: &Console,
    function: &str,
    low: f64,
    high: Option<f64>,
) -> mlua::Result<u16> {
    let high = high.unwrap_or(low + 1.0);
    Ok(u16::from_le_bytes([
        read(lua, console, function, low)?,
        read(lua, console, function, high)?,
    ]))
}

fn write(console: &mut Console, address: f64, value: f64) -> mlua::Result<()> {
    let function = "memory.writebyte";
    let address = bus_address(function, address)?;
    if address > 0x1FFF {
        return Err(refuse(
            function,
            &format!("${address:04X} is not RAM: a script writes $0000-$1FFF only"),
        ));
    }
    // FCEUX keeps the low 8 bits of the value.
    let value = (value as i64 & 0xFF) as u8;
    let address = address & 0x07FF;
    console.ram[usize::from(address)] = value;
    console.pokes.push((address, value));
    Ok(())
}

pub fn install(lua: &Lua, shared: &Shared) -> mlua::Result<()> {
    let memory = lua.create_table()?;
    for name in ["readbyte", "readbyteunsigned"] {
        let s = shared.clone();
        let function = format!("memory.{name}");
        memory.set(
            name,
            lua.create_function(move |lua, address: f64| read(lua, &s.lock(), &function, address))?,
        )?;
    }
    let s = shared.clone();
    memory.set(
        "readbytesigned",
        lua.create_function(move |lua, address: f64| {
            Ok(read(lua, &s.lock(), "memory.readbytesigned", address)? as i8)
        })?,
    )?;
    for name in ["readword", "readwordunsigned"] {
        let s = shared.clone();
        let function = format!("memory.{name}");
        memory.set(
            name,
            lua.create_function(move |lua, (low, high): (f64, Option<f64>)| {
                read_word(lua, &s.lock(), &function, low, high)
            })?,
        )?;
    }
    let s = shared.clone();
    memory.set(
        "readwordsigned",
        lua.create_function(move |lua, (low, high): (f64, Option<f64>)| {
            Ok(read_word(lua, &s.lock(), "memory.readwordsigned", low, high)? as i16)
        })?,
    )?;
    let s = shared.clone();
    memory.set(
        "readbyterange",
        lua.create_function(move |lua, (address, length): (f64, f64)| {
            let console = s.lock();
            let function = "memory.readbyterange";
            if length.fract() != 0.0 || !(0.0..=65536.0).contains(&length) {
                return Err(refuse(
                    function,
                    &format!("length {length} is not 0 to 65536"),
                ));
            }
            let bytes = (0..length as u32)
                .map(|i| read(lua, &console, function, address + f64::from(i)))
                .collect::<mlua::Result<Vec<u8>>>()?;
            lua.create_string(&bytes)
        })?,
    )?;
    let s = shared.clone();
    memory.set(
        "writebyte",
        lua.create_function(move |_, (address, value): (f64, f64)| {
            write(&mut s.lock(), address, value)
        })?,
    )?;
    for name in [
        "register",
        "registerwrite",
        "registerread",
        "registerexec",
        "registerexecute",
        "registerrun",
    ] {
        let function: &'static str = match name {
            "register" => "memory.register",
            "registerwrite" => "memory.registerwrite",
            "registerread" => "memory.registerread",
            "registerexec" => "memory.registerexec",
            "registerexecute" => "memory.registerexecute",
            _ => "memory.registerrun",
        };
        memory.set(name, unsupported(lua, function, NO_CALLBACKS)?)?;
    }
    lua.globals().set("memory", memory)
}
