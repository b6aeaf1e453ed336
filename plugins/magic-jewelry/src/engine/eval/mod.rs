//! How good a board is: one [`Evaluator`] trait and the evaluators behind it, the weighted
//! features of [`WeightedFeatures`] (with their [`Weights`]) and a learned [`ValueNetwork`].
//! [`AnyEvaluator`] holds whichever the player or a tool was configured with.
//!
//! The middle layer of the engine: it uses [`super::rules`] and nothing from
//! [`super::search`].

pub mod features;
pub mod value;
pub mod weights;

pub use features::{features, WeightedFeatures};
pub use value::{ValueFileError, ValueNetwork};
pub use weights::{Weights, WeightsError};

use crate::engine::rules::Board;
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
    pub fn features(weights: &Weights) -> Self {
        Self::Features(WeightedFeatures::new(weights))
    }

    pub fn learned(network: Arc<ValueNetwork>) -> Self {
        Self::Learned(network)
    }
}

/// What the player scores boards with unless told otherwise: the committed learned value.
impl Default for AnyEvaluator {
    fn default() -> Self {
        Self::learned(ValueNetwork::trained())
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
    #[error("cannot read evaluation file {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("evaluation file {path}: {source}")]
    Value {
        path: String,
        source: ValueFileError,
    },
    #[error(transparent)]
    Weights(#[from] WeightsError),
}

/// Reads an evaluation file: a learned value file, or weights as JSON. Returns the evaluator
/// and, for weights, the weights themselves.
pub fn load_evaluator(path: &Path) -> Result<(AnyEvaluator, Option<Weights>), EvaluationFileError> {
    let bytes = std::fs::read(path).map_err(|source| EvaluationFileError::Read {
        path: path.display().to_string(),
        source,
    })?;
    if ValueNetwork::is_value_file(&bytes) {
        let network =
            ValueNetwork::from_bytes(&bytes).map_err(|source| EvaluationFileError::Value {
                path: path.display().to_string(),
                source,
            })?;
        return Ok((AnyEvaluator::learned(Arc::new(network)), None));
    }
    let weights = Weights::load(path)?;
    Ok((AnyEvaluator::from(&weights), Some(weights)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::value::Active;

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
}
