//! How good a board is: one [`Evaluator`] trait and the evaluators behind it, the weighted
//! features of [`WeightedFeatures`] (with their [`Weights`]) and a learned [`ValueNetwork`].
//! [`AnyEvaluator`] holds whichever the player or a tool was configured with. A [`Goal`] is
//! what a search plays for: an evaluator (survive) or a [`ScoreEvaluator`] (score), valuing a
//! path's last board with what its locks did.
//!
//! The middle layer of the engine: it uses [`super::rules`] and nothing from
//! [`super::search`].

pub mod features;
pub mod goal;
pub mod parameters;
pub mod ready;
pub mod score;
pub mod value;
pub mod weights;

pub use features::{features, ColourOdds, WeightedFeatures};
pub use goal::{Goal, Tally};
pub use score::{Objective, ScoreEvaluator, ScoreWeights, UnknownObjective};
pub use value::{ValueFileError, ValueNetwork};
pub use weights::{read_evaluation_file, Weights, WeightsError};

use crate::rules::{Board, RuleSet};
use std::path::Path;
use std::sync::Arc;

/// Scores boards for a search.
pub trait Evaluator {
    /// Higher is better.
    fn score(&self, board: &Board) -> f64;

    /// What holding `board` for one column on the way costs (subtracted from the score).
    fn interim_cost(&self, board: &Board) -> f64;
}

impl Evaluator for WeightedFeatures {
    #[inline]
    fn score(&self, board: &Board) -> f64 {
        WeightedFeatures::score(self, board)
    }

    #[inline]
    fn interim_cost(&self, board: &Board) -> f64 {
        WeightedFeatures::interim_cost(self, board)
    }
}

/// A learned value counts jewels: the board's own plus those it expects to come.
impl Evaluator for ValueNetwork {
    #[inline]
    fn score(&self, board: &Board) -> f64 {
        -(f64::from(board.jewels()) + self.value(board))
    }

    #[inline]
    fn interim_cost(&self, board: &Board) -> f64 {
        f64::from(board.jewels())
    }
}

impl<E: Evaluator + ?Sized> Evaluator for &E {
    #[inline]
    fn score(&self, board: &Board) -> f64 {
        (**self).score(board)
    }

    #[inline]
    fn interim_cost(&self, board: &Board) -> f64 {
        (**self).interim_cost(board)
    }
}

/// The evaluator a strategy is built with, chosen at run time.
#[derive(Debug, Clone)]
pub enum AnyEvaluator {
    /// Weighted features.
    Features(WeightedFeatures),
    /// A learned value, shared between strategies.
    Learned(Arc<ValueNetwork>),
}

impl AnyEvaluator {
    /// Weighted features under the real game's colour odds.
    pub fn features(weights: &Weights) -> Self {
        Self::features_for(weights, RuleSet::Real)
    }

    /// Weighted features under the colour odds of `rules`.
    pub fn features_for(weights: &Weights, rules: RuleSet) -> Self {
        Self::Features(WeightedFeatures::for_rules(weights, rules))
    }

    pub fn learned(network: Arc<ValueNetwork>) -> Self {
        Self::Learned(network)
    }

    /// The default evaluation of a rule set: the learned value trained under it.
    pub fn for_rules(rules: RuleSet) -> Self {
        Self::learned(ValueNetwork::trained_for(rules))
    }
}

/// What the player scores boards with unless told otherwise: the learned value trained under
/// the real game's rules.
impl Default for AnyEvaluator {
    fn default() -> Self {
        Self::for_rules(RuleSet::Real)
    }
}

impl From<&Weights> for AnyEvaluator {
    fn from(weights: &Weights) -> Self {
        Self::features(weights)
    }
}

impl Evaluator for AnyEvaluator {
    #[inline]
    fn score(&self, board: &Board) -> f64 {
        match self {
            Self::Features(e) => e.score(board),
            Self::Learned(net) => Evaluator::score(net.as_ref(), board),
        }
    }

    #[inline]
    fn interim_cost(&self, board: &Board) -> f64 {
        match self {
            Self::Features(e) => e.interim_cost(board),
            Self::Learned(net) => Evaluator::interim_cost(net.as_ref(), board),
        }
    }
}

/// Why an evaluation file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum EvaluationFileError {
    #[error("cannot read evaluation file {path}: {error}")]
    Read { path: String, error: std::io::Error },
    #[error("evaluation file {path}: {error}")]
    Value { path: String, error: ValueFileError },
    #[error(transparent)]
    Weights(#[from] WeightsError),
    #[error("{path} is neither a jewelbot value file nor evaluation weights (JSON): {reason}")]
    Neither { path: String, reason: String },
}

/// Reads an evaluation file for the real game: a learned value file, or weights as JSON.
/// Returns the evaluator and, for weights, the weights themselves.
pub fn load_evaluator(path: &Path) -> Result<(AnyEvaluator, Option<Weights>), EvaluationFileError> {
    load_evaluator_for(path, RuleSet::Real)
}

/// [`load_evaluator`] under `rules` (weights use its colour odds).
pub fn load_evaluator_for(
    path: &Path,
    rules: RuleSet,
) -> Result<(AnyEvaluator, Option<Weights>), EvaluationFileError> {
    let bytes = read_evaluation_file(path).map_err(|error| EvaluationFileError::Read {
        path: path.display().to_string(),
        error,
    })?;
    if ValueNetwork::is_value_file(&bytes) {
        let network =
            ValueNetwork::from_bytes(&bytes).map_err(|error| EvaluationFileError::Value {
                path: path.display().to_string(),
                error,
            })?;
        return Ok((AnyEvaluator::learned(Arc::new(network)), None));
    }
    // Weights are JSON text: anything else is neither kind of file.
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return Err(EvaluationFileError::Neither {
            path: path.display().to_string(),
            reason: "binary data without the value file's header".into(),
        });
    };
    if !text.trim_start().starts_with('{') {
        return Err(EvaluationFileError::Neither {
            path: path.display().to_string(),
            reason: "it does not start with a JSON object".into(),
        });
    }
    let weights = Weights::from_json(text).map_err(|e| e.in_file(path))?;
    Ok((AnyEvaluator::features_for(&weights, rules), Some(weights)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::value::Active;

    #[test]
    fn learned_scores_count_jewels_and_value() {
        let board = Board::from_text("11....").unwrap();
        let mut net = ValueNetwork::zeroed();
        assert_eq!(Evaluator::score(&net, &board), -2.0);
        net.adjust(&Active::of(&board), 0.25);
        let value = net.value(&board);
        assert!(value > 0.0);
        let learned = AnyEvaluator::learned(Arc::new(net));
        assert_eq!(learned.score(&board), -(2.0 + value));
        assert_eq!(learned.interim_cost(&board), 2.0);
        let features = AnyEvaluator::from(&Weights::PUBLISHED);
        assert_eq!(
            features.score(&board),
            WeightedFeatures::new(&Weights::PUBLISHED).score(&board)
        );
    }

    #[test]
    fn files_that_are_neither_kind_are_clear_errors() {
        let dir = std::env::temp_dir().join(format!("mj-eval-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let cases: [(&str, &[u8], &str); 4] = [
            (
                "binary.bin",
                &[0x89, 0x50, 0x4e, 0x47, 0xff, 0x00],
                "neither",
            ),
            ("text.txt", b"adjacent = 1", "neither"),
            ("broken.json", b"{\"adjacent\": [1, 2]", "not valid"),
            ("short.jwl", b"JWLVALUE\x01", "value file"),
        ];
        for (name, bytes, expected) in cases {
            let path = dir.join(name);
            std::fs::write(&path, bytes).unwrap();
            let message = load_evaluator(&path).unwrap_err().to_string();
            assert!(message.contains(expected), "{name}: {message}");
            assert!(message.contains(name), "{name}: {message}");
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn each_rule_set_has_its_default_evaluation() {
        let board = Board::from_text("12....\n21.3..").unwrap();
        let real = AnyEvaluator::default();
        assert_eq!(
            real.score(&board),
            AnyEvaluator::for_rules(RuleSet::Real).score(&board)
        );
        let reference = AnyEvaluator::for_rules(RuleSet::Reference);
        assert_eq!(
            reference.score(&board),
            Evaluator::score(ValueNetwork::trained().as_ref(), &board)
        );
        assert_ne!(real.score(&board), reference.score(&board));
    }
}
