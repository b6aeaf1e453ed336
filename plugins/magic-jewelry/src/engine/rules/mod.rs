//! The rules of the game: the board and the columns, what a lock does (matches, gravity,
//! chains, the wild column, game over), the column generator, and a whole game played without
//! the emulator.
//!
//! The bottom layer of the engine: it uses nothing from [`super::eval`] or [`super::search`]
//! and knows nothing about the emulator (`layers_use_only_the_layers_below` checks it).

pub mod board;
pub mod game;
pub mod generator;
pub mod resolve;

pub use board::{Board, Column, GridError, COLOURS, EMPTY, WILD};
pub use game::{Game, Turn};
pub use generator::ColumnGenerator;
pub use resolve::{lock, LockError, LockOutcome};

/// Column where new columns appear.
pub const SPAWN_X: u8 = 3;
/// Row of a new column's bottom jewel.
pub const SPAWN_Y: i8 = 0;
/// Frames per row at level 0.
pub const LEVEL0_FALL_SPEED: u8 = 63;
