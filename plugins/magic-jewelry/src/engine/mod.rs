//! The rules, reachable placements, evaluation and search strategies. Nothing here knows about
//! the emulator: the plug-in builds a [`Board`] from RAM and asks for a [`Decision`].
//!
//! # API for the plug-in
//!
//! ```
//! use magic_jewelry::engine::{self, Board, Column, InputModel, SpawnState, Weights};
//!
//! // The settled playfield from RAM: 15 rows of 6 cells, index 0 is row -2 (the falling
//! // column masked out).
//! let grid = [[0u8; 6]; 15];
//! let board = Board::from_grid(&grid).expect("a settled board");
//! // Where the falling column is and how fast it falls ($56, $57, $59, $5B).
//! let start = SpawnState { x: 3, y: 0, fall_timer: 0, fall_speed: 63 };
//! let mut ai = engine::strategy_by_name("smart", &Weights::PUBLISHED).expect("known name");
//! let decision = ai
//!     .decide(&board, Column::new(1, 2, 3), Some(Column::new(4, 5, 6)), start, InputModel::FAST)
//!     .expect("the column can move");
//! // Press decision.path[frame] on each frame from now, then hold decision.finish until it locks.
//! assert!(decision.x < 6 && decision.rotations < 3);
//! // What the lock does (the simulator's rules):
//! let mut after = board;
//! let outcome = engine::lock(&mut after, Column::new(1, 2, 3).rotated(decision.rotations), decision.x as usize)
//!     .expect("the column fits");
//! assert!(!outcome.game_over);
//! ```
//!
//! - [`Board::from_grid`] / [`Board::to_grid`]: the 15 x 6 grid as kept in RAM.
//! - [`strategy_by_name`] (`simple`, `smart`, `deep`) and [`Strategy::decide`]: the chosen
//!   x, rotations (A/B presses, 0-2), final row and the buttons per frame.
//! - [`lock`]: locks a column with all consequences and reports a [`LockOutcome`].
//! - [`reachable`]: every lock result the buttons can reach, with paths.
//! - [`Weights`]: the evaluation weights (JSON), [`Weights::PUBLISHED`] the reference's,
//!   [`Weights::trained`] the committed ones trained for `deep` (`weights/README.md`).
//! - [`ValueNetwork`]: a board value learned by temporal-difference learning (an n-tuple
//!   network over colour-relabelled board patterns, [`value`]).
//! - [`Evaluation`]: what a strategy scores boards with, weights or a learned value
//!   ([`strategy_with`]); [`Evaluation::default`] is what the player uses.
//! - Timing model and its assumptions: [`timing`]. `deep` stops its look-ahead at a time
//!   budget (1.8 ms by default, [`Strategy::set_budget`]).

pub mod board;
pub mod eval;
pub mod evaluation;
pub mod placement;
pub mod resolve;
pub mod strategy;
pub mod timing;
pub mod value;
pub mod weights;

pub use board::{Board, Column, GridError, COLOURS, EMPTY, WILD};
pub use eval::{features, Evaluator};
pub use evaluation::{Evaluate, Evaluation};
pub use placement::{reachable, Placement, Placements};
pub use resolve::{lock, LockError, LockOutcome};
pub use strategy::{
    for_each_result, strategy_by_name, strategy_with, Choice, Decision, Deep, DeepConfig, Simple,
    Smart, Strategy, UnknownStrategy, STRATEGY_NAMES,
};
pub use timing::{InputModel, SpawnState, LEVEL0_FALL_SPEED, SPAWN_X, SPAWN_Y};
pub use value::{ValueFileError, ValueNetwork};
pub use weights::{Weights, WeightsError};

#[cfg(test)]
mod proptests;
