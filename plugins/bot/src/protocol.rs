//! The messages of the bot protocol (`docs/bot-protocol.md`), one JSON object a line, and the
//! checks that turn a bot's lines into what the host can do or a clear refusal.

use jewelbot_plugin::script::parse_buttons;
use jewelbot_plugin::{hex_colour, Buttons, Drawing, Rgba, RAM_SIZE};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The protocol's version: a bot says which it speaks, and one of another is refused.
pub const PROTOCOL_VERSION: u32 = 1;
/// The host's own events a bot may ask for: power-on (frame 0) and a reset or state load.
/// Besides them, [`EVERY_FRAME`] asks for every frame, and a bot's [`WAKE`] comes when asked.
pub const HOST_EVENTS: [&str; 2] = [POWER_ON, RESET];
/// Every frame.
pub const EVERY_FRAME: &str = "frame";
/// The console was powered on: frame 0, before the first frame runs.
pub const POWER_ON: &str = "power_on";
/// The console was reset or a state loaded.
pub const RESET: &str = "reset";
/// The frame a bot's `wake` asked for.
pub const WAKE: &str = "wake";
/// The most bytes a bot may ask to read each time, all ranges together.
pub const MAX_READ_BYTES: usize = 0x1_0000;
/// The most frames one answer's buttons may cover.
pub const MAX_TIMELINE: u64 = 1_000_000;
/// The most status lines and drawings an answer may carry.
pub const MAX_STATUS_LINES: usize = 32;
/// See [`MAX_STATUS_LINES`].
pub const MAX_DRAWINGS: usize = 4096;

/// The host's first line.
#[derive(Debug, Serialize)]
pub struct Welcome<'a> {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub protocol: u32,
    pub host: String,
    pub rom: Rom<'a>,
    pub pacing: &'static str,
    /// The events a bot may ask for, by who announces them (`host` for the host's own).
    pub events: BTreeMap<String, Vec<String>>,
    /// The plug-ins that describe the game (`views`).
    pub views: Vec<String>,
}

/// The cartridge, as the welcome names it.
#[derive(Debug, Clone, Serialize)]
pub struct Rom<'a> {
    pub name: &'a str,
    pub mapper: u16,
    pub crc32: String,
    pub sha1: &'a str,
}

/// A message about a frame: sent for the events the bot asked for, or every frame.
#[derive(Debug, Serialize)]
pub struct FrameMessage {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub frame: u64,
    pub lag: bool,
    pub events: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ram: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub views: Option<BTreeMap<String, Value>>,
}

/// The host's last line.
#[derive(Debug, Serialize)]
pub struct Bye {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub frame: u64,
    pub reason: String,
}

/// A bot's first line, as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct HelloLine {
    #[serde(rename = "type")]
    kind: String,
    protocol: u32,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    events: Vec<String>,
    #[serde(default)]
    ram: Vec<[u32; 2]>,
    #[serde(default)]
    views: bool,
}

/// What a bot asked for in its hello.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    /// What it calls itself.
    pub name: String,
    /// A message every frame.
    pub every_frame: bool,
    /// The events besides (host's and plug-ins').
    pub events: Vec<String>,
    /// Address ranges of the CPU bus to read each time, inclusive.
    pub ram: Vec<(u16, u16)>,
    /// The plug-ins' descriptions of the game with each message.
    pub views: bool,
}

/// Reads a bot's hello against the events on offer.
pub fn read_hello(line: &str, offered: &[String]) -> Result<Subscription, String> {
    let hello: HelloLine = serde_json::from_str(line).map_err(|e| not_protocol("hello", &e))?;
    if hello.kind != "hello" {
        return Err(format!(
            "the bot's first line is a `{}`, not its `hello`",
            hello.kind
        ));
    }
    if hello.protocol != PROTOCOL_VERSION {
        return Err(format!(
            "the bot speaks protocol {}; this host speaks {PROTOCOL_VERSION}",
            hello.protocol
        ));
    }
    let mut events = Vec::new();
    let mut every_frame = false;
    for event in hello.events {
        if event == EVERY_FRAME {
            every_frame = true;
        } else if offered.contains(&event) {
            events.push(event);
        } else {
            return Err(format!(
                "the bot asks for the event `{event}`, which nothing here announces (there are: \
                 {})",
                offered.join(", ")
            ));
        }
    }
    let mut ram = Vec::new();
    let mut bytes = 0;
    for [start, end] in hello.ram {
        if start > end || end > 0xFFFF {
            return Err(format!(
                "the bot asks to read [{start}, {end}]: ranges are [first, last] addresses of \
                 the CPU bus, 0 to 65535"
            ));
        }
        bytes += (end - start + 1) as usize;
        ram.push((start as u16, end as u16));
    }
    if bytes > MAX_READ_BYTES {
        return Err(format!(
            "the bot asks to read {bytes} bytes each time; at most {MAX_READ_BYTES}"
        ));
    }
    Ok(Subscription {
        name: hello.name.unwrap_or_else(|| "bot".to_owned()),
        every_frame,
        events,
        ram,
        views: hello.views,
    })
}

/// An answer, as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AnswerLine {
    #[serde(rename = "type")]
    kind: String,
    frame: u64,
    #[serde(default)]
    buttons: Vec<String>,
    #[serde(default)]
    poke: Vec<[u32; 2]>,
    #[serde(default)]
    save: Option<String>,
    #[serde(default)]
    load: Option<String>,
    #[serde(default)]
    status: Option<Vec<String>>,
    #[serde(default)]
    draw: Option<Vec<Value>>,
    #[serde(default)]
    wake: Option<u64>,
    #[serde(default)]
    end: Option<String>,
}

/// What a bot's answer asks, checked.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Answer {
    /// The frame whose message it answers.
    pub frame: u64,
    /// Buttons for the frames after it, one entry a frame.
    pub buttons: Vec<Buttons>,
    /// RAM writes.
    pub pokes: Vec<(u16, u8)>,
    /// Keep the console's state under this name.
    pub save: Option<String>,
    /// Go back to the state kept under this name.
    pub load: Option<String>,
    /// Status lines in place of the last ones.
    pub status: Option<Vec<String>>,
    /// Drawings in place of the last ones.
    pub drawings: Option<Vec<Drawing>>,
    /// A message this many frames on, with the event `wake`.
    pub wake: Option<u64>,
    /// End the run after this frame, for this reason.
    pub end: Option<String>,
}

/// Reads a bot's answer.
pub fn read_answer(line: &str) -> Result<Answer, String> {
    let answer: AnswerLine = serde_json::from_str(line).map_err(|e| not_protocol("answer", &e))?;
    if answer.kind != "answer" {
        return Err(format!(
            "the bot wrote a `{}` where an `answer` was due",
            answer.kind
        ));
    }
    let buttons = timeline(&answer.buttons)?;
    let pokes = answer
        .poke
        .iter()
        .map(|&[address, value]| {
            if address as usize >= RAM_SIZE || value > 0xFF {
                Err(format!(
                    "the bot pokes {value} at {address}: RAM is addresses 0 to {}, bytes 0 to \
                     255",
                    RAM_SIZE - 1
                ))
            } else {
                Ok((address as u16, value as u8))
            }
        })
        .collect::<Result<_, _>>()?;
    if let Some(lines) = &answer.status {
        if lines.len() > MAX_STATUS_LINES {
            return Err(format!(
                "the bot sends {} status lines; at most {MAX_STATUS_LINES}",
                lines.len()
            ));
        }
    }
    let drawings = match &answer.draw {
        Some(items) if items.len() > MAX_DRAWINGS => {
            return Err(format!(
                "the bot draws {} things at once; at most {MAX_DRAWINGS}",
                items.len()
            ))
        }
        Some(items) => Some(items.iter().map(drawing).collect::<Result<_, _>>()?),
        None => None,
    };
    if answer.wake == Some(0) {
        return Err("the bot asks to wake 0 frames on: at least 1".to_owned());
    }
    Ok(Answer {
        frame: answer.frame,
        buttons,
        pokes,
        save: answer.save,
        load: answer.load,
        status: answer.status,
        drawings,
        wake: answer.wake,
        end: answer.end,
    })
}

/// A serde error in the protocol's words.
fn not_protocol(what: &str, error: &serde_json::Error) -> String {
    if error.is_syntax() || error.is_eof() {
        format!("the bot wrote a line that is not JSON ({error})")
    } else {
        format!("the bot's {what} is not the protocol's ({error})")
    }
}

/// The buttons of a timeline: each entry the buttons of a frame in the input scripts' letters
/// (`-` none, `A`, `B`, `s` Select, `S` Start, `U`, `D`, `L`, `R`), `BUTTONS*N` for N frames.
pub fn timeline(entries: &[String]) -> Result<Vec<Buttons>, String> {
    let mut frames = Vec::new();
    for entry in entries {
        let (letters, times) = match entry.split_once('*') {
            Some((letters, times)) => {
                let times: u64 = times.parse().map_err(|_| {
                    format!("buttons `{entry}`: after `*` comes a number of frames")
                })?;
                (letters, times)
            }
            None => (entry.as_str(), 1),
        };
        let buttons = parse_buttons(letters).map_err(|e| format!("buttons `{entry}`: {e}"))?;
        if (frames.len() as u64).saturating_add(times) > MAX_TIMELINE {
            return Err(format!(
                "the bot's buttons cover more than {MAX_TIMELINE} frames"
            ));
        }
        frames.extend(std::iter::repeat_n(buttons, times as usize));
    }
    Ok(frames)
}

/// One thing to draw: `{"box": [x1, y1, x2, y2], "fill": C, "outline": C}`,
/// `{"line": [x1, y1, x2, y2], "color": C}`, `{"pixel": [x, y], "color": C}` or
/// `{"text": T, "at": [x, y], "color": C, "background": C}`; colours `#RRGGBB` or
/// `#RRGGBBAA`.
fn drawing(item: &Value) -> Result<Drawing, String> {
    const WHITE: Rgba = [255, 255, 255, 255];
    const CLEAR: Rgba = [0, 0, 0, 0];
    let bad = |why: &str| {
        format!(
            "the bot draws {}: {why}",
            crate::link::cut(&item.to_string())
        )
    };
    let object = item.as_object().ok_or_else(|| bad("not an object"))?;
    let colour = |key: &str, default: Rgba| -> Result<Rgba, String> {
        match object.get(key) {
            None => Ok(default),
            Some(Value::String(text)) => hex_colour(text)
                .ok_or_else(|| bad(&format!("`{key}` is not a colour (#RRGGBB or #RRGGBBAA)"))),
            Some(_) => Err(bad(&format!(
                "`{key}` is not a colour (#RRGGBB or #RRGGBBAA)"
            ))),
        }
    };
    let numbers = |key: &str, count: usize| -> Result<Vec<i32>, String> {
        let values = object
            .get(key)
            .and_then(Value::as_array)
            .filter(|values| values.len() == count)
            .ok_or_else(|| bad(&format!("`{key}` is not {count} numbers")))?;
        values
            .iter()
            .map(|v| {
                v.as_i64()
                    .and_then(|n| i32::try_from(n).ok())
                    .ok_or_else(|| bad(&format!("`{key}` is not {count} whole numbers")))
            })
            .collect()
    };
    let allowed: &[&str] = if object.contains_key("box") {
        &["box", "fill", "outline"]
    } else if object.contains_key("line") {
        &["line", "color"]
    } else if object.contains_key("pixel") {
        &["pixel", "color"]
    } else if object.contains_key("text") {
        &["text", "at", "color", "background"]
    } else {
        return Err(bad("not a box, line, pixel or text"));
    };
    if let Some(key) = object.keys().find(|key| !allowed.contains(&key.as_str())) {
        return Err(bad(&format!("unknown field `{key}`")));
    }
    Ok(match allowed[0] {
        "box" => {
            let corners = numbers("box", 4)?;
            Drawing::Rect {
                from: (corners[0], corners[1]),
                to: (corners[2], corners[3]),
                fill: colour("fill", CLEAR)?,
                outline: colour("outline", WHITE)?,
            }
        }
        "line" => {
            let ends = numbers("line", 4)?;
            Drawing::Line {
                from: (ends[0], ends[1]),
                to: (ends[2], ends[3]),
                color: colour("color", WHITE)?,
            }
        }
        "pixel" => {
            let at = numbers("pixel", 2)?;
            Drawing::Pixel {
                at: (at[0], at[1]),
                color: colour("color", WHITE)?,
            }
        }
        _ => {
            let text = object
                .get("text")
                .and_then(Value::as_str)
                .ok_or_else(|| bad("`text` is not a string"))?;
            let at = numbers("at", 2)?;
            Drawing::Text {
                at: (at[0], at[1]),
                text: text.chars().take(256).collect(),
                color: colour("color", WHITE)?,
                background: colour("background", [0, 0, 0, 160])?,
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offered() -> Vec<String> {
        ["power_on", "reset", "spawn", "game_over"]
            .map(str::to_owned)
            .to_vec()
    }

    #[test]
    fn a_hello_says_what_the_bot_wants_and_bad_ones_say_why_not() {
        let hello = read_hello(
            r#"{"type":"hello","protocol":1,"name":"b","events":["spawn","frame"],"ram":[[768,1023]],"views":true}"#,
            &offered(),
        );
        assert_eq!(
            hello,
            Ok(Subscription {
                name: "b".into(),
                every_frame: true,
                events: vec!["spawn".into()],
                ram: vec![(768, 1023)],
                views: true,
            })
        );
        let refusals = [
            (r#"{"type":"hello","protocol":2}"#, "speaks protocol 2"),
            (r#"{"type":"answer","protocol":1}"#, "not its `hello`"),
            (
                r#"{"type":"hello","protocol":1,"events":["lock"]}"#,
                "`lock`, which nothing",
            ),
            (r#"{"type":"hello","protocol":1,"ram":[[10,5]]}"#, "[10, 5]"),
            (
                r#"{"type":"hello","protocol":1,"ram":[[0,65536]]}"#,
                "0 to 65535",
            ),
            (
                r#"{"type":"hello","protocol":1,"ram":[[0,65535],[0,0]]}"#,
                "65537 bytes",
            ),
            (
                r#"{"type":"hello","protocol":1,"event":[]}"#,
                "unknown field `event`",
            ),
            ("hello", "not JSON"),
        ];
        for (line, why) in refusals {
            let refusal = read_hello(line, &offered()).expect_err(line);
            assert!(refusal.contains(why), "{line}: {refusal}");
        }
    }

    #[test]
    fn an_answer_gives_a_timeline_pokes_states_status_and_drawings() {
        let answer = read_answer(
            r##"{"type":"answer","frame":7,"buttons":["R","-","A*2","DL"],"poke":[[110,3]],"save":"s","status":["hi"],"draw":[{"box":[1,2,3,4]},{"text":"x","at":[0,0],"color":"#ff000080"}],"wake":30}"##,
        )
        .unwrap();
        assert_eq!(answer.frame, 7);
        assert_eq!(
            answer.buttons,
            vec![
                Buttons::RIGHT,
                Buttons::NONE,
                Buttons::A,
                Buttons::A,
                Buttons::DOWN | Buttons::LEFT
            ]
        );
        assert_eq!(answer.pokes, vec![(110, 3)]);
        assert_eq!(answer.save.as_deref(), Some("s"));
        assert_eq!(answer.wake, Some(30));
        let drawings = answer.drawings.unwrap();
        assert!(matches!(
            drawings[1],
            Drawing::Text {
                color: [255, 0, 0, 128],
                ..
            }
        ));
        let refusals = [
            (
                r#"{"type":"answer","frame":1,"buttons":["X"]}"#,
                "buttons `X`",
            ),
            (
                r#"{"type":"answer","frame":1,"buttons":["R*many"]}"#,
                "number of frames",
            ),
            (
                r#"{"type":"answer","frame":1,"buttons":["R*2000000"]}"#,
                "more than 1000000",
            ),
            (
                r#"{"type":"answer","frame":1,"poke":[[2048,1]]}"#,
                "RAM is addresses",
            ),
            (
                r#"{"type":"answer","frame":1,"poke":[[1,256]]}"#,
                "bytes 0 to 255",
            ),
            (
                r#"{"type":"answer","frame":1,"draw":[{"circle":1}]}"#,
                "not a box",
            ),
            (
                r#"{"type":"answer","frame":1,"draw":[{"box":[1,2]}]}"#,
                "not 4 numbers",
            ),
            (
                r#"{"type":"answer","frame":1,"draw":[{"pixel":[1,2],"color":"red"}]}"#,
                "not a colour",
            ),
            (r#"{"type":"answer","frame":1,"wake":0}"#, "at least 1"),
            (r#"{"type":"answer"}"#, "missing field `frame`"),
            (r#"{"type":"hello","frame":1}"#, "where an `answer` was due"),
            (r#"{"frame":1,"buttons":[]"#, "not JSON"),
        ];
        for (line, why) in refusals {
            let refusal = read_answer(line).expect_err(line);
            assert!(refusal.contains(why), "{line}: {refusal}");
        }
    }

    proptest::proptest! {
        /// Whatever a bot writes, reading it gives an answer or a reason, never a panic.
        #[test]
        fn any_line_is_read_or_refused(line in ".{0,200}") {
            let _ = read_hello(&line, &offered());
            let _ = read_answer(&line);
        }

        /// The same for lines that are almost answers: right fields, any values.
        #[test]
        fn any_answer_like_line_is_read_or_refused(
            frame in proptest::num::i64::ANY,
            buttons in proptest::collection::vec("[ABsSUDLRX*0-9-]{0,6}", 0..4),
            poke in proptest::collection::vec((0i64..70_000, -5i64..300), 0..3),
            draw in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::strategy::Just(serde_json::json!({"box": [1, 2]})),
                    proptest::strategy::Just(serde_json::json!({"text": 5, "at": [0, 0]})),
                    proptest::strategy::Just(serde_json::json!({"pixel": [1e10, 0], "color": "#zz"})),
                    proptest::strategy::Just(serde_json::json!({"line": [0, 0, 9, 9], "color": "#123456"})),
                ],
                0..3,
            ),
            wake in proptest::option::of(proptest::num::i64::ANY),
        ) {
            let line = serde_json::json!({
                "type": "answer", "frame": frame, "buttons": buttons, "poke": poke,
                "draw": draw, "wake": wake,
            })
            .to_string();
            let _ = read_answer(&line);
        }
    }
}
