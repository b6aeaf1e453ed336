//! `emu`: the frame loop. `emu.frameadvance` yields the script's coroutine until the next
//! frame has run; `registerbefore`, `registerafter` and `registerexit` keep one function each
//! for the plug-in to call around every frame and when the run ends.

use super::unsupported;
use crate::console::Shared;
use jewelbot_plugin::ConsoleRequest;
use mlua::{Function, Lua, MultiValue};

/// Where the registered callbacks are kept (Lua's registry).
pub const BEFORE: &str = "jewelbot.emu.before";
pub const AFTER: &str = "jewelbot.emu.after";
pub const EXIT: &str = "jewelbot.emu.exit";

const NO_PAUSE: &str = "the host paces frames: a script cannot pause the console";

/// The script's output, as FCEUX's Lua console shows it: values separated by tabs.
pub(crate) fn printed(values: &MultiValue) -> mlua::Result<String> {
    let parts: Vec<String> = values
        .iter()
        .map(|value| match value {
            mlua::Value::String(s) => Ok(s.to_string_lossy()),
            mlua::Value::Nil => Ok("nil".to_owned()),
            mlua::Value::Boolean(b) => Ok(b.to_string()),
            mlua::Value::Integer(i) => Ok(i.to_string()),
            mlua::Value::Number(n) => Ok(lua_number(*n)),
            other => Ok(format!("{}: {:p}", other.type_name(), other.to_pointer())),
        })
        .collect::<mlua::Result<_>>()?;
    Ok(parts.join("\t"))
}

/// A number as Lua 5.1 prints it (`%.14g`).
fn lua_number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{n:.0}")
    } else {
        format!("{n}")
    }
}

pub fn install(lua: &Lua, shared: &Shared) -> mlua::Result<()> {
    let emu = lua.create_table()?;
    let coroutine: mlua::Table = lua.globals().get("coroutine")?;
    emu.set("frameadvance", coroutine.get::<Function>("yield")?)?;
    let s = shared.clone();
    emu.set(
        "framecount",
        lua.create_function(move |_, ()| Ok(s.lock().frame))?,
    )?;
    for (name, key) in [
        ("registerbefore", BEFORE),
        ("registerafter", AFTER),
        ("registerexit", EXIT),
    ] {
        emu.set(
            name,
            lua.create_function(move |lua, f: Option<Function>| {
                let old: Option<Function> = lua.named_registry_value(key)?;
                lua.set_named_registry_value(key, f)?;
                Ok(old)
            })?,
        )?;
    }
    // The host paces frames: every speed is taken and none changes it.
    emu.set("speedmode", lua.create_function(|_, _: String| Ok(()))?)?;
    emu.set("emulating", lua.create_function(|_, ()| Ok(true))?)?;
    let s = shared.clone();
    emu.set(
        "message",
        lua.create_function(move |_, text: MultiValue| {
            let text = printed(&text)?;
            eprintln!("lua: {text}");
            s.lock().message = Some(text);
            Ok(())
        })?,
    )?;
    let print = lua.create_function(|_, values: MultiValue| {
        eprintln!("{}", printed(&values)?);
        Ok(())
    })?;
    emu.set("print", print.clone())?;
    lua.globals().set("print", print)?;
    // Done by the host once the script's part of the frame is over.
    for (name, request) in [
        ("poweron", ConsoleRequest::PowerOn),
        ("softreset", ConsoleRequest::Reset),
    ] {
        let s = shared.clone();
        emu.set(
            name,
            lua.create_function(move |_, ()| {
                s.lock().requests.push(request.clone());
                Ok(())
            })?,
        )?;
    }
    let s = shared.clone();
    emu.set(
        "lagcount",
        lua.create_function(move |_, ()| Ok(s.lock().lag_count))?,
    )?;
    let s = shared.clone();
    emu.set(
        "lagged",
        lua.create_function(move |_, ()| Ok(s.lock().lagged))?,
    )?;
    for (name, function) in [("pause", "emu.pause"), ("unpause", "emu.unpause")] {
        emu.set(name, unsupported(lua, function, NO_PAUSE)?)?;
    }
    lua.globals().set("emu", emu.clone())?;
    // FCEUX's older name for the same table.
    lua.globals().set("FCEU", emu)
}
