//! The player, described once. A [`PlayerSpec`] is everything that decides how the player
//! plays, apart from the game in front of it: the strategy, the objective, what it scores boards
//! with, foresight and how far it looks, the budget of a decision, the rules and how it presses.
//! [`knobs`] declares each setting once (name, default, range, help), and the plug-in's options
//! and the lab's flags are both made from that table; [`PlayerSpec::build`] is the one place a
//! player's search is put together, for the plug-in and every tool of the lab alike.
//!
//! ```
//! use magic_jewelry_engine::player::{knob, PlayerSpec};
//!
//! let mut spec = PlayerSpec::default();
//! knob("objective").expect("declared").apply(&mut spec, "score").expect("a known objective");
//! assert_eq!(spec.objective.name(), "score");
//! // With no budget given, a player whose caller waits for it scores at most 3,000 boards a
//! // decision, so that a run repeats exactly on any machine.
//! assert_eq!(spec.budget().work, Some(3000));
//! let strategy = spec.build();
//! assert_eq!(strategy.name(), "deep");
//! ```

pub mod evaluation;
pub mod knobs;
mod named;

pub use evaluation::{Evaluation, EvaluationSource, BUILT_IN};
pub use knobs::{knob, Change, Knob, Offered, Values, KNOBS};
pub use named::{check_name, NamedPlayer, PLAYER, REFERENCE};

use crate::eval::{Evaluator, Objective};
use crate::rules::RuleSet;
use crate::search::parameters::FORESIGHT_TIME;
use crate::search::{Budget, Foresight, ForesightConfig, InputModel, Strategy, StrategySpec};
use serde::Serialize;
use std::time::Duration;

/// How the caller of a player waits for its decisions, which decides the budget when none is
/// given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Timing {
    /// The caller waits for every decision (headless runs in lockstep, the lab, the proofs):
    /// a work budget, so that the same game is played however loaded the machine is.
    #[default]
    Waits,
    /// The game goes on while the player thinks (the window): a time budget, so that it keeps
    /// up.
    RealTime,
}

/// Everything that decides how the player plays.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerSpec {
    /// The search.
    pub strategy: StrategySpec,
    /// What it plays for.
    pub objective: Objective,
    /// What it scores boards with.
    pub evaluation: Evaluation,
    /// Whether its questions carry the column generator, so that it searches the columns to
    /// come; off, it sees what a person sees.
    pub foresight: bool,
    /// How far and how wide foresight searches (its time limit is the engine's, and counts only
    /// while the budget has one).
    pub lookahead: ForesightConfig,
    /// Boards one decision may score, when given (`Some(0)`: no limit).
    pub work: Option<u64>,
    /// The microseconds one decision may take, when given (`Some(0)`: no limit).
    pub time_budget: Option<u64>,
    /// How its caller waits for it: the budget when none is given.
    pub timing: Timing,
    /// The rules it plays by.
    pub rules: RuleSet,
    /// How it presses buttons.
    pub input: InputModel,
}

impl Default for PlayerSpec {
    /// The player as it ships: `deep` with the built-in evaluation, playing to survive, fair
    /// play (foresight off), the default budget, the real game's rules, in fast mode.
    fn default() -> Self {
        Self {
            strategy: StrategySpec::default(),
            objective: Objective::Survive,
            evaluation: Evaluation::BuiltIn,
            foresight: false,
            lookahead: ForesightConfig::default(),
            work: None,
            time_budget: None,
            timing: Timing::Waits,
            rules: RuleSet::Real,
            input: InputModel::FAST,
        }
    }
}

impl PlayerSpec {
    /// The limit of one decision: the work and the time given (0: none), or, with neither
    /// given, the default, said here once: [`Budget::LOCKSTEP`] when the caller waits for the
    /// decision, so that a run repeats exactly however loaded the machine is, and
    /// [`Budget::PLAYER`] in real time, so that it keeps up. A work limit alone drops the time
    /// limit.
    pub fn budget(&self) -> Budget {
        let given = |limit: Option<u64>| limit.filter(|&n| n > 0);
        match (self.work, self.time_budget) {
            (None, None) => match self.timing {
                Timing::Waits => Budget::LOCKSTEP,
                Timing::RealTime => Budget::PLAYER,
            },
            (work, time) => Budget {
                time: given(time).map(Duration::from_micros),
                work: given(work),
            },
        }
    }

    /// Which budget plays, in words, and where it came from.
    pub fn budget_description(&self) -> String {
        let limits = self.budget().to_string();
        match (self.work, self.time_budget) {
            (None, None) => {
                let timing = match self.timing {
                    Timing::Waits => "lockstep pacing's default",
                    Timing::RealTime => "real-time pacing's default",
                };
                format!("{limits} ({timing})")
            }
            _ => format!("{limits} (given)"),
        }
    }

    /// Sets the budget to `budget` exactly (no default applies).
    pub fn set_budget(&mut self, budget: Budget) {
        self.work = Some(budget.work.unwrap_or(0));
        self.time_budget = Some(budget.time.map_or(0, |t| t.as_micros() as u64));
    }

    /// The budget given as `budget`: this description with it.
    #[must_use]
    pub fn with_budget(mut self, budget: Budget) -> Self {
        self.set_budget(budget);
        self
    }

    /// The foresight search's settings, with the engine's time limit (which counts only while
    /// the budget has a time limit).
    pub fn foresight_config(&self) -> ForesightConfig {
        ForesightConfig {
            time: Some(FORESIGHT_TIME),
            ..self.lookahead
        }
    }

    /// The player this describes: the strategy, playing for the objective with the evaluation
    /// under the rules, inside [`Foresight`] when foresight is on, with the budget. A strategy
    /// without foresight ignores the generator a question may carry.
    pub fn build(&self) -> Box<dyn Strategy> {
        self.build_with(self.evaluation.evaluator(self.rules))
    }

    /// The player this describes, inside [`Foresight`] whether foresight is on or off, for a
    /// caller whose questions carry the generator only while it is on and who switches it as
    /// the game goes (the plug-in): [`Foresight`] plays fair on a question without one, so the
    /// choices are [`PlayerSpec::build`]'s.
    pub fn build_switchable(&self) -> Box<dyn Strategy> {
        Self {
            foresight: true,
            ..self.clone()
        }
        .build()
    }

    /// [`PlayerSpec::build`] scoring boards with `evaluation` instead (a wrapper that counts
    /// them, say).
    pub fn build_with<E: Evaluator + Send + Sync + 'static>(
        &self,
        evaluation: E,
    ) -> Box<dyn Strategy> {
        let fair = self.strategy.build(evaluation, self.objective);
        let mut player: Box<dyn Strategy> = if self.foresight {
            Box::new(Foresight::new(fair, self.foresight_config()))
        } else {
            fair
        };
        player.set_budget(self.budget());
        player.set_rules(self.rules);
        player
    }

    /// What this player is, as results files keep it beside the player's fingerprint.
    pub fn description(&self) -> Description {
        let budget = self.budget();
        Description {
            strategy: self.strategy.to_string(),
            objective: self.objective,
            evaluation: self.evaluation.source(self.rules).to_string(),
            foresight: self.foresight.then_some(self.lookahead),
            work: budget.work,
            time_budget_us: budget.time.map(|t| t.as_micros() as u64),
            rules: self.rules,
            tap_interval: self.input.interval(),
            soft_drop: self.input.soft_drop,
        }
    }
}

/// A player as files and reports describe it: its settings, in words and numbers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Description {
    pub strategy: String,
    pub objective: Objective,
    pub evaluation: String,
    /// How far foresight looks (`None`: fair play).
    pub foresight: Option<ForesightConfig>,
    /// The budget of a decision (`None`: no limit of that kind).
    pub work: Option<u64>,
    pub time_budget_us: Option<u64>,
    pub rules: RuleSet,
    pub tap_interval: u8,
    pub soft_drop: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Game;
    use crate::search::Question;

    /// The choices of a player over the first `columns` columns of a seeded real game.
    fn choices(spec: &PlayerSpec, columns: usize) -> Vec<(u8, u8)> {
        let mut strategy = spec.build();
        let mut game = Game::new(spec.rules, 7);
        (0..columns)
            .map(|_| {
                let question = Question::at_spawn(&game, spec.input, spec.foresight);
                let choice = strategy.choose(&question).expect("a placement");
                game.play(Some((choice.x, choice.arrangement)));
                (choice.x, choice.arrangement)
            })
            .collect()
    }

    #[test]
    fn the_default_budget_follows_the_timing_and_a_given_one_wins() {
        let mut spec = PlayerSpec::default();
        assert_eq!(spec.budget(), Budget::LOCKSTEP);
        spec.timing = Timing::RealTime;
        assert_eq!(spec.budget(), Budget::PLAYER);
        spec.work = Some(500);
        assert_eq!(spec.budget(), Budget::work(Some(500)));
        spec.work = Some(0);
        assert_eq!(spec.budget(), Budget::UNLIMITED);
        assert_eq!(spec.with_budget(Budget::PLAYER).budget(), Budget::PLAYER);
    }

    #[test]
    fn the_built_player_takes_every_setting() {
        let spec = PlayerSpec {
            strategy: "deep:2:4".parse().expect("a strategy"),
            work: Some(1234),
            ..PlayerSpec::default()
        };
        let strategy = spec.build();
        assert_eq!(strategy.name(), "deep");
        assert_eq!(strategy.budget(), Budget::work(Some(1234)));
        // Foresight changes the game only when the questions carry the generator.
        let fair = choices(&spec, 30);
        let foreseeing = PlayerSpec {
            foresight: true,
            ..spec.clone()
        };
        assert_ne!(fair, choices(&foreseeing, 30));
        assert_eq!(fair, choices(&spec, 30), "the same description plays alike");
    }
}
