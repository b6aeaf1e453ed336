//! The players the lab's `--ai` names: `player` (the player as described), `reference` (the
//! reference AI: `smart` with the published weights), a strategy's name (`deep:3:5`), or
//! `NAME@FILE`, scoring boards with the weights or learned value in FILE.

use super::{Evaluation, PlayerSpec};
use crate::search::StrategySpec;

/// The player's own configuration.
pub const PLAYER: &str = "player";
/// The reference AI.
pub const REFERENCE: &str = "reference";

/// A player as `--ai` named it.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedPlayer {
    /// What was asked for.
    pub label: String,
    pub spec: PlayerSpec,
}

/// What a name of `--ai` asks for, read without loading its file.
enum Name<'a> {
    Player,
    Reference,
    Strategy(StrategySpec),
    /// With `@FILE`.
    WithFile(Box<Name<'a>>, &'a str),
}

impl<'a> Name<'a> {
    fn parse(text: &'a str) -> Result<Self, String> {
        let (name, file) = match text.split_once('@') {
            Some((name, file)) => (name, Some(file)),
            None => (text, None),
        };
        let name = match name {
            PLAYER => Self::Player,
            REFERENCE if file.is_some() => {
                return Err(format!(
                    "`{text}`: the reference plays with the published weights, not a file"
                ))
            }
            REFERENCE => Self::Reference,
            other => Self::Strategy(other.parse().map_err(|e| format!("{e}"))?),
        };
        Ok(match file {
            Some(file) => Self::WithFile(Box::new(name), file),
            None => name,
        })
    }
}

/// Whether `text` names a player: a known name, and a file that can be read (checked, not
/// loaded), for a command line to refuse at once what [`PlayerSpec::named`] would.
pub fn check_name(text: &str) -> Result<(), String> {
    match Name::parse(text)? {
        Name::WithFile(_, file) => Evaluation::check_file_name(file),
        _ => Ok(()),
    }
}

impl PlayerSpec {
    /// The player `text` names, its other settings this one's: `player` keeps this strategy
    /// and evaluation, `reference` plays `smart` with the published weights, `NAME` plays that
    /// strategy with this evaluation, and `NAME@FILE` with FILE's.
    pub fn named(&self, text: &str) -> Result<NamedPlayer, String> {
        let mut spec = self.clone();
        spec.take_name(Name::parse(text)?)?;
        Ok(NamedPlayer {
            label: text.to_owned(),
            spec,
        })
    }

    fn take_name(&mut self, name: Name<'_>) -> Result<(), String> {
        match name {
            Name::Player => {}
            Name::Reference => {
                self.strategy = StrategySpec::Smart;
                self.evaluation = Evaluation::Published;
            }
            Name::Strategy(strategy) => self.strategy = strategy,
            Name::WithFile(name, file) => {
                self.take_name(*name)?;
                self.evaluation = Evaluation::from_file_name(file)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_set_the_strategy_and_the_evaluation_alone() {
        let base = PlayerSpec {
            work: Some(77),
            ..PlayerSpec::default()
        };
        let player = base.named(PLAYER).expect("the player");
        assert_eq!(player.spec, base);
        let reference = base.named(REFERENCE).expect("the reference");
        assert_eq!(reference.spec.strategy, StrategySpec::Smart);
        assert_eq!(reference.spec.evaluation, Evaluation::Published);
        assert_eq!(reference.spec.work, Some(77));
        let smart = base.named("smart").expect("a strategy");
        assert_eq!(smart.spec.evaluation, Evaluation::BuiltIn);
        for (bad, why) in [
            ("deep:1:18446744073709551615", "1024"),
            ("smart@/nonexistent.json", "nonexistent"),
            ("clever", "expected simple"),
            ("reference@w.json", "published weights"),
        ] {
            let error = base.named(bad).expect_err(bad);
            assert!(error.contains(why), "{bad}: {error}");
            let checked = check_name(bad).expect_err(bad);
            assert!(checked.contains(why), "{bad}: {checked}");
        }
        assert_eq!(check_name("deep:3:5"), Ok(()));
    }
}
