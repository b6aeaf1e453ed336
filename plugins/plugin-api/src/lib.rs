//! The in-process plug-in interface of the jewelbot NES host.
//!
//! A [`Plugin`] is called once per rendered frame with a [`FrameContext`]: it reads CPU RAM and
//! the picture, may queue RAM writes, chooses the controller-1 buttons for the next frame and
//! publishes status lines and overlay marks for a frontend to draw. Scripted drivers that need
//! to own the frame loop (conformance scenarios, tests) use the [`Machine`] trait instead.
//! A plug-in declares its settings as [`PluginOption`]s, from which the host builds its
//! command line and window keys. [`trace`] and [`script`] are the RAM recording and input
//! script formats (`docs/traces.md`); `docs/architecture.md` shows where this crate sits.
//!
//! [`files`] reads the user's files safely and writes whole files without clobbering theirs,
//! for the host and plug-ins alike, and [`progress`] is the one style of progress bar of every
//! long command, and [`DecisionTimes`] the one way to time decisions. [`stop_requested`] says
//! that a signal asked the run to end, for plug-ins that wait on something outside. The crate
//! depends on `thiserror`, `indicatif` and `serde` alone, so that plug-ins compile without the
//! emulator.

#![warn(missing_docs)]

mod console;
mod decision_times;
pub mod files;
mod game_news;
mod inspect;
mod machine;
mod pacing;
mod plugin;
pub mod progress;
mod rom;
mod run;
pub mod script;
mod status;
mod stop;
mod story;
pub mod trace;

pub use console::{
    Console, ConsoleRequest, MemoryAccess, MemoryHit, MemoryWatch, RamOnly, MOST_MEMORY_HITS,
};
pub use decision_times::DecisionTimes;
pub use game_news::{Announcement, GameNews, NoNews};
pub use inspect::{Field, Inspection, Panel};
pub use jewelbot_controller::Buttons;
pub use machine::{Machine, MachineError};
pub use pacing::Pacing;
pub use plugin::{
    FrameContext, FrameOutcome, FrameOutputs, NumberRange, Plugin, PluginOption, Recording, Stat,
    StatValue,
};
pub use rom::RomIdentity;
pub use run::{Milestone, Series, StopCondition};
pub use script::{Script, ScriptError, ScriptRunner};
pub use status::{hex_colour, Drawing, Mark, Rgba, Status};
pub use stop::{stop_flag, stop_requested};
pub use story::{grouped, Chart, Figure, Story};
pub use trace::{Trace, TraceError, TraceFrame, TraceHeader, TraceWriter};

/// Size of the NES CPU's internal RAM ($0000-$07FF).
pub const RAM_SIZE: usize = 0x800;
/// Width of the NES picture in pixels.
pub const SCREEN_WIDTH: usize = 256;
/// Height of the NES picture in pixels.
pub const SCREEN_HEIGHT: usize = 240;

/// The 2 KiB of CPU RAM.
pub type Ram = [u8; RAM_SIZE];
