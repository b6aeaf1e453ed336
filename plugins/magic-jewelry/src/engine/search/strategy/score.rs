//! `score`: the search of the score objective. Current column then next column, as `smart`,
//! but each path carries the game's counters ([`Counters::count`]), so every lock scores with
//! the combo counter it really has, and a lock that brings the wild column is followed by the
//! wild column rather than the next column shown. Leaves are valued by a [`ScoreEvaluator`].

use super::{for_each_result, next_spawn, Choice, Ranking, Situation, Strategy, LOSS};
use crate::engine::eval::score::{ScoreEvaluator, ScoreWeights};
use crate::engine::eval::{AnyEvaluator, Evaluator};
use crate::engine::rules::board::{Board, Column};
use crate::engine::rules::{Counters, RuleSet};
use crate::engine::search::input::{FallState, InputModel};
use crate::engine::search::placement::reachable;

/// Plays for points.
#[derive(Debug, Clone)]
pub struct Scoring<E = AnyEvaluator> {
    evaluator: ScoreEvaluator<E>,
    rules: RuleSet,
    counters: Counters,
    ranking: Ranking,
}

impl<E: Evaluator> Scoring<E> {
    /// Under the real game's rules, with `survival` valuing boards.
    pub fn new(survival: E, weights: ScoreWeights) -> Self {
        Self {
            evaluator: ScoreEvaluator::new(survival, weights),
            rules: RuleSet::Real,
            counters: Counters::default(),
            ranking: Ranking::default(),
        }
    }

    /// The best value of placing `column` on `board` with `counters`, `points` scored on the
    /// way, as the last column of a path (`LOSS` when every placement loses).
    #[allow(clippy::too_many_arguments)]
    fn best_last(
        &self,
        board: &Board,
        column: Column,
        counters: &Counters,
        points: u64,
        start: FallState,
        input: InputModel,
    ) -> f64 {
        let rules = self.rules;
        let placements = reachable(board, start, input);
        let mut best = LOSS;
        for_each_result(rules, board, column, &placements, |p, after, outcome| {
            if outcome.game_over {
                return;
            }
            let mut c = *counters;
            let r = c.count(rules, outcome, p.y, column.is_wild());
            let value = self
                .evaluator
                .leaf(rules, after, &c, points + r.points, r.wild_due);
            best = best.max(value);
        });
        best
    }
}

impl<E: Evaluator + Send> Strategy for Scoring<E> {
    fn name(&self) -> &'static str {
        "score"
    }

    fn observe(&mut self, situation: &Situation) {
        self.counters = situation.counters;
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
        &self.evaluator.survival
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
        let mut ranking = std::mem::take(&mut self.ranking);
        ranking.clear();
        for_each_result(rules, board, current, &placements, |p, after, outcome| {
            let score = if outcome.game_over {
                2.0 * LOSS
            } else {
                let mut counters = self.counters;
                let r = counters.count(rules, outcome, p.y, current.is_wild());
                // A lock that brings the wild column: it comes before the next column shown.
                let second = if r.wild_due { Some(Column::WILD) } else { next };
                let own = || {
                    self.evaluator
                        .leaf(rules, after, &counters, r.points, r.wild_due)
                };
                match second {
                    Some(second) => {
                        let value =
                            self.best_last(after, second, &counters, r.points, spawn, input);
                        if value <= LOSS {
                            LOSS + own()
                        } else {
                            value - self.evaluator.survival.interim_cost(after)
                        }
                    }
                    None => own(),
                }
            };
            ranking.offer(Choice {
                x: p.x,
                arrangement: p.arrangement,
                y: p.y,
                score,
            });
        });
        self.ranking = ranking;
        self.ranking.as_slice().first().copied()
    }
}
