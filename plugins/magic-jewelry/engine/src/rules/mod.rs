//! The rules of the game: the board and the columns, the rule sets, what a lock does (matches,
//! collapses, chains, the wild column, the next spawn, game over), the game's counters and
//! scoring, the speed table, the column generators, and a whole game played without the
//! emulator.
//!
//! The bottom layer of the engine: it uses nothing from [`super::eval`] or [`super::search`]
//! and knows nothing about the emulator (`layers_use_only_the_layers_below` checks it).

pub mod board;
pub mod game;
pub mod generator;
pub mod resolve;
pub mod rule_set;
pub mod scoring;
pub mod speed;

pub use board::{Board, Column, GridError, COLOURS, EMPTY, WILD};
pub use game::{Game, Turn};
pub use generator::{ColumnGenerator, GameGenerator};
pub use resolve::{lock, LockError, LockOutcome};
pub use rule_set::{RuleSet, UnknownRuleSet, RULE_SET_NAMES, WILD_EVERY};
pub use scoring::{Counters, Resolution};
pub use speed::{LEVEL0_FALL_SPEED, TOP_FALL_SPEED};

/// Column where new columns appear.
pub const SPAWN_X: u8 = 3;
/// Row of a new column's bottom jewel.
pub const SPAWN_Y: i8 = 0;
