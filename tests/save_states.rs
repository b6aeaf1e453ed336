//! Save states carry their format, host version, ROM and checksum; a state that is damaged,
//! foreign or does not run is refused with a message and the running console is untouched.

mod common;
use common::cartridge;

use common::jewelbot;
use jewelbot_host::rom::RomImage;
use jewelbot_host::session::{
    decode_state_file, reseal_checkpoint_extras, reseal_state_file, Session, SessionConfig,
    SessionError, StateFileError,
};
use jewelbot_plugin::{Buttons, Machine};
use proptest::prelude::*;
use std::path::Path;

fn session_of(rom: &[u8]) -> Session {
    let rom = RomImage::from_bytes("tiny.nes", rom).expect("ROM parses");
    Session::new(rom, Vec::new(), SessionConfig::default()).expect("ROM loads")
}

/// A session at frame 10 and its state.
fn saved() -> (Session, Vec<u8>) {
    let mut session = session_of(&common::tiny_rom());
    for _ in 0..10 {
        session.step(Buttons::NONE).expect("frame runs");
    }
    let state = session.save_state().expect("saves");
    (session, state)
}

/// The console as the tests compare it: RAM and frame number.
fn snapshot(session: &Session) -> (Vec<u8>, u64) {
    (session.ram().to_vec(), session.frame_number())
}

fn assert_refused_untouched(session: &mut Session, state: &[u8]) -> SessionError {
    let before = snapshot(session);
    let error = session.load_state(state).expect_err("refused");
    assert_eq!(snapshot(session), before, "{error}");
    // And the console still runs as before.
    session.step(Buttons::NONE).expect("frame runs");
    error
}

#[test]
fn a_state_round_trips_with_its_frame_number() {
    let (mut session, state) = saved();
    let ram = session.ram().to_vec();
    for _ in 0..5 {
        session.step(Buttons::A).expect("frame runs");
    }
    session.load_state(&state).expect("loads");
    assert_eq!(session.ram().to_vec(), ram);
    assert_eq!(session.frame_number(), 10);
}

#[test]
fn a_damaged_state_is_refused_and_the_console_untouched() {
    let (mut session, state) = saved();
    for _ in 0..3 {
        session.step(Buttons::NONE).expect("frame runs");
    }
    // A byte of the core's state changed: before headers, this loaded as another machine.
    let mut damaged = state.clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 0x10;
    let error = assert_refused_untouched(&mut session, &damaged);
    assert!(
        error.to_string().contains("the state is damaged"),
        "{error}"
    );
    let error = assert_refused_untouched(&mut session, &state[..state.len() - 1]);
    assert!(error.to_string().contains("truncated"), "{error}");
    let error = assert_refused_untouched(&mut session, &state[80..]);
    assert!(
        error.to_string().contains("not a jewelbot save state"),
        "{error}"
    );
}

#[test]
fn a_state_of_another_rom_is_refused() {
    let (_, state) = saved();
    let mut other_rom = common::tiny_rom();
    other_rom[16 + 0x3000] = 0x01;
    let mut other = session_of(&other_rom);
    let error = assert_refused_untouched(&mut other, &state);
    assert!(
        matches!(
            error,
            SessionError::StateRefused(StateFileError::OtherRom { .. })
        ),
        "{error}"
    );
    assert!(error.to_string().contains("another ROM"), "{error}");
}

/// A state whose checksum is right but whose payload the core cannot use never reaches the
/// running console.
#[test]
fn a_well_framed_state_the_core_cannot_run_is_refused() {
    let (mut session, state) = saved();
    let core = payload_of(&session, &state).to_vec();
    for payload in [vec![], vec![0xFF; 64], core[..100].to_vec()] {
        let forged = reframe(&session, &state, &payload);
        let error = assert_refused_untouched(&mut session, &forged);
        assert!(matches!(error, SessionError::StateDoesNotRun(_)), "{error}");
    }
}

/// The core's part of `session`'s `state`.
fn payload_of<'a>(session: &Session, state: &'a [u8]) -> &'a [u8] {
    decode_state_file(state, &session.rom().prg_chr_sha1)
        .expect("a state of this ROM")
        .payload
}

/// `state` around another payload, with a length and checksum that match.
fn reframe(session: &Session, state: &[u8], payload: &[u8]) -> Vec<u8> {
    reseal_state_file(state, &session.rom().prg_chr_sha1, payload).expect("a state of this ROM")
}

#[test]
fn state_files_that_are_not_regular_files_are_refused() {
    let (mut session, _) = saved();
    let dir = tempfile::tempdir().expect("temp dir");
    let error = session
        .load_state_file(dir.path())
        .expect_err("a directory");
    assert!(error.to_string().contains("is a directory"), "{error}");
    let error = session
        .load_state_file(Path::new("/dev/zero"))
        .expect_err("a device");
    assert!(error.to_string().contains("character device"), "{error}");
}

#[test]
fn run_starts_from_a_state_headless_and_refuses_a_bad_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    let rom = dir.path().join("tiny.nes");
    std::fs::write(&rom, common::tiny_rom()).expect("written");
    let rom = rom.to_str().expect("utf-8");
    let state = dir.path().join("at-20.state");
    let state = state.to_str().expect("utf-8");
    let args = ["run", "--rom", rom, "--ai", "off", "--frames", "20"];
    let (code, _, stderr) = jewelbot(&[&args[..], &["--save-state", state]].concat());
    assert_eq!(code, 0, "{stderr}");
    // Never over an existing file without --force.
    let before = std::fs::read(state).expect("saved");
    let (code, _, stderr) = jewelbot(&[&args[..], &["--save-state", state]].concat());
    assert_ne!(code, 0);
    assert!(stderr.contains("--force"), "{stderr}");
    assert_eq!(std::fs::read(state).expect("kept"), before);

    let (code, stdout, stderr) =
        jewelbot(&["run", "--rom", rom, "--frames", "5", "--state", state]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("frames: 5"), "{stdout}");

    let mut damaged = before.clone();
    *damaged.last_mut().expect("bytes") ^= 1;
    let damaged_path = dir.path().join("damaged.state");
    std::fs::write(&damaged_path, &damaged).expect("written");
    let (code, _, stderr) = jewelbot(&[
        "run",
        "--rom",
        rom,
        "--frames",
        "5",
        "--state",
        damaged_path.to_str().expect("utf-8"),
    ]);
    assert_ne!(code, 0);
    assert!(stderr.contains("the state is damaged"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Corrupted states (bytes changed, cut short, extended) are refused with the console
    /// untouched; a state is loaded only when it is the saved one.
    #[test]
    fn corrupted_states_never_load(
        changes in proptest::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 0..4),
        cut in any::<prop::sample::Index>(),
        cut_it in any::<bool>(),
    ) {
        let (mut session, state) = saved();
        let mut bytes = state.clone();
        for (at, flip) in &changes {
            let at = at.index(bytes.len());
            bytes[at] ^= flip;
        }
        if cut_it {
            bytes.truncate(cut.index(bytes.len()));
        }
        let before = snapshot(&session);
        if session.load_state(&bytes).is_ok() {
            prop_assert_eq!(&bytes, &state);
        } else {
            prop_assert_eq!(snapshot(&session), before);
        }
    }

    /// Payloads the core is handed as they are (checksum right, bytes wrong) never panic the
    /// host, never stall it, and leave the console untouched when refused.
    #[test]
    fn forged_payloads_never_panic_or_stall(
        changes in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
    ) {
        let (mut session, state) = saved();
        let mut payload = payload_of(&session, &state).to_vec();
        for (at, value) in &changes {
            let at = at.index(payload.len());
            payload[at] = *value;
        }
        let before = snapshot(&session);
        if session.load_state(&reframe(&session, &state, &payload)).is_err() {
            prop_assert_eq!(snapshot(&session), before);
        }
        // Loaded or not, the console runs on.
        let _ = session.step(Buttons::NONE);
    }
}

/// A checkpoint of the cartridge with the AI, some columns into a game, and its extras as
/// JSON.
fn checkpoint_with_extras() -> (Session, Vec<u8>, serde_json::Value) {
    use std::io::Read;
    let rom = cartridge().expect("parses");
    let plugins: Vec<Box<dyn jewelbot_plugin::Plugin>> = vec![Box::new(
        magic_jewelry::plugin::MagicJewelryPlugin::default(),
    )];
    let mut session = Session::new(rom, plugins, SessionConfig::default()).expect("loads");
    let bytes = loop {
        session.run_frame().expect("frame runs");
        if session.frame_number() > 400 {
            if let Some(bytes) = session.checkpoint(serde_json::json!({})).expect("a state") {
                break bytes;
            }
        }
    };
    let decoded = decode_state_file(&bytes, &session.rom().prg_chr_sha1).expect("decodes");
    let mut json = String::new();
    flate2::read::GzDecoder::new(decoded.extras.expect("extras"))
        .read_to_string(&mut json)
        .expect("gzip'd JSON");
    (session, bytes, serde_json::from_str(&json).expect("JSON"))
}

fn with_extras(session: &Session, checkpoint: &[u8], extras: &[u8]) -> Vec<u8> {
    let gz = {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(extras).expect("in memory");
        gz.finish().expect("in memory")
    };
    reseal_checkpoint_extras(checkpoint, &session.rom().prg_chr_sha1, &gz).expect("resealed")
}

/// A checkpoint whose checksum holds but whose plug-in state is not base64, or is another
/// plug-in's: refused with the reason, the console and the plug-in's figures untouched.
#[test]
fn a_checkpoint_with_a_foreign_or_damaged_snapshot_is_refused() {
    let (mut session, checkpoint, extras) = checkpoint_with_extras();
    let columns = |s: &Session| s.plugins().stat("columns_placed");
    let before = columns(&session);
    assert!(before.is_some_and(|c| c > 0), "{before:?}");
    for (change, says) in [
        (("snapshot", "%% not base64 %%"), "not base64"),
        (("name", "another-plugin"), "another-plugin"),
    ] {
        let mut forged = extras.clone();
        forged["plugins"][0][change.0] = serde_json::Value::from(change.1);
        let state = with_extras(&session, &checkpoint, forged.to_string().as_bytes());
        let error = assert_refused_untouched(&mut session, &state).to_string();
        assert!(error.contains(says), "{error}");
    }
    // Its own checkpoint still loads.
    session.load_state(&checkpoint).expect("loads");
    assert_eq!(columns(&session), before);
}

/// Extras that unpack to more than a checkpoint may hold (a small file, gigabytes unpacked)
/// are refused as they unpack, before they fill the memory.
#[test]
fn a_checkpoint_whose_extras_unpack_too_far_is_refused() {
    let (mut session, checkpoint, _) = checkpoint_with_extras();
    let bomb = vec![b' '; 257 << 20];
    let state = with_extras(&session, &checkpoint, &bomb);
    assert!(state.len() < 2 << 20, "{} bytes", state.len());
    let error = assert_refused_untouched(&mut session, &state).to_string();
    assert!(error.contains("more than the 256 MiB"), "{error}");
}
