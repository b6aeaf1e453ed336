//! FCEUX's Lua tables, one module each: what a bot script calls, with FCEUX's names and
//! argument orders. A function the host cannot honour raises an error that names it and says
//! why, rather than doing something else quietly.

pub mod bit;
pub mod emu;
pub mod gui;
pub mod joypad;
pub mod memory;
pub mod others;
pub mod patterns;

use crate::console::Shared;
use crate::work::Work;
use mlua::Lua;

/// Where the console's functions that exist only while a frame is handled are kept (Lua's
/// registry): the whole bus, read without side effects, and the console's state.
pub const PEEK: &str = "jewelbot.console.peek";
pub const SAVE: &str = "jewelbot.console.save";

/// The console function kept at `key`, or an error naming `function`: the host shows the
/// console to plug-ins at frame boundaries (power-on's the first), not during the script's
/// first part.
pub(crate) fn during_frame(lua: &Lua, key: &str, function: &str) -> mlua::Result<mlua::Function> {
    lua.named_registry_value::<Option<mlua::Function>>(key)?
        .ok_or_else(|| {
            refuse(
                function,
                "the console beyond RAM is reached from power-on on, not in the script's first \
                 part",
            )
        })
}

/// An error naming the function and why it cannot do what was asked.
pub(crate) fn refuse(function: &str, why: &str) -> mlua::Error {
    mlua::Error::RuntimeError(format!("{function}: {why}"))
}

/// A function that always refuses: FCEUX has it, this host cannot do it (yet).
pub(crate) fn unsupported(
    lua: &Lua,
    function: &'static str,
    why: &'static str,
) -> mlua::Result<mlua::Function> {
    lua.create_function(move |_, _: mlua::MultiValue| -> mlua::Result<()> {
        Err(refuse(function, why))
    })
}

/// Installs every table into `lua`'s globals, the functions that loop in Rust charging
/// `work`.
pub fn install(lua: &Lua, shared: &Shared, work: &Work) -> mlua::Result<()> {
    bit::install(lua)?;
    patterns::install(lua, work.counter(), crate::INSTRUCTION_LIMIT)?;
    memory::install(lua, shared, work)?;
    joypad::install(lua, shared)?;
    emu::install(lua, shared)?;
    gui::install(lua, shared)?;
    others::install(lua, shared)?;
    Ok(())
}
