//! `rom`, `movie`, `savestate` and `input`: what of them the host can honour.

use super::{during_frame, refuse, unsupported, SAVE};
use crate::console::Shared;
use jewelbot_plugin::ConsoleRequest;
use mlua::{Lua, Table};

/// Bytes of the iNES header before the ROM's data.
const HEADER: f64 = 16.0;

const NO_PERSIST: &str = "states are kept in memory only (`run --save-state` writes a file)";
/// The field of a savestate object that holds its state (a string of bytes).
const STATE: &str = "jewelbot.state";
/// Where the numbered savestate objects are kept (Lua's registry), one for each slot.
const SLOTS: &str = "jewelbot.savestate.slots";
const NO_MOVIES: &str = "a script cannot start or stop movies here (use `--record-movie` and \
                         `--movie`)";
const NO_INPUT: &str =
    "the host shows plug-ins the person's controller (joypad.get), not the keyboard and mouse";

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

    lua.globals()
        .set("savestate", savestate_table(lua, shared)?)?;

    let input = lua.create_table()?;
    for (name, function) in [("get", "input.get"), ("read", "input.read")] {
        input.set(name, unsupported(lua, function, NO_INPUT)?)?;
    }
    lua.globals().set("input", input)
}

/// `savestate`: objects that hold a state of the console, in memory. `object(n)` and
/// `create(n)` give slot n's object (the same one each time), without `n` a new one; `save`
/// keeps the console's state now; `load` returns to it once the script's part of the frame is
/// over (before the next frame runs: reads until then still see the frame before).
fn savestate_table(lua: &Lua, shared: &Shared) -> mlua::Result<Table> {
    let savestate = lua.create_table()?;
    lua.set_named_registry_value(SLOTS, lua.create_table()?)?;
    let object = lua.create_function(|lua, slot: Option<f64>| {
        let Some(slot) = slot else {
            return lua.create_table();
        };
        if slot.fract() != 0.0 || !(0.0..=10.0).contains(&slot) {
            return Err(refuse(
                "savestate.object",
                &format!("slot {slot} is not 0 to 10"),
            ));
        }
        let slots: Table = lua.named_registry_value(SLOTS)?;
        if let Some(existing) = slots.get::<Option<Table>>(slot as i64)? {
            return Ok(existing);
        }
        let fresh = lua.create_table()?;
        slots.set(slot as i64, fresh.clone())?;
        Ok(fresh)
    })?;
    savestate.set("object", object.clone())?;
    savestate.set("create", object)?;
    savestate.set(
        "save",
        lua.create_function(|lua, object: Table| {
            let state: mlua::String = during_frame(lua, SAVE, "savestate.save")?.call(())?;
            object.set(STATE, state)
        })?,
    )?;
    let s = shared.clone();
    savestate.set(
        "load",
        lua.create_function(move |_, object: Table| {
            let Some(state) = object.get::<Option<mlua::String>>(STATE)? else {
                return Err(refuse(
                    "savestate.load",
                    "the object holds no state: savestate.save it first",
                ));
            };
            s.lock()
                .requests
                .push(ConsoleRequest::LoadState(state.as_bytes().to_vec()));
            Ok(())
        })?,
    )?;
    savestate.set(
        "persist",
        unsupported(lua, "savestate.persist", NO_PERSIST)?,
    )?;
    Ok(savestate)
}
