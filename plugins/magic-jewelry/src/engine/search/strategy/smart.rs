//! `smart`: the reference's search, current column then next column, best final board.

use super::{best_static, for_each_result, next_spawn, Choice, Ranking, Strategy, LOSS};
use crate::engine::eval::{AnyEvaluator, Evaluator};
use crate::engine::rules::board::{Board, Column};
use crate::engine::rules::RuleSet;
use crate::engine::search::input::{FallState, InputModel};
use crate::engine::search::placement::reachable;

/// Looks at the current and the next column.
#[derive(Debug, Clone)]
pub struct Smart<E = AnyEvaluator> {
    evaluator: E,
    rules: RuleSet,
    ranking: Ranking,
}

impl<E: Evaluator> Smart<E> {
    /// Under the real game's rules.
    pub fn new(evaluator: E) -> Self {
        Self::for_rules(evaluator, RuleSet::Real)
    }

    pub fn for_rules(evaluator: E, rules: RuleSet) -> Self {
        Self {
            evaluator,
            rules,
            ranking: Ranking::default(),
        }
    }
}

impl<E: Evaluator + Send> Strategy for Smart<E> {
    fn name(&self) -> &'static str {
        "smart"
    }

    fn set_rules(&mut self, rules: RuleSet) {
        self.rules = rules;
    }

    fn ranking(&self) -> &[Choice] {
        self.ranking.as_slice()
    }

    fn rules(&self) -> RuleSet {
        self.rules
    }

    fn evaluator(&self) -> &dyn Evaluator {
        &self.evaluator
    }

    fn choose(
        &mut self,
        board: &Board,
        current: Column,
        next: Option<Column>,
        start: FallState,
        input: InputModel,
    ) -> Option<Choice> {
        let placements = reachable(board, start, input);
        let rules = self.rules;
        let spawn = next_spawn(rules, start, current);
        let evaluator = &self.evaluator;
        let ranking = &mut self.ranking;
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
