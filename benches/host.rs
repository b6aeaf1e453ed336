//! Frames per second of the host with the Magic Jewelry plug-in playing, against bare
//! `ControlDeck::clock_frame` on the same game state, in the same run.
//!
//! Each trial plays N frames on the host, recording the buttons the plug-in pressed, then
//! replays the same buttons from the same console state on a bare `ControlDeck`: both emulate
//! exactly the same frames, so the difference is the host's and the plug-in's own cost. Trials
//! alternate so that machine noise hits both alike; the report gives the median of each and
//! their ratio, with the player's decision times and how long the emulator waited for them.
//! Fast mode is measured at level 0 and at the fastest level (poked, as the game's own level-up
//! request does: 8 frames a row). Last, the fast, fastest-level game is paced at real time, as
//! the window runs it, and frames that end after their deadline are counted. Then the same
//! frames are replayed on a deck that draws its picture and on one that does not
//! (`HeadlessMode::NO_VIDEO`, what `run` uses when nothing keeps a picture), alternating, for
//! the gain as a ratio; both must end with the same RAM.
//! Run with `cargo bench --bench host`.

use jewelbot_host::session::{decode_state_file, press, Session, SessionConfig};
use jewelbot_plugin::Plugin;
use magic_jewelry::memory_map as map;
use magic_jewelry::plugin::{MagicJewelryPlugin, Mode};
use std::time::{Duration, Instant};
use tetanes_core::prelude::*;
use tetanes_core::video::VideoFilter;

const TRIALS: usize = 15;
const FRAMES_PER_TRIAL: u32 = 1200;
/// Frames played before measuring, so the game is under way with a stack on the board.
const WARM_UP: u32 = 3000;

/// NTSC frame period, as the window paces real time.
const NTSC_FRAME: Duration = Duration::from_nanos(16_639_264);
/// Frames of the real-time paced run (20 seconds).
const PACED_FRAMES: u32 = 1200;

fn playing_session(mode: Mode, fastest: bool) -> Session {
    let rom =
        jewelbot_host::rom::RomImage::from_bytes(jewelbot_cartridge::NAME, jewelbot_cartridge::ROM)
            .expect("the open cartridge parses");
    // The player the host runs by default.
    let mut plugin = MagicJewelryPlugin::default();
    plugin
        .set_option("mode", &mode.to_string())
        .expect("a mode");
    let plugins: Vec<Box<dyn Plugin>> = vec![Box::new(plugin)];
    let mut session = Session::new(rom, plugins, SessionConfig::default()).expect("loads");
    for frame in 0..WARM_UP {
        if fastest && frame == WARM_UP / 2 {
            session.poke(map::LEVEL_INDEX, 47);
            session.poke(map::LEVEL_UP, 1);
        }
        session.run_frame().expect("frame runs");
    }
    session
}

/// A statistic of the Magic Jewelry plug-in, as text.
fn stat(session: &Session, key: &str) -> String {
    let stats = session.plugins().stats();
    stats
        .iter()
        .flat_map(|(_, s)| s)
        .find(|s| s.key == key)
        .map_or_else(|| "?".to_owned(), |s| s.value.to_string())
}

/// The emulator's waits for the search so far, in microseconds, and the frames run.
fn waited(session: &Session) -> (f64, f64) {
    let blocked = stat(session, "blocked_us").parse().unwrap_or(f64::NAN);
    (blocked, session.frame_number() as f64)
}

/// Runs the session at real time for [`PACED_FRAMES`]: frames late (ending after their
/// deadline) and the longest frame.
fn paced(session: &mut Session) -> (u32, Duration) {
    let start = Instant::now();
    let (mut late, mut longest) = (0, Duration::ZERO);
    for n in 1..=PACED_FRAMES {
        let began = Instant::now();
        session.run_frame().expect("frame runs");
        let ended = Instant::now();
        longest = longest.max(ended - began);
        let deadline = start + NTSC_FRAME * n;
        if ended > deadline {
            late += 1;
        } else {
            std::thread::sleep(deadline - ended);
        }
    }
    (late, longest)
}

fn bare_deck(session: &Session) -> ControlDeck {
    deck_drawing(session, true)
}

/// A bare deck with the session's ROM, drawing its picture or not.
fn deck_drawing(session: &Session, video: bool) -> ControlDeck {
    let mut headless = HeadlessMode::NO_AUDIO;
    if !video {
        headless |= HeadlessMode::NO_VIDEO;
    }
    let config = Config::default()
        .with_ram_state(RamState::AllZeros)
        .with_sram_dir(None)
        .with_filter(VideoFilter::Pixellate)
        .with_headless_mode(headless)
        .with_concurrent_dpad(true);
    let mut deck = ControlDeck::with_config(config);
    let ines = session.rom().to_ines().expect("normalises");
    deck.load_rom("bare", &mut &ines[..]).expect("loads");
    deck
}

/// Puts the deck in the session's state (the console's part of the session's state file).
fn sync(deck: &mut ControlDeck, state: &[u8], rom_sha1: &str) {
    let payload = decode_state_file(state, rom_sha1)
        .expect("a state of this ROM")
        .payload;
    deck.deserialize_state(payload).expect("same console");
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// The fast player's frames replayed with and without pictures, alternating: the median fps of
/// each and their ratio.
fn video_cost() {
    let mut session = playing_session(Mode::Fast, false);
    let (mut drawn, mut blind) = (deck_drawing(&session, true), deck_drawing(&session, false));
    let (mut with, mut without) = (Vec::new(), Vec::new());
    let mut pressed = Vec::with_capacity(FRAMES_PER_TRIAL as usize);
    for _ in 0..TRIALS {
        let state = session.save_state().expect("saves");
        pressed.clear();
        for _ in 0..FRAMES_PER_TRIAL {
            pressed.push(session.plugin_buttons());
            session.run_frame().expect("frame runs");
        }
        for (deck, fps) in [(&mut drawn, &mut with), (&mut blind, &mut without)] {
            sync(deck, &state, &session.rom().prg_chr_sha1);
            let start = Instant::now();
            for &buttons in &pressed {
                press(deck, buttons);
                let _clocked = deck.clock_frame().expect("frame runs");
            }
            fps.push(f64::from(FRAMES_PER_TRIAL) / start.elapsed().as_secs_f64());
            assert_eq!(deck.wram(), session.ram(), "the same frames, drawn or not");
        }
    }
    let (with, without) = (median(with), median(without));
    println!(
        "pictures: drawn {with:.0} fps, not drawn {without:.0} fps, ratio {:.3} (same RAM)",
        without / with
    );
}

fn main() {
    video_cost();
    let scenarios = [
        (Mode::Fast, false, "level 0"),
        (Mode::Fast, true, "fastest level"),
        (Mode::Normal, false, "level 0"),
    ];
    for (mode, fastest, level) in scenarios {
        let mut session = playing_session(mode, fastest);
        let waited_before = waited(&session);
        let mut deck = bare_deck(&session);
        let (mut bare, mut host) = (Vec::new(), Vec::new());
        let mut pressed = Vec::with_capacity(FRAMES_PER_TRIAL as usize);
        for _ in 0..TRIALS {
            let state = session.save_state().expect("saves");
            pressed.clear();
            let start = Instant::now();
            for _ in 0..FRAMES_PER_TRIAL {
                pressed.push(session.plugin_buttons());
                session.run_frame().expect("frame runs");
            }
            host.push(f64::from(FRAMES_PER_TRIAL) / start.elapsed().as_secs_f64());

            sync(&mut deck, &state, &session.rom().prg_chr_sha1);
            let start = Instant::now();
            for &buttons in &pressed {
                press(&mut deck, buttons);
                let _clocked = deck.clock_frame().expect("frame runs");
            }
            bare.push(f64::from(FRAMES_PER_TRIAL) / start.elapsed().as_secs_f64());
            assert_eq!(
                deck.wram(),
                session.ram(),
                "the replay emulated the same frames"
            );
        }
        let (bare, host) = (median(bare), median(host));
        let waited_after = waited(&session);
        let wait_per_frame =
            (waited_after.0 - waited_before.0) / (waited_after.1 - waited_before.1).max(1.0);
        println!(
            "mode {mode}, {level}: bare clock_frame {bare:.0} fps, host + plug-in {host:.0} fps, \
             ratio {:.3} (plug-in cost {:.1}% of a frame; {} columns placed); decisions median \
             {} us, max {} us; emulator waited {wait_per_frame:.1} us a frame on the search; \
             {} decisions ready at spawn, {} frames fell while a search ran",
            host / bare,
            (bare / host - 1.0) * 100.0,
            stat(&session, "columns_placed"),
            stat(&session, "decision_median_us"),
            stat(&session, "decision_max_us"),
            stat(&session, "foreseen"),
            stat(&session, "waiting_frames"),
        );
        if fastest {
            let (late, longest) = paced(&mut session);
            println!(
                "mode {mode}, {level}, paced at real time: {late} of {PACED_FRAMES} frames late, \
                 longest frame {} us ({} columns placed)",
                longest.as_micros(),
                stat(&session, "columns_placed"),
            );
        }
    }
}
