//! Save states, damaged or forged, loaded into a running session of the open cartridge with
//! the plug-in playing.
//!
//! The first byte chooses how: damaged (bytes of the file changed, cut, added, as a disk or a
//! copy would) or forged (the core's payload changed and the header's checksum made to match,
//! as only someone meaning to would). A damaged state must never load; a forged one may, when
//! its first frame runs, and the session must go on either way.

use crate::input::Input;
use jewelbot_host::session::{
    decode_state_file, reseal_state_file, Session, SessionConfig, SessionError, StateFileError,
    TrialError,
};
use magic_jewelry::plugin::MagicJewelryPlugin;
use std::cell::RefCell;

/// Frames the session plays before its state is taken: a game in progress.
const BASE_FRAMES: usize = 900;
/// Frames run after a state is loaded.
const FRAMES_AFTER: usize = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// Refused, for the reason given; the running session was left exactly as it was.
    Refused(&'static str),
    /// The unchanged state, loaded.
    LoadedOriginal,
    /// A forged payload whose first frame ran: loaded, and the session ran on.
    LoadedForgery,
    /// A damaged state that loaded: a silent corrupt load.
    SilentCorrupt,
    /// Refused, but the running session changed.
    TouchedOnRefusal,
}

struct Base {
    session: Session,
    state: Vec<u8>,
}

thread_local! {
    static BASE: RefCell<Option<Base>> = const { RefCell::new(None) };
}

fn base() -> Base {
    let rom = jewelbot_host::rom::RomImage::from_bytes(jewelbot_cartridge::NAME, jewelbot_cartridge::ROM).expect("the built-in cartridge");
    let mut plugin = MagicJewelryPlugin::default();
    // The fast player reaches a game in progress in few frames.
    let _ = jewelbot_plugin::Plugin::set_option(&mut plugin, "mode", "fast");
    let plugins: Vec<Box<dyn jewelbot_plugin::Plugin>> = vec![Box::new(plugin)];
    let mut session =
        Session::new(rom, plugins, SessionConfig::default()).expect("the cartridge loads");
    for _ in 0..BASE_FRAMES {
        session.run_frame().expect("the cartridge runs");
    }
    let state = session.save_state().expect("a state");
    Base { session, state }
}

/// Changes `bytes` as the input says: bytes set or flipped, a cut, an insertion, a run
/// duplicated.
fn mutate(bytes: &mut Vec<u8>, input: &mut Input<'_>) {
    let ops = 1 + input.below(6);
    for _ in 0..ops {
        if bytes.is_empty() {
            bytes.push(input.byte());
            continue;
        }
        let at = input.below(bytes.len());
        match input.below(8) {
            0..=2 => bytes[at] ^= input.byte() | 1,
            3 | 4 => bytes[at] = input.interesting(),
            5 => bytes.truncate(at),
            6 => {
                let extra = input.below(64);
                for _ in 0..extra {
                    bytes.insert(at, input.byte());
                }
            }
            _ => {
                let len = input.below(64).min(bytes.len() - at);
                let run = bytes[at..at + len].to_vec();
                bytes.splice(at..at, run);
            }
        }
    }
}

pub fn run(data: &[u8]) -> Outcome {
    BASE.with(|cell| {
        let mut cell = cell.borrow_mut();
        let base = cell.get_or_insert_with(base);
        one(base, data)
    })
}

fn one(base: &mut Base, data: &[u8]) -> Outcome {
    let mut input = Input::new(data);
    let forged = input.flag();
    let candidate = if forged {
        let sha1 = &base.session.rom().prg_chr_sha1;
        let mut payload = decode_state_file(&base.state, sha1)
            .expect("the base state")
            .payload
            .to_vec();
        mutate(&mut payload, &mut input);
        reseal_state_file(&base.state, sha1, &payload).expect("the base state")
    } else {
        let mut bytes = base.state.clone();
        mutate(&mut bytes, &mut input);
        bytes
    };
    let before = (base.session.ram().to_vec(), base.session.frame_number());
    let outcome = match base.session.load_state(&candidate) {
        Err(error) => {
            let after = (base.session.ram().to_vec(), base.session.frame_number());
            return if after == before {
                Outcome::Refused(reason(&error))
            } else {
                Outcome::TouchedOnRefusal
            };
        }
        Ok(_) if candidate == base.state => Outcome::LoadedOriginal,
        Ok(_) if forged => Outcome::LoadedForgery,
        Ok(_) => Outcome::SilentCorrupt,
    };
    for _ in 0..FRAMES_AFTER {
        if base.session.run_frame().is_err() {
            break;
        }
    }
    // Back to the base for the next input; the base state always loads.
    let _ = base.session.load_state(&base.state);
    outcome
}

/// The kind of refusal, for the sweep's count.
fn reason(error: &SessionError) -> &'static str {
    match error {
        SessionError::StateRefused(StateFileError::Checksum { .. }) => "checksum",
        SessionError::StateRefused(
            StateFileError::Truncated(_)
            | StateFileError::TrailingBytes { .. }
            | StateFileError::PayloadLength(_),
        ) => "length",
        SessionError::StateRefused(_) => "header",
        SessionError::StateDoesNotRun(TrialError::Rejected(_)) => "core rejected the payload",
        SessionError::StateDoesNotRun(TrialError::FrameNeverEnds) => "first frame never ends",
        SessionError::StateDoesNotRun(TrialError::Panicked(_)) => "core panicked on it",
        SessionError::StateDoesNotRun(TrialError::TimedOut) => "first frame too slow",
        SessionError::StateDoesNotRun(TrialError::Failed(_)) => "first frame failed",
        _ => "other",
    }
}
