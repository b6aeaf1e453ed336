//! The plug-in host on a tiny ROM the tests build: plug-ins read RAM, press buttons, poke, and
//! a panicking plug-in is disabled while the emulator keeps running.

mod common;

use jewelbot_host::plugin_host::{SlotState, MESSAGE_INTERVAL_FRAMES, RESTART_LIMIT};
use jewelbot_host::rom::RomImage;
use jewelbot_host::session::{Control, Session, SessionConfig, SessionError};
use jewelbot_plugin::{
    Buttons, ConsoleRequest, FrameContext, Machine, Pacing, Plugin, RomIdentity, Stat, StatValue,
};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

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
    // Shown the console at power-on, then after each frame.
    assert_eq!(seen.len(), 21);
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
fn a_plugin_panicking_every_frame_is_switched_off_and_emulation_continues() {
    let presser = Presser::default();
    let seen = presser.seen.clone();
    let mut session = tiny_session(vec![Box::new(Crasher(0)), Box::new(presser)]);
    for _ in 0..30 {
        session.run_frame().expect("the emulator keeps running");
    }
    let slots = session.plugins().slots();
    match slots[0].state() {
        SlotState::Disabled(message) => {
            assert!(message.contains("switched off"), "{message}");
            assert!(message.contains("crasher gives up at frame"), "{message}");
        }
        other => panic!("crasher should be disabled, is {other:?}"),
    }
    // Restarted after each of its first panics, then given up on.
    assert_eq!(slots[0].restarts(), RESTART_LIMIT as u64);
    assert!(slots[1].is_active());
    assert_eq!(
        seen.lock().expect("not poisoned").len(),
        31,
        "power-on and 30 frames"
    );
    // The crasher's buttons no longer reach the controller: only the presser's do.
    assert!(!session.plugin_buttons().contains(Buttons::START));
    // The first panic is reported, the next ones within the interval are held back, and the
    // switch-off is always reported.
    let messages = session.plugins_mut().drain_messages();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(messages[0].contains("restarted"), "{messages:?}");
    assert!(messages[1].contains("switched off"), "{messages:?}");
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

/// Asks to hold the controller alone and presses Select, unless it declines the ROM.
struct Holder {
    declines: bool,
}

impl Plugin for Holder {
    fn name(&self) -> &'static str {
        "holder"
    }
    fn attach(&mut self, _: &RomIdentity<'_>) -> Result<String, String> {
        if self.declines {
            Err("not my game".into())
        } else {
            Ok("a script".into())
        }
    }
    fn wants_controller(&self) -> bool {
        true
    }
    fn on_frame(&mut self, ctx: &mut FrameContext<'_>) {
        ctx.set_buttons(Buttons::SELECT);
    }
}

/// While a plug-in that asks to hold the controller runs, only its buttons reach the console;
/// one that is not running leaves the controller to the others.
#[test]
fn a_plugin_that_holds_the_controller_presses_alone() {
    for declines in [false, true] {
        let plugins: Vec<Box<dyn Plugin>> =
            vec![Box::new(Presser::default()), Box::new(Holder { declines })];
        let mut session = tiny_session(plugins);
        session.set_control(Control::Plugins);
        let mut read = Vec::new();
        for _ in 0..6 {
            session.run_frame().expect("frame runs");
            read.push(session.ram()[common::PAD_BITS..common::PAD_BITS + 8].to_vec());
        }
        let select = [0, 0, 1, 0, 0, 0, 0, 0];
        let holder_pressed = read.iter().skip(2).all(|bits| bits == &select);
        assert_eq!(holder_pressed, !declines, "{read:?}");
        let presser_pressed = read.iter().any(|bits| bits[0] == 1 && bits[7] == 1);
        assert_eq!(presser_pressed, declines, "{read:?}");
    }
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

/// Presses Start and writes RAM on every frame, and panics on the frames `panics_on` picks;
/// counts the frames and resets it is shown.
struct Flaky {
    panics_on: fn(u64) -> bool,
    frames: Arc<AtomicU32>,
    resets: Arc<AtomicU32>,
}

impl Flaky {
    fn new(panics_on: fn(u64) -> bool) -> (Self, Arc<AtomicU32>, Arc<AtomicU32>) {
        let frames = Arc::new(AtomicU32::new(0));
        let resets = Arc::new(AtomicU32::new(0));
        let flaky = Self {
            panics_on,
            frames: frames.clone(),
            resets: resets.clone(),
        };
        (flaky, frames, resets)
    }
}

impl Plugin for Flaky {
    fn name(&self) -> &'static str {
        "flaky"
    }
    fn attach(&mut self, _: &RomIdentity<'_>) -> Result<String, String> {
        Ok("anything".into())
    }
    fn on_frame(&mut self, ctx: &mut FrameContext<'_>) {
        self.frames.fetch_add(1, Ordering::SeqCst);
        ctx.set_buttons(Buttons::START);
        ctx.poke(0x40, 0x99);
        assert!(
            !(self.panics_on)(ctx.frame_number()),
            "flaky fails at frame {}",
            ctx.frame_number()
        );
    }
    fn on_reset(&mut self) {
        self.resets.fetch_add(1, Ordering::SeqCst);
    }
}

/// Presses A every frame and takes `sleep` over the frames `slow_on` picks.
struct Sleeper {
    slow_on: fn(u64) -> bool,
    sleep: Duration,
}

impl Plugin for Sleeper {
    fn name(&self) -> &'static str {
        "sleeper"
    }
    fn attach(&mut self, _: &RomIdentity<'_>) -> Result<String, String> {
        Ok("anything".into())
    }
    fn on_frame(&mut self, ctx: &mut FrameContext<'_>) {
        ctx.set_buttons(Buttons::A);
        ctx.poke(0x41, 0x77);
        if (self.slow_on)(ctx.frame_number()) {
            std::thread::sleep(self.sleep);
        }
    }
}

#[test]
fn a_panic_is_caught_and_the_plugin_restarted_at_the_next_frame() {
    let (flaky, frames, resets) = Flaky::new(|frame| frame == 5);
    let mut session = tiny_session(vec![Box::new(flaky)]);
    for _ in 0..5 {
        session.run_frame().expect("the emulator keeps running");
    }
    assert!(matches!(
        session.plugins().slots()[0].state(),
        SlotState::Restarting(m) if m.contains("flaky fails at frame 5")
    ));
    session.run_frame().expect("the emulator keeps running");
    // Told of a reset, then shown frame 6 (the calls count power-on's too).
    let slot = &session.plugins().slots()[0];
    assert!(slot.is_active(), "{:?}", slot.state());
    assert_eq!(slot.restarts(), 1);
    assert_eq!(resets.load(Ordering::SeqCst), 1);
    assert_eq!(frames.load(Ordering::SeqCst), 7);
    for _ in 0..20 {
        session.run_frame().expect("the emulator keeps running");
    }
    assert_eq!(frames.load(Ordering::SeqCst), 27);
    assert!(session.plugin_buttons().contains(Buttons::START));
}

#[test]
fn a_panicking_plugins_buttons_and_pokes_are_dropped() {
    let (flaky, _, _) = Flaky::new(|frame| frame == 3);
    let mut session = tiny_session(vec![Box::new(flaky)]);
    for _ in 0..2 {
        session.run_frame().expect("frame runs");
    }
    assert!(session.plugin_buttons().contains(Buttons::START));
    session.poke(0x40, 0);
    session.run_frame().expect("frame runs");
    // It set Start and wrote RAM, then panicked: neither reaches the console.
    assert_eq!(session.plugin_buttons(), Buttons::NONE);
    assert_eq!(session.ram()[0x40], 0);
    session.run_frame().expect("frame runs");
    // The program read no button during the frame after the panic.
    assert_eq!(
        &session.ram()[common::PAD_BITS..common::PAD_BITS + 8],
        &[0; 8]
    );
    // Restarted: Start is back for the next frame.
    assert!(session.plugin_buttons().contains(Buttons::START));
}

#[test]
fn panic_messages_are_rate_limited_while_restarts_go_on() {
    // A panic every 250 frames is rare enough to be restarted every time.
    let (flaky, _, resets) = Flaky::new(|frame| frame > 0 && frame % 250 == 0);
    let mut session = tiny_session(vec![Box::new(flaky)]);
    let frames = 3010;
    for _ in 0..frames {
        session.run_frame().expect("the emulator keeps running");
    }
    let slot = &session.plugins().slots()[0];
    assert!(slot.is_active(), "{:?}", slot.state());
    assert_eq!(slot.restarts(), 12);
    assert_eq!(resets.load(Ordering::SeqCst), 12);
    let messages = session.plugins_mut().drain_messages();
    assert!(
        messages.len() as u64 <= frames / MESSAGE_INTERVAL_FRAMES + 1,
        "{} messages: {messages:?}",
        messages.len()
    );
    assert!(
        messages.iter().any(|m| m.contains("more like it")),
        "{messages:?}"
    );
}

#[test]
fn a_plugin_over_the_stall_limit_is_skipped_for_that_frame() {
    let sleeper = Sleeper {
        slow_on: |frame| frame == 3,
        sleep: Duration::from_millis(80),
    };
    let mut session = tiny_session(vec![Box::new(sleeper)]);
    session.plugins_mut().set_pacing(Pacing::RealTime {
        stall_limit: Duration::from_millis(20),
    });
    for _ in 0..2 {
        session.run_frame().expect("frame runs");
    }
    assert_eq!(session.plugin_buttons(), Buttons::A);
    session.poke(0x41, 0);
    session.run_frame().expect("frame runs");
    assert_eq!(session.plugin_buttons(), Buttons::NONE);
    assert_eq!(
        session.ram()[0x41],
        0,
        "the late frame's RAM write is dropped"
    );
    assert_eq!(session.plugins().slots()[0].stalls(), 1);
    let messages = session.plugins_mut().drain_messages();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(messages[0].contains("limit 20 ms"), "{messages:?}");
    session.run_frame().expect("frame runs");
    assert_eq!(session.plugin_buttons(), Buttons::A);
    assert!(session.plugins().slots()[0].is_active());
}

#[test]
fn without_a_stall_limit_a_slow_plugin_is_waited_for() {
    let sleeper = Sleeper {
        slow_on: |frame| frame == 3,
        sleep: Duration::from_millis(80),
    };
    let mut session = tiny_session(vec![Box::new(sleeper)]);
    assert_eq!(session.plugins().pacing(), Pacing::Lockstep);
    for _ in 0..3 {
        session.run_frame().expect("frame runs");
        assert_eq!(session.plugin_buttons(), Buttons::A);
    }
    let slot = &session.plugins().slots()[0];
    assert_eq!(slot.stalls(), 0);
    assert!(slot.slowest_frame() >= Duration::from_millis(80));
    assert!(session.plugins_mut().drain_messages().is_empty());
}

#[test]
fn stall_messages_are_rate_limited() {
    let sleeper = Sleeper {
        slow_on: |_| true,
        sleep: Duration::from_millis(3),
    };
    let mut session = tiny_session(vec![Box::new(sleeper)]);
    session.plugins_mut().set_pacing(Pacing::RealTime {
        stall_limit: Duration::from_millis(1),
    });
    for _ in 0..40 {
        session.run_frame().expect("frame runs");
        assert_eq!(session.plugin_buttons(), Buttons::NONE);
    }
    assert_eq!(
        session.plugins().slots()[0].stalls(),
        41,
        "power-on and 40 frames"
    );
    let messages = session.plugins_mut().drain_messages();
    assert_eq!(messages.len(), 1);
    // The time it took, to a tenth of a millisecond: over the limit, never rounded down to it.
    let took: f64 = messages[0]
        .split("took ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|number| number.parse().ok())
        .unwrap_or_else(|| panic!("{messages:?}"));
    assert!(took >= 3.0, "{messages:?}");
}

/// Containment needs unwinding: a profile with `panic = "abort"` would make every plug-in
/// panic end the emulator. The build refuses such a profile (`compile_error!` in the host);
/// this reads the workspace manifest so the mistake is named where it is made.
#[test]
fn no_profile_aborts_on_panic() {
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let text = std::fs::read_to_string(manifest).expect("the workspace manifest");
    let mut section = String::new();
    let mut release_panic = None;
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.starts_with('[') {
            section = line
                .trim_matches(|c| c == '[' || c == ']')
                .trim()
                .to_owned();
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        if key.trim() != "panic" || !section.starts_with("profile") {
            continue;
        }
        let value = value.trim().trim_matches('"').to_owned();
        assert_eq!(value, "unwind", "[{section}] sets panic = \"{value}\"");
        if section == "profile.release" {
            release_panic = Some(value);
        }
    }
    // Unset means unwind, Cargo's default.
    assert_eq!(release_panic.as_deref().unwrap_or("unwind"), "unwind");
}

/// Writes a note on every third frame, and panics on the sixth.
struct Noter(u32);

impl Plugin for Noter {
    fn name(&self) -> &'static str {
        "noter"
    }
    fn attach(&mut self, _: &RomIdentity<'_>) -> Result<String, String> {
        Ok("anything".into())
    }
    fn on_frame(&mut self, ctx: &mut FrameContext<'_>) {
        self.0 += 1;
        if self.0.is_multiple_of(3) {
            ctx.status().notes.push(format!("call {}", self.0));
        }
        assert!(self.0 != 6, "the sixth call fails");
    }
}

#[test]
fn notes_are_kept_with_their_frames_only_when_asked() {
    let run = |keep: bool| {
        let mut session = tiny_session(vec![Box::new(Noter(0))]);
        if keep {
            session.plugins_mut().keep_notes();
        }
        for _ in 0..10 {
            session.run_frame().expect("a frame");
        }
        session.plugins_mut().drain_notes()
    };
    assert!(run(false).is_empty());
    let notes = run(true);
    // The note of the call that panicked is dropped with the rest of its frame's output. The
    // first call is power-on's (frame 0).
    let seen: Vec<(u64, &str, &str)> = notes
        .iter()
        .map(|n| (n.frame, n.plugin.as_str(), n.text.as_str()))
        .collect();
    assert_eq!(seen, [(2, "noter", "call 3"), (8, "noter", "call 9")]);
}

/// What [`Prober`] saw of the console beyond RAM, frame by frame.
#[derive(Debug, Default)]
struct Probed {
    /// (frame, NMI count, lagged, lags so far) after each frame.
    frames: Vec<(u64, u8, bool, u64)>,
    /// The reset vector and a mirror of the NMI count, read through the bus.
    vector: Option<(u8, u8, u8)>,
    resets: u32,
}

/// Saves the console's state on frame 5 and asks for it back on frame 10; asks for a reset on
/// frame 12, a power cycle on frame 14 and a load of bytes that are no state on frame 16.
struct Prober {
    probed: Arc<Mutex<Probed>>,
    saved: Option<Vec<u8>>,
}

impl Plugin for Prober {
    fn name(&self) -> &'static str {
        "prober"
    }
    fn attach(&mut self, _: &RomIdentity<'_>) -> Result<String, String> {
        Ok("any ROM".into())
    }
    fn on_reset(&mut self) {
        self.probed.lock().expect("not poisoned").resets += 1;
    }
    fn on_frame(&mut self, ctx: &mut FrameContext<'_>) {
        let frame = ctx.frame_number();
        let console = ctx.console();
        let mut probed = self.probed.lock().expect("not poisoned");
        probed.frames.push((
            frame,
            ctx.ram()[common::NMI_COUNT],
            console.lagged(),
            console.lag_count(),
        ));
        probed.vector = Some((
            console.peek(0xFFFC),
            console.peek(0xFFFD),
            console.peek(0x0800 + common::NMI_COUNT as u16),
        ));
        drop(probed);
        // Each request once: after a load or a power cycle the frame numbers come round again.
        let request = match frame {
            5 if self.saved.is_none() => {
                self.saved = Some(console.save_state().expect("a state"));
                None
            }
            10 => self.saved.take().map(ConsoleRequest::LoadState),
            12 => Some(ConsoleRequest::Reset),
            14 => Some(ConsoleRequest::PowerOn),
            _ => None,
        };
        if let Some(request) = request {
            ctx.request(request);
        }
    }
}

#[test]
fn plugins_peek_the_bus_save_load_reset_and_power_cycle() {
    let probed = Arc::new(Mutex::new(Probed::default()));
    let prober = Prober {
        probed: Arc::clone(&probed),
        saved: None,
    };
    let mut session = tiny_session(vec![Box::new(prober)]);
    for _ in 0..10 {
        session.run_frame().expect("a frame");
    }
    // Shown power-on (frame 0) first.
    let at_5 = probed.lock().unwrap().frames[5];
    // The load asked on frame 10 put the console back at frame 5, with frame 5's RAM.
    assert_eq!(session.frame_number(), 5);
    assert_eq!(session.ram()[common::NMI_COUNT], at_5.1);
    for _ in 0..8 {
        session.run_frame().expect("a frame");
    }
    let probed = probed.lock().unwrap();
    let frames: Vec<u64> = probed.frames.iter().map(|f| f.0).collect();
    // Power-on and frames 1-10, then 6-13 after the load back to frame 5 (the power cycle
    // asked on frame 14 is still ahead).
    assert_eq!(
        frames,
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 6, 7, 8, 9, 10, 11, 12, 13]
    );
    // Told once for the load and once for the reset.
    assert_eq!(probed.resets, 2);
    // The reset vector ($8000) and RAM through its mirror, read without side effects.
    let count = session.ram()[common::NMI_COUNT];
    assert_eq!(probed.vector, Some((0x00, 0x80, count)));
    // The program polls the controller in every NMI: the lag frames are the first (no NMI yet)
    // and the one after the reset.
    let lagged: Vec<u64> = probed.frames.iter().filter(|f| f.2).map(|f| f.0).collect();
    assert_eq!(lagged, [1, 13], "{:?}", probed.frames);
}

#[test]
fn a_program_that_never_polls_lags_every_frame_and_a_bad_state_is_refused() {
    let probed = Arc::new(Mutex::new(Probed::default()));
    let rom = RomImage::from_bytes("idle.nes", &common::idle_rom()).expect("parses");
    let prober = Prober {
        probed: Arc::clone(&probed),
        saved: Some(b"not a state".to_vec()),
    };
    let mut session =
        Session::new(rom, vec![Box::new(prober)], SessionConfig::default()).expect("loads");
    for _ in 0..16 {
        session.run_frame().expect("a frame");
    }
    let probed = probed.lock().unwrap();
    let last = probed.frames.last().copied().expect("frames seen");
    // Power-on, frames 1-14, then the power cycle: frame numbers and lag counts start again,
    // from a power-on shown again.
    assert_eq!(probed.frames[..2], [(0, 0, false, 0), (1, 0, true, 1)]);
    assert_eq!(probed.frames[14], (14, 0, true, 14));
    assert_eq!(probed.frames[15], (0, 0, false, 0));
    assert_eq!(last, (2, 0, true, 2));
    assert_eq!(session.lag_count(), 2);
    let messages = session.plugins_mut().drain_messages();
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("prober's state was not loaded:")),
        "{messages:?}"
    );
}

/// The memory hits a plug-in was shown, by frame.
type HitsSeen = Arc<Mutex<Vec<(u64, Vec<jewelbot_plugin::MemoryHit>)>>>;

/// Watches the tiny ROM's NMI handler ($8010) being entered and its frame counter ($21) being
/// written, and keeps what the host reports.
struct Watcher {
    hits: HitsSeen,
}

impl Plugin for Watcher {
    fn name(&self) -> &'static str {
        "watcher"
    }
    fn attach(&mut self, _: &RomIdentity<'_>) -> Result<String, String> {
        Ok("any ROM".into())
    }
    fn on_frame(&mut self, ctx: &mut FrameContext<'_>) {
        use jewelbot_plugin::{MemoryAccess, MemoryWatch};
        let frame = ctx.frame_number();
        let hits = ctx.console().memory_hits().to_vec();
        self.hits.lock().expect("not poisoned").push((frame, hits));
        let watches = match frame {
            0 => vec![
                MemoryWatch {
                    start: 0x8010,
                    end: 0x8010,
                    access: MemoryAccess::Execute,
                },
                MemoryWatch {
                    start: common::NMI_COUNT as u16,
                    end: common::NMI_COUNT as u16,
                    access: MemoryAccess::Write,
                },
            ],
            // Stops watching after frame 5.
            5 => Vec::new(),
            _ => return,
        };
        ctx.request(ConsoleRequest::Watch(watches));
    }
}

#[test]
fn plugins_hear_of_the_accesses_to_the_addresses_they_watch() {
    use jewelbot_plugin::MemoryAccess;
    type Access = (MemoryAccess, u16, u8);
    let hits = Arc::new(Mutex::new(Vec::new()));
    let watcher = Watcher {
        hits: Arc::clone(&hits),
    };
    let mut session = tiny_session(vec![Box::new(watcher)]);
    for _ in 0..8 {
        session.run_frame().expect("a frame");
    }
    let hits = hits.lock().unwrap();
    let seen: Vec<(u64, Vec<Access>)> = hits
        .iter()
        .map(|(frame, hits)| {
            (
                *frame,
                hits.iter()
                    .map(|h| (h.access, h.address, h.value))
                    .collect(),
            )
        })
        .collect();
    let nmi = |count: u8| {
        vec![
            (MemoryAccess::Execute, 0x8010, 0x48),
            (MemoryAccess::Write, common::NMI_COUNT as u16, count),
        ]
    };
    // Watched from frame 1 to frame 5: the handler's first byte (PHA) and the count it
    // writes, once a frame after the first; nothing after frame 5.
    assert_eq!(
        seen,
        [
            (0, vec![]),
            (1, vec![]),
            (2, nmi(1)),
            (3, nmi(2)),
            (4, nmi(3)),
            (5, nmi(4)),
            (6, vec![]),
            (7, vec![]),
            (8, vec![])
        ]
    );
}

/// Holds the controller and presses Select until frame `until`, then gives it up (a bot that
/// failed).
struct QuittingHolder {
    until: u64,
    frame: u64,
}

impl Plugin for QuittingHolder {
    fn name(&self) -> &'static str {
        "quitter"
    }
    fn attach(&mut self, _: &RomIdentity<'_>) -> Result<String, String> {
        Ok("a bot".into())
    }
    fn wants_controller(&self) -> bool {
        self.frame < self.until
    }
    fn on_frame(&mut self, ctx: &mut FrameContext<'_>) {
        self.frame = ctx.frame_number();
        ctx.set_buttons(Buttons::SELECT);
    }
}

/// Remembers what it was told of the controller.
struct Told(Arc<Mutex<Vec<bool>>>);

impl Plugin for Told {
    fn name(&self) -> &'static str {
        "told"
    }
    fn attach(&mut self, _: &RomIdentity<'_>) -> Result<String, String> {
        Ok("watching".into())
    }
    fn set_in_control(&mut self, in_control: bool) {
        if let Ok(mut told) = self.0.lock() {
            told.push(in_control);
        }
    }
    fn on_frame(&mut self, ctx: &mut FrameContext<'_>) {
        ctx.set_buttons(Buttons::B);
    }
}

/// A plug-in that gives the controller up hands it back: the others are told at once and their
/// buttons reach the console from the next frame (with its own, if it still presses any: no
/// one holds the controller alone any more).
#[test]
fn a_plugin_that_gives_up_the_controller_hands_it_back() {
    let told = Arc::new(Mutex::new(Vec::new()));
    let plugins: Vec<Box<dyn Plugin>> = vec![
        Box::new(Told(Arc::clone(&told))),
        Box::new(QuittingHolder { until: 5, frame: 0 }),
    ];
    let mut session = tiny_session(plugins);
    session.set_control(Control::Plugins);
    let mut read = Vec::new();
    for _ in 0..10 {
        session.run_frame().expect("frame runs");
        read.push(session.ram()[common::PAD_BITS..common::PAD_BITS + 8].to_vec());
        assert_eq!(
            session.plugins().holder(),
            (session.frame_number() < 5).then_some("quitter")
        );
    }
    assert_eq!(
        *told.lock().unwrap(),
        vec![false, true],
        "out of control, then in"
    );
    let (select, b_and_select) = ([0, 0, 1, 0, 0, 0, 0, 0], [0, 1, 1, 0, 0, 0, 0, 0]);
    assert!(read[1..5].iter().all(|bits| bits == &select), "{read:?}");
    assert!(
        read[6..].iter().all(|bits| bits == &b_and_select),
        "{read:?}"
    );
}

/// With the built-in AI off (`--ai off`), a plug-in that holds the controller alone still
/// plays; the others (the AI) never press; once it gives the controller up, the person's
/// buttons reach the console, not the AI's.
#[test]
fn with_the_ai_off_the_holder_plays_then_the_person() {
    let told = Arc::new(Mutex::new(Vec::new()));
    let plugins: Vec<Box<dyn Plugin>> = vec![
        Box::new(Told(Arc::clone(&told))),
        Box::new(QuittingHolder { until: 5, frame: 0 }),
    ];
    let mut session = tiny_session(plugins);
    session.plugins_mut().set_ai(false);
    session.set_control(Control::Plugins);
    session.set_manual_buttons(Buttons::START);
    let mut read = Vec::new();
    for _ in 0..10 {
        session.run_frame().expect("frame runs");
        read.push(session.ram()[common::PAD_BITS..common::PAD_BITS + 8].to_vec());
    }
    assert!(told.lock().unwrap().iter().all(|&in_control| !in_control));
    let (select, start) = ([0, 0, 1, 0, 0, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0, 0]);
    assert!(read[1..5].iter().all(|bits| bits == &select), "{read:?}");
    assert!(read[6..].iter().all(|bits| bits == &start), "{read:?}");
}

/// Announces `tick` on even frames and describes the frame counter.
struct Announcer;

impl Plugin for Announcer {
    fn name(&self) -> &'static str {
        "announcer"
    }
    fn attach(&mut self, _: &RomIdentity<'_>) -> Result<String, String> {
        Ok("the tiny ROM".into())
    }
    fn events(&self) -> Vec<String> {
        vec!["tick".into()]
    }
    fn describe(&self, ram: &jewelbot_plugin::Ram) -> Option<String> {
        Some(format!("{{\"count\":{}}}", ram[common::NMI_COUNT]))
    }
    fn on_frame(&mut self, ctx: &mut FrameContext<'_>) {
        if ctx.frame_number() % 2 == 0 {
            ctx.announce("tick");
        }
    }
}

/// What a listener heard each frame: the events, the descriptions, the offered events.
type Heard = Arc<Mutex<Vec<(Vec<String>, Vec<(String, String)>, usize)>>>;

struct Listener(Heard);

impl Plugin for Listener {
    fn name(&self) -> &'static str {
        "listener"
    }
    fn attach(&mut self, _: &RomIdentity<'_>) -> Result<String, String> {
        Ok("listening".into())
    }
    fn on_frame(&mut self, ctx: &mut FrameContext<'_>) {
        let news = ctx.news();
        let events = news
            .announced()
            .iter()
            .map(|a| format!("{}:{}", a.plugin, a.event));
        let heard = (events.collect(), news.descriptions(), news.offered().len());
        if let Ok(mut all) = self.0.lock() {
            all.push(heard);
        }
    }
}

/// A plug-in hears what the plug-ins before it announced in the same frame and how they
/// describe the game; one before them hears nothing.
#[test]
fn plugins_hear_what_the_plugins_before_them_announce() {
    let (before, after) = (Heard::default(), Heard::default());
    let plugins: Vec<Box<dyn Plugin>> = vec![
        Box::new(Listener(Arc::clone(&before))),
        Box::new(Announcer),
        Box::new(Listener(Arc::clone(&after))),
    ];
    let mut session = tiny_session(plugins);
    for _ in 0..4 {
        session.run_frame().expect("frame runs");
    }
    let before = before.lock().unwrap();
    assert!(before.iter().all(|(events, descriptions, offered)| {
        events.is_empty() && descriptions.is_empty() && *offered == 0
    }));
    let after = after.lock().unwrap();
    // Frames 0 (power-on) to 4.
    assert_eq!(after.len(), 5);
    for (frame, (events, descriptions, offered)) in after.iter().enumerate() {
        let ticked = frame % 2 == 0;
        assert_eq!(events.is_empty(), !ticked, "frame {frame}: {events:?}");
        assert_eq!(descriptions.len(), 1);
        assert!(descriptions[0].1.starts_with("{\"count\":"));
        assert_eq!(*offered, 1);
    }
}
