//! `emu`: the frame loop. `emu.frameadvance` yields the script's coroutine until the next
//! frame has run; `registerbefore`, `registerafter` and `registerexit` keep one function each
//! for the plug-in to call around every frame and when the run ends.

use super::{refuse, unsupported};
use crate::console::Shared;
use jewelbot_plugin::ConsoleRequest;
use mlua::{Function, Lua, MultiValue, Value};

/// Where the registered callbacks are kept (Lua's registry).
pub const BEFORE: &str = "jewelbot.emu.before";
pub const AFTER: &str = "jewelbot.emu.after";
pub const EXIT: &str = "jewelbot.emu.exit";

const NO_PAUSE: &str = "the host paces frames: a script cannot pause the console";

/// Longest text a script may draw or show as a message, in bytes: far more than the picture
/// holds, and bounded so that what the host keeps of a frame stays small.
pub const MOST_TEXT_BYTES: usize = 4096;

/// The values as Lua's `print` writes them, each through the global `tostring` (so numbers
/// read as Lua writes them, `%.14g`, and `__tostring` is honoured).
fn strings(lua: &Lua, values: MultiValue) -> mlua::Result<Vec<mlua::String>> {
    let tostring: Function = lua.globals().get("tostring")?;
    values
        .into_iter()
        .map(|value| match tostring.call::<Value>(value)? {
            Value::String(text) => Ok(text),
            _ => Err(mlua::Error::RuntimeError(
                "'tostring' must return a string to 'print'".to_owned(),
            )),
        })
        .collect()
}

/// The values as one line (separated by tabs), refused with an error naming `function` past
/// [`MOST_TEXT_BYTES`].
pub(crate) fn printed(lua: &Lua, function: &str, values: MultiValue) -> mlua::Result<String> {
    let parts = strings(lua, values)?;
    let length = parts.iter().map(|p| p.as_bytes().len() + 1).sum::<usize>();
    if length > MOST_TEXT_BYTES + 1 {
        return Err(refuse(
            function,
            &format!(
                "{} bytes of text is more than the {MOST_TEXT_BYTES} a script may show",
                length - 1
            ),
        ));
    }
    let parts: Vec<String> = parts.iter().map(mlua::String::to_string_lossy).collect();
    Ok(parts.join("\t"))
}

/// `print`: the values to standard error, as they are (no copy of a long string).
fn print(lua: &Lua, values: MultiValue) -> mlua::Result<()> {
    use std::io::Write;
    let parts = strings(lua, values)?;
    let mut err = std::io::stderr().lock();
    for (index, part) in parts.iter().enumerate() {
        if index > 0 {
            let _ = err.write_all(b"\t");
        }
        let _ = err.write_all(&part.as_bytes());
    }
    let _ = err.write_all(b"\n");
    Ok(())
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
        lua.create_function(move |lua, text: MultiValue| {
            let text = printed(lua, "emu.message", text)?;
            eprintln!("lua: {text}");
            s.lock().message = Some(text);
            Ok(())
        })?,
    )?;
    let print = lua.create_function(print)?;
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
