//! Every tunable of the evaluation, in one place, with why it has its value.

use super::score::ScoreWeights;

/// How the score objective weighs points against safety, tuned on seeds 11-13 of the real
/// rules (`score.rs` has the figures): 50 points are worth a jewel of the survival value; a
/// step of the combo counter 3 jewels; the hoard (the wild column's points on the most
/// plentiful colour) counts 3 times its share, scaled by the square root of the wild
/// column's closeness; stacks above 9 cost 20 jewels a cell squared and earn no credit.
pub const SCORE_WEIGHTS: ScoreWeights = ScoreWeights {
    points_per_jewel: 50.0,
    combo: 3.0,
    hoard: 3.0,
    closeness_power: 0.5,
    safe_height: 9,
    danger: 20.0,
};
