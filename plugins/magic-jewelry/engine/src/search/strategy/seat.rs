//! What every search plays with besides its own state: the goal it values paths with, the rules
//! it plays by, and the placements its last decision ranked. Each strategy keeps a [`Seat`] and
//! shows it through [`Strategy::seat`](super::Strategy::seat).

use super::{Choice, Ranking};
use crate::eval::Goal;
use crate::rules::RuleSet;

/// A strategy's goal, rules and ranking.
#[derive(Debug, Clone)]
pub struct Seat<G> {
    pub goal: G,
    pub rules: RuleSet,
    /// First placements by the score the strategy ranks them with, best first.
    pub ranking: Ranking,
}

impl<G> Seat<G> {
    /// Under the real game's rules, nothing ranked yet.
    pub fn new(goal: G) -> Self {
        Self {
            goal,
            rules: RuleSet::Real,
            ranking: Ranking::default(),
        }
    }
}

impl<G: Goal> Seat<G> {
    pub fn view(&self) -> SeatView<'_> {
        SeatView {
            goal: &self.goal,
            rules: self.rules,
            ranking: self.ranking.as_slice(),
        }
    }
}

/// A [`Seat`] as the trait reads it, whatever the goal's type.
#[derive(Clone, Copy)]
pub struct SeatView<'a> {
    pub goal: &'a dyn Goal,
    pub rules: RuleSet,
    pub ranking: &'a [Choice],
}
