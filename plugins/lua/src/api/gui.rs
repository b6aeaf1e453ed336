//! `gui`: drawing onto the picture for the frame to come, as FCEUX draws (with its default
//! colours): boxes, lines, pixels and text, at most [`MOST_DRAWINGS`] a frame; the window
//! shows them, and screenshots and GIFs keep them. `gui.register` keeps one function called
//! every frame to draw.

use super::refuse;
use crate::console::Shared;
use jewelbot_plugin::{hex_colour, Drawing, Rgba};
use mlua::{Function, Lua, Value};

/// Where the registered drawing function is kept (Lua's registry).
pub const DRAW: &str = "jewelbot.gui.draw";

/// Most drawings a script makes in a frame: past it, drawing is refused with an error.
pub const MOST_DRAWINGS: usize = 4096;

/// A colour as FCEUX takes it: a name, `#RRGGBB[AA]`, or a number `0xRRGGBBAA`.
fn colour(function: &str, value: &Value, default: Rgba) -> mlua::Result<Rgba> {
    let named = |name: &str| -> Option<Rgba> {
        Some(match name {
            "white" => [255, 255, 255, 255],
            "black" => [0, 0, 0, 255],
            "clear" => [0, 0, 0, 0],
            "red" => [255, 0, 0, 255],
            "green" => [0, 255, 0, 255],
            "blue" => [0, 0, 255, 255],
            "gray" | "grey" => [127, 127, 127, 255],
            "orange" => [255, 127, 0, 255],
            "yellow" => [255, 255, 0, 255],
            "purple" | "magenta" => [255, 0, 255, 255],
            "teal" | "cyan" => [0, 255, 255, 255],
            _ => return None,
        })
    };
    match value {
        Value::Nil => Ok(default),
        Value::String(text) => {
            let text = text.to_str()?.to_ascii_lowercase();
            named(&text)
                .or_else(|| hex_colour(&text))
                .ok_or_else(|| refuse(function, &format!("`{text}` is not a colour")))
        }
        Value::Integer(n) => Ok((*n as u32).to_be_bytes()),
        Value::Number(n) => Ok((*n as i64 as u32).to_be_bytes()),
        other => Err(refuse(
            function,
            &format!("a {} is not a colour", other.type_name()),
        )),
    }
}

/// A coordinate on the picture (drawings are clipped to it).
fn at(value: f64) -> i32 {
    value.clamp(-65536.0, 65536.0) as i32
}

fn push(shared: &Shared, function: &str, drawing: Drawing) -> mlua::Result<()> {
    let mut console = shared.lock();
    if console.drawings.len() == MOST_DRAWINGS {
        return Err(refuse(
            function,
            &format!("more than {MOST_DRAWINGS} drawings in a frame"),
        ));
    }
    console.drawings.push(drawing);
    Ok(())
}

pub fn install(lua: &Lua, shared: &Shared) -> mlua::Result<()> {
    let gui = lua.create_table()?;
    let white = [255, 255, 255, 255];
    for name in ["box", "drawbox", "rect", "drawrect", "drawrectangle"] {
        let s = shared.clone();
        let function = format!("gui.{name}");
        gui.set(
            name,
            lua.create_function(
                move |_, (x1, y1, x2, y2, fill, outline): (f64, f64, f64, f64, Value, Value)| {
                    // FCEUX's defaults: a quarter-opaque white inside, the fill's colour
                    // opaque on the edge.
                    let fill = colour(&function, &fill, [255, 255, 255, 63])?;
                    let outline = colour(&function, &outline, [fill[0], fill[1], fill[2], 255])?;
                    let drawing = Drawing::Rect {
                        from: (at(x1), at(y1)),
                        to: (at(x2), at(y2)),
                        fill,
                        outline,
                    };
                    push(&s, &function, drawing)
                },
            )?,
        )?;
    }
    for name in ["line", "drawline"] {
        let s = shared.clone();
        let function = format!("gui.{name}");
        gui.set(
            name,
            lua.create_function(
                move |_, (x1, y1, x2, y2, color): (f64, f64, f64, f64, Value)| {
                    let color = colour(&function, &color, white)?;
                    let drawing = Drawing::Line {
                        from: (at(x1), at(y1)),
                        to: (at(x2), at(y2)),
                        color,
                    };
                    push(&s, &function, drawing)
                },
            )?,
        )?;
    }
    for name in ["pixel", "drawpixel", "setpixel"] {
        let s = shared.clone();
        let function = format!("gui.{name}");
        gui.set(
            name,
            lua.create_function(move |_, (x, y, color): (f64, f64, Value)| {
                let color = colour(&function, &color, white)?;
                push(
                    &s,
                    &function,
                    Drawing::Pixel {
                        at: (at(x), at(y)),
                        color,
                    },
                )
            })?,
        )?;
    }
    for name in ["text", "drawtext"] {
        let s = shared.clone();
        let function = format!("gui.{name}");
        gui.set(
            name,
            lua.create_function(
                move |lua, (x, y, text, color, background): (f64, f64, Value, Value, Value)| {
                    let text =
                        super::emu::printed(lua, &function, mlua::MultiValue::from_iter([text]))?;
                    let drawing = Drawing::Text {
                        at: (at(x), at(y)),
                        text,
                        color: colour(&function, &color, white)?,
                        // FCEUX's default: white on dark blue.
                        background: colour(&function, &background, [27, 18, 105, 255])?,
                    };
                    push(&s, &function, drawing)?;
                    Ok(x)
                },
            )?,
        )?;
    }
    gui.set(
        "register",
        lua.create_function(|lua, f: Option<Function>| {
            let old: Option<Function> = lua.named_registry_value(DRAW)?;
            lua.set_named_registry_value(DRAW, f)?;
            Ok(old)
        })?,
    )?;
    lua.globals().set("gui", gui)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours() {
        let red = [255, 0, 0, 255];
        let lua = Lua::new();
        let text = |s: &str| Value::String(lua.create_string(s).unwrap());
        assert_eq!(
            colour("f", &text("#00FF0080"), red).unwrap(),
            [0, 255, 0, 128]
        );
        assert_eq!(colour("f", &text("Blue"), red).unwrap(), [0, 0, 255, 255]);
        assert_eq!(
            colour("f", &Value::Integer(0x1122_3344), red).unwrap(),
            [0x11, 0x22, 0x33, 0x44]
        );
        assert!(colour("f", &text("plaid"), red)
            .unwrap_err()
            .to_string()
            .contains("plaid"));
    }
}
