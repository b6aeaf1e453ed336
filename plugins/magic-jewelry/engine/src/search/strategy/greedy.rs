//! `simple` and `smart`: every placement of the current column valued by the path it starts,
//! alone (`simple`) or with the best placement of the next column after it (`smart`, the
//! reference's search; when the current column's lock brings the wild column and the goal
//! counts locks, the wild column is the one that comes next).

use super::LOSS;
use super::{best_last, column_after, count, for_each_result, Choice, Seat, SeatView, Strategy};
use crate::eval::{AnyEvaluator, Goal, Tally};
use crate::rules::RuleSet;
use crate::search::question::Question;

/// The best path, one column deep (`simple`) or two (`smart`).
#[derive(Debug, Clone)]
pub struct Greedy<G = AnyEvaluator> {
    seat: Seat<G>,
    /// Looks at the next column too.
    two_columns: bool,
}

impl<G: Goal> Greedy<G> {
    /// `simple`: the current column alone, under the real game's rules.
    pub fn simple(goal: G) -> Self {
        Self::new(goal, false)
    }

    /// `smart`: the current column, then the next, under the real game's rules.
    pub fn smart(goal: G) -> Self {
        Self::new(goal, true)
    }

    fn new(goal: G, two_columns: bool) -> Self {
        Self {
            seat: Seat::new(goal),
            two_columns,
        }
    }

    /// Under `rules` instead.
    pub fn with_rules(mut self, rules: RuleSet) -> Self {
        self.seat.rules = rules;
        self
    }
}

impl<G: Goal> Strategy for Greedy<G> {
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
        let placements = question.placements();
        let rules = self.seat.rules;
        let spawn = question.next_spawn(rules);
        let at_start = Tally::start(question.counters);
        let two_columns = self.two_columns;
        let goal = &self.seat.goal;
        let ranking = &mut self.seat.ranking;
        ranking.clear();
        for_each_result(rules, board, current, &placements, |p, after, outcome| {
            let score = if outcome.game_over {
                2.0 * LOSS
            } else {
                let tally = count(goal, rules, &at_start, outcome, p.y, current);
                let second = column_after(&tally, question.next).filter(|_| two_columns);
                match second {
                    Some(second) => {
                        let value = best_last(rules, goal, after, second, &tally, spawn, input);
                        if value <= LOSS {
                            // The next column loses everywhere: still prefer the better board.
                            LOSS + goal.value(rules, after, &tally)
                        } else {
                            value - goal.interim(after)
                        }
                    }
                    None => goal.value(rules, after, &tally),
                }
            };
            ranking.offer(Choice::of(p, score));
        });
        ranking.as_slice().first().copied()
    }
}
