//! `memory`: the CPU's bus. Reads of $0000-$1FFF (RAM and its mirrors) see RAM at the end of
//! the last frame with the script's own writes since; reads of the rest see the bus as the
//! frame left it, without side effects (PPU and APU registers as a debugger sees them, work
//! RAM, ROM as banked now). Writes go to RAM at once for the script and to the console before
//! the next frame.

use super::{during_frame, refuse, PEEK};
use crate::console::{Console, Shared};
use crate::hooked::{Hooked, KINDS};
use crate::work::Work;
use jewelbot_plugin::{MemoryAccess, MemoryHit};
use mlua::{Function, Lua, Table, Value};

/// Where the memory hooks' functions are kept (Lua's registry): a table by kind, then by
/// address, one function an address as in FCEUX (a hook over a range sets each of its
/// addresses).
const HOOKS: &str = "jewelbot.memory.hooks";

/// A hook's kind as a key of [`HOOKS`].
fn kind_key(access: MemoryAccess) -> &'static str {
    match access {
        MemoryAccess::Read => "read",
        MemoryAccess::Write => "write",
        MemoryAccess::Execute => "exec",
    }
}

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

pub fn install(lua: &Lua, shared: &Shared, work: &Work) -> mlua::Result<()> {
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
    let hooks = lua.create_table()?;
    for access in [
        MemoryAccess::Read,
        MemoryAccess::Write,
        MemoryAccess::Execute,
    ] {
        hooks.set(kind_key(access), lua.create_table()?)?;
    }
    lua.set_named_registry_value(HOOKS, hooks)?;
    for (name, access) in [
        ("register", MemoryAccess::Write),
        ("registerwrite", MemoryAccess::Write),
        ("registerread", MemoryAccess::Read),
        ("registerexec", MemoryAccess::Execute),
        ("registerexecute", MemoryAccess::Execute),
        ("registerrun", MemoryAccess::Execute),
    ] {
        let s = shared.clone();
        let w = work.clone();
        let function = format!("memory.{name}");
        memory.set(
            name,
            lua.create_function(move |lua, args: mlua::MultiValue| {
                register(lua, &s, &w, &function, access, args)
            })?,
        )?;
    }
    lua.globals().set("memory", memory)
}

/// `memory.registerwrite(address, [size,] function)` and its kin: `function` (nil removes the
/// hooks) is called with (address, 1, value) for each access to `address` .. `address + size -
/// 1`, each address's hook replacing the one it had. Setting each address is work, charged.
/// The host is given the hooked addresses once the script's part of the frame is over.
fn register(
    lua: &Lua,
    shared: &Shared,
    work: &Work,
    function: &str,
    access: MemoryAccess,
    args: mlua::MultiValue,
) -> mlua::Result<()> {
    let args: Vec<Value> = args.into_iter().collect();
    let number = |value: Option<&Value>, what: &str| -> mlua::Result<f64> {
        match value {
            Some(Value::Integer(n)) => Ok(*n as f64),
            Some(Value::Number(n)) => Ok(*n),
            _ => Err(refuse(function, &format!("the {what} is not a number"))),
        }
    };
    let address = bus_address(function, number(args.first(), "address")?)?;
    // (address, function) or (address, size, function).
    let (size, hook) = match args.len() {
        0..=2 => (1.0, args.get(1).cloned().unwrap_or(Value::Nil)),
        _ => (number(args.get(1), "size")?, args[2].clone()),
    };
    if size.fract() != 0.0 || size < 1.0 || f64::from(address) + size > 65536.0 {
        return Err(refuse(
            function,
            &format!("size {size} does not fit from ${address:04X}"),
        ));
    }
    let hook = match hook {
        Value::Function(f) => Some(f),
        Value::Nil => None,
        other => {
            return Err(refuse(
                function,
                &format!(
                    "the hook must be a function or nil, not {}",
                    other.type_name()
                ),
            ))
        }
    };
    work.charge(size as u64)?;
    let hooks: Table = lua.named_registry_value(HOOKS)?;
    let of_kind: Table = hooks.get(kind_key(access))?;
    let mut console = shared.lock();
    for at in u32::from(address)..u32::from(address) + size as u32 {
        of_kind.raw_set(at, hook.clone())?;
        console.hooked.set(access, at as u16, hook.is_some());
    }
    Ok(())
}

/// Calls the hooks of the accesses the frame made, in the order they happened.
pub(crate) fn call_hooks(
    lua: &Lua,
    shared: &Shared,
    work: &Work,
    hits: &[MemoryHit],
) -> mlua::Result<()> {
    if hits.is_empty() {
        return Ok(());
    }
    let hooks: Table = lua.named_registry_value(HOOKS)?;
    let of_kinds: Vec<Table> = KINDS
        .iter()
        .map(|&access| hooks.get(kind_key(access)))
        .collect::<mlua::Result<_>>()?;
    for hit in hits {
        work.charge(1)?;
        if !shared.lock().hooked.has(hit.access, hit.address) {
            continue;
        }
        let hook: Option<Function> = of_kinds[Hooked::index(hit.access)].raw_get(hit.address)?;
        if let Some(hook) = hook {
            hook.call::<()>((hit.address, 1, hit.value))?;
        }
    }
    Ok(())
}
