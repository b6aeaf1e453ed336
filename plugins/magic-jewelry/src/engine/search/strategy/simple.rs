//! `simple`: the best board after the current column alone.

use super::{for_each_result, Choice, Ranking, Strategy, LOSS};
use crate::engine::eval::{AnyEvaluator, Evaluator};
use crate::engine::rules::board::{Board, Column};
use crate::engine::rules::RuleSet;
use crate::engine::search::input::{FallState, InputModel};
use crate::engine::search::placement::reachable;

/// Looks at the current column only.
#[derive(Debug, Clone)]
pub struct Simple<E = AnyEvaluator> {
    evaluator: E,
    rules: RuleSet,
    ranking: Ranking,
}

impl<E: Evaluator> Simple<E> {
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

impl<E: Evaluator + Send> Strategy for Simple<E> {
    fn name(&self) -> &'static str {
        "simple"
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
        _next: Option<Column>,
        start: FallState,
        input: InputModel,
    ) -> Option<Choice> {
        let placements = reachable(board, start, input);
        let evaluator = &self.evaluator;
        let ranking = &mut self.ranking;
        ranking.clear();
        for_each_result(
            self.rules,
            board,
            current,
            &placements,
            |p, after, outcome| {
                let score = if outcome.game_over {
                    2.0 * LOSS
                } else {
                    evaluator.score(after)
                };
                ranking.offer(Choice::of(p, score));
            },
        );
        ranking.as_slice().first().copied()
    }
}
