//! The jewelbot host: a NES emulator on tetanes-core with in-process AI plug-ins. It knows
//! nothing about any game and names no plug-in: plug-ins come through the `jewelbot-plugin` API
//! (`docs/plugins.md`), and the `jewelbot` command chooses which it offers.
//!
//! - [`files`]: reading only regular files, bounded; writing without clobbering.
//! - [`rom`]: reading ROM files safely and normalising headers in memory.
//! - [`session`]: one running console with its plug-ins.
//! - [`plugin_host`]: calls plug-ins every frame and contains their failures.
//! - [`gif_capture`]: animated GIFs of the picture.
//! - [`headless`]: runs a session without a window, until a condition holds, with checkpoints
//!   and a report, and summarises it.
//! - [`record`]: RAM traces of any ROM, driven by a script or the plug-ins.
//! - [`ram_edit`]: RAM pokes and freezes from the command line.
//! - [`inspector`]: text views of plug-in inspections.
//! - [`interrupt`]: SIGINT and SIGTERM as a request to stop at a frame boundary.
//! - [`picture_drawing`]: the plug-ins' drawings put onto the picture.
//! - [`outputs`]: where a command writes, checked before its first frame.
//! - [`movie`]: input movies in FCEUX's `fm2` format, on disk, played and recorded.
//! - [`frontend`]: the desktop window (picture, sound, controls, RAM inspector, overlay).

pub use jewelbot_plugin::files;
pub mod font;
pub mod frontend;
pub mod gif_capture;
pub mod headless;
pub mod inspector;
pub mod interrupt;
pub mod movie;
pub mod outputs;
pub mod picture_drawing;
pub mod plugin_host;
pub mod ram_edit;
pub mod record;
pub mod rom;
pub mod session;
