//! The plug-in host on a tiny ROM the tests build: plug-ins read RAM, press buttons, poke, and
//! a panicking plug-in is disabled while the emulator keeps running.

mod common;

use jewelbot::plugin_host::SlotState;
use jewelbot::rom::RomImage;
use jewelbot::session::{Control, Session, SessionConfig, SessionError};
use jewelbot_plugin::{Buttons, FrameContext, Machine, Plugin, RomIdentity, Stat, StatValue};
use std::sync::{Arc, Mutex};

/// The NMI count and the eight controller bits the program read, per frame.
type Seen = Arc<Mutex<Vec<(u8, [u8; 8])>>>;

/// Presses A+Right on even NMI counts and records what the program read back.
#[derive(Default)]
struct Presser {
    seen: Seen,
}

impl Plugin for Presser {
    fn name(&self) -> &'static str {
        "presser"
    }
    fn attach(&mut self, rom: &RomIdentity<'_>) -> Result<String, String> {
        Ok(format!("{} ({} bytes of PRG)", rom.name, rom.prg.len()))
    }
    fn on_frame(&mut self, ctx: &mut FrameContext<'_>) {
        let ram = ctx.ram();
        let count = ram[common::NMI_COUNT];
        let mut bits = [0u8; 8];
        bits.copy_from_slice(&ram[common::PAD_BITS..common::PAD_BITS + 8]);
        if let Ok(mut seen) = self.seen.lock() {
            seen.push((count, bits));
        }
        let buttons = if count % 2 == 0 {
            Buttons::A | Buttons::RIGHT
        } else {
            Buttons::NONE
        };
        ctx.set_buttons(buttons);
        ctx.poke(common::POKE_SOURCE as u16, count);
        ctx.status().lines = vec![format!("count {count}")];
    }
    fn stats(&self) -> Vec<Stat> {
        vec![Stat::new("frames", "frames", StatValue::Int(1))]
    }
}

/// Panics on its fifth frame.
struct Crasher(u32);

impl Plugin for Crasher {
    fn name(&self) -> &'static str {
        "crasher"
    }
    fn attach(&mut self, _: &RomIdentity<'_>) -> Result<String, String> {
        Ok("anything".into())
    }
    fn on_frame(&mut self, ctx: &mut FrameContext<'_>) {
        self.0 += 1;
        ctx.poke(0x40, 0x99);
        ctx.set_buttons(Buttons::START);
        assert!(self.0 < 5, "crasher gives up at frame {}", self.0);
    }
}

/// Declines every ROM.
struct Picky;

impl Plugin for Picky {
    fn name(&self) -> &'static str {
        "picky"
    }
    fn attach(&mut self, _: &RomIdentity<'_>) -> Result<String, String> {
        Err("not my game".into())
    }
    fn on_frame(&mut self, _: &mut FrameContext<'_>) {
        unreachable!("a declined plug-in is never called");
    }
}

fn tiny_session(plugins: Vec<Box<dyn Plugin>>) -> Session {
    let rom = RomImage::from_bytes("tiny.nes", &common::tiny_rom()).expect("tiny ROM parses");
    Session::new(rom, plugins, SessionConfig::default()).expect("tiny ROM loads")
}

#[test]
fn plugin_reads_ram_presses_buttons_and_pokes() {
    let presser = Presser::default();
    let seen = presser.seen.clone();
    let mut session = tiny_session(vec![Box::new(presser)]);
    for _ in 0..20 {
        session.run_frame().expect("frame runs");
    }
    let seen = seen.lock().expect("not poisoned").clone();
    assert_eq!(seen.len(), 20);
    // The NMI counts frames.
    let counts: Vec<u8> = seen.iter().map(|(c, _)| *c).collect();
    assert!(
        counts
            .windows(2)
            .skip(2)
            .all(|w| w[1] == w[0].wrapping_add(1)),
        "{counts:?}"
    );
    // Buttons chosen after a frame with an even count are read during the next frame.
    for pair in seen.windows(2).skip(2) {
        let (count, _) = pair[0];
        let (_, bits) = pair[1];
        let pressed = u8::from(count % 2 == 0);
        assert_eq!(
            bits,
            [pressed, 0, 0, 0, 0, 0, 0, pressed],
            "after count {count}"
        );
    }
    // The last poke landed after the last frame; the one before it was copied by the program
    // during the last frame.
    let ram = session.ram();
    assert_eq!(ram[common::POKE_SOURCE], ram[common::NMI_COUNT]);
    assert_eq!(
        ram[common::POKE_ECHO],
        ram[common::NMI_COUNT].wrapping_sub(1)
    );
    let status = session.plugins().slots()[0].status();
    assert_eq!(status.lines.len(), 1);
}

#[test]
fn panicking_plugin_is_disabled_and_emulation_continues() {
    let presser = Presser::default();
    let seen = presser.seen.clone();
    let mut session = tiny_session(vec![Box::new(Crasher(0)), Box::new(presser)]);
    for _ in 0..30 {
        session.run_frame().expect("the emulator keeps running");
    }
    let slots = session.plugins().slots();
    match slots[0].state() {
        SlotState::Disabled(message) => {
            assert!(message.contains("crasher gives up at frame 5"), "{message}");
        }
        other => panic!("crasher should be disabled, is {other:?}"),
    }
    assert!(slots[1].is_active());
    assert_eq!(seen.lock().expect("not poisoned").len(), 30);
    // The crasher's buttons no longer reach the controller: only the presser's do.
    assert!(!session.plugin_buttons().contains(Buttons::START));
    let messages = session.plugins_mut().drain_messages();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(messages[0].contains("disabled"));
}

#[test]
fn declined_plugin_leaves_the_rom_running() {
    let mut session = tiny_session(vec![Box::new(Picky)]);
    for _ in 0..10 {
        session.run_frame().expect("frame runs");
    }
    assert!(
        matches!(session.plugins().slots()[0].state(), SlotState::Declined(r) if r == "not my game")
    );
    assert!(session.ram()[common::NMI_COUNT] >= 8);
}

#[test]
fn manual_control_overrides_plugins() {
    let mut session = tiny_session(vec![Box::new(Presser::default())]);
    session.set_control(Control::Manual);
    session.set_manual_buttons(Buttons::B);
    for _ in 0..5 {
        session.run_frame().expect("frame runs");
    }
    assert_eq!(
        &session.ram()[common::PAD_BITS..common::PAD_BITS + 3],
        &[0, 1, 0]
    );
}

#[test]
fn state_round_trips_in_memory_and_power_cycle_is_deterministic() {
    let mut session = tiny_session(Vec::new());
    for _ in 0..10 {
        session.step(Buttons::NONE).expect("frame runs");
    }
    let state = session.save_state().expect("saves");
    let ram_at_10 = *session.ram();
    for _ in 0..10 {
        session.step(Buttons::A).expect("frame runs");
    }
    assert_ne!(*session.ram(), ram_at_10);
    session.load_state(&state).expect("loads");
    assert_eq!(*session.ram(), ram_at_10);
    assert_eq!(session.frame_number(), 10);

    Machine::power_cycle(&mut session).expect("power cycles");
    assert_eq!(session.frame_number(), 0);
    for _ in 0..10 {
        session.step(Buttons::NONE).expect("frame runs");
    }
    assert_eq!(*session.ram(), ram_at_10);
    assert!(session.load_state(&[1, 2, 3]).is_err());
}

#[test]
fn state_files_round_trip() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("slot1.state");
    let mut session = tiny_session(Vec::new());
    for _ in 0..7 {
        session.run_frame().expect("frame runs");
    }
    session.save_state_file(&path).expect("writes");
    let ram = *session.ram();
    for _ in 0..7 {
        session.run_frame().expect("frame runs");
    }
    session.load_state_file(&path).expect("reads");
    assert_eq!(*session.ram(), ram);
    assert!(session
        .load_state_file(&dir.path().join("missing"))
        .is_err());
}

#[test]
fn jammed_cpu_is_reported() {
    let rom = RomImage::from_bytes("jam.nes", &common::jam_rom()).expect("parses");
    let mut session = Session::new(rom, Vec::new(), SessionConfig::default()).expect("loads");
    let error = (0..10).find_map(|_| session.run_frame().err());
    assert!(
        matches!(error, Some(SessionError::Jammed { pc: 0x8000 })),
        "{error:?}"
    );
}
