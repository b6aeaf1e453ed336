//! `joypad`: controller 1 as the script holds it. `joypad.set` chooses the buttons for the next
//! frame only, as in FCEUX; a button set `true` is pressed, one set `"invert"` is pressed when
//! the person does not hold it, and the others are not. `joypad.get` shows the buttons the
//! script set and those the person holds.

use super::refuse;
use crate::console::Shared;
use jewelbot_plugin::Buttons;
use mlua::{Lua, Table, Value};

/// FCEUX's button names, with the button each is.
pub const NAMES: [(&str, Buttons); 8] = [
    ("A", Buttons::A),
    ("B", Buttons::B),
    ("select", Buttons::SELECT),
    ("start", Buttons::START),
    ("up", Buttons::UP),
    ("down", Buttons::DOWN),
    ("left", Buttons::LEFT),
    ("right", Buttons::RIGHT),
];

fn controller(function: &str, player: f64) -> mlua::Result<()> {
    if player == 1.0 {
        return Ok(());
    }
    Err(refuse(
        function,
        &format!("controller {player}: a script plays controller 1 only"),
    ))
}

pub fn install(lua: &Lua, shared: &Shared) -> mlua::Result<()> {
    let joypad = lua.create_table()?;
    for name in ["get", "read", "getdown", "readdown"] {
        let s = shared.clone();
        let function = format!("joypad.{name}");
        joypad.set(
            name,
            lua.create_function(move |lua, player: f64| {
                controller(&function, player)?;
                let console = s.lock();
                let held = console.buttons | console.person;
                let table = lua.create_table()?;
                for (name, button) in NAMES {
                    table.set(name, held.contains(button))?;
                }
                Ok(table)
            })?,
        )?;
    }
    for name in ["set", "write"] {
        let s = shared.clone();
        let function = format!("joypad.{name}");
        joypad.set(
            name,
            lua.create_function(move |_, (player, wanted): (f64, Table)| {
                controller(&function, player)?;
                let person = s.lock().person;
                let mut buttons = Buttons::NONE;
                for (name, button) in NAMES {
                    let pressed = match wanted.get::<Value>(name)? {
                        Value::Boolean(pressed) => pressed,
                        Value::String(text) => {
                            text.to_str()?.as_ref() == "invert" && !person.contains(button)
                        }
                        _ => false,
                    };
                    if pressed {
                        buttons |= button;
                    }
                }
                s.lock().buttons = buttons;
                Ok(())
            })?,
        )?;
    }
    lua.globals().set("joypad", joypad)
}
