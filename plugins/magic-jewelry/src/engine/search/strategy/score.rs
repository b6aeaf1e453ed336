//! `score`: the search of the score objective. Current column then next column, as `smart`,
//! but each path carries the game's counters ([`Counters::count`]), so every lock scores with
//! the combo counter it really has, and a lock that brings the wild column is followed by the
//! wild column rather than the next column shown. Leaves are valued by a [`ScoreEvaluator`].

use super::{for_each_result, Choice, Seat, SeatView, Strategy, LOSS};
use crate::engine::eval::score::{ScoreEvaluator, ScoreWeights};
use crate::engine::eval::{AnyEvaluator, Evaluator};
use crate::engine::rules::board::{Board, Column};
use crate::engine::rules::{Counters, RuleSet};
use crate::engine::search::input::{FallState, InputModel};
use crate::engine::search::placement::reachable;
use crate::engine::search::question::Question;

/// Plays for points.
#[derive(Debug, Clone)]
pub struct Scoring<E = AnyEvaluator> {
    seat: Seat<ScoreEvaluator<E>>,
}

impl<E: Evaluator> Scoring<E> {
    /// Under the real game's rules, with `survival` valuing boards.
    pub fn new(survival: E, weights: ScoreWeights) -> Self {
        Self {
            seat: Seat::new(ScoreEvaluator::new(survival, weights)),
        }
    }

    /// The best value of placing `column` on `board` with `counters`, `points` scored on the
    /// way, as the last column of a path (`LOSS` when every placement loses).
    fn best_last(
        &self,
        board: &Board,
        column: Column,
        counters: &Counters,
        points: u64,
        start: FallState,
        input: InputModel,
    ) -> f64 {
        let rules = self.seat.rules;
        let placements = reachable(board, start, input);
        let mut best = LOSS;
        for_each_result(rules, board, column, &placements, |p, after, outcome| {
            if outcome.game_over {
                return;
            }
            let mut c = *counters;
            let r = c.count(rules, outcome, p.y, column.is_wild());
            let value = self
                .seat
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

    fn set_rules(&mut self, rules: RuleSet) {
        self.seat.rules = rules;
    }

    /// Boards are valued for safety by the survival evaluator.
    fn seat(&self) -> SeatView<'_> {
        SeatView {
            evaluator: &self.seat.evaluator.survival,
            rules: self.seat.rules,
            ranking: self.seat.ranking.as_slice(),
        }
    }

    fn path_value(&self, board: &Board, counters: &Counters, points: u64, wild_due: bool) -> f64 {
        self.seat
            .evaluator
            .leaf(self.seat.rules, board, counters, points, wild_due)
    }

    fn choose(&mut self, question: &Question) -> Option<Choice> {
        let (board, current, next) = (&question.board, question.current, question.next);
        let (input, at_start) = (question.input, question.counters);
        let placements = question.placements();
        let rules = self.seat.rules;
        let spawn = question.next_spawn(rules);
        let mut ranking = std::mem::take(&mut self.seat.ranking);
        ranking.clear();
        for_each_result(rules, board, current, &placements, |p, after, outcome| {
            let score = if outcome.game_over {
                2.0 * LOSS
            } else {
                let mut counters = at_start;
                let r = counters.count(rules, outcome, p.y, current.is_wild());
                // A lock that brings the wild column: it comes before the next column shown.
                let second = if r.wild_due { Some(Column::WILD) } else { next };
                let own = || {
                    self.seat
                        .evaluator
                        .leaf(rules, after, &counters, r.points, r.wild_due)
                };
                match second {
                    Some(second) => {
                        let value =
                            self.best_last(after, second, &counters, r.points, spawn, input);
                        if value <= LOSS {
                            LOSS + own()
                        } else {
                            value - self.seat.evaluator.survival.interim_cost(after)
                        }
                    }
                    None => own(),
                }
            };
            ranking.offer(Choice::of(p, score));
        });
        self.seat.ranking = ranking;
        self.seat.ranking.as_slice().first().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::score::Objective;
    use crate::engine::rules::LEVEL0_FALL_SPEED;
    use crate::engine::search::strategy::strategy_for;
    use crate::engine::search::strategy::Budget;

    /// Where each objective puts `current` on `text` with the counters at `counters`, and
    /// the points that lock scores.
    fn choices(
        text: &str,
        current: Column,
        next: Column,
        counters: Counters,
    ) -> [(u8, u8, u64); 2] {
        let board = Board::from_text(text).unwrap();
        [Objective::Survive, Objective::Score].map(|objective| {
            let mut s = strategy_for("deep", AnyEvaluator::default(), objective).unwrap();
            s.set_budget(Budget::UNLIMITED);
            let start = FallState::spawn(RuleSet::Real.fall_speed(counters.level));
            let question = Question {
                counters,
                ..Question::new(board, current, Some(next), start, InputModel::FAST)
            };
            let c = s.choose(&question).unwrap();
            let mut after = board;
            let mut counted = counters;
            let r = counted
                .lock(
                    RuleSet::Real,
                    &mut after,
                    current.arranged(c.arrangement),
                    usize::from(c.x),
                )
                .unwrap();
            (c.x, c.arrangement, r.points)
        })
    }

    /// The wild column on the four 4s scores 17 · 190; survival, with a 4 coming next, keeps
    /// the 4s to match and puts it on the lone 6, for 5 · 190.
    #[test]
    fn the_wild_column_lands_on_the_largest_colour() {
        let counters = Counters {
            combo: 9,
            since_wild: 2,
            level: 9,
            ..Counters::default()
        };
        let text = "4..4..\n4641..";
        let [survive, score] = choices(text, Column::WILD, Column::new(1, 4, 2), counters);
        assert_eq!(survive, (1, 0, 951));
        assert_eq!(score.2, 3232, "{score:?}");
    }

    /// 5, 5, 1: survival drops it plainly on column 3 and matches three 5s; the score
    /// objective rotates a 5 to the bottom on column 1 and matches five (1,522 points), which
    /// leaves the next column (3, 2, 1) the 1s to clear. On column 3 the rotation would score
    /// 2,282 at once, but the two columns together score less.
    #[test]
    fn a_bigger_match_over_a_plain_match() {
        let counters = Counters {
            combo: 9,
            since_wild: 5,
            level: 112,
            ..Counters::default()
        };
        let text = "..1...\n..5...\n.535..\n.6551.";
        let [survive, score] = choices(text, Column::new(5, 5, 1), Column::new(3, 2, 1), counters);
        assert_eq!(survive, (3, 0, 572));
        assert_eq!(score, (1, 1, 1522));
    }

    /// Every lock on the path counts with the combo counter it really has, and a lock that
    /// brings the wild column is followed by it.
    #[test]
    fn the_path_counts_the_combo_and_the_wild_column() {
        let scoring = Scoring::new(AnyEvaluator::default(), ScoreWeights::default());
        let board = Board::from_text("..1...\n..1...").unwrap();
        let start = FallState::spawn(LEVEL0_FALL_SPEED);
        let value = |scoring: &Scoring, since_wild| {
            let counters = Counters {
                since_wild,
                ..Counters::default()
            };
            scoring.best_last(
                &board,
                Column::new(2, 3, 1),
                &counters,
                0,
                start,
                InputModel::FAST,
            )
        };
        // 69 cells counted: the match brings the wild column, and the leaf counts where it
        // would land on top of that.
        let plain = value(&scoring, 10);
        let wild = value(&scoring, 69);
        assert!(wild > plain, "{wild} {plain}");
    }
}
