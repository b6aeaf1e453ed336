//! The one simulator loop: a strategy plays a seeded [`Game`] column after column under a rule
//! set. `sim`, `compare`, `train` and `bench` run it; `learn` steps the same [`Game`] in
//! lockstep. [`SimGameArgs`] is the seed every one of them takes for it.

use super::stats::Stats;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use magic_jewelry_engine::{
    Game, InputModel, Objective, PlayerSpec, Question, RuleSet, Strategy, Turn,
};
use std::time::{Duration, Instant};

/// The seed of the games the tools simulate (flattened into `sim`, `compare`, `train` and
/// `learn`); the rules and how the player presses are the player's knobs
/// ([`crate::player_args`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::Args)]
pub struct SimGameArgs {
    /// Seed of the column sequences (each game's or chunk's is mixed from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl Default for SimGameArgs {
    fn default() -> Self {
        Self { seed: 1 }
    }
}

/// `--objective`: `survive` or `score`, listed in the help and in the error for anything else.
pub fn objective_parser() -> impl TypedValueParser<Value = Objective> {
    PossibleValuesParser::new(Objective::NAMES).try_map(|name| name.parse::<Objective>())
}

/// How the simulated game runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameConfig {
    pub rules: RuleSet,
    pub input: InputModel,
    /// Measure decision times (two clock reads per column).
    pub timed: bool,
    /// Show the strategy the column sequence ahead ([`Question::generator`]); only a
    /// strategy with foresight uses it.
    pub foresight: bool,
}

impl Default for GameConfig {
    /// The real game in fast mode.
    fn default() -> Self {
        Self::of(&PlayerSpec::default())
    }
}

impl GameConfig {
    /// The game `spec`'s player plays: its rules, its input, its questions carrying the
    /// generator when it has foresight.
    pub fn of(spec: &PlayerSpec) -> Self {
        Self {
            rules: spec.rules,
            input: spec.input,
            timed: false,
            foresight: spec.foresight,
        }
    }

    /// The reference's conditions in fast mode.
    pub fn reference() -> Self {
        Self {
            rules: RuleSet::Reference,
            ..Self::default()
        }
    }
}

/// Plays `columns` columns of the sequence seeded by `seed` from an empty board (after a game
/// over a new game starts), calling `on_turn` after each column with what it did and, when
/// `config.timed`, how long the decision took. The strategy is set to the game's rules. Returns
/// the game as it stands at the end.
pub fn run(
    strategy: &mut dyn Strategy,
    seed: u64,
    columns: u64,
    config: GameConfig,
    on_turn: impl FnMut(&Turn, Option<Duration>),
) -> Game {
    strategy.set_rules(config.rules);
    let choose = |question: &Question| strategy.choose(question).map(|c| (c.x, c.arrangement));
    run_with(choose, seed, columns, config, on_turn)
}

/// [`run`] with any chooser: `choose` answers each column's question with (x, arrangement), or
/// `None` to give the game up. Agents outside the engine (a Python policy) play here.
pub fn run_with(
    mut choose: impl FnMut(&Question) -> Option<(u8, u8)>,
    seed: u64,
    columns: u64,
    config: GameConfig,
    mut on_turn: impl FnMut(&Turn, Option<Duration>),
) -> Game {
    let mut game = Game::new(config.rules, seed);
    for _ in 0..columns {
        let began = config.timed.then(Instant::now);
        let question = Question::at_spawn(&game, config.input, config.foresight);
        let choice = choose(&question);
        let elapsed = began.map(|t| t.elapsed());
        let turn = game.play(choice);
        on_turn(&turn, elapsed);
    }
    game
}

/// [`run`] into `stats`; `tick` is called every 1024 columns (progress bars).
pub fn play(
    strategy: &mut dyn Strategy,
    seed: u64,
    columns: u64,
    config: GameConfig,
    stats: &mut Stats,
    tick: impl FnMut(u64),
) {
    strategy.set_rules(config.rules);
    let choose = |question: &Question| strategy.choose(question).map(|c| (c.x, c.arrangement));
    play_with(choose, seed, columns, config, stats, tick);
}

/// [`play`] with any chooser ([`run_with`]).
pub fn play_with(
    choose: impl FnMut(&Question) -> Option<(u8, u8)>,
    seed: u64,
    columns: u64,
    config: GameConfig,
    stats: &mut Stats,
    mut tick: impl FnMut(u64),
) {
    let mut since_clear = 0u64;
    let mut played = 0u64;
    let game = run_with(choose, seed, columns, config, |turn, elapsed| {
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
    stats.record_game_end(game.counters());
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
    use magic_jewelry_engine::player::Evaluation;
    use magic_jewelry_engine::{strategy_by_name, ForesightConfig, StrategySpec, Weights};

    fn smart_published(rules: RuleSet, seed: u64, columns: u64) -> Stats {
        let mut smart = strategy_by_name("smart", &Weights::PUBLISHED).unwrap();
        let mut stats = Stats::default();
        let config = GameConfig {
            rules,
            ..GameConfig::default()
        };
        play(smart.as_mut(), seed, columns, config, &mut stats, |_| {});
        stats
    }

    /// Fixed seeds: any change to the rules, search or evaluation shows here.
    #[test]
    fn pinned_short_games() {
        let stats = smart_published(RuleSet::Reference, 1, 2000);
        assert_eq!(
            (stats.columns, stats.game_overs, stats.chains.points),
            (2000, 0, 0)
        );
        let pinned = (
            stats.jewel_sum,
            stats.max_jewels,
            stats.removed,
            stats.clears,
        );
        // The reference's figures did not move when the real rules came in.
        assert_eq!(pinned, (23145, 28, 5994, 0), "{stats:?}");
        assert_eq!(stats.wild_columns, 0);
        assert_eq!(stats.speed_columns[63], 2000);

        let stats = smart_published(RuleSet::Real, 1, 2000);
        let pinned = (
            stats.jewel_sum,
            stats.max_jewels,
            stats.removed,
            stats.chains.points,
            stats.wild_columns,
            stats.game_overs,
        );
        assert_eq!(pinned, (20134, 27, 5993, 1_252_659, 85, 0), "{stats:?}");
    }

    /// The same games with the sequence ahead searched: fewer jewels, pinned.
    #[test]
    fn foresight_keeps_the_board_emptier() {
        let config = GameConfig {
            foresight: true,
            ..GameConfig::default()
        };
        let spec = PlayerSpec {
            strategy: StrategySpec::Smart,
            evaluation: Evaluation::Published,
            foresight: true,
            lookahead: ForesightConfig {
                depth: 4,
                beam: 8,
                work: 2_000,
                time: None,
            },
            ..PlayerSpec::default()
        };
        let mut foresight = spec.build();
        let mut stats = Stats::default();
        play(foresight.as_mut(), 1, 2000, config, &mut stats, |_| {});
        let fair = smart_published(RuleSet::Real, 1, 2000);
        assert_eq!(fair.jewel_sum, 20134);
        let pinned = (stats.jewel_sum, stats.max_jewels, stats.game_overs);
        assert_eq!(pinned, (15_935, 21, 0), "{stats:?}");
        assert!(stats.jewel_sum < fair.jewel_sum);
    }

    #[test]
    fn simple_loses_more_than_smart() {
        for config in [GameConfig::reference(), GameConfig::default()] {
            let mut simple = strategy_by_name("simple", &Weights::PUBLISHED).unwrap();
            let mut smart = strategy_by_name("smart", &Weights::PUBLISHED).unwrap();
            let a = rate(simple.as_mut(), 5, 1500, config);
            let b = rate(smart.as_mut(), 5, 1500, config);
            assert!(b < a, "{config:?}: smart {b} simple {a}");
        }
    }

    /// In the real game wild columns come after every 70 removed cells (X's included), and the
    /// columns fall faster with every one that lands.
    #[test]
    fn real_games_bring_wild_columns_and_speed_up() {
        let stats = smart_published(RuleSet::Real, 2, 3000);
        let generated = stats.removed / 70;
        assert!(
            stats.wild_columns == generated || stats.wild_columns + 1 == generated,
            "{stats:?}"
        );
        assert!(stats.wild_columns > 50, "{stats:?}");
        // Past the 48th wild column, 8 frames a row.
        assert!(stats.speed_columns[8] > 0 && stats.speed_columns[63] > 0);
        assert_eq!(stats.speed_columns.iter().sum::<u64>(), 3000);
        assert!(
            stats.chains.points > 300 * stats.removed / 3 / 2,
            "{stats:?}"
        );
    }

    /// The boards after every column of a game of the player's strategy within `budget`.
    fn boards_within(budget: magic_jewelry_engine::Budget) -> Vec<magic_jewelry_engine::Board> {
        let mut deep = magic_jewelry_engine::strategy_with(
            "deep",
            magic_jewelry_engine::AnyEvaluator::default(),
        )
        .unwrap();
        deep.set_budget(budget);
        let mut boards = Vec::new();
        let mut game = Game::new(RuleSet::Real, 5);
        let config = GameConfig::default();
        // The same loop as `run`, keeping each board.
        for _ in 0..120 {
            let choice = deep.choose(&Question::at_spawn(&game, config.input, false));
            game.play(choice.map(|c| (c.x, c.arrangement)));
            boards.push(*game.board());
        }
        boards
    }

    /// A work budget gives the same game on any machine under any load: the same game twice,
    /// the second while other threads burn the CPU. It does cut the search (the game differs
    /// from one without a budget), and a budget never reached changes nothing.
    #[test]
    fn a_work_budget_repeats_exactly_under_load() {
        use magic_jewelry_engine::Budget;
        use std::sync::atomic::{AtomicBool, Ordering};
        let work = Budget::work(Some(1500));
        let quiet = boards_within(work);
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let burners: Vec<_> = (0..3)
            .map(|_| {
                let stop = std::sync::Arc::clone(&stop);
                std::thread::spawn(move || {
                    let mut x = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
                    }
                })
            })
            .collect();
        let loaded = boards_within(work);
        stop.store(true, Ordering::Relaxed);
        for burner in burners {
            burner.join().unwrap();
        }
        assert_eq!(quiet, loaded);
        let unlimited = boards_within(Budget::UNLIMITED);
        assert_ne!(quiet, unlimited, "the work budget never cut the search");
        assert_eq!(boards_within(Budget::work(Some(u64::MAX))), unlimited);
    }
}
