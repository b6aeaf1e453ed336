//! The console as plug-ins see it during a frame ([`jewelbot_plugin::Console`]), and the lag
//! probe that tells whether a frame read the controllers.

use super::state_file::{self, StateHeader};
use super::HOST_VERSION;
use jewelbot_plugin::{Buttons, Console, MemoryHit};
use tetanes_core::control_deck::ControlDeck;
use tetanes_core::input::Player;

/// A controller's shift register past its eighth button: reads give 1 and do not shift, as
/// at 8, so the game cannot tell; only a strobe (a poll) sets it back to 0.
const UNREAD: u8 = 9;

/// The controllers' shift registers before a frame, to tell afterwards whether the frame
/// polled them.
#[derive(Debug, Clone, Copy)]
pub struct LagProbe([(u8, bool); 2]);

const PADS: [Player; 2] = [Player::One, Player::Two];

impl LagProbe {
    /// Notes both controllers before a frame. A register spent by the last poll (index 8 or
    /// more, strobe low, as every frame that polled leaves it) is marked [`UNREAD`], which the
    /// game cannot tell from 8: a poll strobes it back to 0 and reads it up again.
    pub fn arm(deck: &mut ControlDeck) -> Self {
        Self(PADS.map(|player| {
            let pad = deck.joypad_mut(player);
            if pad.index >= 8 && !pad.strobe {
                pad.index = UNREAD;
            }
            (pad.index, pad.strobe)
        }))
    }

    /// Whether the frame since [`LagProbe::arm`] left both registers as they were: nothing
    /// strobed or read a controller.
    pub fn lagged(self, deck: &ControlDeck) -> bool {
        PADS.into_iter().zip(self.0).all(|(player, before)| {
            let pad = deck.joypad(player);
            (pad.index, pad.strobe) == before
        })
    }
}

/// The core's own serialisation of the console (about 21 KB).
pub fn state_payload(deck: &ControlDeck) -> Result<Vec<u8>, String> {
    let mut payload = vec![0; deck.serialized_state_len().map_err(|e| e.to_string())?];
    let len = deck
        .serialize_state_into(&mut payload)
        .map_err(|e| e.to_string())?;
    payload.truncate(len);
    Ok(payload)
}

/// The state's bytes in the host's format, for a plug-in or a state file.
pub fn encode_state(deck: &ControlDeck, rom_sha1: &str, frame: u64) -> Result<Vec<u8>, String> {
    let payload = state_payload(deck)?;
    let header = StateHeader {
        host_version: HOST_VERSION.to_owned(),
        rom_sha1: rom_sha1.to_owned(),
        frame,
    };
    Ok(state_file::encode(&header, &payload, None))
}

/// What a plug-in sees of the console after a frame.
pub struct ConsoleView<'a> {
    pub deck: &'a ControlDeck,
    pub rom_sha1: &'a str,
    pub frame: u64,
    pub person: Buttons,
    pub lagged: bool,
    pub lag_count: u64,
    pub memory_hits: &'a [MemoryHit],
}

impl Console for ConsoleView<'_> {
    fn peek(&self, address: u16) -> u8 {
        self.deck.bus().peek(address)
    }

    fn save_state(&self) -> Result<Vec<u8>, String> {
        encode_state(self.deck, self.rom_sha1, self.frame)
    }

    fn person_buttons(&self) -> Buttons {
        self.person
    }

    fn lagged(&self) -> bool {
        self.lagged
    }

    fn lag_count(&self) -> u64 {
        self.lag_count
    }

    fn memory_hits(&self) -> &[MemoryHit] {
        self.memory_hits
    }
}
