//! Frames per second of the host with the Magic Jewelry plug-in playing, against bare
//! `ControlDeck::clock_frame` on the same game state, in the same run.
//!
//! Trials alternate between the two so that machine noise hits both alike; the report gives
//! the median of each and their ratio. Run with `cargo bench --bench host`.

use jewelbot::cartridge;
use jewelbot::session::{Session, SessionConfig};
use jewelbot_plugin::Plugin;
use magic_jewelry::engine::Weights;
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
    let plugin = MagicJewelryPlugin::new(true, mode, "smart", Weights::default())
        .expect("smart is a strategy");
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
    let state = session.save_state().expect("saves");
    // The session appends its frame counter (8 bytes) to the console state.
    deck.deserialize_state(&state[..state.len() - 8])
        .expect("same console");
    deck
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
        for _ in 0..TRIALS {
            let start = Instant::now();
            for _ in 0..FRAMES_PER_TRIAL {
                let _clocked = deck.clock_frame().expect("frame runs");
            }
            bare.push(f64::from(FRAMES_PER_TRIAL) / start.elapsed().as_secs_f64());

            let start = Instant::now();
            for _ in 0..FRAMES_PER_TRIAL {
                session.run_frame().expect("frame runs");
            }
            host.push(f64::from(FRAMES_PER_TRIAL) / start.elapsed().as_secs_f64());
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
