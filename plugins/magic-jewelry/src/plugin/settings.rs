//! The plug-in's settings, typed, and the one table that declares them: each option's name,
//! help, how its value is shown and parsed, and what a change asks of a player already built.
//! The host builds its flags and window keys from the table ([`Plugin::options`]).
//!
//! [`Plugin::options`]: jewelbot_plugin::Plugin::options

use crate::engine::{self, AnyEvaluator, Budget, Objective, StrategySpec};
use crate::play::{AfterGameOver, Mode, Player};
use jewelbot_plugin::{NumberRange, Pacing, PluginOption};
use std::path::PathBuf;
use std::time::Duration;

/// The `weights` option's value for the built-in evaluation.
pub const BUILT_IN: &str = "built-in";

/// Work and time limits: whole numbers, 0 for none.
const LIMIT_RANGE: NumberRange = NumberRange {
    min: 0.0,
    max: 1e12,
    integer: true,
};

/// What the player scores boards with.
#[derive(Clone, Default)]
pub enum Evaluation {
    /// The learned value the player ships with.
    #[default]
    BuiltIn,
    /// Weights or a learned value from a file (boxed: a learned value is large).
    File(PathBuf, Box<AnyEvaluator>),
}

/// Every setting of the plug-in.
#[derive(Clone)]
pub struct Settings {
    pub mode: Mode,
    pub after_game_over: AfterGameOver,
    pub strategy: StrategySpec,
    /// Read the column generator from RAM and search the columns ahead.
    pub foresight: bool,
    pub objective: Objective,
    /// Boards a decision may score, when given (`Some(0)`: no limit).
    pub work: Option<u64>,
    /// The microseconds a decision may take, when given (`Some(0)`: no limit).
    pub time_budget: Option<u64>,
    pub evaluation: Evaluation,
    /// How the host paces frames: it decides the budget when none is given.
    pub pacing: Pacing,
}

impl Default for Settings {
    /// Normal mode, restart after a game over, `deep` with the built-in evaluation, fair play
    /// for survival, the budget of lockstep pacing.
    fn default() -> Self {
        Self {
            mode: Mode::Normal,
            after_game_over: AfterGameOver::Restart,
            strategy: StrategySpec::default(),
            foresight: false,
            objective: Objective::Survive,
            work: None,
            time_budget: None,
            evaluation: Evaluation::BuiltIn,
            pacing: Pacing::Lockstep,
        }
    }
}

impl Settings {
    /// The limit of one decision: the work and the time given (0: none), or, with neither
    /// given, the pacing's: a work limit in lockstep, so that a run repeats exactly however
    /// loaded the machine is, and the player's time in real time, so that it keeps up. A work
    /// limit alone drops the time limit.
    pub fn budget(&self) -> Budget {
        let given = |limit: Option<u64>| limit.filter(|&n| n > 0);
        match (self.work, self.time_budget) {
            (None, None) => match self.pacing {
                Pacing::Lockstep => Budget::LOCKSTEP,
                Pacing::RealTime { .. } => Budget::PLAYER,
            },
            (work, time) => Budget {
                time: given(time).map(Duration::from_micros),
                work: given(work),
            },
        }
    }

    /// Which budget plays, in words, and where it came from.
    pub fn budget_description(&self) -> String {
        let budget = self.budget();
        let limits = budget.to_string();
        match (self.work, self.time_budget) {
            (None, None) => format!("{limits} ({} pacing's default)", self.pacing_name()),
            _ => format!("{limits} (given)"),
        }
    }

    fn pacing_name(&self) -> &'static str {
        match self.pacing {
            Pacing::Lockstep => "lockstep",
            Pacing::RealTime { .. } => "real-time",
        }
    }

    pub fn evaluator(&self) -> AnyEvaluator {
        match &self.evaluation {
            Evaluation::BuiltIn => AnyEvaluator::default(),
            Evaluation::File(_, evaluator) => (**evaluator).clone(),
        }
    }

    /// A player with these settings.
    pub fn player(&self) -> Player {
        let mut player =
            Player::with_strategy(self.strategy, &self.evaluator(), self.mode, self.objective);
        self.update(&mut player);
        player
    }

    /// Gives a player the settings it can take as it plays.
    pub(super) fn update(&self, player: &mut Player) {
        player.set_mode(self.mode);
        player.set_after_game_over(self.after_game_over);
        player.set_foresight(self.foresight);
        player.set_budget(self.budget());
    }

    /// The options as the host lists them, with their current values.
    pub fn options(&self) -> Vec<PluginOption> {
        OPTIONS.iter().map(|option| option.describe(self)).collect()
    }

    /// Sets option `name` to `value`: the settings as they would be, and whether a player
    /// already built must be made anew (the others take the change as they play).
    pub fn with(&self, name: &str, value: &str) -> Result<(Self, Change), String> {
        let option = OPTIONS
            .iter()
            .find(|o| o.name == name)
            .ok_or_else(|| format!("no option `{name}`"))?;
        let mut changed = self.clone();
        (option.set)(&mut changed, value)?;
        Ok((changed, option.change))
    }

    /// Applies a change to a player already built, or makes a new one.
    pub fn apply(&self, change: Change, player: &mut Option<Player>) {
        match (change, player.as_mut()) {
            (Change::Rebuild, Some(_)) => *player = Some(self.player()),
            (Change::Update, Some(player)) => self.update(player),
            (_, None) => {}
        }
    }
}

/// What a change of option asks of a player already built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// It takes the new value as it plays.
    Update,
    /// It is made anew (its search or evaluation changed).
    Rebuild,
}

/// How an option's values are offered.
enum Values {
    Choice(&'static [&'static str]),
    Text(&'static str),
    Number(NumberRange),
}

/// One option, declared once.
struct Declared {
    name: &'static str,
    help: &'static str,
    /// The window key that cycles it, for choices.
    key: Option<char>,
    values: Values,
    show: fn(&Settings) -> String,
    set: fn(&mut Settings, &str) -> Result<(), String>,
    change: Change,
}

impl Declared {
    fn describe(&self, settings: &Settings) -> PluginOption {
        let value = (self.show)(settings);
        let option = match self.values {
            Values::Choice(choices) => PluginOption::choice(self.name, self.help, &value, choices),
            Values::Text(value_name) => {
                PluginOption::text(self.name, self.help, &value, value_name)
            }
            Values::Number(range) => PluginOption::number(self.name, self.help, &value, range),
        };
        match self.key {
            Some(key) => option.with_key(key),
            None => option,
        }
    }
}

const SWITCH: [&str; 2] = ["off", "on"];

fn switch(name: &str, value: &str) -> Result<bool, String> {
    match value {
        "on" => Ok(true),
        "off" => Ok(false),
        other => Err(format!("unknown {name} `{other}` (off or on)")),
    }
}

fn limit(name: &str, value: &str) -> Result<u64, String> {
    let number = LIMIT_RANGE
        .check(value)
        .map_err(|e| format!("--{name}: {e}"))?;
    // Whole and within 0..=1e12, so exact as an integer.
    Ok(number as u64)
}

/// Reads an evaluation file, refusing what is not a regular file before it is opened (a FIFO
/// or a device would block or never end).
fn evaluation(value: &str) -> Result<Evaluation, String> {
    if value.is_empty() || value == BUILT_IN {
        return Ok(Evaluation::BuiltIn);
    }
    let path = PathBuf::from(value);
    engine::eval::weights::check_evaluation_file(&path)
        .map_err(|e| format!("cannot read evaluation file {}: {e}", path.display()))?;
    let (evaluator, _) = engine::load_evaluator(&path).map_err(|e| e.to_string())?;
    Ok(Evaluation::File(path, Box::new(evaluator)))
}

/// Every option, in the order the host lists them.
const OPTIONS: [Declared; 8] = [
    Declared {
        name: "mode",
        help: "How the AI presses buttons: normal (watchable) or fast",
        key: Some('F'),
        values: Values::Choice(&Mode::NAMES),
        show: |s| s.mode.to_string(),
        set: |s, v| {
            s.mode = v.parse()?;
            Ok(())
        },
        change: Change::Update,
    },
    Declared {
        name: "after-game-over",
        help: "What the AI does when a game ends: restart (Start, a new game) or continue (the \
               hidden continue: the board empties, score, levels and speed are kept)",
        key: None,
        values: Values::Choice(&AfterGameOver::NAMES),
        show: |s| s.after_game_over.to_string(),
        set: |s, v| {
            s.after_game_over = v.parse()?;
            Ok(())
        },
        change: Change::Update,
    },
    Declared {
        name: "strategy",
        help: "Search strategy: simple, smart, deep, or deep:CANDIDATES:SAMPLES[:PER_FIRST]",
        key: None,
        values: Values::Text("NAME"),
        show: |s| s.strategy.to_string(),
        set: |s, v| {
            s.strategy = v.parse().map_err(|e| format!("{e}"))?;
            Ok(())
        },
        change: Change::Rebuild,
    },
    Declared {
        name: "foresight",
        help: "Read the column generator from RAM and plan over the columns to come (off: fair \
               play, seeing what a person sees)",
        key: None,
        values: Values::Choice(&SWITCH),
        show: |s| SWITCH[usize::from(s.foresight)].to_owned(),
        set: |s, v| {
            s.foresight = switch("foresight", v)?;
            Ok(())
        },
        change: Change::Update,
    },
    Declared {
        name: "objective",
        help: "What the AI plays for: survive (fewest jewels) or score (points, staying safe)",
        key: None,
        values: Values::Choice(&Objective::NAMES),
        show: |s| s.objective.name().to_owned(),
        set: |s, v| {
            s.objective = v.parse().map_err(|e| format!("{e}"))?;
            Ok(())
        },
        change: Change::Rebuild,
    },
    Declared {
        name: "work",
        help: "Boards the fair search may score in one decision (0: no limit; foresight's beam \
               has its own); without --time-budget it drops the time limit, so that a run \
               repeats exactly on any machine. Without either, a headless run scores at most \
               3000 boards a decision and the window takes at most 1800 us",
        key: None,
        values: Values::Number(LIMIT_RANGE),
        show: |s| s.budget().work.unwrap_or(0).to_string(),
        set: |s, v| {
            s.work = Some(limit("work", v)?);
            Ok(())
        },
        change: Change::Update,
    },
    Declared {
        name: "time-budget",
        help: "Microseconds one decision may take (0: no limit); with --work, whichever comes \
               first",
        key: None,
        values: Values::Number(LIMIT_RANGE),
        show: |s| {
            s.budget()
                .time
                .map_or(0, |t| t.as_micros() as u64)
                .to_string()
        },
        set: |s, v| {
            s.time_budget = Some(limit("time-budget", v)?);
            Ok(())
        },
        change: Change::Update,
    },
    Declared {
        name: "weights",
        help: "Evaluation file: weights as JSON or a learned value file",
        key: None,
        values: Values::Text("FILE"),
        show: |s| match &s.evaluation {
            Evaluation::BuiltIn => BUILT_IN.to_owned(),
            Evaluation::File(path, _) => path.display().to_string(),
        },
        set: |s, v| {
            s.evaluation = evaluation(v)?;
            Ok(())
        },
        change: Change::Rebuild,
    },
];
