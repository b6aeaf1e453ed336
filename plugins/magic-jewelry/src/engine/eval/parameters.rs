//! Every tunable of the evaluation, in one place, with why it has its value. Tuned on seeds
//! 11-13 of the real rules (`score.rs` has the figures).

/// The score objective: 50 points are worth a jewel of the survival value.
pub const SCORE_POINTS_PER_JEWEL: f64 = 50.0;
/// A step of the combo counter is worth 3 jewels.
pub const SCORE_COMBO: f64 = 3.0;
/// The hoard (the wild column's points on the most plentiful colour) counts 3 times its
/// share...
pub const SCORE_HOARD: f64 = 3.0;
/// ...scaled by the wild column's closeness to this power.
pub const SCORE_CLOSENESS_POWER: f64 = 0.5;
/// Stacks above this height cost [`SCORE_DANGER`] jewels a cell squared and earn no credit.
pub const SCORE_SAFE_HEIGHT: u8 = 9;
/// See [`SCORE_SAFE_HEIGHT`].
pub const SCORE_DANGER: f64 = 20.0;
