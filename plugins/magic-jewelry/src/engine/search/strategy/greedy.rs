//! `simple` and `smart`: every placement of the current column scored by the board it leaves,
//! alone (`simple`) or with the best placement of the next column on it (`smart`, the
//! reference's search).

use super::{best_static, for_each_result, Choice, Seat, SeatView, Strategy, LOSS};
use crate::engine::eval::{AnyEvaluator, Evaluator};
use crate::engine::rules::RuleSet;
use crate::engine::search::question::Question;

/// The best board, one column deep (`simple`) or two (`smart`).
#[derive(Debug, Clone)]
pub struct Greedy<E = AnyEvaluator> {
    seat: Seat<E>,
    /// Looks at the next column too.
    two_columns: bool,
}

impl<E: Evaluator> Greedy<E> {
    /// `simple`: the current column alone, under the real game's rules.
    pub fn simple(evaluator: E) -> Self {
        Self::new(evaluator, false)
    }

    /// `smart`: the current column, then the next, under the real game's rules.
    pub fn smart(evaluator: E) -> Self {
        Self::new(evaluator, true)
    }

    fn new(evaluator: E, two_columns: bool) -> Self {
        Self {
            seat: Seat::new(evaluator),
            two_columns,
        }
    }

    /// Under `rules` instead.
    pub fn with_rules(mut self, rules: RuleSet) -> Self {
        self.seat.rules = rules;
        self
    }
}

impl<E: Evaluator + Send> Strategy for Greedy<E> {
    fn name(&self) -> &'static str {
        if self.two_columns {
            "smart"
        } else {
            "simple"
        }
    }

    fn set_rules(&mut self, rules: RuleSet) {
        self.seat.rules = rules;
    }

    fn seat(&self) -> SeatView<'_> {
        self.seat.view()
    }

    fn choose(&mut self, question: &Question) -> Option<Choice> {
        let (board, current, input) = (&question.board, question.current, question.input);
        let next = question.next.filter(|_| self.two_columns);
        let placements = question.placements();
        let rules = self.seat.rules;
        let spawn = question.next_spawn(rules);
        let evaluator = &self.seat.evaluator;
        let ranking = &mut self.seat.ranking;
        ranking.clear();
        for_each_result(rules, board, current, &placements, |p, after, outcome| {
            let score = if outcome.game_over {
                2.0 * LOSS
            } else {
                match next {
                    Some(next) => {
                        let second = best_static(rules, evaluator, after, next, spawn, input);
                        if second <= LOSS {
                            // The next column loses everywhere: still prefer the better board.
                            LOSS + evaluator.score(after)
                        } else {
                            second - evaluator.interim_cost(after)
                        }
                    }
                    None => evaluator.score(after),
                }
            };
            ranking.offer(Choice::of(p, score));
        });
        ranking.as_slice().first().copied()
    }
}
