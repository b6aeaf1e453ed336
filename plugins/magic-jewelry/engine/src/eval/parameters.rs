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
///
/// What the real game's races cost is one frame at each expiry of a resting column's timer (a
/// move pressed then may be lost, and the timelines never press one there), and a column
/// rests early only over a stack reaching within 3 rows of the spawn: over a spawn column at
/// this height a new column falls 3 rows, 24 frames at the top speed, before its first race,
/// so races never touch it. The real game lost the score objective's game (recording
/// `score-foresight-loss`) over a full spawn column, 3 rows above, reached after presses the
/// races took. A spawn column kept a row lower still (8) cost 5.3% of the points (3,247.6 a
/// column against 3,428.2 on `sim --rules real --objective score --columns 100000 --seed 7`,
/// no game over either way) and is not taken.
pub const SCORE_SAFE_HEIGHT: u8 = 9;
/// See [`SCORE_SAFE_HEIGHT`].
pub const SCORE_DANGER: f64 = 20.0;
/// The chain a board holds ready counts 1.2 times its points: a little over what it would
/// score, since the jewels that prepare it earn the next columns longer chains too.
pub const SCORE_READY: f64 = 1.2;
