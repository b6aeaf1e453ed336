//! The WebSocket's messages (`docs/web.md`). The page sends JSON text ([`Request`]); the
//! server sends JSON text (a [`Hello`] first, then views and answers) and pictures as binary
//! messages ([`crate::picture`]).

use jewelbot_host::frontend::keys::{self, Action, Modifiers};
use jewelbot_plugin::RAM_SIZE;
use serde::{Deserialize, Serialize};

/// The longest message a page may send, in bytes: every request fits in far less.
pub const MAX_REQUEST_BYTES: usize = 4096;

/// What a page asks of the game. Only a viewer holding the controls may ask.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// One of the console's actions, as the key table names them (`"toggle_ai"`,
    /// `"pause"`, `{"select_slot": 2}`, `"save_state"`).
    Action { action: Action },
    /// A key pressed, by its code and the modifiers held: what the window does with it.
    Key {
        code: String,
        #[serde(default, flatten)]
        modifiers: Modifiers,
    },
    /// Set a plug-in option to one of its values.
    Option { name: String, value: String },
    /// The speed: `1x`, `2x` or `max`.
    Speed { speed: String },
    /// Controller 1's buttons held on the page (its keys and gamepads), as the NES reads
    /// them: bit 0 A, 1 B, 2 Select, 3 Start, 4 Up, 5 Down, 6 Left, 7 Right.
    Buttons { buttons: u8 },
    /// Write a byte of RAM.
    Poke { address: u16, value: u8 },
    /// Freeze a byte of RAM at its value, or thaw it.
    Freeze { address: u16 },
}

/// Why a request is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadRequest {
    #[error("not a request: {0}")]
    Unreadable(String),
    #[error("a request is JSON text, not binary")]
    Binary,
    #[error("a request is at most {MAX_REQUEST_BYTES} bytes")]
    TooLong,
    #[error("only the person holding the controls can do that (open the URL with the token)")]
    NoControls,
    #[error("`{0:?}` is the page's own to do, not the game's")]
    NotTheConsoles(Action),
    #[error("address ${0:04X} is outside the console's RAM ($0000-$07FF)")]
    Address(u16),
    #[error("no speed `{0}` (1x, 2x or max)")]
    Speed(String),
    #[error("no key `{0}` in the key table")]
    Key(String),
}

impl Request {
    /// Reads a page's text message.
    pub fn parse(text: &str) -> Result<Self, BadRequest> {
        if text.len() > MAX_REQUEST_BYTES {
            return Err(BadRequest::TooLong);
        }
        let request: Self =
            serde_json::from_str(text).map_err(|e| BadRequest::Unreadable(e.to_string()))?;
        request.check()?;
        Ok(request)
    }

    /// Refuses what no game could do, before it reaches the game.
    fn check(&self) -> Result<(), BadRequest> {
        match self {
            Self::Action { action } if !is_console_action(*action) => {
                Err(BadRequest::NotTheConsoles(*action))
            }
            Self::Poke { address, .. } | Self::Freeze { address }
                if usize::from(*address) >= RAM_SIZE =>
            {
                Err(BadRequest::Address(*address))
            }
            Self::Speed { speed } if parse_speed(speed).is_none() => {
                Err(BadRequest::Speed(speed.clone()))
            }
            Self::Key { code, modifiers }
                if keys::action_for(code, *modifiers).is_none() && keys::letter(code).is_none() =>
            {
                Err(BadRequest::Key(code.clone()))
            }
            _ => Ok(()),
        }
    }
}

/// The actions that act on the console; the rest (help, panels, fullscreen) are the page's.
pub fn is_console_action(action: Action) -> bool {
    matches!(
        action,
        Action::ToggleAi
            | Action::PluginOption(_)
            | Action::CycleSpeed
            | Action::Pause
            | Action::FrameAdvance
            | Action::Reset
            | Action::PowerCycle
            | Action::SelectSlot(1..=9)
            | Action::SaveState
            | Action::LoadState
            | Action::Screenshot
            | Action::Gif
    )
}

pub fn parse_speed(text: &str) -> Option<jewelbot_host::frontend::pacing::Speed> {
    use jewelbot_host::frontend::pacing::Speed;
    [Speed::RealTime, Speed::Double, Speed::Unthrottled]
        .into_iter()
        .find(|s| s.label() == text)
}

/// A key of the table, for the page: its code, the modifiers it needs and what it does.
#[derive(Debug, Clone, Serialize)]
pub struct KeyBinding {
    pub code: &'static str,
    #[serde(flatten)]
    pub modifiers: Modifiers,
    pub action: Action,
    /// Whether the game does it (the page sends it) or the page itself.
    pub console: bool,
}

/// A game key or a gamepad button, and the NES button it presses.
#[derive(Debug, Clone, Serialize)]
pub struct ButtonBinding {
    /// A key's code, or a gamepad button's index in the browser's standard layout.
    pub input: serde_json::Value,
    /// The NES button's bit ([`Request::Buttons`]).
    pub bit: u8,
    pub label: &'static str,
}

/// What the page is told when it connects.
#[derive(Debug, Clone, Serialize)]
pub struct Hello {
    /// `hello`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub version: &'static str,
    pub rom: String,
    /// `serve` (a game the person holding the controls drives) or `watch` (a headless run,
    /// watched only).
    pub mode: &'static str,
    /// Whether this viewer holds the controls.
    pub controls: bool,
    /// Sound is not sent to the page.
    pub sound: bool,
    pub width: usize,
    pub height: usize,
    pub keys: Vec<KeyBinding>,
    pub game_keys: Vec<ButtonBinding>,
    pub gamepad: Vec<ButtonBinding>,
    /// The gamepad button that hands control to the AI and back.
    pub gamepad_ai: usize,
    pub plugin_keys: Vec<keys::PluginKey>,
    /// The key table's rows, for the page's help.
    pub help: Vec<(String, String)>,
}

impl Hello {
    /// The hello of a game on `rom`, with the plug-ins' option keys.
    pub fn new(rom: &str, mode: &'static str, plugin_keys: &[keys::PluginKey]) -> Self {
        let bit = |buttons: jewelbot_plugin::Buttons| buttons.bits().trailing_zeros() as u8;
        Self {
            kind: "hello",
            version: env!("CARGO_PKG_VERSION"),
            rom: rom.to_owned(),
            mode,
            controls: false,
            sound: false,
            width: jewelbot_plugin::SCREEN_WIDTH,
            height: jewelbot_plugin::SCREEN_HEIGHT,
            keys: keys::chords()
                .map(|(chord, action)| KeyBinding {
                    code: chord.key,
                    modifiers: Modifiers {
                        ctrl: chord.ctrl,
                        shift: chord.shift,
                        alt: chord.alt,
                    },
                    action,
                    console: is_console_action(action),
                })
                .collect(),
            game_keys: keys::GAME_KEYS
                .iter()
                .map(|(code, buttons, label)| ButtonBinding {
                    input: serde_json::Value::from(*code),
                    bit: bit(*buttons),
                    label,
                })
                .collect(),
            gamepad: keys::GAMEPAD_BUTTONS
                .iter()
                .map(|(pad, buttons, label)| ButtonBinding {
                    input: serde_json::Value::from(pad.standard_index()),
                    bit: bit(*buttons),
                    label,
                })
                .collect(),
            gamepad_ai: keys::GAMEPAD_AI_BUTTON.standard_index(),
            plugin_keys: plugin_keys.to_vec(),
            help: keys::help_rows(plugin_keys),
        }
    }
}

/// An answer to one viewer: what its request came to, or why it was refused.
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    /// `error`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub error: String,
}

impl Answer {
    pub fn error(error: impl std::fmt::Display) -> Self {
        Self {
            kind: "error",
            error: error.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_read_as_the_docs_write_them() {
        assert_eq!(
            Request::parse(r#"{"type":"action","action":"toggle_ai"}"#),
            Ok(Request::Action {
                action: Action::ToggleAi
            })
        );
        assert_eq!(
            Request::parse(r#"{"type":"action","action":{"select_slot":3}}"#),
            Ok(Request::Action {
                action: Action::SelectSlot(3)
            })
        );
        assert_eq!(
            Request::parse(r#"{"type":"key","code":"F5"}"#),
            Ok(Request::Key {
                code: "F5".into(),
                modifiers: Modifiers::NONE
            })
        );
        assert_eq!(
            Request::parse(r#"{"type":"key","code":"KeyR","ctrl":true}"#),
            Ok(Request::Key {
                code: "KeyR".into(),
                modifiers: Modifiers {
                    ctrl: true,
                    ..Modifiers::NONE
                }
            })
        );
        assert_eq!(
            Request::parse(r#"{"type":"poke","address":1757,"value":7}"#),
            Ok(Request::Poke {
                address: 0x6DD,
                value: 7
            })
        );
    }

    #[test]
    fn bad_requests_are_refused_with_their_reason() {
        let refused = |text: &str| Request::parse(text).unwrap_err();
        assert!(matches!(refused("{"), BadRequest::Unreadable(_)));
        assert!(matches!(refused("[]"), BadRequest::Unreadable(_)));
        assert!(matches!(
            refused(r#"{"type":"launch"}"#),
            BadRequest::Unreadable(_)
        ));
        assert!(matches!(
            refused(r#"{"type":"poke","address":1,"value":7,"extra":1}"#),
            BadRequest::Unreadable(_)
        ));
        assert!(matches!(
            refused(r#"{"type":"poke","address":1,"value":300}"#),
            BadRequest::Unreadable(_)
        ));
        assert_eq!(
            refused(r#"{"type":"poke","address":2048,"value":1}"#),
            BadRequest::Address(0x800)
        );
        assert_eq!(
            refused(r#"{"type":"action","action":"quit"}"#),
            BadRequest::NotTheConsoles(Action::Quit)
        );
        assert_eq!(
            refused(r#"{"type":"action","action":{"select_slot":12}}"#),
            BadRequest::NotTheConsoles(Action::SelectSlot(12))
        );
        assert_eq!(
            refused(r#"{"type":"speed","speed":"9x"}"#),
            BadRequest::Speed("9x".into())
        );
        assert_eq!(
            refused(r#"{"type":"key","code":"Semicolon"}"#),
            BadRequest::Key("Semicolon".into())
        );
        let long = format!(
            r#"{{"type":"option","name":"mode","value":"{}"}}"#,
            "x".repeat(5000)
        );
        assert_eq!(refused(&long), BadRequest::TooLong);
    }

    #[test]
    fn the_hello_carries_the_key_table() {
        let hello = Hello::new("test.nes", "serve", &[]);
        let f5 = hello.keys.iter().find(|k| k.code == "F5").unwrap();
        assert_eq!(f5.action, Action::SaveState);
        assert!(f5.console);
        let help = hello.keys.iter().find(|k| k.code == "F1").unwrap();
        assert!(!help.console);
        let x = hello.game_keys.iter().find(|k| k.input == "KeyX").unwrap();
        assert_eq!(x.bit, 0, "X presses A, bit 0");
        let start = hello.gamepad.iter().find(|k| k.label == "Start").unwrap();
        assert_eq!((start.input.as_u64(), start.bit), (Some(9), 3));
        assert_eq!(hello.gamepad_ai, 3);
    }
}
