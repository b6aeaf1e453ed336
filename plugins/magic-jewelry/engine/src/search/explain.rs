//! Why a placement won: the choice against the runner-up, in what each lock removes and in the
//! board feature that separates their boards most.

use super::strategy::{Choice, Decision};
use crate::eval::features::{features, SIGNS};
use crate::eval::weights::{Weights, FEATURE_COUNT, WEIGHT_COUNT, WEIGHT_NAMES};
use crate::rules::board::{Board, Column};
use crate::rules::resolve::LockOutcome;
use crate::rules::RuleSet;
use std::fmt;
use std::sync::OnceLock;

/// A placement with what its lock does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weighed {
    pub choice: Choice,
    /// The column's jewels as placed, top to bottom.
    pub jewels: Column,
    pub outcome: LockOutcome,
    pub board: Board,
}

/// The choice, the runner-up and what separates them.
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation {
    pub chosen: Weighed,
    pub runner_up: Option<Weighed>,
    /// The feature whose weighted difference favours the chosen board most (by the committed
    /// trained weights, [`Weights::trained`], which weigh every feature with its sign), with
    /// that difference.
    pub deciding_feature: Option<(&'static str, f64)>,
}

impl Explanation {
    /// Explains `decision`, made for `current` on `board` under `rules`. `None` when the
    /// chosen placement cannot lock (it always can when the decision came from a strategy).
    pub fn of(rules: RuleSet, board: &Board, current: Column, decision: &Decision) -> Option<Self> {
        let weigh = |choice: &Choice| -> Option<Weighed> {
            let jewels = current.arranged(choice.arrangement);
            let mut after = *board;
            let outcome = rules.lock(&mut after, jewels, usize::from(choice.x)).ok()?;
            Some(Weighed {
                choice: *choice,
                jewels,
                outcome,
                board: after,
            })
        };
        let chosen = weigh(decision.candidates.first()?)?;
        let runner_up = decision.candidates.get(1).and_then(weigh);
        let deciding_feature = runner_up.and_then(|runner_up| {
            deciding_feature(
                &features(&chosen.board, rules),
                &features(&runner_up.board, rules),
            )
        });
        Some(Self {
            chosen,
            runner_up,
            deciding_feature,
        })
    }
}

impl Explanation {
    /// A few words for a status line: what the lock removes, the margin over the runner-up and
    /// the deciding feature, e.g. `removes 3, +11.523 over x3, jewels`.
    pub fn short(&self) -> String {
        let mut text = match self.chosen.outcome.removed {
            0 => "removes nothing".to_owned(),
            n => format!("removes {n}"),
        };
        if let Some(runner_up) = &self.runner_up {
            let margin = self.chosen.choice.score - runner_up.choice.score;
            text += &format!(", {margin:+.3} over x{}", runner_up.choice.x);
        }
        if let Some((name, _)) = self.deciding_feature {
            text += &format!(", {name}");
        }
        text
    }
}

/// The feature with the largest weighted difference in favour of `chosen`, if any favours it.
fn deciding_feature(
    chosen: &[f64; FEATURE_COUNT],
    runner_up: &[f64; FEATURE_COUNT],
) -> Option<(&'static str, f64)> {
    // Parsed once: an explanation is made at every decision.
    static WEIGHTS: OnceLock<[f64; WEIGHT_COUNT]> = OnceLock::new();
    let weights = WEIGHTS.get_or_init(|| Weights::trained().to_vector());
    (0..FEATURE_COUNT)
        .map(|i| (i, SIGNS[i] * weights[i] * (chosen[i] - runner_up[i])))
        .filter(|&(_, gain)| gain > 1e-12)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, gain)| (WEIGHT_NAMES[i], gain))
}

impl fmt::Display for Weighed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [top, middle, bottom] = self.jewels.0;
        write!(
            f,
            "x{} row {} [{top}{middle}{bottom}]",
            self.choice.x, self.choice.y
        )?;
        match self.outcome.chains {
            0 => write!(f, " removes nothing"),
            1 => write!(f, " removes {}", self.outcome.removed),
            chains => write!(
                f,
                " removes {} in a chain of {chains}",
                self.outcome.removed
            ),
        }?;
        if self.outcome.game_over {
            write!(f, " and loses")?;
        }
        Ok(())
    }
}

impl fmt::Display for Explanation {
    /// One line: the choice, then against the runner-up, the score margin and the feature.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.chosen)?;
        let Some(runner_up) = &self.runner_up else {
            return write!(f, "; the only placement weighed");
        };
        let margin = self.chosen.choice.score - runner_up.choice.score;
        if margin >= 0.0 {
            write!(f, "; {margin:.3} over {runner_up}")?;
        } else {
            // `deep` ranks by current + next, then its look-ahead may prefer another.
            write!(
                f,
                "; the look-ahead preferred it to {runner_up}, {:.3} ahead before it",
                -margin
            )?;
        }
        match self.deciding_feature {
            Some((name, gain)) => write!(f, "; mostly {name} (+{gain:.3})"),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::LEVEL0_FALL_SPEED;
    use crate::search::{strategy_by_name, Budget, FallState, InputModel, Question};

    /// Two reds in column 2: a red on top of them clears three.
    const BOARD: &str = "..1...\n..1...";

    fn decision(name: &str) -> (Board, Decision) {
        let board = Board::from_text(BOARD).expect("a board");
        let mut strategy = strategy_by_name(name, &Weights::PUBLISHED).expect("a strategy");
        strategy.set_budget(Budget::UNLIMITED);
        let decision = strategy
            .decide(&Question::new(
                board,
                Column::new(2, 3, 1),
                Some(Column::new(4, 4, 5)),
                FallState::spawn(LEVEL0_FALL_SPEED),
                InputModel::FAST,
            ))
            .expect("the column can move");
        (board, decision)
    }

    #[test]
    fn the_clearing_placement_is_explained_against_the_runner_up() {
        let (board, decision) = decision("smart");
        assert!(decision.candidates.len() >= 2, "{:?}", decision.candidates);
        assert_eq!(
            (decision.candidates[0].x, decision.candidates[0].arrangement),
            (decision.x, decision.arrangement)
        );
        let scores: Vec<f64> = decision.candidates.iter().map(|c| c.score).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
        let why = Explanation::of(RuleSet::Real, &board, Column::new(2, 3, 1), &decision)
            .expect("an explanation");
        assert_eq!(why.chosen.outcome.removed, 3, "{why}");
        let runner_up = why.runner_up.expect("a runner-up");
        assert_ne!(
            (runner_up.choice.x, runner_up.choice.arrangement),
            (decision.x, decision.arrangement)
        );
        let text = why.to_string();
        assert!(text.starts_with("x2 row "), "{text}");
        assert!(text.contains("removes 3"), "{text}");
        assert!(text.contains(" over x"), "{text}");
        assert!(text.contains("mostly "), "{text}");
        let short = why.short();
        assert!(short.starts_with("removes 3, +"), "{short}");
        assert!(short.len() < 50, "{short}");
    }

    #[test]
    fn every_strategy_names_its_candidates_and_the_next_plan() {
        for name in ["simple", "smart", "deep"] {
            let (board, decision) = decision(name);
            assert!(decision.candidates.len() >= 2, "{name}");
            assert!(decision.candidates.len() <= crate::search::RANKED);
            let next = decision.next.expect("the next column has a place");
            assert!(next.x < 6, "{name}: {next:?}");
            assert!(
                Explanation::of(RuleSet::Real, &board, Column::new(2, 3, 1), &decision).is_some()
            );
        }
    }

    #[test]
    fn the_deciding_feature_is_the_largest_weighted_gain() {
        let mut chosen = [0.0; FEATURE_COUNT];
        let runner_up = [0.0; FEATURE_COUNT];
        // A jewel fewer by a hair (a cost less) and many more touching pairs (a gain).
        chosen[5] = -1e-6;
        chosen[0] = 0.5;
        let (name, gain) = deciding_feature(&chosen, &runner_up).expect("a feature");
        assert_eq!(name, "adjacent0");
        assert!(gain > 0.0);
        assert_eq!(deciding_feature(&runner_up, &runner_up), None);
    }
}
