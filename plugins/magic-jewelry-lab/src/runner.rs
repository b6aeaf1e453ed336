//! The one simulator loop: a strategy plays a seeded [`Game`] column after column. `sim`,
//! `compare`, `train` and `bench` run it; `learn` steps the same [`Game`] in lockstep.

use super::stats::Stats;
use magic_jewelry::engine::{FallState, Game, InputModel, Strategy, Turn};
use std::time::{Duration, Instant};

/// How the simulated game runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameConfig {
    /// Frames per row of gravity.
    pub fall_speed: u8,
    pub input: InputModel,
    /// Jewels removed between wild columns (`None`: no wild columns).
    pub wild_every: Option<u32>,
    /// Measure decision times (two clock reads per column).
    pub timed: bool,
}

impl Default for GameConfig {
    fn default() -> Self {
        Self {
            fall_speed: magic_jewelry::engine::LEVEL0_FALL_SPEED,
            input: InputModel::FAST,
            wild_every: None,
            timed: false,
        }
    }
}

/// Plays `columns` columns of the sequence seeded by `seed` from an empty board (after a game
/// over play goes on from an empty board), calling `on_turn` after each column with what it did
/// and, when `config.timed`, how long the decision took.
pub fn run(
    strategy: &mut dyn Strategy,
    seed: u64,
    columns: u64,
    config: GameConfig,
    mut on_turn: impl FnMut(&Turn, Option<Duration>),
) {
    let mut game = Game::new(seed, config.wild_every, config.fall_speed);
    let start = FallState::spawn(game.fall_speed());
    for _ in 0..columns {
        let began = config.timed.then(Instant::now);
        let choice = strategy.choose(
            game.board(),
            game.current(),
            Some(game.next()),
            start,
            config.input,
        );
        let elapsed = began.map(|t| t.elapsed());
        let turn = game.play(choice.map(|c| (c.x, c.arrangement)));
        on_turn(&turn, elapsed);
    }
}

/// [`run`] into `stats`; `tick` is called every 1024 columns (progress bars).
pub fn play(
    strategy: &mut dyn Strategy,
    seed: u64,
    columns: u64,
    config: GameConfig,
    stats: &mut Stats,
    mut tick: impl FnMut(u64),
) {
    let mut since_clear = 0u64;
    let mut played = 0u64;
    run(strategy, seed, columns, config, |turn, elapsed| {
        stats.record_turn(turn, elapsed);
        since_clear += 1;
        if turn.emptied {
            stats.clears += 1;
            stats.longest_without_clear = stats.longest_without_clear.max(since_clear);
            since_clear = 0;
        }
        played += 1;
        if played.is_multiple_of(1024) {
            tick(1024);
        }
    });
    stats.longest_without_clear = stats.longest_without_clear.max(since_clear);
    tick(columns % 1024);
}

/// The trainer's rating: total jewels on the board after each placement, plus a full board
/// for every column left when a game is lost (lower is better).
pub fn rate(strategy: &mut dyn Strategy, seed: u64, columns: u64, config: GameConfig) -> u64 {
    let mut stats = Stats::default();
    play(strategy, seed, columns, config, &mut stats, |_| {});
    stats.jewel_sum + stats.game_overs * 78 * 1000
}

#[cfg(test)]
mod tests {
    use super::*;
    use magic_jewelry::engine::{strategy_by_name, Weights};

    #[test]
    fn pinned_short_games() {
        // Fixed seeds: any change to the rules, search or evaluation shows here.
        let mut smart = strategy_by_name("smart", &Weights::PUBLISHED).unwrap();
        let mut stats = Stats::default();
        play(
            smart.as_mut(),
            1,
            2000,
            GameConfig::default(),
            &mut stats,
            |_| {},
        );
        assert_eq!(stats.columns, 2000);
        assert_eq!(stats.game_overs, 0);
        let pinned = (
            stats.jewel_sum,
            stats.max_jewels,
            stats.removed,
            stats.clears,
        );
        assert_eq!(pinned, (23145, 28, 5994, 0), "{stats:?}");
    }

    #[test]
    fn simple_loses_more_than_smart() {
        let config = GameConfig::default();
        let mut simple = strategy_by_name("simple", &Weights::PUBLISHED).unwrap();
        let mut smart = strategy_by_name("smart", &Weights::PUBLISHED).unwrap();
        let a = rate(simple.as_mut(), 5, 1500, config);
        let b = rate(smart.as_mut(), 5, 1500, config);
        assert!(b < a, "smart {b} simple {a}");
    }

    #[test]
    fn wild_columns_appear_and_are_counted() {
        let config = GameConfig {
            wild_every: Some(30),
            ..GameConfig::default()
        };
        let mut smart = strategy_by_name("smart", &Weights::PUBLISHED).unwrap();
        let mut stats = Stats::default();
        play(smart.as_mut(), 2, 1000, config, &mut stats, |_| {});
        assert!(stats.wild_columns >= stats.removed / 30 - 1, "{stats:?}");
        assert!(stats.wild_columns > 10);
    }
}
