//! A strategy as the command line and the plug-in's options name it: `simple`, `smart`, `deep`,
//! or `deep:CANDIDATES:SAMPLES[:PER_FIRST]`, parsed once into a [`StrategySpec`] (every number
//! bounded, the bound in the error) and written back the same way.

use super::{Deep, DeepConfig, Greedy, Strategy};
use crate::eval::score::{Objective, ScoreEvaluator, ScoreWeights};
use crate::eval::{Evaluator, Goal};
use std::fmt;
use std::str::FromStr;

pub use crate::search::parameters::{MAX_CANDIDATES, MAX_SAMPLES};

/// Which search, with `deep`'s settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StrategySpec {
    /// The best board after the current column alone.
    Simple,
    /// The reference's search: current column, then next.
    Smart,
    /// Current and next column, then the expectation over the column after next.
    Deep {
        candidates: usize,
        /// `None`: every column after next, each rotation class once with its chance.
        samples: Option<usize>,
        per_first: usize,
    },
}

impl Default for StrategySpec {
    /// `deep` with its defaults: the player's search.
    fn default() -> Self {
        Self::deep(DeepConfig::default())
    }
}

/// A strategy name that does not parse, with why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown strategy `{name}`: {why}")]
pub struct UnknownStrategy {
    pub name: String,
    pub why: String,
}

impl StrategySpec {
    /// The names with no settings.
    pub const NAMES: [&'static str; 3] = ["simple", "smart", "deep"];

    fn deep(config: DeepConfig) -> Self {
        Self::Deep {
            candidates: config.candidates,
            samples: config.samples,
            per_first: config.per_first,
        }
    }

    /// The strategy playing for `objective`, valuing boards for safety with `evaluation`: the
    /// survive objective values a path's last board with it alone, the score objective with
    /// the points and the promise of the board too ([`ScoreEvaluator`]).
    pub fn build<E: Evaluator + Send + Sync + 'static>(
        self,
        evaluation: E,
        objective: Objective,
    ) -> Box<dyn Strategy> {
        match objective {
            Objective::Survive => self.build_for(evaluation),
            Objective::Score => {
                self.build_for(ScoreEvaluator::new(evaluation, ScoreWeights::default()))
            }
        }
    }

    /// The strategy valuing its paths with `goal`.
    pub fn build_for<G: Goal + 'static>(self, goal: G) -> Box<dyn Strategy> {
        match self {
            Self::Simple => Box::new(Greedy::simple(goal)),
            Self::Smart => Box::new(Greedy::smart(goal)),
            Self::Deep {
                candidates,
                samples,
                per_first,
            } => {
                let config = DeepConfig {
                    candidates,
                    per_first,
                    samples,
                    ..DeepConfig::default()
                };
                Box::new(Deep::new(goal, config))
            }
        }
    }
}

impl FromStr for StrategySpec {
    type Err = UnknownStrategy;

    fn from_str(name: &str) -> Result<Self, UnknownStrategy> {
        let fail = |why: String| UnknownStrategy {
            name: name.to_owned(),
            why,
        };
        match name {
            "simple" => return Ok(Self::Simple),
            "smart" => return Ok(Self::Smart),
            "deep" => return Ok(Self::default()),
            _ => {}
        }
        let Some(settings) = name.strip_prefix("deep:") else {
            return Err(fail(
                "expected simple, smart, deep or deep:CANDIDATES:SAMPLES[:PER_FIRST]".into(),
            ));
        };
        let fields: Vec<&str> = settings.split(':').collect();
        if !(2..=3).contains(&fields.len()) {
            return Err(fail(
                "deep takes CANDIDATES:SAMPLES or CANDIDATES:SAMPLES:PER_FIRST".into(),
            ));
        }
        let count = |what: &str, text: &str, max: usize| {
            text.parse::<usize>()
                .ok()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| fail(format!("{what} `{text}` is not a count from 1 to {max}")))
        };
        let candidates = count("CANDIDATES", fields[0], MAX_CANDIDATES)?;
        let samples = match fields[1] {
            "all" => None,
            text => Some(count("SAMPLES", text, MAX_SAMPLES)?),
        };
        let per_first = match fields.get(2) {
            Some(text) => count("PER_FIRST", text, MAX_CANDIDATES)?,
            None => DeepConfig::default().per_first,
        };
        Ok(Self::Deep {
            candidates,
            samples,
            per_first,
        })
    }
}

impl fmt::Display for StrategySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Simple => f.write_str("simple"),
            Self::Smart => f.write_str("smart"),
            deep if deep == Self::default() => f.write_str("deep"),
            Self::Deep {
                candidates,
                samples,
                per_first,
            } => {
                let samples = samples.map_or_else(|| "all".to_owned(), |s| s.to_string());
                write!(f, "deep:{candidates}:{samples}")?;
                if per_first != DeepConfig::default().per_first {
                    write!(f, ":{per_first}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_bad_ones_say_why() {
        for name in [
            "simple",
            "smart",
            "deep",
            "deep:3:5",
            "deep:3:all",
            "deep:3:5:1",
        ] {
            let spec: StrategySpec = name.parse().expect(name);
            assert_eq!(spec.to_string(), name);
        }
        assert_eq!(
            "deep:3:36".parse::<StrategySpec>(),
            Ok(StrategySpec::default())
        );
        for (bad, why) in [
            ("deep:3:0", "SAMPLES `0`"),
            ("deep:all:3", "CANDIDATES `all`"),
            ("deep:2:all:all", "PER_FIRST `all`"),
            ("clever", "expected simple"),
            ("deep:", "CANDIDATES:SAMPLES"),
            ("deep:0:3", "from 1 to 64"),
            ("deep:x:1", "CANDIDATES `x`"),
            ("deep:1:2:3:4", "CANDIDATES:SAMPLES"),
            ("deep:2:2:0", "PER_FIRST `0`"),
            ("deep:1:18446744073709551615", "from 1 to 1024"),
            ("deep:1:1000000000000", "from 1 to 1024"),
            ("deep:99999:99999", "from 1 to 64"),
        ] {
            let error = bad.parse::<StrategySpec>().expect_err(bad).to_string();
            assert!(error.contains(why), "{bad}: {error}");
        }
    }
}
