//! The fuzz harnesses of jewelbot, one module per target. Each `run` takes the fuzzer's bytes,
//! never panics on its own account, and says what happened so the sweep can count it; a panic
//! or a hang inside is a finding.
//!
//! - [`rom`]: ROM parsing, loading and 12 frames with the plug-in attached.
//! - [`state`]: save states, damaged or forged, loaded into a running session.
//! - [`ram`]: one RAM image through the decoder, the inspector and the engine's board.
//! - [`plugin_frames`]: frames of the real game's RAM, mutated, through the whole plug-in.
//! - [`eval_files`]: weights JSON and learned value files.

pub mod corpus;
pub mod eval_files;
pub mod input;
pub mod plugin_frames;
pub mod ram;
pub mod rom;
pub mod state;
