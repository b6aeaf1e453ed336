//! The key table: which keys press which NES buttons and which ask the frontend for an
//! action, with the help text and `docs/keys.md` made from the same lists. Keys are named by
//! their codes (`KeyA`, `F5`, `ArrowLeft`), the names winit's `KeyCode` and the browser's
//! `KeyboardEvent.code` both give them, so the window and the web page read one table.

use jewelbot_plugin::Buttons;
use serde::{Deserialize, Serialize};

/// Something the person asks the frontend to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Help,
    ToggleAi,
    /// Step a plug-in option to its next value (the option's declared letter key).
    PluginOption(char),
    CycleSpeed,
    Pause,
    FrameAdvance,
    Reset,
    PowerCycle,
    /// Slot 1-9, from the digit pressed.
    SelectSlot(u8),
    SaveState,
    LoadState,
    Screenshot,
    WindowScreenshot,
    /// Start or stop an animated GIF of the game.
    Gif,
    ToggleInspector,
    /// Select the next or previous labelled address in the inspector.
    NextField,
    PreviousField,
    HexUp,
    HexDown,
    ToggleMarks,
    ToggleStatus,
    ToggleInput,
    ToggleDashboard,
    Mute,
    Fullscreen,
    Back,
    Quit,
}

/// A key with the modifiers that must be held with it (and no others).
#[derive(Debug, Clone, Copy)]
pub struct Chord {
    /// The key's code, as the browser's `KeyboardEvent.code` and winit's `KeyCode` name it
    /// (`KeyA`, `Digit1`, `F5`, `ArrowLeft`).
    pub key: &'static str,
    pub ctrl: bool,
    pub shift: bool,
    pub alt: bool,
}

const fn key(key: &'static str) -> Chord {
    Chord {
        key,
        ctrl: false,
        shift: false,
        alt: false,
    }
}

const fn ctrl(key: &'static str) -> Chord {
    Chord {
        ctrl: true,
        ..self::key(key)
    }
}

const fn shift(key: &'static str) -> Chord {
    Chord {
        shift: true,
        ..self::key(key)
    }
}

/// One line of the key table.
pub struct Binding {
    pub chords: &'static [Chord],
    /// How the keys are written in help and docs.
    pub keys: &'static str,
    pub action: Action,
    pub what: &'static str,
}

const DIGITS: [Chord; 9] = [
    key("Digit1"),
    key("Digit2"),
    key("Digit3"),
    key("Digit4"),
    key("Digit5"),
    key("Digit6"),
    key("Digit7"),
    key("Digit8"),
    key("Digit9"),
];

pub const BINDINGS: &[Binding] = &[
    Binding {
        chords: &[key("F1"), key("KeyH")],
        keys: "F1 / H",
        action: Action::Help,
        what: "show or hide this help",
    },
    Binding {
        chords: &[key("Space")],
        keys: "Space",
        action: Action::ToggleAi,
        what: "hand control to the AI / take it back",
    },
    Binding {
        chords: &[key("Tab")],
        keys: "Tab",
        action: Action::CycleSpeed,
        what: "speed: real time, 2x, unthrottled",
    },
    Binding {
        chords: &[key("KeyP"), key("Pause")],
        keys: "P / Pause",
        action: Action::Pause,
        what: "pause / resume",
    },
    Binding {
        chords: &[key("Period")],
        keys: ".",
        action: Action::FrameAdvance,
        what: "advance one frame (pauses)",
    },
    Binding {
        chords: &[ctrl("KeyR")],
        keys: "Ctrl+R",
        action: Action::Reset,
        what: "reset the console",
    },
    Binding {
        chords: &[Chord {
            ctrl: true,
            shift: true,
            ..key("KeyR")
        }],
        keys: "Ctrl+Shift+R",
        action: Action::PowerCycle,
        what: "power the console off and on",
    },
    Binding {
        chords: &DIGITS,
        keys: "1 ... 9",
        action: Action::SelectSlot(1),
        what: "choose the save-state slot",
    },
    Binding {
        chords: &[key("F5")],
        keys: "F5",
        action: Action::SaveState,
        what: "save state to the slot",
    },
    Binding {
        chords: &[key("F7")],
        keys: "F7",
        action: Action::LoadState,
        what: "load state from the slot",
    },
    Binding {
        chords: &[key("F12")],
        keys: "F12",
        action: Action::Screenshot,
        what: "screenshot of the game (PNG)",
    },
    Binding {
        chords: &[shift("F12")],
        keys: "Shift+F12",
        action: Action::WindowScreenshot,
        what: "screenshot of the whole window",
    },
    Binding {
        chords: &[ctrl("F12")],
        keys: "Ctrl+F12",
        action: Action::Gif,
        what: "start / stop an animated GIF of the game",
    },
    Binding {
        chords: &[key("KeyI")],
        keys: "I",
        action: Action::ToggleInspector,
        what: "RAM inspector on / off",
    },
    Binding {
        chords: &[key("PageUp")],
        keys: "PgUp / wheel",
        action: Action::HexUp,
        what: "scroll the hex view up",
    },
    Binding {
        chords: &[key("PageDown")],
        keys: "PgDn / wheel",
        action: Action::HexDown,
        what: "scroll the hex view down",
    },
    Binding {
        chords: &[key("BracketRight")],
        keys: "]",
        action: Action::NextField,
        what: "select the next labelled address (its full description shows)",
    },
    Binding {
        chords: &[key("BracketLeft")],
        keys: "[",
        action: Action::PreviousField,
        what: "select the previous labelled address",
    },
    Binding {
        chords: &[key("KeyO")],
        keys: "O",
        action: Action::ToggleMarks,
        what: "the plug-ins' marks over the picture on / off",
    },
    Binding {
        chords: &[key("KeyS")],
        keys: "S",
        action: Action::ToggleStatus,
        what: "the plug-ins' status lines (below or beside the picture) on / off",
    },
    Binding {
        chords: &[key("KeyJ")],
        keys: "J",
        action: Action::ToggleInput,
        what: "the input display (the controller's buttons) on / off",
    },
    Binding {
        chords: &[key("KeyG")],
        keys: "G",
        action: Action::ToggleDashboard,
        what: "the dashboard (the AI's figures and charts) on / off",
    },
    Binding {
        chords: &[key("KeyM")],
        keys: "M",
        action: Action::Mute,
        what: "mute / unmute",
    },
    Binding {
        chords: &[
            key("F11"),
            Chord {
                alt: true,
                ..key("Enter")
            },
        ],
        keys: "F11 / Alt+Enter",
        action: Action::Fullscreen,
        what: "fullscreen on / off",
    },
    Binding {
        chords: &[key("Escape")],
        keys: "Esc",
        action: Action::Back,
        what: "close help, leave fullscreen",
    },
    Binding {
        chords: &[ctrl("KeyQ")],
        keys: "Ctrl+Q",
        action: Action::Quit,
        what: "quit",
    },
];

/// Keys that press controller-1 buttons while you have control.
pub const GAME_KEYS: &[(&str, Buttons, &str)] = &[
    ("ArrowUp", Buttons::UP, "Up"),
    ("ArrowDown", Buttons::DOWN, "Down"),
    ("ArrowLeft", Buttons::LEFT, "Left"),
    ("ArrowRight", Buttons::RIGHT, "Right"),
    ("KeyX", Buttons::A, "X"),
    ("KeyZ", Buttons::B, "Z"),
    ("Enter", Buttons::START, "Enter"),
    ("ShiftRight", Buttons::SELECT, "Right Shift"),
];

/// A gamepad button, by its place on the pad (as gilrs and the browser's standard gamepad
/// layout both place them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pad {
    DPadUp,
    DPadDown,
    DPadLeft,
    DPadRight,
    East,
    South,
    North,
    Start,
    Select,
}

impl Pad {
    /// The button's index in the browser's standard gamepad layout (`Gamepad.buttons`).
    pub fn standard_index(self) -> usize {
        match self {
            Self::South => 0,
            Self::East => 1,
            Self::North => 3,
            Self::Select => 8,
            Self::Start => 9,
            Self::DPadUp => 12,
            Self::DPadDown => 13,
            Self::DPadLeft => 14,
            Self::DPadRight => 15,
        }
    }
}

/// Gamepad buttons and what they press (positions as on a NES pad: A right, B left).
pub const GAMEPAD_BUTTONS: &[(Pad, Buttons, &str)] = &[
    (Pad::DPadUp, Buttons::UP, "D-pad up"),
    (Pad::DPadDown, Buttons::DOWN, "D-pad down"),
    (Pad::DPadLeft, Buttons::LEFT, "D-pad left"),
    (Pad::DPadRight, Buttons::RIGHT, "D-pad right"),
    (Pad::East, Buttons::A, "East (B on Xbox, circle)"),
    (Pad::South, Buttons::B, "South (A on Xbox, cross)"),
    (Pad::Start, Buttons::START, "Start"),
    (Pad::Select, Buttons::SELECT, "Select / Back / View"),
];

/// Gamepad button that hands control to the AI and back.
pub const GAMEPAD_AI_BUTTON: Pad = Pad::North;

/// Left stick deflection that counts as a D-pad press.
pub const STICK_THRESHOLD: f32 = 0.5;

/// The modifier keys held with a key.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifiers {
    #[serde(default)]
    pub ctrl: bool,
    #[serde(default)]
    pub shift: bool,
    #[serde(default)]
    pub alt: bool,
}

impl Modifiers {
    pub const NONE: Self = Self {
        ctrl: false,
        shift: false,
        alt: false,
    };

    pub fn is_empty(self) -> bool {
        self == Self::NONE
    }
}

/// The action bound to the key `code` with exactly `mods` held.
pub fn action_for(code: &str, mods: Modifiers) -> Option<Action> {
    chords()
        .find(|(chord, _)| {
            chord.key == code
                && chord.ctrl == mods.ctrl
                && chord.shift == mods.shift
                && chord.alt == mods.alt
        })
        .map(|(_, action)| action)
}

/// Every key of the table with the action it asks for (each digit its own slot).
pub fn chords() -> impl Iterator<Item = (&'static Chord, Action)> {
    BINDINGS.iter().flat_map(|binding| {
        binding.chords.iter().enumerate().map(|(index, chord)| {
            let action = match binding.action {
                Action::SelectSlot(_) => Action::SelectSlot(index as u8 + 1),
                action => action,
            };
            (chord, action)
        })
    })
}

/// The action of the key `code` with `mods` held: the table's, or a plug-in option's letter
/// (`plugin_keys`) pressed alone.
pub fn action_with_plugins(
    code: &str,
    mods: Modifiers,
    plugin_keys: &[PluginKey],
) -> Option<Action> {
    action_for(code, mods).or_else(|| {
        letter(code)
            .filter(|_| mods.is_empty())
            .filter(|l| plugin_keys.iter().any(|k| k.letter == *l))
            .map(Action::PluginOption)
    })
}

/// The letter of a letter key (`KeyF` is `F`).
pub fn letter(code: &str) -> Option<char> {
    let rest = code.strip_prefix("Key")?;
    let mut chars = rest.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_uppercase() => Some(c),
        _ => None,
    }
}

/// A plug-in option the frontend steps with a letter key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PluginKey {
    pub letter: char,
    /// The option's name.
    pub option: String,
    /// What it does, for the help.
    pub what: String,
}

/// The letter keys the plug-ins' options declare, leaving out any the frontend or the game
/// already uses.
pub fn plugin_keys(options: &[jewelbot_plugin::PluginOption]) -> Vec<PluginKey> {
    let taken = |letter: char| {
        let plain = |chord: &Chord| !chord.ctrl && !chord.shift && !chord.alt;
        BINDINGS
            .iter()
            .flat_map(|b| b.chords)
            .any(|chord| plain(chord) && self::letter(chord.key) == Some(letter))
            || GAME_KEYS
                .iter()
                .any(|(key, _, _)| self::letter(key) == Some(letter))
    };
    let mut keys: Vec<PluginKey> = Vec::new();
    for option in options {
        let Some(letter) = option.key else { continue };
        if option.choices.is_empty() || taken(letter) || keys.iter().any(|k| k.letter == letter) {
            continue;
        }
        keys.push(PluginKey {
            letter,
            option: option.name.clone(),
            what: format!("{}: {}", option.name, option.choices.join(" / ")),
        });
    }
    keys
}

/// The value of a hexadecimal digit key (0-9 on either row, A-F).
pub fn hex_digit(code: &str) -> Option<u8> {
    let digit = code
        .strip_prefix("Digit")
        .or_else(|| code.strip_prefix("Numpad"))
        .and_then(|d| d.parse::<u8>().ok())
        .filter(|d| *d < 10);
    digit.or_else(|| {
        letter(code)
            .filter(|c| ('A'..='F').contains(c))
            .map(|c| c as u8 - b'A' + 10)
    })
}

/// The NES button the key `code` presses, if any.
pub fn game_button(code: &str) -> Option<Buttons> {
    GAME_KEYS
        .iter()
        .find(|(k, _, _)| *k == code)
        .map(|(_, b, _)| *b)
}

/// D-pad presses from a stick position (y up is positive).
pub fn stick_buttons(x: f32, y: f32) -> Buttons {
    let mut b = Buttons::NONE;
    b.set(Buttons::LEFT, x <= -STICK_THRESHOLD);
    b.set(Buttons::RIGHT, x >= STICK_THRESHOLD);
    b.set(Buttons::UP, y >= STICK_THRESHOLD);
    b.set(Buttons::DOWN, y <= -STICK_THRESHOLD);
    b
}

/// Rows of (keys, what they do) for the on-screen help.
pub fn help_rows(plugin_keys: &[PluginKey]) -> Vec<(String, String)> {
    let game: Vec<String> = GAME_KEYS
        .iter()
        .filter(|(k, _, _)| !k.starts_with("Arrow"))
        .map(|(_, b, k)| format!("{k}={b}"))
        .collect();
    let mut rows = vec![(
        "Game".to_owned(),
        format!("arrows, {} (when you have control)", game.join(" ")),
    )];
    rows.extend(
        BINDINGS
            .iter()
            .map(|b| (b.keys.to_owned(), b.what.to_owned())),
    );
    rows.extend(
        plugin_keys
            .iter()
            .map(|k| (k.letter.to_string(), k.what.clone())),
    );
    rows.push((
        "Pad North".to_owned(),
        "hand control to the AI / take it back".to_owned(),
    ));
    rows.push((
        "Click a byte".to_owned(),
        "in the inspector: hex digits write it, Enter freezes it, Esc".to_owned(),
    ));
    rows
}

/// The key table for `docs/keys.md`, with the keys of the plug-ins it is given.
pub fn keys_markdown(plugin_keys: &[PluginKey]) -> String {
    let mut out = String::from(
        "# jewelbot keys\n\n\
         The window's keys and gamepad buttons. Press F1 or H in the window to see them there.\n\
         The web page (`jewelbot serve`, [web.md](web.md)) takes the same keys and buttons.\n\
         The game keys press controller 1 only while you have control (the AI is off); Space or \
         the gamepad's North button hands control to the AI and back.\n\n\
         ## Game\n\n| key | NES button |\n|---|---|\n",
    );
    for (_, button, key) in GAME_KEYS {
        out.push_str(&format!("| {key} | {button} |\n"));
    }
    out.push_str("\n## Frontend\n\n| key | does |\n|---|---|\n");
    for b in BINDINGS {
        out.push_str(&format!(
            "| {} | {} |\n",
            b.keys.replace('|', "\\|"),
            b.what
        ));
    }
    if !plugin_keys.is_empty() {
        out.push_str("\n## Plug-in options\n\n| key | steps |\n|---|---|\n");
        for key in plugin_keys {
            out.push_str(&format!("| {} | {} |\n", key.letter, key.what));
        }
    }
    out.push_str(
        "\n## RAM inspector\n\nClick a byte of the hex view to select it. Then:\n\n\
         | key | does |\n|---|---|\n\
         | 0-9, A-F | two hex digits write the byte |\n\
         | Enter | freeze the byte at its value (rewritten around every frame) / thaw it |\n\
         | arrows | select the byte beside, above or below |\n\
         | Esc | leave editing |\n",
    );
    out.push_str("\n## Gamepad\n\n| button | does |\n|---|---|\n");
    for (_, button, name) in GAMEPAD_BUTTONS {
        out.push_str(&format!("| {name} | {button} |\n"));
    }
    out.push_str("| Left stick | D-pad |\n");
    out.push_str("| North (Y on Xbox, triangle) | hand control to the AI / take it back |\n");
    out.push_str(
        "\nSave states go to the user's data directory (for example \
         `~/.local/share/jewelbot/states/`) or `--state-dir`, never next to the ROM; screenshots \
         go to the current directory or `--screenshot-dir`.\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const CTRL: Modifiers = Modifiers {
        ctrl: true,
        ..Modifiers::NONE
    };
    const SHIFT: Modifiers = Modifiers {
        shift: true,
        ..Modifiers::NONE
    };

    #[test]
    fn modifiers_must_match_exactly() {
        let none = Modifiers::NONE;
        assert_eq!(action_for("KeyR", none), None);
        assert_eq!(action_for("KeyR", CTRL), Some(Action::Reset));
        let ctrl_shift = Modifiers {
            shift: true,
            ..CTRL
        };
        assert_eq!(action_for("KeyR", ctrl_shift), Some(Action::PowerCycle));
        assert_eq!(action_for("F12", none), Some(Action::Screenshot));
        assert_eq!(action_for("F12", SHIFT), Some(Action::WindowScreenshot));
        assert_eq!(action_for("F12", CTRL), Some(Action::Gif));
        let alt = Modifiers {
            alt: true,
            ..Modifiers::NONE
        };
        assert_eq!(action_for("Enter", alt), Some(Action::Fullscreen));
    }

    #[test]
    fn digits_choose_their_slot() {
        assert_eq!(
            action_for("Digit1", Modifiers::NONE),
            Some(Action::SelectSlot(1))
        );
        assert_eq!(
            action_for("Digit9", Modifiers::NONE),
            Some(Action::SelectSlot(9))
        );
    }

    #[test]
    fn no_key_is_bound_twice() {
        let mut seen: Vec<(&str, bool, bool, bool)> = GAME_KEYS
            .iter()
            .map(|(k, _, _)| (*k, false, false, false))
            .collect();
        for b in BINDINGS {
            for c in b.chords {
                let chord = (c.key, c.ctrl, c.shift, c.alt);
                assert!(!seen.contains(&chord), "{} bound twice", c.key);
                seen.push(chord);
            }
        }
    }

    #[test]
    fn keys_read_as_letters_digits_and_buttons() {
        assert_eq!(letter("KeyF"), Some('F'));
        assert_eq!(letter("KeyFoo"), None);
        assert_eq!(letter("F5"), None);
        assert_eq!(hex_digit("Digit7"), Some(7));
        assert_eq!(hex_digit("Numpad0"), Some(0));
        assert_eq!(hex_digit("KeyC"), Some(12));
        assert_eq!(hex_digit("KeyG"), None);
        assert_eq!(hex_digit("Digit10"), None);
        assert_eq!(game_button("KeyX"), Some(Buttons::A));
        assert_eq!(game_button("KeyQ"), None);
    }

    #[test]
    fn actions_travel_as_words() {
        let text = serde_json::to_string(&Action::SelectSlot(3)).unwrap();
        assert_eq!(text, r#"{"select_slot":3}"#);
        let back: Action = serde_json::from_str(r#""toggle_ai""#).unwrap();
        assert_eq!(back, Action::ToggleAi);
    }

    #[test]
    fn the_stick_works_as_a_dpad() {
        assert_eq!(stick_buttons(-0.9, 0.1), Buttons::LEFT);
        assert_eq!(stick_buttons(0.6, -0.7), Buttons::RIGHT | Buttons::DOWN);
        assert_eq!(stick_buttons(0.2, 0.2), Buttons::NONE);
    }
}
