//! The real game plays the model's game: the recordings of the real game made with the player
//! (`traces/`) checked spawn for spawn against the model's game with the same settings
//! (`jewelbot model-check --trace`), without the ROM.

use magic_jewelry::plugin::Settings;
use magic_jewelry::recordings;
use magic_jewelry_lab::model_check::{check_recording, Ending, ModelCheck};

/// The player's settings the recordings were made with: fast mode, 3,000 boards a decision,
/// and `player`'s options.
fn settings(player: &[(&str, &str)]) -> Settings {
    let mut settings = Settings::default();
    for (name, value) in [("mode", "fast"), ("work", "3000")].iter().chain(player) {
        settings = settings.with(name, value).expect("a setting").0;
    }
    settings
}

/// The recording `name` checked against the model of the player `player` makes.
fn check(name: &str, player: &[(&str, &str)]) -> ModelCheck {
    let trace = recordings::load(name);
    let mut check = ModelCheck::new(&settings(player)).expect("a model");
    check_recording(&mut check, &trace, u64::MAX);
    check
}

/// The spawns the CPU made in a recording's first game.
fn spawns(name: &str) -> u64 {
    recordings::load(name)
        .frames
        .iter()
        .take_while(|f| !f.has("game-over"))
        .filter(|f| f.has("spawn"))
        .count() as u64
}

/// The survival player's 60,000 frames: spawns 22 frames apart (37,828 and 37,850, the
/// second in the lock's own frame, drawn a frame later), every one the model's.
#[test]
fn the_real_game_plays_the_models_game_for_every_spawn_of_the_survival_player() {
    let check = check("player-fast-60k-2", &[]);
    assert!(check.agrees(), "{:?}", check.parting());
    assert_eq!(check.columns(), 615);
    assert_eq!(check.columns(), spawns("player-fast-60k-2"));
}

/// The player for points: its first wild column (frame 2,714) spawns in a frame that ends
/// before its fall timer is reset.
#[test]
fn the_real_game_plays_the_models_game_for_every_spawn_of_the_player_for_points() {
    let check = check("score-fast-12k", &[("objective", "score")]);
    assert!(check.agrees(), "{:?}", check.parting());
    assert_eq!(check.columns(), 146);
    assert_eq!(check.columns(), spawns("score-fast-12k"));
}

/// The player for points with foresight, up to the move the lock-frame race lost (frame
/// 18,931): the real game's column locked at the spawn point and its game ended, where the
/// model's column went where the player meant it to.
#[test]
fn the_real_game_plays_the_models_game_for_points_with_foresight_up_to_the_lost_move() {
    let check = check(
        "score-foresight-loss",
        &[("objective", "score"), ("foresight", "on")],
    );
    assert!(check.parting().is_none(), "{:?}", check.parting());
    assert_eq!(check.ending(), Some(Ending::EmulatorOnly(222)));
    assert_eq!(check.columns(), spawns("score-foresight-loss"));
}
