//! Frames per second of the host with the Magic Jewelry plug-in playing, against bare
//! `ControlDeck::clock_frame` on the same game state, in the same run.
//!
//! Each trial plays N frames on the host, recording the buttons the plug-in pressed, then
//! replays the same buttons from the same console state on a bare `ControlDeck`: both emulate
//! exactly the same frames, so the difference is the host's and the plug-in's own cost. Trials
//! alternate so that machine noise hits both alike; the report gives the median of each and
//! their ratio. Run with `cargo bench --bench host`.

use jewelbot::cartridge;
use jewelbot::session::{press, Session, SessionConfig};
use jewelbot_plugin::Plugin;
use magic_jewelry::plugin::{MagicJewelryPlugin, Mode};
use std::time::Instant;
use tetanes_core::prelude::*;
use tetanes_core::video::VideoFilter;

const TRIALS: usize = 15;
const FRAMES_PER_TRIAL: u32 = 1200;
/// Frames played before measuring, so the game is under way with a stack on the board.
const WARM_UP: u32 = 3000;

fn playing_session(mode: Mode) -> Session {
    let rom = cartridge::rom().expect("the open cartridge parses");
    // The player the host runs by default.
    let mut plugin = MagicJewelryPlugin::default();
    plugin
        .set_option("mode", &mode.to_string())
        .expect("a mode");
    let plugins: Vec<Box<dyn Plugin>> = vec![Box::new(plugin)];
    let mut session = Session::new(rom, plugins, SessionConfig::default()).expect("loads");
    for _ in 0..WARM_UP {
        session.run_frame().expect("frame runs");
    }
    session
}

fn bare_deck(session: &Session) -> ControlDeck {
    let config = Config::default()
        .with_ram_state(RamState::AllZeros)
        .with_sram_dir(None)
        .with_filter(VideoFilter::Pixellate)
        .with_headless_mode(HeadlessMode::NO_AUDIO);
    let mut deck = ControlDeck::with_config(config);
    let ines = session.rom().to_ines().expect("normalises");
    deck.load_rom("bare", &mut &ines[..]).expect("loads");
    deck
}

/// Puts the deck in the session's state (the session appends an 8-byte frame counter).
fn sync(deck: &mut ControlDeck, state: &[u8]) {
    deck.deserialize_state(&state[..state.len() - 8])
        .expect("same console");
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    for mode in [Mode::Fast, Mode::Normal] {
        let mut session = playing_session(mode);
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

            sync(&mut deck, &state);
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
        let stats = session.plugins().stats();
        let columns = stats
            .iter()
            .flat_map(|(_, s)| s)
            .find(|s| s.key == "columns_placed")
            .map_or_else(|| "?".to_owned(), |s| s.value.to_string());
        println!(
            "mode {mode}: bare clock_frame {bare:.0} fps, host + plug-in {host:.0} fps, \
             ratio {:.3} (plug-in cost {:.1}% of a frame; {columns} columns placed)",
            host / bare,
            (bare / host - 1.0) * 100.0
        );
    }
}
