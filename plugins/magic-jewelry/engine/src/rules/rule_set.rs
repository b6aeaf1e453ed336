//! The rule sets a game can be played by: the real game's, and the reference AI's conditions,
//! kept so that results stay comparable with its published figures.

use super::board::COLOURS;
use super::speed;
use std::fmt;
use std::str::FromStr;

/// Which rules a game follows. The engine's resolution, the simulator, the strategies'
/// expectations and the tools all take one; the player always plays [`RuleSet::Real`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RuleSet {
    /// The conditions the reference AI was measured under: uniform, independent colours, no
    /// wild column, level-0 speed (63 frames a row) throughout, no score; a lock loses when a
    /// jewel stays in a hidden row or row 0 of the spawn column is taken.
    Reference,
    /// Magic Jewelry's own rules (`docs/magic-jewelry.md`): the game's generator, a wild
    /// column after every 70 removed cells, the speed table by wild columns landed, row -2
    /// erased by every collapse, every spawn overwriting (3, 0), one game-over rule (a jewel in
    /// row -1 once a lock is resolved) and the scoring formula with the combo counter.
    #[default]
    Real,
}

/// Names [`RuleSet::from_str`] knows, in declaration order.
pub const RULE_SET_NAMES: [&str; 2] = ["reference", "real"];

/// A rule-set name that is neither `reference` nor `real`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule set {0:?}: expected reference or real")]
pub struct UnknownRuleSet(pub String);

/// Cells removed between two wild columns in the real game.
pub const WILD_EVERY: u32 = 70;

impl RuleSet {
    pub const ALL: [Self; 2] = [Self::Reference, Self::Real];

    pub const fn name(self) -> &'static str {
        match self {
            Self::Reference => "reference",
            Self::Real => "real",
        }
    }

    /// Whether wild columns come (after every [`WILD_EVERY`] removed cells).
    pub const fn has_wild_columns(self) -> bool {
        matches!(self, Self::Real)
    }

    /// Whether locks score points.
    pub const fn scores(self) -> bool {
        matches!(self, Self::Real)
    }

    /// The chance that a jewel of a new column has `colour` (1-6): uniform under the reference,
    /// 1/4 for red (1) and blue (5) and 1/8 for the others in the real game, whose generator
    /// reads 3 bits and maps 0 to 1 and 7 to 5.
    pub const fn colour_odds(self, colour: u8) -> f64 {
        match self {
            Self::Reference => 1.0 / COLOURS as f64,
            Self::Real => match colour {
                1 | 5 => 0.25,
                _ => 0.125,
            },
        }
    }

    /// Frames per row at `level` (wild columns landed, the game's $6D).
    pub const fn fall_speed(self, level: u8) -> u8 {
        match self {
            Self::Reference => speed::LEVEL0_FALL_SPEED,
            Self::Real => speed::fall_speed(level),
        }
    }

    /// The fall speed of the column after a wild column that fell at `speed`, when the level is
    /// not known: the fastest any level at that speed goes to (a placement reachable at it is
    /// reachable at the others too, or nearly so).
    pub const fn speed_after_wild(self, speed: u8) -> u8 {
        match self {
            Self::Reference => speed,
            Self::Real => speed::fastest_after_wild(speed),
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for RuleSet {
    type Err = UnknownRuleSet;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|rules| rules.name() == name)
            .ok_or_else(|| UnknownRuleSet(name.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_are_errors() {
        for (rules, name) in RuleSet::ALL.into_iter().zip(RULE_SET_NAMES) {
            assert_eq!(rules.name(), name);
            assert_eq!(name.parse::<RuleSet>(), Ok(rules));
            assert_eq!(rules.to_string(), name);
        }
        assert_eq!(RuleSet::default(), RuleSet::Real);
        for bad in ["", "Real", "ref", "real "] {
            assert_eq!(bad.parse::<RuleSet>(), Err(UnknownRuleSet(bad.to_owned())));
        }
    }

    #[test]
    fn colour_odds_sum_to_one() {
        for rules in RuleSet::ALL {
            let total: f64 = (1..=COLOURS).map(|c| rules.colour_odds(c)).sum();
            assert!((total - 1.0).abs() < 1e-12, "{rules}");
        }
        assert_eq!(
            RuleSet::Real.colour_odds(5),
            2.0 * RuleSet::Real.colour_odds(6)
        );
    }

    #[test]
    fn only_the_real_game_speeds_up() {
        assert_eq!(RuleSet::Reference.fall_speed(60), 63);
        assert_eq!(RuleSet::Real.fall_speed(0), 63);
        assert_eq!(RuleSet::Real.fall_speed(60), 8);
        assert_eq!(RuleSet::Reference.speed_after_wild(63), 63);
        assert_eq!(RuleSet::Real.speed_after_wild(63), 52);
    }
}
