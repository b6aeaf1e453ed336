//! The Magic Jewelry game engine: the rules, the evaluation of boards and the search for placements, in three
//! layers, each using only the ones below it (`docs/architecture.md`):
//!
//! 1. [`rules`]: the board, columns, the rule sets, what a lock does, the game's counters, the
//!    column generators, a simulated game;
//! 2. [`eval`]: how good a board is ([`Evaluator`], weighted features, the learned value);
//! 3. [`search`]: where the buttons can take a column, the input rules, the strategies;
//! 4. [`player`]: the player, described once ([`PlayerSpec`]: strategy, objective, evaluation,
//!    foresight, budget, rules, input), the table of its settings ([`player::KNOBS`]) and the one
//!    [`PlayerSpec::build`] every caller uses.
//!
//! Nothing here knows about the emulator or the plug-in interface (the crate depends on neither):
//! the plug-in builds a [`Board`] from RAM and asks for a [`Decision`], whose [`Timeline`] is
//! the buttons to press; the lab plays whole games with [`Game`].
//!
//! # API for the plug-in
//!
//! ```
//! use magic_jewelry_engine::{self as engine, Board, Column, InputModel, FallState, Question, Weights};
//!
//! // The settled playfield from RAM: 15 rows of 6 cells, index 0 is row -2 (the falling
//! // column masked out).
//! let grid = [[0u8; 6]; 15];
//! let board = Board::from_grid(&grid).expect("a settled board");
//! // Where the falling column is and how fast it falls ($56, $57, $59, $5B, $65): here a
//! // column that has just spawned at 63 frames a row, nothing held.
//! let start = FallState::spawn(63);
//! let mut ai = engine::strategy_by_name("smart", &Weights::PUBLISHED).expect("known name");
//! let question = Question::new(board, Column::new(1, 2, 3), Some(Column::new(4, 5, 6)), start, InputModel::FAST);
//! let decision = ai.decide(&question).expect("the column can move");
//! // Hold decision.timeline.frames[k] on the k-th frame from now, then its finish until it locks.
//! assert!(decision.x < 6 && decision.arrangement < 3);
//! // What the lock does under the real game's rules (`RuleSet::lock` for either rule set):
//! let mut after = board;
//! let outcome = engine::lock(&mut after, Column::new(1, 2, 3).arranged(decision.arrangement), decision.x as usize)
//!     .expect("the column fits");
//! assert!(!outcome.game_over);
//! ```
//!
//! - [`Board::from_grid`] / [`Board::to_grid`]: the 15 x 6 grid as kept in RAM.
//! - [`strategy_by_name`] (`simple`, `smart`, `deep`) and [`Strategy::decide`]: given a
//!   [`Question`] (the board, the columns, where the column is, how the buttons are pressed,
//!   the counters, the generator when the columns to come are known), the chosen x,
//!   arrangement ([`Column::arranged`]: 0-2 rotations, 3-5 a swap first), final row and the
//!   buttons per frame.
//! - [`RuleSet`]: the rules a game follows, the real game's (the player's) or the reference
//!   AI's conditions; [`lock`] / [`RuleSet::lock`] lock a column with all consequences and
//!   report a [`LockOutcome`]; [`Counters`] add the score, the combo counter, the wild column
//!   and the level ([`Resolution`]); [`GameGenerator`] is the game's own column generator;
//!   [`Game`] plays a whole game without the emulator.
//! - [`reachable`]: every lock result the buttons can reach, with the [`Timeline`] to each.
//! - [`Weights`]: the evaluation weights (JSON), [`Weights::PUBLISHED`] the reference's,
//!   [`Weights::trained`] the committed ones trained for `deep` under the reference's
//!   conditions (`weights/README.md`).
//! - [`ValueNetwork`]: a board value learned by temporal-difference learning (an n-tuple
//!   network over colour-relabelled board patterns, [`eval::value`]).
//! - [`AnyEvaluator`]: what a strategy scores boards with, weights or a learned value
//!   ([`strategy_with`]); [`AnyEvaluator::for_rules`] is each rule set's default evaluation,
//!   [`AnyEvaluator::default`] the real game's, which the player uses. Strategies follow the
//!   real rules unless told otherwise ([`Strategy::set_rules`]).
//! - [`Foresight`]: any strategy, searching the columns to come with a beam search when the
//!   [`Question`] gives it the generator ([`ForesightConfig`]: depth, beam, work budget).
//! - The input rules and timing model: [`search::input`]. `deep` stops its look-ahead at a
//!   [`Budget`] of time (1.8 ms by default) or of work (boards scored), whichever comes first
//!   ([`Strategy::set_budget`]).

pub mod eval;
mod memo;
pub mod player;
pub mod rules;
pub mod search;

pub use eval::{
    features, load_evaluator, load_evaluator_for, AnyEvaluator, ColourOdds, EvaluationFileError,
    Evaluator, Goal, Objective, ScoreEvaluator, ScoreWeights, Tally, UnknownObjective,
    ValueFileError, ValueNetwork, WeightedFeatures, Weights, WeightsError,
};
pub use player::{PlayerSpec, Timing};
pub use rules::{
    lock, Board, Column, ColumnGenerator, Counters, Game, GameGenerator, GridError, LockError,
    LockOutcome, Resolution, RuleSet, Turn, UnknownRuleSet, COLOURS, EMPTY, LEVEL0_FALL_SPEED,
    RULE_SET_NAMES, SPAWN_X, SPAWN_Y, TOP_FALL_SPEED, WILD,
};
pub use search::{
    for_each_result, reachable, strategy_by_name, strategy_for, strategy_with, Budget, Choice,
    Decision, Deep, DeepConfig, Explanation, FallState, Foresight, ForesightConfig, Greedy,
    InputModel, Move, Placement, Placements, Question, Seat, SeatView, Strategy, StrategySpec,
    Timeline, UnknownStrategy, RANKED, STRATEGY_NAMES,
};

#[cfg(test)]
mod proptests;

#[cfg(test)]
mod layers {
    //! The layering of the engine, checked on the source: a layer names nothing above it; and
    //! the crate's manifest names no emulator, host or plug-in interface.

    use std::path::Path;

    /// Words a file in each layer must not contain.
    const RULES: [(&str, &[&str]); 4] = [
        ("rules", &["eval::", "search::", "player::"]),
        ("eval", &["search::", "player::"]),
        ("search", &["player::"]),
        ("player", &[]),
    ];
    /// Crates the engine must not depend on: it plays without the emulator.
    const OUTSIDE: [&str; 5] = [
        "jewelbot-plugin",
        "jewelbot-host",
        "magic-jewelry ",
        "magic-jewelry-lab",
        "tetanes",
    ];

    fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).expect("engine sources") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("readable source");
                out.push((path.display().to_string(), text));
            }
        }
    }

    #[test]
    fn layers_use_only_the_layers_below() {
        let engine = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut checked = 0;
        for (layer, banned) in RULES {
            let mut files = Vec::new();
            sources(&engine.join(layer), &mut files);
            assert!(!files.is_empty(), "no sources in {layer}");
            for (path, text) in files {
                for word in banned {
                    let code = text.lines().filter(|l| !l.trim_start().starts_with("//"));
                    let hit = code.clone().any(|l| l.contains(word));
                    assert!(!hit, "{path} ({layer}) uses `{word}`");
                }
                checked += 1;
            }
        }
        assert!(checked >= 15, "only {checked} files checked");
    }

    #[test]
    fn the_engine_depends_on_no_emulator_and_no_plug_in() {
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
        let text = std::fs::read_to_string(manifest).expect("the engine's manifest");
        let dependencies: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with("[dependencies]"))
            .take_while(|l| !l.starts_with("[dev-dependencies]"))
            .collect();
        assert!(dependencies.len() > 3, "no dependencies read");
        for line in dependencies {
            for crate_name in OUTSIDE {
                assert!(
                    !line.starts_with(crate_name),
                    "the engine depends on {line}"
                );
            }
        }
    }
}
