//! Every setting of the player, declared once: its name, its help, its values and their range,
//! how it is shown and set, where it is offered and what a change asks of a player already
//! built. The plug-in makes its options from this table and the lab its flags, so a new
//! setting is one entry here. The default of each is what [`PlayerSpec::default`] shows.

use super::{Evaluation, PlayerSpec};
use crate::eval::Objective;
use crate::rules::{RuleSet, RULE_SET_NAMES};
use crate::search::parameters::{MAX_FORESIGHT_BEAM, MAX_FORESIGHT_DEPTH};
use crate::search::{InputModel, StrategySpec};

/// The largest work or time limit: whole numbers up to 10^12 (far past any decision).
pub const MAX_LIMIT: u64 = 1_000_000_000_000;

/// How a knob's values are written.
#[derive(Debug, Clone, Copy)]
pub enum Values {
    /// One of these names.
    Choice(&'static [&'static str]),
    /// On or off: an option `off`/`on` in the plug-in, a flag in the lab.
    Switch,
    /// Free text, named so in the help (`NAME`, `FILE`), with a check that reads no file.
    Text {
        value_name: &'static str,
        check: fn(&str) -> Result<(), String>,
    },
    /// A whole number from `min` to `max`.
    Count { min: u64, max: u64 },
}

/// Where a knob is offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Offered {
    /// By the plug-in and by the lab.
    Everywhere,
    /// By the plug-in only: the lab names the strategy with `--ai`, and plays without a clock.
    Plugin,
    /// By the lab only: in the emulator the game fixes the rules and the mode the input.
    Lab,
}

/// What a change of a knob asks of a player already built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// It takes the new value as it plays.
    Update,
    /// It is made anew (its search or evaluation changed).
    Rebuild,
}

/// One setting of the player.
pub struct Knob {
    /// The option's and the flag's name (`--NAME`).
    pub name: &'static str,
    pub help: &'static str,
    pub values: Values,
    pub offered: Offered,
    pub change: Change,
    /// Meaningful only with foresight on (the lab refuses it without `--foresight`).
    pub needs_foresight: bool,
    show: fn(&PlayerSpec) -> String,
    set: fn(&mut PlayerSpec, &str) -> Result<(), String>,
}

impl Knob {
    /// The knob's value in `spec`, written as it is given.
    pub fn show(&self, spec: &PlayerSpec) -> String {
        (self.show)(spec)
    }

    /// The knob's value with nothing given.
    pub fn default_value(&self) -> String {
        self.show(&PlayerSpec::default())
    }

    /// Sets the knob in `spec` to `value`, or says why it cannot (naming the knob).
    pub fn apply(&self, spec: &mut PlayerSpec, value: &str) -> Result<(), String> {
        self.check(value)?;
        (self.set)(spec, value)
    }

    /// Whether `value` is one of the knob's values, with why not: what a command line checks
    /// while it is parsed. A file it names is checked, not read ([`Knob::apply`] reads it).
    pub fn check(&self, value: &str) -> Result<(), String> {
        match self.values {
            Values::Choice(names) if !names.contains(&value) => Err(format!(
                "unknown {} `{value}` ({})",
                self.name,
                one_of(names)
            )),
            Values::Switch if value != "on" && value != "off" => {
                Err(format!("unknown {} `{value}` (off or on)", self.name))
            }
            Values::Text { check, .. } => check(value),
            Values::Count { min, max } => match value.parse::<u64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(()),
                _ => Err(format!(
                    "--{}: `{value}` is not a whole number from {min} to {max}",
                    self.name
                )),
            },
            Values::Choice(_) | Values::Switch => Ok(()),
        }
    }

    /// True when offered by the plug-in.
    pub fn in_plugin(&self) -> bool {
        self.offered != Offered::Lab
    }

    /// True when offered by the lab.
    pub fn in_lab(&self) -> bool {
        self.offered != Offered::Plugin
    }
}

/// The knob named `name`.
pub fn knob(name: &str) -> Option<&'static Knob> {
    KNOBS.iter().find(|k| k.name == name)
}

const SWITCH: [&str; 2] = ["off", "on"];

/// `a, b or c`.
fn one_of(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [only] => (*only).to_owned(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

fn count(value: &str) -> u64 {
    // Checked against the knob's range before it is set.
    value.parse().unwrap_or(0)
}

/// Every knob, in the order options and flags are listed. `rules` comes before `weights`, so
/// that the lab reads a file under the rules given.
pub const KNOBS: [Knob; 11] = [
    Knob {
        name: "strategy",
        help: "Search strategy: simple, smart, deep, or deep:CANDIDATES:SAMPLES[:PER_FIRST]",
        values: Values::Text {
            value_name: "NAME",
            check: |v| {
                v.parse::<StrategySpec>()
                    .map(drop)
                    .map_err(|e| format!("{e}"))
            },
        },
        offered: Offered::Plugin,
        change: Change::Rebuild,
        needs_foresight: false,
        show: |s| s.strategy.to_string(),
        set: |s, v| {
            s.strategy = v.parse().map_err(|e| format!("{e}"))?;
            Ok(())
        },
    },
    Knob {
        name: "objective",
        help: "What the AI plays for: survive (fewest jewels on the board) or score (points \
               under the real game's scoring, staying safe)",
        values: Values::Choice(&Objective::NAMES),
        offered: Offered::Everywhere,
        change: Change::Rebuild,
        needs_foresight: false,
        show: |s| s.objective.name().to_owned(),
        set: |s, v| {
            s.objective = v.parse().map_err(|e| format!("{e}"))?;
            Ok(())
        },
    },
    Knob {
        name: "rules",
        help: "Rules: real (the game's: its generator, wild columns, speed table, score, \
               game-over rule) or reference (the reference AI's conditions: uniform colours, no \
               wild column, level-0 speed, no score)",
        values: Values::Choice(&RULE_SET_NAMES),
        offered: Offered::Lab,
        change: Change::Rebuild,
        needs_foresight: false,
        show: |s| s.rules.to_string(),
        set: |s, v| {
            s.rules = v.parse::<RuleSet>().map_err(|e| format!("{e}"))?;
            Ok(())
        },
    },
    Knob {
        name: "weights",
        help: "Evaluation file: weights as JSON or a learned value file (built-in: the learned \
               value trained under the rules played)",
        values: Values::Text {
            value_name: "FILE",
            check: Evaluation::check_file_name,
        },
        offered: Offered::Everywhere,
        change: Change::Rebuild,
        needs_foresight: false,
        show: |s| s.evaluation.file_name(),
        set: |s, v| {
            s.evaluation = Evaluation::from_file_name(v)?;
            Ok(())
        },
    },
    Knob {
        name: "tap-interval",
        help: "Fewest frames between two presses: 1 plays as fast mode does (a press a frame, \
               the same button every other frame, then the soft drop); 2 or more as normal mode \
               does at that pace (a press every N frames, the column left to fall at the game's \
               speed)",
        values: Values::Count { min: 1, max: 255 },
        offered: Offered::Lab,
        change: Change::Update,
        needs_foresight: false,
        show: |s| s.input.interval().to_string(),
        set: |s, v| {
            s.input = match count(v) {
                1 => InputModel::FAST,
                n => InputModel::normal(n as u8),
            };
            Ok(())
        },
    },
    Knob {
        name: "foresight",
        help: "Read the column generator and plan over the columns to come, with a beam search \
               (off: fair play, seeing what a person sees)",
        values: Values::Switch,
        offered: Offered::Everywhere,
        change: Change::Update,
        needs_foresight: false,
        show: |s| SWITCH[usize::from(s.foresight)].to_owned(),
        set: |s, v| {
            s.foresight = v == "on";
            Ok(())
        },
    },
    Knob {
        name: "foresight-depth",
        help: "Columns foresight searches, the current one included",
        values: Values::Count {
            min: 1,
            max: MAX_FORESIGHT_DEPTH as u64,
        },
        offered: Offered::Everywhere,
        change: Change::Rebuild,
        needs_foresight: true,
        show: |s| s.lookahead.depth.to_string(),
        set: |s, v| {
            s.lookahead.depth = count(v) as usize;
            Ok(())
        },
    },
    Knob {
        name: "beam",
        help: "Boards foresight keeps at each depth",
        values: Values::Count {
            min: 1,
            max: MAX_FORESIGHT_BEAM as u64,
        },
        offered: Offered::Everywhere,
        change: Change::Rebuild,
        needs_foresight: true,
        show: |s| s.lookahead.beam.to_string(),
        set: |s, v| {
            s.lookahead.beam = count(v) as usize;
            Ok(())
        },
    },
    Knob {
        name: "foresight-work",
        help: "Boards foresight evaluates in one decision at most (its own work budget)",
        values: Values::Count {
            min: 1,
            max: MAX_LIMIT,
        },
        offered: Offered::Everywhere,
        change: Change::Rebuild,
        needs_foresight: true,
        show: |s| s.lookahead.work.to_string(),
        set: |s, v| {
            s.lookahead.work = count(v);
            Ok(())
        },
    },
    Knob {
        name: "work",
        help: "Boards the fair search may score in one decision (0: no limit; foresight's beam \
               has its own); without --time-budget it drops the time limit, so that a run \
               repeats exactly on any machine. Without either, a run that waits for its \
               decisions (headless, the lab) scores at most 3000 boards a decision and the \
               window takes at most 1800 us",
        values: Values::Count {
            min: 0,
            max: MAX_LIMIT,
        },
        offered: Offered::Everywhere,
        change: Change::Update,
        needs_foresight: false,
        show: |s| s.budget().work.unwrap_or(0).to_string(),
        set: |s, v| {
            s.work = Some(count(v));
            Ok(())
        },
    },
    Knob {
        name: "time-budget",
        help: "Microseconds one decision may take (0: no limit); with --work, whichever comes \
               first",
        values: Values::Count {
            min: 0,
            max: MAX_LIMIT,
        },
        offered: Offered::Plugin,
        change: Change::Update,
        needs_foresight: false,
        show: |s| {
            s.budget()
                .time
                .map_or(0, |t| t.as_micros() as u64)
                .to_string()
        },
        set: |s, v| {
            s.time_budget = Some(count(v));
            Ok(())
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::parameters::{LOCKSTEP_WORK, PLAYER_TIME};

    #[test]
    fn every_knob_shows_what_it_was_set_to() {
        let mut spec = PlayerSpec::default();
        for (name, value) in [
            ("strategy", "deep:3:5"),
            ("objective", "score"),
            ("rules", "reference"),
            ("tap-interval", "4"),
            ("foresight", "on"),
            ("foresight-depth", "5"),
            ("beam", "24"),
            ("foresight-work", "9000"),
            ("work", "700"),
            ("time-budget", "2500"),
        ] {
            let knob = knob(name).expect(name);
            knob.apply(&mut spec, value).expect(name);
            assert_eq!(knob.show(&spec), value, "{name}");
        }
        assert_eq!(spec.input, InputModel::normal(4));
        assert_eq!(
            knob("weights").map(|k| k.show(&spec)).as_deref(),
            Some("built-in")
        );
    }

    #[test]
    fn bad_values_are_refused_with_the_range() {
        let mut spec = PlayerSpec::default();
        for (name, value, why) in [
            ("objective", "win", "survive or score"),
            ("rules", "arcade", "reference or real"),
            ("foresight", "yes", "off or on"),
            ("foresight-depth", "0", "from 1 to 64"),
            ("beam", "5000", "from 1 to 4096"),
            ("work", "-1", "from 0 to"),
            ("tap-interval", "256", "from 1 to 255"),
            ("strategy", "deep:0:3", "from 1 to 64"),
            ("weights", "/nonexistent.json", "nonexistent"),
        ] {
            let error = knob(name)
                .expect(name)
                .apply(&mut spec, value)
                .expect_err(value);
            assert!(error.contains(why), "{name} {value}: {error}");
        }
        assert_eq!(
            spec,
            PlayerSpec::default(),
            "a refused value changes nothing"
        );
    }

    #[test]
    fn the_defaults_are_the_players() {
        let shown: Vec<(&str, String)> =
            KNOBS.iter().map(|k| (k.name, k.default_value())).collect();
        let expected = [
            ("strategy", "deep".to_owned()),
            ("objective", "survive".to_owned()),
            ("rules", "real".to_owned()),
            ("weights", "built-in".to_owned()),
            ("tap-interval", "1".to_owned()),
            ("foresight", "off".to_owned()),
            ("foresight-depth", "9".to_owned()),
            ("beam", "48".to_owned()),
            ("foresight-work", "30000".to_owned()),
            ("work", LOCKSTEP_WORK.to_string()),
            ("time-budget", "0".to_owned()),
        ];
        assert_eq!(shown, expected);
        let mut real_time = PlayerSpec {
            timing: super::super::Timing::RealTime,
            ..PlayerSpec::default()
        };
        let time = knob("time-budget").expect("declared");
        assert_eq!(time.show(&real_time), PLAYER_TIME.as_micros().to_string());
        knob("work")
            .expect("declared")
            .apply(&mut real_time, "100")
            .expect("a count");
        assert_eq!(
            time.show(&real_time),
            "0",
            "a work limit alone drops the time limit"
        );
    }
}
