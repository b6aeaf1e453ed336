//! Commands the offered plug-ins bring that need the emulator: Magic Jewelry's conformance
//! scenarios and model check (its lab, which needs none, is mounted whole by `cli`).

pub mod conform;
pub mod model_check;
