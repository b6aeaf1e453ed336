//! What a strategy scores boards with: the weighted features of [`Evaluator`] or a learned
//! [`ValueNetwork`]. Both say how good a board at the end of a search is, and what the boards
//! the search passes through on the way cost.

use super::board::Board;
use super::eval::Evaluator;
use super::value::ValueNetwork;
use super::weights::Weights;
use std::sync::Arc;

/// Scores boards for a search.
pub trait Evaluate {
    /// Higher is better.
    fn score(&self, board: &Board) -> f64;

    /// What holding `board` for one column on the way costs (subtracted from the score).
    fn interim_cost(&self, board: &Board) -> f64;
}

impl Evaluate for Evaluator {
    #[inline]
    fn score(&self, board: &Board) -> f64 {
        Evaluator::score(self, board)
    }

    #[inline]
    fn interim_cost(&self, board: &Board) -> f64 {
        Evaluator::interim_cost(self, board)
    }
}

/// A learned value counts jewels: the board's own plus those it expects to come.
impl Evaluate for ValueNetwork {
    #[inline]
    fn score(&self, board: &Board) -> f64 {
        -(f64::from(board.jewels()) + self.value(board))
    }

    #[inline]
    fn interim_cost(&self, board: &Board) -> f64 {
        f64::from(board.jewels())
    }
}

impl<E: Evaluate + ?Sized> Evaluate for &E {
    #[inline]
    fn score(&self, board: &Board) -> f64 {
        (**self).score(board)
    }

    #[inline]
    fn interim_cost(&self, board: &Board) -> f64 {
        (**self).interim_cost(board)
    }
}

/// The evaluation a strategy is built with.
#[derive(Debug, Clone)]
pub enum Evaluation {
    /// Weighted features.
    Features(Evaluator),
    /// A learned value, shared between strategies.
    Learned(Arc<ValueNetwork>),
}

impl Evaluation {
    pub fn features(weights: &Weights) -> Self {
        Self::Features(Evaluator::new(weights))
    }

    pub fn learned(network: Arc<ValueNetwork>) -> Self {
        Self::Learned(network)
    }
}

/// What the player scores boards with unless told otherwise: the committed learned value.
impl Default for Evaluation {
    fn default() -> Self {
        Self::learned(ValueNetwork::trained())
    }
}

impl From<&Weights> for Evaluation {
    fn from(weights: &Weights) -> Self {
        Self::features(weights)
    }
}

impl Evaluate for Evaluation {
    #[inline]
    fn score(&self, board: &Board) -> f64 {
        match self {
            Self::Features(e) => e.score(board),
            Self::Learned(net) => Evaluate::score(net.as_ref(), board),
        }
    }

    #[inline]
    fn interim_cost(&self, board: &Board) -> f64 {
        match self {
            Self::Features(e) => e.interim_cost(board),
            Self::Learned(net) => Evaluate::interim_cost(net.as_ref(), board),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::value::Active;

    #[test]
    fn learned_scores_count_jewels_and_value() {
        let board = Board::from_text("11....").unwrap();
        let mut net = ValueNetwork::zeroed();
        assert_eq!(Evaluate::score(&net, &board), -2.0);
        net.adjust(&Active::of(&board), 0.25);
        let value = net.value(&board);
        assert!(value > 0.0);
        let learned = Evaluation::learned(Arc::new(net));
        assert_eq!(learned.score(&board), -(2.0 + value));
        assert_eq!(learned.interim_cost(&board), 2.0);
        let features = Evaluation::from(&Weights::PUBLISHED);
        assert_eq!(
            features.score(&board),
            Evaluator::new(&Weights::PUBLISHED).score(&board)
        );
    }
}
