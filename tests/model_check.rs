//! The emulator plays the game the model plays: the player in the emulator from power-on and
//! the engine from the power-on's generator state make the same placements, spawn for spawn
//! (`jewelbot model-check`, `docs/horizon.md`), and a difference is found where it appears.

mod common;
use common::cartridge;

use common::jewelbot;
use jewelbot_host::session::{Control, Session, SessionConfig};
use jewelbot_plugin::Plugin;
use magic_jewelry::plugin::{MagicJewelryPlugin, Settings};
use magic_jewelry_lab::model_check::ModelCheck;
use serde_json::Value;

/// `model-check` with the player of the proofs (fast mode, 3,000 boards a decision, and the
/// `player` options given) over `columns` spawns, its report as JSON.
fn model_check(columns: u64, player: &[&str]) -> Value {
    let columns = columns.to_string();
    let mut args = vec![
        "model-check",
        "--mode",
        "fast",
        "--work",
        "3000",
        "--columns",
        &columns,
        "--json",
    ];
    args.extend_from_slice(player);
    let (code, stdout, stderr) = jewelbot(&args);
    let report: Value = serde_json::from_str(&stdout).expect("a JSON report");
    assert_eq!(code, 0, "{report} {stderr}");
    report
}

/// Past the first wild column (column 28) and its level-up, which RAM shows a frame late.
#[test]
fn the_emulator_plays_the_models_game_for_60_columns() {
    let report = model_check(60, &[]);
    assert_eq!(report["agreed"], true, "{report}");
    assert_eq!(report["columns_compared"], 60, "{report}");
    assert!(report["parting"].is_null(), "{report}");
}

#[test]
#[ignore = "long tier: cargo test --workspace -- --ignored"]
fn the_emulator_plays_the_models_game_for_2000_columns() {
    let report = model_check(2_000, &[]);
    assert_eq!(report["agreed"], true, "{report}");
    assert_eq!(report["columns_compared"], 2_000, "{report}");
}

/// The player of the last proof: playing for points and planning nine columns ahead, from
/// the generator in RAM in the emulator and from the model's own generator in the engine.
const SCORE_WITH_FORESIGHT: [&str; 4] = ["--objective", "score", "--foresight", "on"];

#[test]
fn the_emulator_plays_the_models_game_for_points_with_foresight_for_60_columns() {
    let report = model_check(60, &SCORE_WITH_FORESIGHT);
    assert_eq!(report["agreed"], true, "{report}");
    assert_eq!(report["columns_compared"], 60, "{report}");
}

#[test]
#[ignore = "long tier: cargo test --workspace -- --ignored"]
fn the_emulator_plays_the_models_game_for_points_with_foresight_for_2000_columns() {
    let report = model_check(2_000, &SCORE_WITH_FORESIGHT);
    assert_eq!(report["agreed"], true, "{report}");
    assert_eq!(report["columns_compared"], 2_000, "{report}");
}

/// The default bound on frames follows the game, not a fixed share a column: in normal mode
/// the first columns fall at 63 frames a row after the title's 1,230 frames, more than the
/// 400 frames a column the bound once allowed (which ran out before the first spawn).
#[test]
fn the_default_frames_follow_the_columns_in_normal_mode() {
    let (code, stdout, stderr) = jewelbot(&["model-check", "--work", "3000", "--columns", "3"]);
    assert_eq!(code, 0, "{stdout} {stderr}");
    assert!(
        stdout.contains("agree on every one of 3 spawns"),
        "{stdout}"
    );
}

/// A ROM whose game never spawns a column stops at the stall guard, not at a frame bound.
#[test]
fn a_game_without_spawns_stalls() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let rom = dir.path().join("tiny.nes");
    std::fs::write(&rom, common::tiny_rom()).expect("written");
    let args = ["model-check", "--work", "3000", "--rom", common::arg(&rom)];
    let (code, stdout, stderr) = jewelbot(&args);
    assert_eq!(code, 1, "{stdout} {stderr}");
    assert!(
        stdout.contains("0 spawns agree; then no column spawned for 10000 frames"),
        "{stdout}"
    );
}

/// A recording of the real game is checked without the ROM, with the settings it was played
/// with: every spawn of the player for points' 12,000 frames (its first wild column spawns in
/// a frame that ends before the column's timer is reset).
#[test]
fn a_recording_of_the_real_game_is_checked_without_the_rom() {
    let trace = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("plugins/magic-jewelry/traces/score-fast-12k.trace.gz");
    let args = [
        "model-check",
        "--trace",
        common::arg(&trace),
        "--mode",
        "fast",
        "--work",
        "3000",
        "--objective",
        "score",
        "--json",
    ];
    let (code, stdout, stderr) = jewelbot(&args);
    let report: Value = serde_json::from_str(&stdout).expect("a JSON report");
    assert_eq!(code, 0, "{report} {stderr}");
    assert_eq!(report["columns_compared"], 146, "{report}");
    assert_eq!(report["frames"], 12_000, "{report}");
    // Played for survival, the same recording parts from the model's game.
    let (code, stdout, _) = jewelbot(&args[..args.len() - 3]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("part at column"), "{stdout}");
}

/// A jewel written into the settled board between two spawns is a game the model does not
/// play: the check parts at the next spawn and names the board.
#[test]
fn a_board_the_model_did_not_make_parts_the_games() {
    let mut settings = Settings::default();
    for (name, value) in [("mode", "fast"), ("work", "3000")] {
        settings = settings.with(name, value).expect("a setting").0;
    }
    let mut plugin = MagicJewelryPlugin::default();
    plugin.set_option("mode", "fast").expect("fast mode");
    plugin.set_option("work", "3000").expect("a work budget");
    let rom = cartridge().expect("the open cartridge");
    let config = SessionConfig {
        video: false,
        ..SessionConfig::default()
    };
    let mut session = Session::new(rom, vec![Box::new(plugin)], config).expect("a session");
    session.set_control(Control::Plugins);
    let mut check = ModelCheck::new(&settings).expect("a model");
    let mut poked = false;
    while !check.is_done() && session.frame_number() < 20_000 {
        session.run_frame().expect("a frame");
        check.observe(session.frame_number(), session.ram());
        if check.columns() == 10 && !poked {
            poked = true;
            poke_a_jewel_on_column_0(&mut session);
        }
    }
    let parting = check.parting().expect("the games part");
    assert_eq!(parting.column, 10, "{parting:?}");
    assert_eq!(parting.differences, ["board"], "{parting:?}");
}

/// A jewel on top of column 0's stack, of a colour none of its neighbours has (so it matches
/// nothing by itself).
fn poke_a_jewel_on_column_0(session: &mut Session) {
    use magic_jewelry::memory_map::{cell_address, VISIBLE_ROWS};
    let cell = |session: &Session, row: i8, column: u8| {
        session.ram()[usize::from(cell_address(row, column))]
    };
    let row = (0..VISIBLE_ROWS as i8)
        .rev()
        .find(|&row| cell(session, row, 0) == 0)
        .expect("room in column 0");
    let neighbours: Vec<u8> = [(-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]
        .iter()
        .filter(|(dr, _)| (0..VISIBLE_ROWS as i8).contains(&(row + dr)))
        .map(|&(dr, dc)| cell(session, row + dr, dc))
        .collect();
    let colour = (1..=6)
        .find(|c| !neighbours.contains(c))
        .expect("a colour no neighbour has");
    session.poke(cell_address(row, 0), colour);
}
