//! Bots in other processes, in any language, playing through jewelbot: a plug-in that runs a
//! bot's program (or connects to one over TCP) and speaks the bot protocol with it, one JSON
//! object a line each way (`docs/bot-protocol.md`).
//!
//! The bot says in its `hello` what it wants to hear of: every frame, or events (the host's
//! power-on, reset and wake-ups, and those the game's plug-ins announce, such as Magic
//! Jewelry's spawns), with RAM ranges and the game plug-ins' descriptions of the game. For each
//! it is sent a `frame` message and answers with buttons for the frames to come, RAM writes,
//! states saved and loaded by name, status lines and drawings. In lockstep (the default) the
//! emulator waits for each answer, so a bot plays the same game on any machine; in real time
//! the game runs on and answers are used as they come.
//!
//! A bot that misbehaves is stopped with one message saying how (the line it wrote, cut), and
//! the game goes on: its process is killed and reaped, the controller goes back to the AI.
//! What a bot can take of the host is bounded: its lines, its standard error, the states it
//! keeps ([`MAX_STATES`], [`MAX_STATE_BYTES`]), the host's waits for it.

mod link;
mod offer;
pub mod protocol;
mod states;
mod stats;

pub use offer::OFFER;

pub use link::{Target, MAX_LINE, STDERR_LINE_KEPT};
pub use states::{MAX_STATES, MAX_STATE_BYTES};

use jewelbot_plugin::{
    Buttons, ConsoleRequest, FrameContext, Plugin, RomIdentity, Stat, StatValue, RAM_SIZE,
};
use link::{cut, Link};
use protocol::{Answer, Subscription, PROTOCOL_VERSION};
use states::SavedStates;
use stats::Decisions;
use std::collections::{BTreeMap, VecDeque};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// How long the host waits for a bot by default: its hello, and each answer in lockstep.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// How often a wait for the bot looks whether a signal asked the run to end.
const STOP_CHECK: Duration = Duration::from_millis(20);

/// How the bot is reached and waited for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotSettings {
    /// Its program or address.
    pub target: Target,
    /// The game runs on while the bot thinks; answers are used as they come.
    pub realtime: bool,
    /// The longest wait for a line the bot owes.
    pub timeout: Duration,
}

/// A message sent and not yet answered.
struct Outstanding {
    frame: u64,
    sent: Instant,
}

/// The plug-in that runs a bot.
pub struct BotPlugin {
    settings: BotSettings,
    link: Option<Link>,
    rom: Option<RomFacts>,
    /// What the bot asked for, once it said hello.
    subscription: Option<Subscription>,
    /// Buttons for the frames to come, the next first.
    timeline: VecDeque<Buttons>,
    outstanding: VecDeque<Outstanding>,
    /// The frame of a wake-up the bot asked for.
    wake_at: Option<u64>,
    /// States the bot saved, by name.
    states: SavedStates,
    /// A reset or state load happened since the last frame.
    reset_seen: bool,
    /// The bot's own state load is under way: its timeline stands.
    loading: bool,
    status_lines: Vec<String>,
    drawings: Vec<jewelbot_plugin::Drawing>,
    /// The status shown is out of date (an answer came, the bot stopped): the host keeps a
    /// plug-in's status until it changes, so it is written only then.
    status_changed: bool,
    /// Why the bot was stopped, once it has been.
    stopped: Option<String>,
    /// Why the bot asked the run to end, once it has.
    end: Option<String>,
    decisions: Decisions,
    last_frame: u64,
}

/// What the welcome says of the cartridge.
struct RomFacts {
    name: String,
    mapper: u16,
    crc32: u32,
    sha1: String,
}

impl BotPlugin {
    /// A plug-in for the bot `settings` name; the bot starts when a ROM is loaded.
    pub fn new(settings: BotSettings) -> Self {
        Self {
            settings,
            link: None,
            rom: None,
            subscription: None,
            timeline: VecDeque::new(),
            outstanding: VecDeque::new(),
            wake_at: None,
            states: SavedStates::default(),
            reset_seen: false,
            loading: false,
            status_lines: Vec::new(),
            drawings: Vec::new(),
            status_changed: true,
            stopped: None,
            end: None,
            decisions: Decisions::default(),
            last_frame: 0,
        }
    }

    /// Stops the bot for good: one message, its process killed and reaped, the controller
    /// handed back.
    fn stop(&mut self, why: String) {
        if self.stopped.is_some() {
            return;
        }
        if jewelbot_plugin::stop_requested() {
            eprintln!("bot: {why} (the bot is stopped)");
        } else {
            eprintln!("bot: {why} (the bot is stopped; the game goes on)");
        }
        if let Some(mut link) = self.link.take() {
            link.kill();
        }
        self.timeline.clear();
        self.outstanding.clear();
        self.drawings.clear();
        self.status_lines = vec![format!("bot stopped: {why}")];
        self.status_changed = true;
        self.stopped = Some(why);
    }

    fn link(&mut self) -> Result<&mut Link, String> {
        self.link
            .as_mut()
            .ok_or_else(|| "the bot is not connected".to_owned())
    }

    /// Sends a line; `Err` is the reason the bot stops.
    fn send(&mut self, line: String) -> Result<(), String> {
        self.link()?.send(line)
    }

    /// Waits for the bot's next line, at most the timeout, and no longer once a signal asked
    /// the run to end.
    fn receive(&mut self, awaited: &str) -> Result<String, String> {
        let timeout = self.settings.timeout;
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if let Some(line) = self.link()?.receive(left.min(STOP_CHECK))? {
                return Ok(line);
            }
            if jewelbot_plugin::stop_requested() {
                return Err(format!(
                    "jewelbot was told to stop while it waited for {awaited}"
                ));
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "the bot did not send {awaited} within {} s",
                    timeout.as_secs_f64()
                ));
            }
        }
    }

    /// The welcome, then the bot's hello.
    fn greet(&mut self, ctx: &FrameContext<'_>) -> Result<(), String> {
        let offered_by = ctx.news().offered();
        let mut events = BTreeMap::new();
        let mut offered: Vec<String> = protocol::HOST_EVENTS.map(str::to_owned).to_vec();
        events.insert("host".to_owned(), {
            let mut host = vec![protocol::EVERY_FRAME.to_owned()];
            host.extend(offered.iter().cloned());
            host
        });
        for (plugin, announced) in offered_by {
            offered.extend(announced.iter().cloned());
            events.insert(plugin, announced);
        }
        let views = ctx
            .news()
            .descriptions()
            .into_iter()
            .map(|(plugin, _)| plugin)
            .collect();
        let rom = self
            .rom
            .as_ref()
            .ok_or_else(|| "no cartridge is loaded".to_owned())?;
        let welcome = protocol::Welcome {
            kind: "welcome",
            protocol: PROTOCOL_VERSION,
            host: format!("jewelbot {}", env!("CARGO_PKG_VERSION")),
            rom: protocol::Rom {
                name: &rom.name,
                mapper: rom.mapper,
                crc32: format!("{:08x}", rom.crc32),
                sha1: &rom.sha1,
            },
            pacing: if self.settings.realtime {
                "realtime"
            } else {
                "lockstep"
            },
            events,
            views,
        };
        let line = serde_json::to_string(&welcome).map_err(|e| e.to_string())?;
        self.send(line)?;
        let hello = self.receive("its hello")?;
        let subscription = protocol::read_hello(&hello, &offered)
            .map_err(|why| format!("{why}; it wrote: {}", cut(&hello)))?;
        self.subscription = Some(subscription);
        // The header names the bot as it calls itself.
        self.status_changed = true;
        Ok(())
    }

    /// The events of this frame the bot asked for.
    fn due_events(&mut self, ctx: &FrameContext<'_>, subscription: &Subscription) -> Vec<String> {
        let frame = ctx.frame_number();
        let wants = |event: &str| subscription.events.iter().any(|e| e == event);
        let mut events = Vec::new();
        if frame == 0 && wants(protocol::POWER_ON) {
            events.push(protocol::POWER_ON.to_owned());
        }
        if std::mem::take(&mut self.reset_seen) && wants(protocol::RESET) {
            events.push(protocol::RESET.to_owned());
        }
        if self.wake_at == Some(frame) {
            self.wake_at = None;
            events.push(protocol::WAKE.to_owned());
        }
        for announcement in ctx.news().announced() {
            if wants(&announcement.event) && !events.contains(&announcement.event) {
                events.push(announcement.event.clone());
            }
        }
        events
    }

    /// The message of this frame.
    fn message(
        ctx: &FrameContext<'_>,
        subscription: &Subscription,
        events: Vec<String>,
    ) -> protocol::FrameMessage {
        let console = ctx.console();
        let ram = subscription
            .ram
            .iter()
            .map(|&(start, end)| {
                let mut hex = String::with_capacity(2 * (usize::from(end - start) + 1));
                for address in start..=end {
                    let _ = write!(hex, "{:02x}", console.peek(address));
                }
                hex
            })
            .collect();
        let views = subscription.views.then(|| {
            ctx.news()
                .descriptions()
                .into_iter()
                .filter_map(|(plugin, text)| Some((plugin, serde_json::from_str(&text).ok()?)))
                .collect()
        });
        protocol::FrameMessage {
            kind: "frame",
            frame: ctx.frame_number(),
            lag: console.lagged(),
            events,
            ram,
            views,
        }
    }

    /// One frame of the conversation: the hello first, then the answers that came, the
    /// message due, the answer to it in lockstep.
    fn converse(&mut self, ctx: &mut FrameContext<'_>) -> Result<(), String> {
        if self.subscription.is_none() {
            self.greet(ctx)?;
        }
        // Lent out for the frame, not copied.
        let Some(subscription) = self.subscription.take() else {
            return Ok(());
        };
        let result = self.converse_as(ctx, &subscription);
        self.subscription = Some(subscription);
        result
    }

    fn converse_as(
        &mut self,
        ctx: &mut FrameContext<'_>,
        subscription: &Subscription,
    ) -> Result<(), String> {
        if self.settings.realtime {
            self.take_arrived(ctx)?;
        }
        let events = self.due_events(ctx, subscription);
        // A bot that thinks in real time is not sent frames it would fall behind on.
        let busy = self.settings.realtime && !self.outstanding.is_empty();
        if !self.outstanding.is_empty() {
            self.decisions.frames_waited += 1;
        }
        if events.is_empty() && (!subscription.every_frame || busy) {
            return Ok(());
        }
        let message = Self::message(ctx, subscription, events);
        let line = serde_json::to_string(&message).map_err(|e| e.to_string())?;
        // Timed from before the handing over: the bot may answer before this thread runs on.
        let sent = Instant::now();
        self.send(line)?;
        self.outstanding.push_back(Outstanding {
            frame: ctx.frame_number(),
            sent,
        });
        self.decisions.messages += 1;
        if !self.settings.realtime {
            self.decisions.frames_waited += 1;
            let frame = ctx.frame_number();
            let line = self.receive(&format!("its answer to frame {frame}"))?;
            self.take_answer(ctx, &line)?;
        }
        Ok(())
    }

    /// In real time: every answer that has come since the last frame.
    fn take_arrived(&mut self, ctx: &mut FrameContext<'_>) -> Result<(), String> {
        loop {
            let arrived = self.link()?.receive(Duration::ZERO)?;
            match arrived {
                Some(line) => self.take_answer(ctx, &line)?,
                None => break,
            }
        }
        if let Some(oldest) = self.outstanding.front() {
            if oldest.sent.elapsed() > self.settings.timeout {
                return Err(format!(
                    "the bot did not answer frame {} within {} s",
                    oldest.frame,
                    self.settings.timeout.as_secs_f64()
                ));
            }
        }
        Ok(())
    }

    /// Checks an answer against the message it answers, and does what it says.
    fn take_answer(&mut self, ctx: &mut FrameContext<'_>, line: &str) -> Result<(), String> {
        let with_line = |why: String| format!("{why}; it wrote: {}", cut(line));
        let answer = protocol::read_answer(line).map_err(with_line)?;
        let Some(asked) = self.outstanding.pop_front() else {
            return Err(with_line(
                "the bot answered when nothing was asked".to_owned(),
            ));
        };
        if answer.frame != asked.frame {
            return Err(with_line(format!(
                "the bot answered frame {} where frame {} was asked (does it answer twice?)",
                answer.frame, asked.frame
            )));
        }
        self.decisions.took(asked.sent.elapsed());
        self.status_changed = true;
        self.carry_out(ctx, answer).map_err(with_line)
    }

    fn carry_out(&mut self, ctx: &mut FrameContext<'_>, answer: Answer) -> Result<(), String> {
        if let Some(name) = answer.save {
            let state = ctx.console().save_state()?;
            self.states.save(name, state)?;
        }
        if let Some(name) = answer.load {
            let state = self
                .states
                .get(&name)
                .ok_or_else(|| format!("the bot loads the state `{name}`, which it never saved"))?;
            ctx.request(ConsoleRequest::LoadState(state.clone()));
            self.loading = true;
        }
        for (address, value) in answer.pokes {
            debug_assert!(usize::from(address) < RAM_SIZE);
            ctx.poke(address, value);
        }
        if let Some(lines) = answer.status {
            self.status_lines = lines.iter().map(|line| cut(line)).collect();
        }
        if let Some(drawings) = answer.drawings {
            self.drawings = drawings;
        }
        if let Some(reason) = answer.end {
            self.end = Some(format!("the bot ended the run: {}", cut(&reason)));
        }
        if let Some(frames) = answer.wake {
            self.wake_at = Some(ctx.frame_number().saturating_add(frames));
        }
        self.timeline = answer.buttons.into();
        Ok(())
    }
}

impl BotPlugin {
    /// The status line jewelbot writes above the bot's own: who it is, how it is paced, how
    /// it answers.
    fn header(&self) -> String {
        let name = self
            .subscription
            .as_ref()
            .map_or_else(|| self.settings.target.to_string(), |s| s.name.clone());
        let pacing = if self.settings.realtime {
            "real time"
        } else {
            "lockstep"
        };
        format!(
            "bot {name} ({pacing}): {} answers, the last in {:.1} ms",
            self.decisions.answers(),
            self.decisions.last().as_secs_f64() * 1000.0
        )
    }
}

impl Plugin for BotPlugin {
    fn name(&self) -> &'static str {
        "bot"
    }

    /// Starts the bot's program or connects to it, afresh for each cartridge. One that cannot
    /// start is stopped as a bot that fails is (one message, the controller back to the AI,
    /// `bot_stopped` saying why), and the game goes on.
    fn attach(&mut self, rom: &RomIdentity<'_>) -> Result<String, String> {
        if let Some(mut link) = self.link.take() {
            link.close(None);
        }
        self.subscription = None;
        self.stopped = None;
        self.end = None;
        self.timeline.clear();
        self.outstanding.clear();
        self.wake_at = None;
        self.states.clear();
        self.loading = false;
        self.status_lines.clear();
        self.drawings.clear();
        self.status_changed = true;
        self.rom = Some(RomFacts {
            name: rom.name.to_owned(),
            mapper: rom.mapper,
            crc32: rom.prg_chr_crc32,
            sha1: rom.file_sha1.to_owned(),
        });
        let target = cut(&self.settings.target.to_string());
        match Link::open(&self.settings.target, self.settings.timeout) {
            Ok(link) => {
                self.link = Some(link);
                Ok(format!("the bot {target}"))
            }
            Err(why) => {
                self.stop(why.clone());
                Ok(format!("the bot {target}, stopped: {why}"))
            }
        }
    }

    fn wants_controller(&self) -> bool {
        self.stopped.is_none()
    }

    fn ended(&self) -> Option<String> {
        self.end.clone()
    }

    fn on_frame(&mut self, ctx: &mut FrameContext<'_>) {
        self.last_frame = ctx.frame_number();
        if self.stopped.is_none() {
            if let Err(why) = self.converse(ctx) {
                self.stop(why);
            }
        }
        let buttons = self.timeline.pop_front().unwrap_or(Buttons::NONE);
        ctx.set_buttons(buttons);
        if std::mem::take(&mut self.status_changed) {
            let header = self.header();
            let status = ctx.status();
            status.lines.clear();
            status.lines.push(header);
            status.lines.extend(self.status_lines.iter().cloned());
            status.drawings.clone_from(&self.drawings);
        }
    }

    fn on_reset(&mut self) {
        self.reset_seen = true;
        // A reset the bot did not ask for makes its plans stale.
        if !std::mem::take(&mut self.loading) {
            self.timeline.clear();
        }
    }

    fn stats(&self) -> Vec<Stat> {
        let d = &self.decisions;
        let ms = |duration: Duration| StatValue::Float(duration.as_secs_f64() * 1000.0);
        vec![
            Stat::new(
                "bot_messages",
                "messages to the bot",
                StatValue::Int(d.messages as i64),
            ),
            Stat::new(
                "bot_answers",
                "answers from the bot",
                StatValue::Int(d.answers() as i64),
            ),
            Stat::new(
                "bot_decision_ms_median",
                "bot decision median (ms)",
                ms(d.median()),
            ),
            Stat::new("bot_decision_ms_max", "bot decision max (ms)", ms(d.max())),
            Stat::new(
                "bot_frames_waited",
                "frames waited on the bot",
                StatValue::Int(d.frames_waited as i64),
            ),
            Stat::new(
                "bot_stopped",
                "bot stopped",
                StatValue::Text(self.stopped.clone().unwrap_or_else(|| "no".to_owned())),
            ),
        ]
    }

    fn stat(&self, key: &str) -> Option<i64> {
        let d = &self.decisions;
        match key {
            "bot_messages" => Some(d.messages as i64),
            "bot_answers" => Some(d.answers() as i64),
            "bot_frames_waited" => Some(d.frames_waited as i64),
            _ => None,
        }
    }
}

impl Drop for BotPlugin {
    /// Tells the bot the run is over and lets it exit; one that does not is killed.
    fn drop(&mut self) {
        if let Some(mut link) = self.link.take() {
            let bye = protocol::Bye {
                kind: "bye",
                frame: self.last_frame,
                reason: "the run is over".to_owned(),
            };
            link.close(serde_json::to_string(&bye).ok());
        }
    }
}
