//! What every search plays with besides its own state: what it scores boards with, the rules it
//! plays by, and the placements its last decision ranked. Each strategy keeps a [`Seat`] and
//! shows it through [`Strategy::seat`](super::Strategy::seat), from which the trait answers
//! `rules`, `evaluator` and `ranking` for all of them.

use super::{Choice, Ranking};
use crate::engine::eval::Evaluator;
use crate::engine::rules::RuleSet;

/// A strategy's evaluator, rules and ranking.
#[derive(Debug, Clone)]
pub struct Seat<E> {
    pub evaluator: E,
    pub rules: RuleSet,
    /// First placements by the score the strategy ranks them with, best first.
    pub ranking: Ranking,
}

impl<E> Seat<E> {
    /// Under the real game's rules, nothing ranked yet.
    pub fn new(evaluator: E) -> Self {
        Self {
            evaluator,
            rules: RuleSet::Real,
            ranking: Ranking::default(),
        }
    }
}

impl<E: Evaluator> Seat<E> {
    pub fn view(&self) -> SeatView<'_> {
        SeatView {
            evaluator: &self.evaluator,
            rules: self.rules,
            ranking: self.ranking.as_slice(),
        }
    }
}

/// A [`Seat`] as the trait reads it, whatever the evaluator's type.
#[derive(Clone, Copy)]
pub struct SeatView<'a> {
    pub evaluator: &'a dyn Evaluator,
    pub rules: RuleSet,
    pub ranking: &'a [Choice],
}
