//! Every tunable of the search, in one place, with why it has its value. The strategies'
//! `Default`s are built from these.

use std::time::Duration;

/// The player's limit on one decision unless told otherwise: what fits in a frame beside the
/// emulator (a frame is 16.6 ms; the emulator takes about 1.4 ms of it at full speed, and a
/// decision made ahead hides most of the rest).
pub const PLAYER_TIME: Duration = Duration::from_micros(1800);

/// The player's limit when the host waits for it (lockstep: headless runs) and no budget is
/// given: boards scored, not time, so that a run plays the same game however loaded the
/// machine is. `deep` with the learned value scores 2,193 boards a decision on average
/// (`jewelbot bench`), about what [`PLAYER_TIME`] allows on a desktop core (some 1,600 boards a
/// millisecond), so lockstep plays the game the window plays when the machine keeps up; the
/// marathons were measured with it.
pub const LOCKSTEP_WORK: u64 = 3000;

/// `deep`: few candidates, many samples. With the learned value, 3 candidates and 36 samples
/// beat 6 and 12 or 6 and 36 (`weights/README.md`), and fit the time budget.
pub const DEEP_CANDIDATES: usize = 3;
/// At most this many of `deep`'s candidates may share a first placement, so the look-ahead
/// compares different moves.
pub const DEEP_PER_FIRST: usize = 6;
/// Columns after next `deep` samples for each candidate.
pub const DEEP_SAMPLES: usize = 36;
/// `deep`'s sampler seed, mixed with each decision's board and columns.
pub const DEEP_SEED: u64 = 0x6a65_7765_6c73;

/// Foresight: depth pays more than width. Over 5,000 real-rules columns (seed 7) with the
/// learned value, depth 5 with 24 boards holds 6.63 jewels, 8 with 24 6.34, 9 with 48 6.11
/// (fair play: 8.31); a wider beam at depth 5 gains nothing.
pub const FORESIGHT_DEPTH: usize = 9;
/// Boards kept at each depth of the foresight beam.
pub const FORESIGHT_BEAM: usize = 48;
/// Above what 9 columns of 48 boards need, so it only bounds the worst case.
pub const FORESIGHT_WORK: u64 = 30_000;
/// The most a foresight decision takes, with a time budget, before it settles for the depth it
/// reached: the work budget alone takes some 4-8 ms on a desktop core, and a decision made
/// ahead has the whole fall of the column before to finish.
pub const FORESIGHT_TIME: Duration = Duration::from_millis(12);
/// The deepest foresight may look: past 64 columns the counters' wild columns dominate and a
/// decision takes seconds.
pub const MAX_FORESIGHT_DEPTH: usize = 64;
/// The widest beam foresight may keep.
pub const MAX_FORESIGHT_BEAM: usize = 4096;

/// Most look-ahead candidates `deep` may be given (`deep:K:S`): each costs a full expectation,
/// and past 64 a decision takes seconds.
pub const MAX_CANDIDATES: usize = 64;
/// Most columns after next `deep` may sample: the 76 rotation classes (`all`) are exact, and
/// more samples than classes only cost time.
pub const MAX_SAMPLES: usize = 1024;
