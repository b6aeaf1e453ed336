//! The plug-in's settings, typed, and its table of options: the plug-in's own (how the AI
//! presses and what it does at a game over), then the player's, made from the engine's one
//! table of the player's knobs ([`magic_jewelry_engine::player::KNOBS`]). The host builds its
//! flags and window keys from the list ([`Plugin::options`]).
//!
//! [`Plugin::options`]: jewelbot_plugin::Plugin::options

use crate::play::{AfterGameOver, Mode, Player};
use jewelbot_plugin::{NumberRange, Pacing, PluginOption};
use magic_jewelry_engine::player::{Change, Knob, Values, KNOBS};
use magic_jewelry_engine::{Budget, PlayerSpec, RuleSet, Timing};

pub use magic_jewelry_engine::player::evaluation::BUILT_IN;

/// Every setting of the plug-in.
#[derive(Clone)]
pub struct Settings {
    pub mode: Mode,
    pub after_game_over: AfterGameOver,
    /// The player's description, as the options set it (its rules are the real game's, its
    /// input the mode's and its timing the pacing's: [`Settings::player_spec`]).
    pub player: PlayerSpec,
    /// How the host paces frames: it decides the budget when none is given.
    pub pacing: Pacing,
}

impl Default for Settings {
    /// Normal mode, restart after a game over, the player as it ships, lockstep pacing.
    fn default() -> Self {
        Self {
            mode: Mode::Normal,
            after_game_over: AfterGameOver::Restart,
            player: PlayerSpec::default(),
            pacing: Pacing::Lockstep,
        }
    }
}

impl Settings {
    /// The player these settings describe: the options' description, playing the real game
    /// with the mode's input and the pacing's timing.
    pub fn player_spec(&self) -> PlayerSpec {
        PlayerSpec {
            rules: RuleSet::Real,
            input: self.mode.input_model(),
            timing: match self.pacing {
                Pacing::Lockstep => Timing::Waits,
                Pacing::RealTime { .. } => Timing::RealTime,
            },
            ..self.player.clone()
        }
    }

    /// The limit of one decision ([`PlayerSpec::budget`]: the default follows the pacing).
    pub fn budget(&self) -> Budget {
        self.player_spec().budget()
    }

    /// Which budget plays, in words, and where it came from.
    pub fn budget_description(&self) -> String {
        self.player_spec().budget_description()
    }

    /// A player with these settings.
    pub fn player(&self) -> Player {
        let mut player = Player::new(&self.player_spec(), self.mode);
        self.update(&mut player);
        player
    }

    /// Gives a player the settings it can take as it plays.
    pub(super) fn update(&self, player: &mut Player) {
        player.set_mode(self.mode);
        player.set_after_game_over(self.after_game_over);
        player.set_foresight(self.player.foresight);
        player.set_budget(self.budget());
    }

    /// The options as the host lists them, with their current values.
    pub fn options(&self) -> Vec<PluginOption> {
        let spec = self.player_spec();
        let player = KNOBS
            .iter()
            .filter(|knob| knob.in_plugin())
            .map(|knob| offered(knob, &spec));
        OWN.iter()
            .map(|option| option.describe(self))
            .chain(player)
            .collect()
    }

    /// Sets option `name` to `value`: the settings as they would be, and whether a player
    /// already built must be made anew (the others take the change as they play).
    pub fn with(&self, name: &str, value: &str) -> Result<(Self, Change), String> {
        let mut changed = self.clone();
        if let Some(option) = OWN.iter().find(|o| o.name == name) {
            (option.set)(&mut changed, value)?;
            return Ok((changed, Change::Update));
        }
        let knob = KNOBS
            .iter()
            .find(|k| k.name == name && k.in_plugin())
            .ok_or_else(|| format!("no option `{name}`"))?;
        knob.apply(&mut changed.player, value)?;
        Ok((changed, knob.change))
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

/// A knob of the player as the host offers it.
fn offered(knob: &Knob, spec: &PlayerSpec) -> PluginOption {
    let value = knob.show(spec);
    match knob.values {
        Values::Choice(choices) => PluginOption::choice(knob.name, knob.help, &value, choices),
        Values::Switch => PluginOption::choice(knob.name, knob.help, &value, &SWITCH),
        Values::Text { value_name, .. } => {
            PluginOption::text(knob.name, knob.help, &value, value_name)
        }
        Values::Count { min, max } => {
            let range = NumberRange {
                min: min as f64,
                max: max as f64,
                integer: true,
            };
            PluginOption::number(knob.name, knob.help, &value, range)
        }
    }
}

const SWITCH: [&str; 2] = ["off", "on"];

/// One of the plug-in's own options, declared once; each takes its change as the player plays.
struct Own {
    name: &'static str,
    help: &'static str,
    /// The window key that cycles it.
    key: Option<char>,
    choices: &'static [&'static str],
    show: fn(&Settings) -> String,
    set: fn(&mut Settings, &str) -> Result<(), String>,
}

impl Own {
    fn describe(&self, settings: &Settings) -> PluginOption {
        let value = (self.show)(settings);
        let option = PluginOption::choice(self.name, self.help, &value, self.choices);
        match self.key {
            Some(key) => option.with_key(key),
            None => option,
        }
    }
}

/// The plug-in's own options, listed before the player's.
const OWN: [Own; 2] = [
    Own {
        name: "mode",
        help: "How the AI presses buttons: normal (watchable) or fast",
        key: Some('F'),
        choices: &Mode::NAMES,
        show: |s| s.mode.to_string(),
        set: |s, v| {
            s.mode = v.parse()?;
            Ok(())
        },
    },
    Own {
        name: "after-game-over",
        help: "What the AI does when a game ends: restart (Start, a new game) or continue (the \
               hidden continue: the board empties, score, levels and speed are kept)",
        key: None,
        choices: &AfterGameOver::NAMES,
        show: |s| s.after_game_over.to_string(),
        set: |s, v| {
            s.after_game_over = v.parse()?;
            Ok(())
        },
    },
];
