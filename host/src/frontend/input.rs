//! Key and gamepad bindings: which keys press which NES buttons, which run frontend actions,
//! and the help text and `docs/keys.md` table made from the same lists.

use gilrs::{Axis, Button, Gilrs};
use jewelbot_plugin::Buttons;
use winit::keyboard::{KeyCode, ModifiersState};

/// Something the person asks the frontend to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
    pub key: KeyCode,
    pub ctrl: bool,
    pub shift: bool,
    pub alt: bool,
}

const fn key(key: KeyCode) -> Chord {
    Chord {
        key,
        ctrl: false,
        shift: false,
        alt: false,
    }
}

const fn ctrl(key: KeyCode) -> Chord {
    Chord {
        ctrl: true,
        ..self::key(key)
    }
}

const fn shift(key: KeyCode) -> Chord {
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
    key(KeyCode::Digit1),
    key(KeyCode::Digit2),
    key(KeyCode::Digit3),
    key(KeyCode::Digit4),
    key(KeyCode::Digit5),
    key(KeyCode::Digit6),
    key(KeyCode::Digit7),
    key(KeyCode::Digit8),
    key(KeyCode::Digit9),
];

pub const BINDINGS: &[Binding] = &[
    Binding {
        chords: &[key(KeyCode::F1), key(KeyCode::KeyH)],
        keys: "F1 / H",
        action: Action::Help,
        what: "show or hide this help",
    },
    Binding {
        chords: &[key(KeyCode::Space)],
        keys: "Space",
        action: Action::ToggleAi,
        what: "hand control to the AI / take it back",
    },
    Binding {
        chords: &[key(KeyCode::Tab)],
        keys: "Tab",
        action: Action::CycleSpeed,
        what: "speed: real time, 2x, unthrottled",
    },
    Binding {
        chords: &[key(KeyCode::KeyP), key(KeyCode::Pause)],
        keys: "P / Pause",
        action: Action::Pause,
        what: "pause / resume",
    },
    Binding {
        chords: &[key(KeyCode::Period)],
        keys: ".",
        action: Action::FrameAdvance,
        what: "advance one frame (pauses)",
    },
    Binding {
        chords: &[ctrl(KeyCode::KeyR)],
        keys: "Ctrl+R",
        action: Action::Reset,
        what: "reset the console",
    },
    Binding {
        chords: &[Chord {
            ctrl: true,
            shift: true,
            ..key(KeyCode::KeyR)
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
        chords: &[key(KeyCode::F5)],
        keys: "F5",
        action: Action::SaveState,
        what: "save state to the slot",
    },
    Binding {
        chords: &[key(KeyCode::F7)],
        keys: "F7",
        action: Action::LoadState,
        what: "load state from the slot",
    },
    Binding {
        chords: &[key(KeyCode::F12)],
        keys: "F12",
        action: Action::Screenshot,
        what: "screenshot of the game (PNG)",
    },
    Binding {
        chords: &[shift(KeyCode::F12)],
        keys: "Shift+F12",
        action: Action::WindowScreenshot,
        what: "screenshot of the whole window",
    },
    Binding {
        chords: &[ctrl(KeyCode::F12)],
        keys: "Ctrl+F12",
        action: Action::Gif,
        what: "start / stop an animated GIF of the game",
    },
    Binding {
        chords: &[key(KeyCode::KeyI)],
        keys: "I",
        action: Action::ToggleInspector,
        what: "RAM inspector on / off",
    },
    Binding {
        chords: &[key(KeyCode::PageUp)],
        keys: "PgUp / wheel",
        action: Action::HexUp,
        what: "scroll the hex view up",
    },
    Binding {
        chords: &[key(KeyCode::PageDown)],
        keys: "PgDn / wheel",
        action: Action::HexDown,
        what: "scroll the hex view down",
    },
    Binding {
        chords: &[key(KeyCode::BracketRight)],
        keys: "]",
        action: Action::NextField,
        what: "select the next labelled address (its full description shows)",
    },
    Binding {
        chords: &[key(KeyCode::BracketLeft)],
        keys: "[",
        action: Action::PreviousField,
        what: "select the previous labelled address",
    },
    Binding {
        chords: &[key(KeyCode::KeyO)],
        keys: "O",
        action: Action::ToggleMarks,
        what: "the plug-ins' marks over the picture on / off",
    },
    Binding {
        chords: &[key(KeyCode::KeyS)],
        keys: "S",
        action: Action::ToggleStatus,
        what: "the plug-ins' status lines (below or beside the picture) on / off",
    },
    Binding {
        chords: &[key(KeyCode::KeyJ)],
        keys: "J",
        action: Action::ToggleInput,
        what: "the input display (the controller's buttons) on / off",
    },
    Binding {
        chords: &[key(KeyCode::KeyG)],
        keys: "G",
        action: Action::ToggleDashboard,
        what: "the dashboard (the AI's figures and charts) on / off",
    },
    Binding {
        chords: &[key(KeyCode::KeyM)],
        keys: "M",
        action: Action::Mute,
        what: "mute / unmute",
    },
    Binding {
        chords: &[
            key(KeyCode::F11),
            Chord {
                alt: true,
                ..key(KeyCode::Enter)
            },
        ],
        keys: "F11 / Alt+Enter",
        action: Action::Fullscreen,
        what: "fullscreen on / off",
    },
    Binding {
        chords: &[key(KeyCode::Escape)],
        keys: "Esc",
        action: Action::Back,
        what: "close help, leave fullscreen",
    },
    Binding {
        chords: &[ctrl(KeyCode::KeyQ)],
        keys: "Ctrl+Q",
        action: Action::Quit,
        what: "quit",
    },
];

/// Keys that press controller-1 buttons while you have control.
pub const GAME_KEYS: &[(KeyCode, Buttons, &str)] = &[
    (KeyCode::ArrowUp, Buttons::UP, "Up"),
    (KeyCode::ArrowDown, Buttons::DOWN, "Down"),
    (KeyCode::ArrowLeft, Buttons::LEFT, "Left"),
    (KeyCode::ArrowRight, Buttons::RIGHT, "Right"),
    (KeyCode::KeyX, Buttons::A, "X"),
    (KeyCode::KeyZ, Buttons::B, "Z"),
    (KeyCode::Enter, Buttons::START, "Enter"),
    (KeyCode::ShiftRight, Buttons::SELECT, "Right Shift"),
];

/// Gamepad buttons and what they press (positions as on a NES pad: A right, B left).
pub const GAMEPAD_BUTTONS: &[(Button, Buttons, &str)] = &[
    (Button::DPadUp, Buttons::UP, "D-pad up"),
    (Button::DPadDown, Buttons::DOWN, "D-pad down"),
    (Button::DPadLeft, Buttons::LEFT, "D-pad left"),
    (Button::DPadRight, Buttons::RIGHT, "D-pad right"),
    (Button::East, Buttons::A, "East (B on Xbox, circle)"),
    (Button::South, Buttons::B, "South (A on Xbox, cross)"),
    (Button::Start, Buttons::START, "Start"),
    (Button::Select, Buttons::SELECT, "Select / Back / View"),
];

/// Gamepad button that hands control to the AI and back.
pub const GAMEPAD_AI_BUTTON: Button = Button::North;

/// Left stick deflection that counts as a D-pad press.
const STICK_THRESHOLD: f32 = 0.5;

/// The action bound to `key` with exactly `mods` held.
pub fn action_for(key: KeyCode, mods: ModifiersState) -> Option<Action> {
    for binding in BINDINGS {
        for (index, chord) in binding.chords.iter().enumerate() {
            if chord.key == key
                && chord.ctrl == mods.control_key()
                && chord.shift == mods.shift_key()
                && chord.alt == mods.alt_key()
            {
                return Some(match binding.action {
                    Action::SelectSlot(_) => Action::SelectSlot(index as u8 + 1),
                    action => action,
                });
            }
        }
    }
    None
}

/// The letter of a letter key (`KeyCode::KeyF` is `F`).
pub fn letter(key: KeyCode) -> Option<char> {
    const LETTERS: [(KeyCode, char); 26] = [
        (KeyCode::KeyA, 'A'),
        (KeyCode::KeyB, 'B'),
        (KeyCode::KeyC, 'C'),
        (KeyCode::KeyD, 'D'),
        (KeyCode::KeyE, 'E'),
        (KeyCode::KeyF, 'F'),
        (KeyCode::KeyG, 'G'),
        (KeyCode::KeyH, 'H'),
        (KeyCode::KeyI, 'I'),
        (KeyCode::KeyJ, 'J'),
        (KeyCode::KeyK, 'K'),
        (KeyCode::KeyL, 'L'),
        (KeyCode::KeyM, 'M'),
        (KeyCode::KeyN, 'N'),
        (KeyCode::KeyO, 'O'),
        (KeyCode::KeyP, 'P'),
        (KeyCode::KeyQ, 'Q'),
        (KeyCode::KeyR, 'R'),
        (KeyCode::KeyS, 'S'),
        (KeyCode::KeyT, 'T'),
        (KeyCode::KeyU, 'U'),
        (KeyCode::KeyV, 'V'),
        (KeyCode::KeyW, 'W'),
        (KeyCode::KeyX, 'X'),
        (KeyCode::KeyY, 'Y'),
        (KeyCode::KeyZ, 'Z'),
    ];
    LETTERS.iter().find(|(k, _)| *k == key).map(|(_, c)| *c)
}

/// A plug-in option the window steps with a letter key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginKey {
    pub letter: char,
    /// The option's name.
    pub option: String,
    /// What it does, for the help.
    pub what: String,
}

/// The letter keys the plug-ins' options declare, leaving out any the window or the game
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
                .any(|(key, _, _)| self::letter(*key) == Some(letter))
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
pub fn hex_digit(key: KeyCode) -> Option<u8> {
    const DIGITS: [(KeyCode, KeyCode); 10] = [
        (KeyCode::Digit0, KeyCode::Numpad0),
        (KeyCode::Digit1, KeyCode::Numpad1),
        (KeyCode::Digit2, KeyCode::Numpad2),
        (KeyCode::Digit3, KeyCode::Numpad3),
        (KeyCode::Digit4, KeyCode::Numpad4),
        (KeyCode::Digit5, KeyCode::Numpad5),
        (KeyCode::Digit6, KeyCode::Numpad6),
        (KeyCode::Digit7, KeyCode::Numpad7),
        (KeyCode::Digit8, KeyCode::Numpad8),
        (KeyCode::Digit9, KeyCode::Numpad9),
    ];
    if let Some(value) = DIGITS.iter().position(|&(a, b)| key == a || key == b) {
        return Some(value as u8);
    }
    letter(key)
        .filter(|c| ('A'..='F').contains(c))
        .map(|c| c as u8 - b'A' + 10)
}

/// The NES button `key` presses, if any.
pub fn game_button(key: KeyCode) -> Option<Buttons> {
    GAME_KEYS
        .iter()
        .find(|(k, _, _)| *k == key)
        .map(|(_, b, _)| *b)
}

/// Keyboard and gamepad state merged into controller-1 buttons.
pub struct Input {
    keys: Buttons,
    gilrs: Option<Gilrs>,
}

impl Input {
    /// Starts gamepad support; without it (no udev) the keyboard still works.
    pub fn new() -> Self {
        let gilrs = match Gilrs::new() {
            Ok(gilrs) => Some(gilrs),
            Err(gilrs::Error::NotImplemented(dummy)) => Some(dummy),
            Err(error) => {
                eprintln!("warning: no gamepad support ({error}); the keyboard still works");
                None
            }
        };
        Self {
            keys: Buttons::NONE,
            gilrs,
        }
    }

    /// Records a game key; `true` when the key is a game key.
    pub fn key(&mut self, key: KeyCode, pressed: bool) -> bool {
        match game_button(key) {
            Some(button) => {
                self.keys.set(button, pressed);
                true
            }
            None => false,
        }
    }

    /// Releases every key (the window lost focus: key-up events will not come).
    pub fn release_keys(&mut self) {
        self.keys = Buttons::NONE;
    }

    /// Reads pending gamepad events; returns the actions they ask for.
    pub fn poll_gamepads(&mut self) -> Vec<Action> {
        let mut actions = Vec::new();
        if let Some(gilrs) = &mut self.gilrs {
            while let Some(event) = gilrs.next_event() {
                if let gilrs::EventType::ButtonPressed(GAMEPAD_AI_BUTTON, _) = event.event {
                    actions.push(Action::ToggleAi);
                }
            }
        }
        actions
    }

    /// Buttons held now on the keyboard and every connected gamepad.
    pub fn buttons(&self) -> Buttons {
        let mut buttons = self.keys;
        if let Some(gilrs) = &self.gilrs {
            for (_, pad) in gilrs.gamepads() {
                for (button, nes, _) in GAMEPAD_BUTTONS {
                    if pad.is_pressed(*button) {
                        buttons.insert(*nes);
                    }
                }
                buttons |= stick_buttons(pad.value(Axis::LeftStickX), pad.value(Axis::LeftStickY));
            }
        }
        buttons
    }
}

impl Default for Input {
    fn default() -> Self {
        Self::new()
    }
}

/// D-pad presses from a stick position (y up is positive, as gilrs reports it).
fn stick_buttons(x: f32, y: f32) -> Buttons {
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
        .filter(|(k, _, _)| {
            !matches!(
                k,
                KeyCode::ArrowUp | KeyCode::ArrowDown | KeyCode::ArrowLeft | KeyCode::ArrowRight
            )
        })
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

    #[test]
    fn modifiers_must_match_exactly() {
        let none = ModifiersState::empty();
        assert_eq!(action_for(KeyCode::KeyR, none), None);
        assert_eq!(
            action_for(KeyCode::KeyR, ModifiersState::CONTROL),
            Some(Action::Reset)
        );
        assert_eq!(
            action_for(
                KeyCode::KeyR,
                ModifiersState::CONTROL | ModifiersState::SHIFT
            ),
            Some(Action::PowerCycle)
        );
        assert_eq!(action_for(KeyCode::F12, none), Some(Action::Screenshot));
        assert_eq!(
            action_for(KeyCode::F12, ModifiersState::SHIFT),
            Some(Action::WindowScreenshot)
        );
        assert_eq!(
            action_for(KeyCode::F12, ModifiersState::CONTROL),
            Some(Action::Gif)
        );
        assert_eq!(
            action_for(KeyCode::Enter, ModifiersState::ALT),
            Some(Action::Fullscreen)
        );
    }

    #[test]
    fn digits_choose_their_slot() {
        let none = ModifiersState::empty();
        assert_eq!(
            action_for(KeyCode::Digit1, none),
            Some(Action::SelectSlot(1))
        );
        assert_eq!(
            action_for(KeyCode::Digit9, none),
            Some(Action::SelectSlot(9))
        );
    }

    #[test]
    fn no_key_is_bound_twice() {
        let mut seen: Vec<(KeyCode, bool, bool, bool)> = GAME_KEYS
            .iter()
            .map(|(k, _, _)| (*k, false, false, false))
            .collect();
        for b in BINDINGS {
            for c in b.chords {
                let chord = (c.key, c.ctrl, c.shift, c.alt);
                assert!(!seen.contains(&chord), "{:?} bound twice", c.key);
                seen.push(chord);
            }
        }
    }

    #[test]
    fn game_keys_press_and_release() {
        let mut input = Input {
            keys: Buttons::NONE,
            gilrs: None,
        };
        assert!(input.key(KeyCode::KeyX, true));
        assert!(input.key(KeyCode::ArrowLeft, true));
        assert!(!input.key(KeyCode::KeyQ, true));
        assert_eq!(input.buttons(), Buttons::A | Buttons::LEFT);
        input.key(KeyCode::KeyX, false);
        assert_eq!(input.buttons(), Buttons::LEFT);
        input.release_keys();
        assert_eq!(input.buttons(), Buttons::NONE);
    }

    #[test]
    fn the_stick_works_as_a_dpad() {
        assert_eq!(stick_buttons(-0.9, 0.1), Buttons::LEFT);
        assert_eq!(stick_buttons(0.6, -0.7), Buttons::RIGHT | Buttons::DOWN);
        assert_eq!(stick_buttons(0.2, 0.2), Buttons::NONE);
    }
}
