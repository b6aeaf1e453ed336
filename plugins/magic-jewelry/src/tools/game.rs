//! One simulated game: the same rules and placements as the plug-in, without the emulator.

use super::generator::ColumnGenerator;
use super::stats::Stats;
use crate::engine::{lock, Board, InputModel, SpawnState, Strategy};
use std::time::Instant;

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
            fall_speed: crate::engine::LEVEL0_FALL_SPEED,
            input: InputModel::FAST,
            wild_every: None,
            timed: false,
        }
    }
}

/// Plays `columns` columns of the sequence seeded by `seed`, starting from an empty board;
/// after a game over the board is emptied and play goes on. `tick` is called every 1024
/// columns (progress bars).
pub fn play(
    strategy: &mut dyn Strategy,
    seed: u64,
    columns: u64,
    config: GameConfig,
    stats: &mut Stats,
    mut tick: impl FnMut(u64),
) {
    let mut generator = ColumnGenerator::new(seed, config.wild_every);
    let mut board = Board::empty();
    let mut current = generator.next_column();
    let mut next = generator.next_column();
    let start = SpawnState::spawn(config.fall_speed);
    let mut since_clear = 0u64;
    for n in 0..columns {
        let began = config.timed.then(Instant::now);
        let choice = strategy.choose(&board, current, Some(next), start, config.input);
        if let Some(t) = began {
            stats.decision_nanos += t.elapsed().as_nanos() as u64;
        }
        if current.is_wild() {
            stats.wild_columns += 1;
        }
        let was_empty = board.is_empty();
        let outcome =
            choice.and_then(|c| lock(&mut board, current.rotated(c.rotations), c.x as usize).ok());
        match outcome {
            Some(outcome) => {
                stats.record(board.jewels(), outcome.chains, outcome.removed);
                generator.removed(u32::from(outcome.removed));
                if outcome.game_over {
                    stats.game_overs += 1;
                    board = Board::empty();
                }
            }
            None => {
                // The column could not move: spawn blocked.
                stats.record(board.jewels(), 0, 0);
                stats.game_overs += 1;
                board = Board::empty();
            }
        }
        since_clear += 1;
        if board.is_empty() && !was_empty {
            stats.clears += 1;
            stats.longest_without_clear = stats.longest_without_clear.max(since_clear);
            since_clear = 0;
        }
        current = next;
        next = generator.next_column();
        if n % 1024 == 1023 {
            tick(1024);
        }
    }
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
    use crate::engine::{strategy_by_name, Weights};

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
        assert_eq!(pinned, (22649, 28, 5997, 0), "{stats:?}");
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
