//! Magic Jewelry, the Famicom port of Columns: everything the jewelbot plug-in knows about it.
//! The game itself is specified in `docs/magic-jewelry.md`; how the pieces fit and what happens
//! in a frame (RAM → view → tracker → player → search → timeline → injector → buttons) is in
//! `docs/architecture.md`.
//!
//! - [`memory_map`] and [`game_view`]: where the game keeps its state in RAM and a typed,
//!   validated view of it.
//! - The engine (the rules, the evaluation, the search and the player's description) is a
//!   crate of its own, [`magic_jewelry_engine`]: it knows nothing about the emulator or this
//!   plug-in.
//! - [`conformance`]: scripted scenarios that check a ROM behaves as the engine assumes.
//! - [`dumps`]: which cartridges it plays.
//! - [`screen`]: where the playfield is on the picture, for overlay marks.
//! - [`play`]: turns decisions into button presses and follows the game frame by frame.
//! - [`stats`]: what a game's play came to (chains, points, decision times), counted one way
//!   for the player and the lab.
//! - [`plugin`]: the jewelbot plug-in that ties it together.

pub mod conformance;
pub mod dumps;
pub mod game_view;
pub mod memory_map;
pub mod play;
pub mod plugin;
pub mod recordings;
pub mod screen;
pub mod stats;
