//! Every tunable of the search, in one place, with why it has its value. The strategies'
//! `Default`s are these.

use super::strategy::{Budget, DeepConfig, ForesightConfig};
use std::time::Duration;

/// The player's limit on one decision unless told otherwise: what fits in a frame beside the
/// emulator (a frame is 16.6 ms; the emulator takes about 1.4 ms of it at full speed, and a
/// decision made ahead hides most of the rest).
pub const PLAYER_BUDGET: Budget = Budget {
    time: Some(Duration::from_micros(1800)),
    work: None,
};

/// `deep`: few candidates, many samples. With the learned value, 3 candidates and 36 samples
/// beat 6 and 12 or 6 and 36 (`weights/README.md`), and fit the time budget; at most 6 of the
/// candidates may share a first placement, so the look-ahead compares different moves.
pub const DEEP: DeepConfig = DeepConfig {
    candidates: 3,
    per_first: 6,
    samples: Some(36),
    budget: PLAYER_BUDGET,
    seed: 0x6a65_7765_6c73,
};

/// Foresight: depth pays more than width. Over 5,000 real-rules columns (seed 7) with the
/// learned value, depth 5 with 24 boards holds 6.63 jewels, 8 with 24 6.34, 9 with 48 6.11
/// (fair play: 8.31); a wider beam at depth 5 gains nothing. The work budget is above what 9
/// columns of 48 boards need, so it only bounds the worst case.
pub const FORESIGHT: ForesightConfig = ForesightConfig {
    depth: 9,
    beam: 48,
    work: 30_000,
    time: None,
};

/// Most look-ahead candidates `deep` may be given (`deep:K:S`): each costs a full expectation,
/// and past 64 a decision takes seconds.
pub const MAX_CANDIDATES: usize = 64;
/// Most columns after next `deep` may sample: the 76 rotation classes (`all`) are exact, and
/// more samples than classes only cost time.
pub const MAX_SAMPLES: usize = 1024;
