use crate::{
    Buttons, Console, ConsoleRequest, GameNews, Inspection, Milestone, NoNews, Pacing, Ram,
    RamOnly, RomIdentity, Series, Status, StopCondition, Story,
};

/// An in-process plug-in, called by the host once per rendered frame.
///
/// The host catches panics: the frame's buttons and RAM writes of a plug-in that panics are
/// dropped, and at the next frame it is told of a reset ([`Plugin::on_reset`]) and called again;
/// one that keeps panicking is switched off with a message. In real time (the window's
/// [`Pacing`]), a call of [`Plugin::on_frame`] that takes longer than the stall limit has its
/// frame's output dropped (its buttons released); in lockstep (headless runs) the host waits for
/// it, so that it plays the same game on any machine. The emulator keeps running either way.
pub trait Plugin: Send {
    /// A short name for messages and menus.
    fn name(&self) -> &str;

    /// Called when a ROM is loaded. `Ok` names what the plug-in recognised; `Err` explains why
    /// it does not run on this ROM, and the emulator then runs the ROM without it.
    fn attach(&mut self, rom: &RomIdentity<'_>) -> Result<String, String>;

    /// Called after each rendered frame, and once at power-on before the first (frame 0: RAM
    /// as the console powers on, no picture yet), as FCEUX resumes its scripts: the buttons
    /// chosen then are held during frame 1.
    fn on_frame(&mut self, ctx: &mut FrameContext<'_>);

    /// Called after a reset, power cycle or state load: anything remembered about the game may
    /// be stale.
    fn on_reset(&mut self) {}

    /// Tells the plug-in whether its buttons reach the console (the person may take the
    /// controller). A plug-in out of control should plan nothing and press nothing.
    fn set_in_control(&mut self, in_control: bool) {
        let _ = in_control;
    }

    /// Asks the run to end after this frame, saying why (a script that called `os.exit`):
    /// a headless run ends there with its outputs written.
    fn ended(&self) -> Option<String> {
        None
    }

    /// The status the process exits with when the run ends because this plug-in asked
    /// ([`Plugin::ended`]): a script's `os.exit(n)`. `None` is success.
    fn exit_status(&self) -> Option<u8> {
        None
    }

    /// Whether it asks to hold the controller alone (a script that plays the game): while a
    /// running plug-in does, only the buttons of those that do reach the console, and the
    /// others are told they are out of control ([`Plugin::set_in_control`]).
    fn wants_controller(&self) -> bool {
        false
    }

    /// Tells the plug-in how the host paces frames: in [`Pacing::Lockstep`] (the default) it
    /// is waited for, and work it would cut by time should be bounded by work instead, so that
    /// a run repeats exactly; in [`Pacing::RealTime`] it may cut its work to keep up.
    fn set_pacing(&mut self, pacing: Pacing) {
        let _ = pacing;
    }

    /// Changes one of the settings [`Plugin::options`] declares; `Err` explains a refusal.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let _ = value;
        Err(format!("{} has no option `{name}`", self.name()))
    }

    /// The settings this plug-in understands, with their help and current values. The host
    /// builds its command-line flags and window keys from them, so it needs no plug-in's words.
    fn options(&self) -> Vec<PluginOption> {
        Vec::new()
    }

    /// The events this plug-in announces ([`FrameContext::announce`]) when it sees them happen
    /// in the game, for plug-ins called after it (a bot host lets bots ask for them).
    fn events(&self) -> Vec<String> {
        Vec::new()
    }

    /// The game as this plug-in decodes it from `ram` (board, pieces, counters), as one JSON
    /// object whose fields its documentation gives, for bots in other processes; `None` when
    /// it describes nothing or `ram` holds no game it can tell.
    fn describe(&self, ram: &Ram) -> Option<String> {
        let _ = ram;
        None
    }

    /// Labelled addresses and decoded panels of `ram`, for a RAM inspector.
    fn inspect(&self, ram: &Ram) -> Inspection {
        let _ = ram;
        Inspection::default()
    }

    /// Running statistics for summaries (e.g. columns placed).
    fn stats(&self) -> Vec<Stat> {
        Vec::new()
    }

    /// One integer statistic of [`Plugin::stats`] by its key. The host asks every frame while
    /// a run waits for a [`StopCondition`], so a plug-in whose statistics cost something to
    /// gather answers this one directly.
    fn stat(&self, key: &str) -> Option<i64> {
        self.stats().into_iter().find_map(|s| match s.value {
            StatValue::Int(v) if s.key == key => Some(v),
            _ => None,
        })
    }

    /// The conditions a run can stop at, over this plug-in's statistics (`run --until`).
    fn stop_conditions(&self) -> Vec<StopCondition> {
        Vec::new()
    }

    /// Quantities over the run so far, for a report's plots.
    fn series(&self) -> Vec<Series> {
        Vec::new()
    }

    /// What a watcher asks of the play so far: figures, and charts of at most the `recent` last
    /// events. A window asks each time it draws its dashboard, so this stays cheap.
    fn story(&self, recent: usize) -> Story {
        let _ = recent;
        Story::default()
    }

    /// Frames of the run so far worth marking on a report's plots.
    fn milestones(&self) -> Vec<Milestone> {
        Vec::new()
    }

    /// What the plug-in needs, with the console's state, to carry on from a checkpoint as if
    /// the run had not stopped: its statistics, what it remembers of the last frames, the work
    /// it has in hand. `None` when it cannot say now (in the middle of something): the host
    /// asks again on a later frame. Called after [`Plugin::on_frame`].
    fn checkpoint(&mut self) -> Option<Vec<u8>> {
        Some(Vec::new())
    }

    /// Takes back what [`Plugin::checkpoint`] gave, once the console is back at that frame
    /// (`ram` is its RAM at the end of that frame, as [`Plugin::on_frame`] saw it then); `Err`
    /// explains why it cannot (a snapshot of another version, say).
    fn resume(&mut self, snapshot: &[u8], ram: &Ram) -> Result<(), String> {
        let _ = (snapshot, ram);
        Ok(())
    }

    /// What a recorder should capture of the attached game (`jewelbot record`): the RAM ranges
    /// worth recording and the routines whose entry marks an event.
    fn recording(&self) -> Recording {
        Recording::default()
    }
}

/// What to record of a game: RAM ranges and the CPU routines that mark its events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recording {
    /// Address ranges of RAM, inclusive.
    pub ranges: Vec<(u16, u16)>,
    /// Event names and the CPU address of the routine whose first instruction marks each.
    pub routines: Vec<(String, u16)>,
}

impl Default for Recording {
    /// All of RAM, no routines.
    fn default() -> Self {
        Self {
            ranges: vec![(0, crate::RAM_SIZE as u16 - 1)],
            routines: Vec::new(),
        }
    }
}

/// One setting of a plug-in, as the host offers it on the command line (`--NAME VALUE`) and
/// in the window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginOption {
    /// The setting's name, also the command-line flag (`mode` gives `--mode`).
    pub name: String,
    /// One line of help.
    pub help: String,
    /// The current value.
    pub value: String,
    /// The values it accepts; empty when any text is accepted (a file, a name with
    /// parameters).
    pub choices: Vec<String>,
    /// How the value is shown in help (`FILE`, `NAME`). `FILE` names a file the plug-in
    /// reads: the host then keeps every output of the command off that path.
    pub value_name: String,
    /// A letter key of the window that steps through [`PluginOption::choices`].
    pub key: Option<char>,
    /// For a numeric option, the numbers it accepts; the host refuses others when it parses
    /// its command line, before the plug-in sees them.
    pub range: Option<NumberRange>,
}

/// The numbers a numeric option accepts: finite, from `min` to `max` inclusive, whole numbers
/// only when `integer`. NaN and the infinities are never accepted.
#[derive(Debug, Clone, Copy)]
pub struct NumberRange {
    /// The smallest value accepted.
    pub min: f64,
    /// The largest value accepted.
    pub max: f64,
    /// Whole numbers only.
    pub integer: bool,
}

impl PartialEq for NumberRange {
    fn eq(&self, other: &Self) -> bool {
        self.min.to_bits() == other.min.to_bits()
            && self.max.to_bits() == other.max.to_bits()
            && self.integer == other.integer
    }
}

impl Eq for NumberRange {}

impl NumberRange {
    /// Checks a value's text: `Err` says what is wrong, in words for a command line.
    pub fn check(&self, text: &str) -> Result<f64, String> {
        let value: f64 = text
            .trim()
            .parse()
            .map_err(|_| format!("`{text}` is not a number"))?;
        if !value.is_finite() {
            return Err(format!("`{text}` is not a finite number"));
        }
        if self.integer && value.fract() != 0.0 {
            return Err(format!("`{text}` is not a whole number"));
        }
        if value < self.min || value > self.max {
            return Err(format!("{value} is outside {} to {}", self.min, self.max));
        }
        Ok(value)
    }
}

impl PluginOption {
    /// An option with a fixed list of values.
    pub fn choice(name: &str, help: &str, value: &str, choices: &[&str]) -> Self {
        Self {
            name: name.to_owned(),
            help: help.to_owned(),
            value: value.to_owned(),
            choices: choices.iter().map(|&c| c.to_owned()).collect(),
            value_name: name.to_uppercase(),
            key: None,
            range: None,
        }
    }

    /// An option that takes any text, shown in help as `value_name`.
    pub fn text(name: &str, help: &str, value: &str, value_name: &str) -> Self {
        Self {
            name: name.to_owned(),
            help: help.to_owned(),
            value: value.to_owned(),
            choices: Vec::new(),
            value_name: value_name.to_owned(),
            key: None,
            range: None,
        }
    }

    /// A numeric option: the host refuses, when it parses its command line, any value that is
    /// not a finite number within `range`.
    pub fn number(name: &str, help: &str, value: &str, range: NumberRange) -> Self {
        Self {
            range: Some(range),
            ..Self::text(name, help, value, "N")
        }
    }

    /// Checks a value before it is offered to the plug-in: one of the choices when there are
    /// choices, a number in range for a numeric option; `Err` says what is wrong.
    pub fn check(&self, value: &str) -> Result<(), String> {
        if !self.choices.is_empty() && !self.choices.iter().any(|c| c == value) {
            return Err(format!(
                "`{value}` is not one of {}",
                self.choices.join(", ")
            ));
        }
        if let Some(range) = &self.range {
            range.check(value)?;
        }
        Ok(())
    }

    /// The same option, stepped through by a letter key in the window.
    #[must_use]
    pub fn with_key(mut self, key: char) -> Self {
        self.key = Some(key.to_ascii_uppercase());
        self
    }

    /// The choice after the current one, wrapping around (for the window's key).
    pub fn next_choice(&self) -> Option<&str> {
        let at = self.choices.iter().position(|c| *c == self.value);
        let next = at.map_or(0, |i| (i + 1) % self.choices.len().max(1));
        self.choices.get(next).map(String::as_str)
    }
}

/// A named statistic.
#[derive(Debug, Clone, PartialEq)]
pub struct Stat {
    /// Machine-readable key, e.g. `columns_placed`.
    pub key: String,
    /// Human-readable label, e.g. `columns placed`.
    pub label: String,
    /// The value.
    pub value: StatValue,
}

/// A statistic's value.
#[derive(Debug, Clone, PartialEq)]
pub enum StatValue {
    /// A count.
    Int(i64),
    /// A measurement.
    Float(f64),
    /// Words.
    Text(String),
}

impl std::fmt::Display for StatValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Int(v) => write!(f, "{v}"),
            Self::Float(v) => write!(f, "{v:.3}"),
            Self::Text(v) => f.write_str(v),
        }
    }
}

impl Stat {
    /// A statistic with its key, label and value.
    pub fn new(key: &str, label: &str, value: StatValue) -> Self {
        Self {
            key: key.to_owned(),
            label: label.to_owned(),
            value,
        }
    }
}

/// Everything a plug-in may see and do during one frame.
pub struct FrameContext<'a> {
    frame_number: u64,
    ram: &'a Ram,
    picture: &'a [u16],
    console: &'a dyn Console,
    news: &'a dyn GameNews,
    out: FrameOutputs<'a>,
}

/// Where a plug-in's doings during a frame go: the host's queue of RAM writes, and the
/// plug-in's buttons and status.
pub struct FrameOutputs<'a> {
    /// RAM writes (address, value), applied before the next frame runs.
    pub pokes: &'a mut Vec<(u16, u8)>,
    /// Controller 1's buttons during the next frame.
    pub buttons: &'a mut Buttons,
    /// Status lines, overlay marks and notes.
    pub status: &'a mut Status,
    /// Resets, power cycles and state loads, done after every plug-in has seen the frame.
    pub requests: &'a mut Vec<ConsoleRequest>,
    /// Events of the game seen in this frame, for the plug-ins called after this one.
    pub events: &'a mut Vec<String>,
}

impl<'a> FrameContext<'a> {
    /// Built by the host for each call.
    pub fn new(
        frame_number: u64,
        ram: &'a Ram,
        picture: &'a [u16],
        console: &'a dyn Console,
        out: FrameOutputs<'a>,
    ) -> Self {
        Self {
            frame_number,
            ram,
            picture,
            console,
            news: &NoNews,
            out,
        }
    }

    /// The same context with what the plug-ins called before this one said of the game.
    #[must_use]
    pub fn with_news(mut self, news: &'a dyn GameNews) -> Self {
        self.news = news;
        self
    }

    /// What the plug-ins called before this one in the frame announced and how they describe
    /// the game.
    pub fn news(&self) -> &dyn GameNews {
        self.news
    }

    /// Announces an event of the game seen in this frame (one of [`Plugin::events`]).
    pub fn announce(&mut self, event: &str) {
        self.out.events.push(event.to_owned());
    }

    /// The console beyond RAM: the whole CPU bus, its state, the person's buttons, lag.
    pub fn console(&self) -> &dyn Console {
        self.console
    }

    /// Asks the host to reset, power-cycle or load a state after this frame.
    pub fn request(&mut self, request: ConsoleRequest) {
        self.out.requests.push(request);
    }

    /// Frames run since power-on.
    pub fn frame_number(&self) -> u64 {
        self.frame_number
    }

    /// CPU RAM at the end of the frame just rendered.
    pub fn ram(&self) -> &Ram {
        self.ram
    }

    /// The rendered frame as NES palette indices, 256x240, row by row.
    pub fn picture(&self) -> &[u16] {
        self.picture
    }

    /// Queues a RAM write, applied before the next frame runs.
    pub fn poke(&mut self, address: u16, value: u8) {
        self.out.pokes.push((address, value));
    }

    /// The controller-1 buttons to hold during the next frame.
    pub fn buttons(&self) -> Buttons {
        *self.out.buttons
    }

    /// Chooses the controller-1 buttons to hold during the next frame.
    pub fn set_buttons(&mut self, buttons: Buttons) {
        *self.out.buttons = buttons;
    }

    /// Status lines and overlay marks; they persist until the plug-in changes them.
    pub fn status(&mut self) -> &mut Status {
        self.out.status
    }
}

/// What a plug-in did in one frame, called without a host (its tests, tools, fuzzing).
#[derive(Debug, Default)]
pub struct FrameOutcome {
    /// The buttons it wants held during the next frame.
    pub buttons: Buttons,
    /// The RAM writes it asked for.
    pub pokes: Vec<(u16, u8)>,
    /// The status it published.
    pub status: Status,
    /// What it asked of the console.
    pub requests: Vec<ConsoleRequest>,
    /// The events it announced.
    pub events: Vec<String>,
}

impl FrameOutcome {
    /// Calls `plugin` with frame `frame_number` of `ram` (no picture) and keeps what it did.
    pub fn of(plugin: &mut dyn Plugin, frame_number: u64, ram: &Ram) -> Self {
        let mut outcome = Self::default();
        let out = FrameOutputs {
            pokes: &mut outcome.pokes,
            buttons: &mut outcome.buttons,
            status: &mut outcome.status,
            requests: &mut outcome.requests,
            events: &mut outcome.events,
        };
        let console = RamOnly(ram);
        plugin.on_frame(&mut FrameContext::new(
            frame_number,
            ram,
            &[],
            &console,
            out,
        ));
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_options_refuse_nan_infinities_and_out_of_range_values() {
        let speed = PluginOption::number(
            "speed",
            "frames a press",
            "2",
            NumberRange {
                min: 1.0,
                max: 60.0,
                integer: true,
            },
        );
        for bad in [
            "NaN", "nan", "inf", "-inf", "infinity", "1e999", "0", "61", "1.5", "", "x",
        ] {
            assert!(speed.check(bad).is_err(), "{bad} accepted");
        }
        for good in ["1", "60", "2", " 7 "] {
            assert_eq!(speed.check(good), Ok(()), "{good}");
        }
        let choice = PluginOption::choice("mode", "how", "normal", &["normal", "fast"]);
        assert!(choice.check("warp").is_err());
        assert_eq!(choice.check("fast"), Ok(()));
        assert_eq!(
            PluginOption::text("file", "a file", "", "FILE").check("x"),
            Ok(())
        );
    }
}
