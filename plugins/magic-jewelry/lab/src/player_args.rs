//! The player's flags, made from the engine's one table of the player's knobs
//! ([`magic_jewelry_engine::player::KNOBS`]): each flag's name, help, values, range and default
//! are the knob's, and a value a knob refuses is refused while the command line is parsed.
//! A command flattens [`PlayerArgs`] with the set of knobs it takes ([`KnobSet`]).

use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use magic_jewelry_engine::player::{Knob, Values, KNOBS};
use magic_jewelry_engine::PlayerSpec;
use std::marker::PhantomData;

/// Which of the lab's knobs a command takes.
pub trait KnobSet: Clone + std::fmt::Debug + Send + Sync + 'static {
    /// Whether the command takes `knob`.
    fn takes(knob: &Knob) -> bool;
}

/// Every knob the lab offers (`sim`, `horizon`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Every;

impl KnobSet for Every {
    fn takes(knob: &Knob) -> bool {
        knob.in_lab()
    }
}

/// Every knob but the objective, which `compare` takes once for each AI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ButObjective;

impl KnobSet for ButObjective {
    fn takes(knob: &Knob) -> bool {
        knob.in_lab() && knob.name != "objective"
    }
}

/// The game's knobs alone, the rules and the pace of presses (`train`, `learn`: they make
/// their own players).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GameKnobs;

impl KnobSet for GameKnobs {
    fn takes(knob: &Knob) -> bool {
        matches!(knob.name, "rules" | "tap-interval")
    }
}

/// The player as a command's flags describe it.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerArgs<S: KnobSet = Every> {
    pub spec: PlayerSpec,
    knobs: PhantomData<S>,
}

impl<S: KnobSet> Default for PlayerArgs<S> {
    fn default() -> Self {
        Self::from(PlayerSpec::default())
    }
}

impl<S: KnobSet> From<PlayerSpec> for PlayerArgs<S> {
    fn from(spec: PlayerSpec) -> Self {
        Self {
            spec,
            knobs: PhantomData,
        }
    }
}

impl<S: KnobSet> PlayerArgs<S> {
    /// The knobs the command takes, in the table's order.
    fn knobs() -> impl Iterator<Item = &'static Knob> {
        KNOBS.iter().filter(|knob| S::takes(knob))
    }
}

/// The flag of `knob`: its values checked by the knob itself, its default in the help.
fn flag(knob: &'static Knob) -> Arg {
    let arg = Arg::new(knob.name).long(knob.name).help(knob.help);
    let arg = if knob.needs_foresight {
        arg.requires("foresight")
    } else {
        arg
    };
    match knob.values {
        Values::Switch => arg.action(ArgAction::SetTrue),
        Values::Choice(names) => arg
            .value_name(knob.name.to_uppercase())
            .value_parser(PossibleValuesParser::new(names))
            .default_value(knob.default_value()),
        Values::Text { value_name, .. } => arg
            .value_name(value_name)
            .value_parser(move |text: &str| check(knob, text)),
        Values::Count { .. } => arg
            .value_name("N")
            .value_parser(move |text: &str| check(knob, text))
            .default_value(knob.default_value()),
    }
}

/// `text` when `knob` takes it (a file it names checked, not read); otherwise why not.
fn check(knob: &Knob, text: &str) -> Result<String, String> {
    knob.check(text)?;
    Ok(text.to_owned())
}

impl<S: KnobSet> Args for PlayerArgs<S> {
    fn augment_args(cmd: Command) -> Command {
        Self::knobs().fold(cmd, |cmd, knob| cmd.arg(flag(knob)))
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl<S: KnobSet> FromArgMatches for PlayerArgs<S> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut args = Self::default();
        args.update_from_arg_matches(matches)?;
        Ok(args)
    }

    /// Sets the knobs given on the command line, in the table's order (the rules before the
    /// evaluation file read under them); a default value sets nothing, so that a budget not
    /// given stays the default budget.
    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        use clap::parser::ValueSource;
        for knob in Self::knobs() {
            if matches.value_source(knob.name) != Some(ValueSource::CommandLine) {
                continue;
            }
            let value = match knob.values {
                Values::Switch => if matches.get_flag(knob.name) {
                    "on"
                } else {
                    "off"
                }
                .to_owned(),
                _ => matches
                    .get_one::<String>(knob.name)
                    .cloned()
                    .unwrap_or_default(),
            };
            knob.apply(&mut self.spec, &value)
                .map_err(|why| clap::Error::raw(clap::error::ErrorKind::ValueValidation, why))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use magic_jewelry_engine::{Budget, InputModel, Objective, RuleSet};

    #[derive(Debug, Parser)]
    struct Line {
        #[command(flatten)]
        player: PlayerArgs,
    }

    fn parse(line: &str) -> Result<PlayerSpec, String> {
        let words = std::iter::once("lab").chain(line.split_whitespace());
        Line::try_parse_from(words)
            .map(|l| l.player.spec)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn the_flags_set_the_knobs_and_nothing_given_is_the_default_player() {
        assert_eq!(parse(""), Ok(PlayerSpec::default()));
        let spec = parse(
            "--objective score --rules reference --tap-interval 3 --foresight --beam 12 --work 0",
        )
        .expect("good flags");
        assert_eq!(spec.objective, Objective::Score);
        assert_eq!(spec.rules, RuleSet::Reference);
        assert_eq!(spec.input, InputModel::normal(3));
        assert!(spec.foresight);
        assert_eq!(spec.lookahead.beam, 12);
        assert_eq!(spec.budget(), Budget::UNLIMITED);
        assert_eq!(
            parse("--work 500").map(|s| s.budget()),
            Ok(Budget::work(Some(500)))
        );
    }

    #[test]
    fn bad_flags_are_refused_with_why() {
        for (line, why) in [
            ("--beam 12", "--foresight"),
            ("--work x", "from 0 to"),
            ("--tap-interval 0", "from 1 to 255"),
            ("--rules arcade", "possible values: reference, real"),
            ("--weights /nonexistent.json", "nonexistent"),
            ("--strategy deep", "unexpected argument"),
            ("--time-budget 5", "unexpected argument"),
        ] {
            let error = parse(line).expect_err(line);
            assert!(error.contains(why), "{line}: {error}");
        }
    }
}
