//! Every tunable of the evaluation, in one place, with why it has its value. Tuned on seeds
//! 11-13 of the real rules (`score.rs` has the figures).

/// The score objective: 50 points are worth a jewel of the survival value.
pub const SCORE_POINTS_PER_JEWEL: f64 = 50.0;
/// A step of the combo counter is worth 3 jewels.
pub const SCORE_COMBO: f64 = 3.0;
/// The hoard (the wild column's points on the most plentiful colour) counts 1.5 times its
/// share (3 before the ready chain counted: with it, half keeps the board lower and scores
/// more)...
pub const SCORE_HOARD: f64 = 1.5;
/// ...scaled by the wild column's closeness to this power.
pub const SCORE_CLOSENESS_POWER: f64 = 0.5;
/// Stacks above this height cost [`SCORE_DANGER`] jewels a cell squared and earn no credit.
pub const SCORE_SAFE_HEIGHT: u8 = 9;
/// See [`SCORE_SAFE_HEIGHT`].
pub const SCORE_DANGER: f64 = 20.0;
/// The chain a board holds ready counts 1.2 times its points: a little over what it would
/// score, since the jewels that prepare it earn the next columns longer chains too.
pub const SCORE_READY: f64 = 1.2;
