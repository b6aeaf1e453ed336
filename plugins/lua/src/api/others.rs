//! `rom`, `movie`, `savestate` and `input`: what of them the host can honour.

use super::{refuse, unsupported};
use crate::console::Shared;
use mlua::Lua;

/// Bytes of the iNES header before the ROM's data.
const HEADER: f64 = 16.0;

const NO_STATES: &str = "the plug-in API does not yet let plug-ins save or load the console's \
                         state (use `run --state` and `--save-state`)";
const NO_MOVIES: &str = "a script cannot start or stop movies here (use `--record-movie` and \
                         `--movie`)";
const NO_INPUT: &str = "the plug-in API does not yet show plug-ins the keyboard and mouse";

fn rom_byte(shared: &Shared, function: &str, address: f64) -> mlua::Result<u8> {
    let console = shared.lock();
    let offset = address - HEADER;
    if address.fract() != 0.0 || offset < 0.0 || offset >= console.rom.len() as f64 {
        return Err(refuse(
            function,
            &format!(
                "file offset {address} is not in the ROM's data (16 to {}; the header is not kept)",
                console.rom.len() as f64 + HEADER - 1.0
            ),
        ));
    }
    Ok(console.rom[offset as usize])
}

pub fn install(lua: &Lua, shared: &Shared) -> mlua::Result<()> {
    let rom = lua.create_table()?;
    let s = shared.clone();
    rom.set(
        "readbyte",
        lua.create_function(move |_, address: f64| rom_byte(&s, "rom.readbyte", address))?,
    )?;
    let s = shared.clone();
    rom.set(
        "readbytesigned",
        lua.create_function(move |_, address: f64| {
            Ok(rom_byte(&s, "rom.readbytesigned", address)? as i8)
        })?,
    )?;
    lua.globals().set("rom", rom)?;

    // A script's run plays no movie of its own making: what FCEUX says when none is active.
    let movie = lua.create_table()?;
    movie.set("active", lua.create_function(|_, ()| Ok(false))?)?;
    movie.set("mode", lua.create_function(|_, ()| Ok(mlua::Value::Nil))?)?;
    movie.set("rerecordcount", lua.create_function(|_, ()| Ok(0))?)?;
    let s = shared.clone();
    movie.set(
        "framecount",
        lua.create_function(move |_, ()| Ok(s.lock().frame))?,
    )?;
    for (name, function) in [
        ("record", "movie.record"),
        ("play", "movie.play"),
        ("playbeginning", "movie.playbeginning"),
        ("stop", "movie.stop"),
        ("close", "movie.close"),
    ] {
        movie.set(name, unsupported(lua, function, NO_MOVIES)?)?;
    }
    lua.globals().set("movie", movie)?;

    let savestate = lua.create_table()?;
    for (name, function) in [
        ("object", "savestate.object"),
        ("create", "savestate.create"),
        ("save", "savestate.save"),
        ("load", "savestate.load"),
        ("persist", "savestate.persist"),
    ] {
        savestate.set(name, unsupported(lua, function, NO_STATES)?)?;
    }
    lua.globals().set("savestate", savestate)?;

    let input = lua.create_table()?;
    for (name, function) in [("get", "input.get"), ("read", "input.read")] {
        input.set(name, unsupported(lua, function, NO_INPUT)?)?;
    }
    lua.globals().set("input", input)
}
