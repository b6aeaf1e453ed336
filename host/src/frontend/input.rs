//! The window's input: winit's keys read through the key table ([`super::keys`]), and
//! gamepads through gilrs, merged into controller-1 buttons.

use super::keys::{self, Action, Modifiers, Pad};
use gilrs::{Axis, Button, Gilrs};
use jewelbot_plugin::Buttons;
use winit::keyboard::{KeyCode, ModifiersState};

/// The key's code as the key table names it: winit's `KeyCode` names are the browser's
/// `KeyboardEvent.code` names (`KeyA`, `F5`).
pub fn code(key: KeyCode) -> String {
    format!("{key:?}")
}

/// The modifiers held, as the key table reads them.
pub fn modifiers(state: ModifiersState) -> Modifiers {
    Modifiers {
        ctrl: state.control_key(),
        shift: state.shift_key(),
        alt: state.alt_key(),
    }
}

/// The gilrs button at a pad's place.
fn gilrs_button(pad: Pad) -> Button {
    match pad {
        Pad::DPadUp => Button::DPadUp,
        Pad::DPadDown => Button::DPadDown,
        Pad::DPadLeft => Button::DPadLeft,
        Pad::DPadRight => Button::DPadRight,
        Pad::East => Button::East,
        Pad::South => Button::South,
        Pad::North => Button::North,
        Pad::Start => Button::Start,
        Pad::Select => Button::Select,
    }
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
        match keys::game_button(&code(key)) {
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
            let ai_button = gilrs_button(keys::GAMEPAD_AI_BUTTON);
            while let Some(event) = gilrs.next_event() {
                if let gilrs::EventType::ButtonPressed(button, _) = event.event {
                    if button == ai_button {
                        actions.push(Action::ToggleAi);
                    }
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
                for (place, nes, _) in keys::GAMEPAD_BUTTONS {
                    if pad.is_pressed(gilrs_button(*place)) {
                        buttons.insert(*nes);
                    }
                }
                buttons |=
                    keys::stick_buttons(pad.value(Axis::LeftStickX), pad.value(Axis::LeftStickY));
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every key the table names is a key winit knows by that name.
    #[test]
    fn the_table_names_winit_keys() {
        let named: Vec<&str> = keys::BINDINGS
            .iter()
            .flat_map(|b| b.chords.iter().map(|c| c.key))
            .chain(keys::GAME_KEYS.iter().map(|(k, _, _)| *k))
            .collect();
        let known = [
            KeyCode::F1,
            KeyCode::KeyH,
            KeyCode::Space,
            KeyCode::Tab,
            KeyCode::KeyP,
            KeyCode::Pause,
            KeyCode::Period,
            KeyCode::KeyR,
            KeyCode::Digit1,
            KeyCode::Digit2,
            KeyCode::Digit3,
            KeyCode::Digit4,
            KeyCode::Digit5,
            KeyCode::Digit6,
            KeyCode::Digit7,
            KeyCode::Digit8,
            KeyCode::Digit9,
            KeyCode::F5,
            KeyCode::F7,
            KeyCode::F11,
            KeyCode::F12,
            KeyCode::KeyI,
            KeyCode::PageUp,
            KeyCode::PageDown,
            KeyCode::BracketLeft,
            KeyCode::BracketRight,
            KeyCode::KeyO,
            KeyCode::KeyS,
            KeyCode::KeyJ,
            KeyCode::KeyG,
            KeyCode::KeyM,
            KeyCode::Enter,
            KeyCode::Escape,
            KeyCode::KeyQ,
            KeyCode::ArrowUp,
            KeyCode::ArrowDown,
            KeyCode::ArrowLeft,
            KeyCode::ArrowRight,
            KeyCode::KeyX,
            KeyCode::KeyZ,
            KeyCode::ShiftRight,
        ];
        let known: Vec<String> = known.iter().map(|k| code(*k)).collect();
        for name in named {
            assert!(known.iter().any(|k| k == name), "{name} is not a winit key");
        }
        assert_eq!(
            keys::action_for(&code(KeyCode::KeyR), modifiers(ModifiersState::CONTROL)),
            Some(Action::Reset)
        );
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
}
