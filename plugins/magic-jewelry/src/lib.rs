//! Magic Jewelry, the Famicom port of Columns: everything the jewelbot plug-in knows about it.
//!
//! - [`memory_map`] and [`game_view`]: where the game keeps its state in RAM and a typed,
//!   validated view of it.
//! - [`engine`]: the rules, reachable placements, evaluation and search strategies. It knows
//!   nothing about the emulator.
//! - [`conformance`]: scripted scenarios that check a ROM behaves as the engine assumes.
//! - [`dumps`]: which cartridges it plays.
//! - [`play`]: turns decisions into button presses and follows the game frame by frame.
//! - [`plugin`]: the jewelbot plug-in that ties it together.

pub mod conformance;
pub mod dumps;
pub mod engine;
pub mod game_view;
pub mod memory_map;
pub mod play;
pub mod plugin;
pub mod screen;
