//! `gui`: drawing over the picture for the frame to come. Boxes, lines and pixels are drawn as
//! the host's outlined marks (a line as a run of one-pixel marks, at most [`MOST_MARKS`] a
//! frame); text goes to the status lines beside the picture, since plug-ins cannot yet draw
//! text on it. `gui.register` keeps one function called every frame to draw.

use super::refuse;
use crate::console::Shared;
use jewelbot_plugin::{Mark, Rgba};
use mlua::{Function, Lua, Value};

/// Where the registered drawing function is kept (Lua's registry).
pub const DRAW: &str = "jewelbot.gui.draw";

/// Most marks a script draws in a frame: past it, drawing is refused with an error.
pub const MOST_MARKS: usize = 4096;

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
    let hex = |text: &str| -> Option<Rgba> {
        let digits = text.strip_prefix('#')?;
        let n = u32::from_str_radix(digits, 16).ok()?;
        match digits.len() {
            6 => Some([(n >> 16) as u8, (n >> 8) as u8, n as u8, 255]),
            8 => Some(n.to_be_bytes()),
            _ => None,
        }
    };
    match value {
        Value::Nil => Ok(default),
        Value::String(text) => {
            let text = text.to_str()?.to_ascii_lowercase();
            named(&text)
                .or_else(|| hex(&text))
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

/// A coordinate on the picture, clamped to it.
fn at(value: f64) -> u16 {
    value.clamp(0.0, 255.0) as u16
}

fn push(
    shared: &Shared,
    function: &str,
    marks: impl IntoIterator<Item = Mark>,
) -> mlua::Result<()> {
    let mut console = shared.lock();
    for mark in marks {
        if console.marks.len() == MOST_MARKS {
            return Err(refuse(
                function,
                &format!("more than {MOST_MARKS} marks in a frame"),
            ));
        }
        console.marks.push(mark);
    }
    Ok(())
}

fn rectangle(x1: f64, y1: f64, x2: f64, y2: f64, color: Rgba) -> Mark {
    let (left, right) = (at(x1.min(x2)), at(x1.max(x2)));
    let (top, bottom) = (at(y1.min(y2)), at(y1.max(y2)));
    Mark {
        x: left,
        y: top,
        width: right - left + 1,
        height: bottom - top + 1,
        color,
    }
}

/// The pixels of a line from one end to the other (Bresenham's).
fn line(x1: f64, y1: f64, x2: f64, y2: f64, color: Rgba) -> Vec<Mark> {
    let (x1, y1, x2, y2) = (
        i32::from(at(x1)),
        i32::from(at(y1)),
        i32::from(at(x2)),
        i32::from(at(y2)),
    );
    if x1 == x2 || y1 == y2 {
        return vec![rectangle(
            f64::from(x1),
            f64::from(y1),
            f64::from(x2),
            f64::from(y2),
            color,
        )];
    }
    let (dx, dy) = ((x2 - x1).abs(), -(y2 - y1).abs());
    let (sx, sy) = ((x2 - x1).signum(), (y2 - y1).signum());
    let (mut x, mut y, mut error) = (x1, y1, dx + dy);
    let mut pixels = Vec::new();
    loop {
        pixels.push(rectangle(
            f64::from(x),
            f64::from(y),
            f64::from(x),
            f64::from(y),
            color,
        ));
        if x == x2 && y == y2 {
            return pixels;
        }
        let twice = 2 * error;
        if twice >= dy {
            error += dy;
            x += sx;
        }
        if twice <= dx {
            error += dx;
            y += sy;
        }
    }
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
                    // FCEUX outlines with the fill colour when no outline is given.
                    let fill_colour = colour(&function, &fill, white)?;
                    let outline = colour(&function, &outline, fill_colour)?;
                    push(&s, &function, [rectangle(x1, y1, x2, y2, outline)])
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
                    push(&s, &function, line(x1, y1, x2, y2, color))
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
                push(&s, &function, [rectangle(x, y, x, y, color)])
            })?,
        )?;
    }
    for name in ["text", "drawtext"] {
        let s = shared.clone();
        gui.set(
            name,
            lua.create_function(move |_, (_x, _y, text): (f64, f64, Value)| {
                let text = super::emu::printed(&mlua::MultiValue::from_iter([text]))?;
                s.lock().texts.push(text);
                Ok(())
            })?,
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
    fn lines_and_colours() {
        let red = [255, 0, 0, 255];
        assert_eq!(line(0.0, 0.0, 3.0, 3.0, red).len(), 4);
        let flat = line(2.0, 5.0, 9.0, 5.0, red);
        assert_eq!((flat.len(), flat[0].width, flat[0].height), (1, 8, 1));
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
