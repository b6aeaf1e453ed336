//! How the host runs frames against a plug-in's time.

use std::time::Duration;

/// Whether the emulator waits for its plug-ins or runs on a clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pacing {
    /// The host waits for every call, however long it takes: the game depends only on the
    /// inputs and the plug-ins' settings, never on how loaded the machine is (headless runs).
    /// A plug-in that would cut its work by time should bound it by work instead.
    #[default]
    Lockstep,
    /// Frames come on a clock (the window): a call that takes longer than `stall_limit` has
    /// its frame's output dropped, and a plug-in may cut its work by time to keep up.
    RealTime {
        /// The longest one call may take before its frame's output is dropped.
        stall_limit: Duration,
    },
}

impl Pacing {
    /// The longest one call may take before its output is dropped (`None`: waited for).
    pub const fn stall_limit(self) -> Option<Duration> {
        match self {
            Self::Lockstep => None,
            Self::RealTime { stall_limit } => Some(stall_limit),
        }
    }
}

impl std::fmt::Display for Pacing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Lockstep => f.write_str("lockstep"),
            Self::RealTime { stall_limit } => {
                write!(f, "real time (stall limit {} ms)", stall_limit.as_millis())
            }
        }
    }
}
