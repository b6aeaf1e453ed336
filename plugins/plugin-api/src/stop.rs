//! Whether the user asked jewelbot to stop (SIGINT, SIGTERM or SIGHUP to a command that takes
//! them as a request, `jewelbot_host::interrupt`): the run ends at the next frame boundary, so
//! a plug-in that waits on something outside the emulator (a bot's answer) should stop waiting.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

static STOP: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// The flag the host's signal handlers set: one for the whole process, set once and never
/// cleared.
pub fn stop_flag() -> Arc<AtomicBool> {
    Arc::clone(STOP.get_or_init(Arc::default))
}

/// Whether a signal asked jewelbot to stop.
pub fn stop_requested() -> bool {
    STOP.get().is_some_and(|flag| flag.load(Ordering::Relaxed))
}
