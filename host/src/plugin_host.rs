//! Runs in-process plug-ins once per frame and contains their failures.
//!
//! A plug-in that panics is caught, its half-done frame (buttons, RAM writes) is thrown away,
//! and it is restarted at the next frame: told of a reset, then called as before. One that
//! panics again and again ([`RESTART_LIMIT`] times within [`RESTART_WINDOW_FRAMES`]) is
//! switched off for the session. In real time (the window's [`Pacing`]), a plug-in that takes
//! longer than the stall limit over a frame has that frame's output thrown away, its buttons
//! released; in lockstep (the default, and headless runs') the host waits for it, so that the
//! same inputs give the same game however loaded the machine is. Plug-ins are told which. Messages about either are rate limited so a plug-in
//! that fails every frame cannot flood the user.

use jewelbot_plugin::{
    Announcement, Buttons, Console, ConsoleRequest, FrameContext, FrameOutputs, GameNews,
    Inspection, Milestone, Pacing, Plugin, PluginOption, Ram, Recording, RomIdentity, Series, Stat,
    Status, StopCondition, Story,
};
use std::collections::VecDeque;
use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

// Containment catches plug-in panics by unwinding; a build that aborts on panic would let any
// plug-in bug take the whole emulator down.
#[cfg(not(panic = "unwind"))]
compile_error!(
    "the plug-in host contains plug-in panics by unwinding: build with panic = \"unwind\""
);

/// Panics within [`RESTART_WINDOW_FRAMES`] after which a plug-in stays off.
pub const RESTART_LIMIT: usize = 3;
/// The window over which panics are counted (ten seconds of play at 60 frames a second).
pub const RESTART_WINDOW_FRAMES: u64 = 600;
/// Frames between two messages of one kind about one plug-in; those in between are counted.
pub const MESSAGE_INTERVAL_FRAMES: u64 = 600;
/// The window's pacing: frames on a clock, and 500 ms the longest a plug-in may take over one
/// frame before its output is thrown away. Far above a decision of the default player; a
/// plug-in this slow holds the game up visibly, and what it decided is thirty frames late.
pub const WINDOW_PACING: Pacing = Pacing::RealTime {
    stall_limit: Duration::from_millis(500),
};

/// Where a plug-in stands with the loaded ROM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SlotState {
    /// Not yet offered a ROM.
    Idle,
    /// Runs every frame; the text says what it recognised.
    Active(String),
    /// Declined the ROM; the emulator runs without it.
    Declined(String),
    /// Panicked; it is restarted at the next frame. The text is the panic.
    Restarting(String),
    /// Panicked too often and was switched off for the session.
    Disabled(String),
}

/// At most one message a [`MESSAGE_INTERVAL_FRAMES`], with a count of those held back.
#[derive(Debug, Default)]
struct RateLimit {
    last: Option<u64>,
    held_back: u64,
}

impl RateLimit {
    /// `Some(messages held back since the last one)` when a message may go out at `frame`.
    fn admit(&mut self, frame: u64) -> Option<u64> {
        let due = self
            .last
            .is_none_or(|last| frame.saturating_sub(last) >= MESSAGE_INTERVAL_FRAMES);
        if due {
            self.last = Some(frame);
            Some(std::mem::take(&mut self.held_back))
        } else {
            self.held_back += 1;
            None
        }
    }
}

/// Notes kept between two [`PluginHost::drain_notes`], at most: a log that is never read
/// does not grow without bound.
const MAX_PENDING_NOTES: usize = 65_536;

/// A plug-in's note ([`Status::notes`]) with the frame it was written at.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Note {
    pub frame: u64,
    pub plugin: String,
    pub text: String,
}

/// One plug-in and what the host keeps for it.
pub struct PluginSlot {
    plugin: Box<dyn Plugin>,
    state: SlotState,
    status: Status,
    buttons: Buttons,
    /// What it recognised when attached, for its state after a restart.
    recognised: String,
    /// Frames of its recent panics, oldest first.
    panics: VecDeque<u64>,
    restarts: u64,
    stalls: u64,
    /// The longest it took over one frame.
    slowest_frame: Duration,
    panic_messages: RateLimit,
    stall_messages: RateLimit,
    /// It asks to hold the controller alone ([`Plugin::wants_controller`]).
    holds_controller: bool,
}

impl PluginSlot {
    pub fn name(&self) -> &str {
        self.plugin.name()
    }

    pub fn state(&self) -> &SlotState {
        &self.state
    }

    pub fn status(&self) -> &Status {
        &self.status
    }

    pub fn is_active(&self) -> bool {
        matches!(self.state, SlotState::Active(_))
    }

    /// Times it was restarted after a panic.
    pub fn restarts(&self) -> u64 {
        self.restarts
    }

    /// Frames whose output was thrown away because it overran the stall limit.
    pub fn stalls(&self) -> u64 {
        self.stalls
    }

    /// The longest it took over one frame since it was attached.
    pub fn slowest_frame(&self) -> Duration {
        self.slowest_frame
    }

    /// Attached and not given up on: active, or waiting for its restart.
    fn is_running(&self) -> bool {
        matches!(self.state, SlotState::Active(_) | SlotState::Restarting(_))
    }
}

/// The plug-ins of a session.
pub struct PluginHost {
    slots: Vec<PluginSlot>,
    pokes: Vec<(u16, u8)>,
    /// What the plug-ins asked of the console this frame, each with the plug-in's name.
    requests: Vec<(String, ConsoleRequest)>,
    /// The events the plug-ins announced this frame, in order.
    announced: Vec<Announcement>,
    messages: Vec<String>,
    /// Notes not yet drained, when they are kept at all.
    notes: Option<Vec<Note>>,
    /// The last frame the plug-ins were shown.
    frame: u64,
    in_control: bool,
    /// The plug-ins that do not hold the controller alone (the built-in AI) may press: off
    /// with `--ai off`, where a script or bot holds it, or nobody.
    ai: bool,
    pacing: Pacing,
}

impl Default for PluginHost {
    fn default() -> Self {
        Self {
            slots: Vec::new(),
            pokes: Vec::new(),
            requests: Vec::new(),
            announced: Vec::new(),
            messages: Vec::new(),
            notes: None,
            frame: 0,
            in_control: true,
            ai: true,
            pacing: Pacing::Lockstep,
        }
    }
}

impl PluginHost {
    pub fn new(plugins: Vec<Box<dyn Plugin>>) -> Self {
        Self {
            slots: plugins
                .into_iter()
                .map(|plugin| PluginSlot {
                    holds_controller: plugin.wants_controller(),
                    plugin,
                    state: SlotState::Idle,
                    status: Status::default(),
                    buttons: Buttons::NONE,
                    recognised: String::new(),
                    panics: VecDeque::new(),
                    restarts: 0,
                    stalls: 0,
                    slowest_frame: Duration::ZERO,
                    panic_messages: RateLimit::default(),
                    stall_messages: RateLimit::default(),
                })
                .collect(),
            ..Self::default()
        }
    }

    pub fn slots(&self) -> &[PluginSlot] {
        &self.slots
    }

    /// Whether the host waits for its plug-ins or drops the output of a frame that stalls.
    pub fn pacing(&self) -> Pacing {
        self.pacing
    }

    /// Paces the plug-ins, and tells them so.
    pub fn set_pacing(&mut self, pacing: Pacing) {
        self.pacing = pacing;
        for slot in &mut self.slots {
            // A plug-in that panics here keeps its old pacing; it is contained all the same.
            let _ = guarded(|| slot.plugin.set_pacing(pacing));
        }
    }

    /// Keeps the plug-ins' notes for [`PluginHost::drain_notes`] (they are dropped otherwise).
    pub fn keep_notes(&mut self) {
        self.notes.get_or_insert_with(Vec::new);
    }

    /// The notes kept since the last call, oldest first.
    pub fn drain_notes(&mut self) -> Vec<Note> {
        self.notes.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Offers the ROM to every plug-in.
    pub fn attach(&mut self, rom: &RomIdentity<'_>) {
        for slot in &mut self.slots {
            let result = guarded(|| slot.plugin.attach(rom));
            slot.state = match result {
                Ok(Ok(recognised)) => {
                    slot.recognised.clone_from(&recognised);
                    SlotState::Active(recognised)
                }
                Ok(Err(reason)) => SlotState::Declined(reason),
                Err(panic) => SlotState::Disabled(format!("panicked while attaching: {panic}")),
            };
            if let SlotState::Declined(reason) | SlotState::Disabled(reason) = &slot.state {
                self.messages
                    .push(format!("{} is not running: {reason}", slot.plugin.name()));
            }
        }
    }

    /// Calls every running plug-in with the frame just rendered (restarting those that
    /// panicked last time); returns the buttons they want held during the next frame (their
    /// union).
    pub fn run_frame(
        &mut self,
        frame_number: u64,
        ram: &Ram,
        picture: &[u16],
        console: &dyn Console,
    ) -> Buttons {
        self.frame = frame_number;
        self.announced.clear();
        let holder_before = self.holder_index();
        let mut wanted = Buttons::NONE;
        for index in 0..self.slots.len() {
            if matches!(self.slots[index].state, SlotState::Restarting(_)) && !self.restart(index) {
                continue;
            }
            let (earlier, rest) = self.slots.split_at_mut(index);
            let slot = &mut rest[0];
            if !slot.is_active() {
                continue;
            }
            let PluginSlot {
                plugin,
                status,
                buttons,
                ..
            } = slot;
            let pokes_before = self.pokes.len();
            let pokes = &mut self.pokes;
            let mut asked = Vec::new();
            let requests = &mut asked;
            let mut announced = Vec::new();
            let events = &mut announced;
            let news = EarlierPlugins {
                slots: earlier,
                ram,
                announced: &self.announced,
            };
            let started = Instant::now();
            let result = guarded(|| {
                let out = FrameOutputs {
                    pokes,
                    buttons,
                    status,
                    requests,
                    events,
                };
                let mut ctx =
                    FrameContext::new(frame_number, ram, picture, console, out).with_news(&news);
                plugin.on_frame(&mut ctx);
                plugin.wants_controller()
            });
            let took = started.elapsed();
            let slot = &mut self.slots[index];
            slot.slowest_frame = slot.slowest_frame.max(took);
            match result {
                Ok(_)
                    if let Some(limit) =
                        self.pacing.stall_limit().filter(|&limit| took > limit) =>
                {
                    // Too late to be trusted with this frame: nothing it did is applied.
                    self.pokes.truncate(pokes_before);
                    self.stalled(index, took, limit);
                }
                Ok(wants_controller) => {
                    // A bot that gave up hands the controller back.
                    self.slots[index].holds_controller = wants_controller;
                    if self.in_control(index) {
                        wanted |= self.slots[index].buttons;
                    }
                    // Most frames ask and announce nothing: no name is copied for them.
                    if !asked.is_empty() || !announced.is_empty() {
                        let name = self.slots[index].name().to_owned();
                        self.requests
                            .extend(asked.into_iter().map(|request| (name.clone(), request)));
                        self.announced
                            .extend(announced.into_iter().map(|event| Announcement {
                                plugin: name.clone(),
                                event,
                            }));
                    }
                    self.take_notes(index);
                }
                Err(panic) => {
                    // Half-done work of a failing plug-in is not applied.
                    self.pokes.truncate(pokes_before);
                    self.panicked(index, &panic);
                }
            }
        }
        if self.holder_index() != holder_before {
            // The controller changed hands: every plug-in hears whether it has it now.
            self.set_in_control(self.in_control);
        }
        wanted
    }

    /// Moves a plug-in's notes of this frame to the host's log, or drops them.
    fn take_notes(&mut self, index: usize) {
        let slot = &mut self.slots[index];
        if slot.status.notes.is_empty() {
            return;
        }
        let notes = std::mem::take(&mut slot.status.notes);
        let Some(log) = &mut self.notes else {
            return;
        };
        let plugin = slot.plugin.name().to_owned();
        let room = MAX_PENDING_NOTES.saturating_sub(log.len());
        log.extend(notes.into_iter().take(room).map(|text| Note {
            frame: self.frame,
            plugin: plugin.clone(),
            text,
        }));
    }

    /// Whether the plug-in at `index` holds the controller: the console's buttons are the
    /// plug-ins', and no running plug-in asks to hold it alone unless this one does.
    fn in_control(&self, index: usize) -> bool {
        let holders = self.holder_index().is_some();
        self.in_control
            && if holders {
                self.slots[index].holds_controller
            } else {
                self.ai
            }
    }

    /// Turns the built-in AI on or off: off, only a plug-in that holds the controller alone
    /// (a script or a bot) presses, and with none running, nobody does.
    pub fn set_ai(&mut self, ai: bool) {
        self.ai = ai;
        self.set_in_control(self.in_control);
    }

    /// Whether some plug-in's buttons reach the console while the plug-ins have it: the AI
    /// is on, or a script or bot holds the controller.
    pub fn anyone_presses(&self) -> bool {
        self.ai || self.holder_index().is_some()
    }

    /// Tells a plug-in that panicked of a reset and whether it is in control; `true` when it
    /// took both without panicking and runs again.
    fn restart(&mut self, index: usize) -> bool {
        let in_control = self.in_control(index);
        let slot = &mut self.slots[index];
        let result = guarded(|| {
            slot.plugin.on_reset();
            slot.plugin.set_in_control(in_control);
        });
        match result {
            Ok(()) => {
                slot.restarts += 1;
                slot.state = SlotState::Active(slot.recognised.clone());
                true
            }
            Err(panic) => {
                self.panicked(index, &panic);
                false
            }
        }
    }

    /// A plug-in panicked: its buttons are released and it is restarted at the next frame,
    /// unless it has panicked too often lately.
    fn panicked(&mut self, index: usize, panic: &str) {
        let frame = self.frame;
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        slot.buttons = Buttons::NONE;
        slot.status.marks.clear();
        slot.status.notes.clear();
        slot.panics.push_back(frame);
        while slot
            .panics
            .front()
            .is_some_and(|&first| frame.saturating_sub(first) >= RESTART_WINDOW_FRAMES)
        {
            slot.panics.pop_front();
        }
        let name = slot.name().to_owned();
        if slot.panics.len() > RESTART_LIMIT {
            let message = format!(
                "plug-in {name} panicked {} times in {RESTART_WINDOW_FRAMES} frames and was \
                 switched off: {panic}",
                slot.panics.len()
            );
            slot.state = SlotState::Disabled(message.clone());
            slot.status.lines = vec![message.clone()];
            // Always said: this is the last word about it.
            self.messages.push(message);
            return;
        }
        let message = format!("plug-in {name} panicked and is restarted: {panic}");
        slot.state = SlotState::Restarting(message.clone());
        slot.status.lines = vec![message.clone()];
        if let Some(held_back) = slot.panic_messages.admit(frame) {
            self.messages.push(with_held_back(message, held_back));
        }
    }

    /// A plug-in overran the stall limit: this frame it presses nothing.
    fn stalled(&mut self, index: usize, took: Duration, limit: Duration) {
        let frame = self.frame;
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        slot.buttons = Buttons::NONE;
        slot.status.notes.clear();
        slot.stalls += 1;
        if let Some(held_back) = slot.stall_messages.admit(frame) {
            let message = format!(
                "plug-in {} took {:.1} ms over frame {frame} (limit {} ms); its buttons were \
                 released for that frame",
                slot.name(),
                took.as_secs_f64() * 1000.0,
                limit.as_millis()
            );
            self.messages.push(with_held_back(message, held_back));
        }
    }

    /// RAM writes the plug-ins queued this frame.
    pub fn take_pokes(&mut self) -> Vec<(u16, u8)> {
        std::mem::take(&mut self.pokes)
    }

    /// What the plug-ins asked of the console this frame, in the order asked, each with the
    /// name of the plug-in that asked.
    pub fn take_requests(&mut self) -> Vec<(String, ConsoleRequest)> {
        std::mem::take(&mut self.requests)
    }

    /// A message for the user about the plug-ins.
    pub fn say(&mut self, message: String) {
        self.messages.push(message);
    }

    /// Messages for the user (a plug-in declined a ROM or was disabled), oldest first.
    pub fn drain_messages(&mut self) -> Vec<String> {
        std::mem::take(&mut self.messages)
    }

    /// Tells active plug-ins the console was reset or a state loaded (one waiting for its
    /// restart hears it then).
    pub fn reset(&mut self) {
        for index in 0..self.slots.len() {
            let slot = &mut self.slots[index];
            if !slot.is_active() {
                continue;
            }
            slot.buttons = Buttons::NONE;
            if let Err(panic) = guarded(|| slot.plugin.on_reset()) {
                self.panicked(index, &panic);
            }
        }
    }

    /// The running plug-in that holds the controller alone ([`Plugin::wants_controller`]), if
    /// any: the one whose buttons the console gets while the plug-ins have it.
    pub fn holder(&self) -> Option<&str> {
        self.holder_index().map(|index| self.slots[index].name())
    }

    fn holder_index(&self) -> Option<usize> {
        self.slots
            .iter()
            .position(|slot| slot.holds_controller && slot.is_running())
    }

    /// Why a running plug-in asks the run to end ([`Plugin::ended`]), the first that does.
    pub fn ended(&self) -> Option<String> {
        self.slots
            .iter()
            .filter(|slot| slot.is_active())
            .find_map(|slot| guarded(|| slot.plugin.ended()).ok().flatten())
    }

    /// The exit status asked by the plug-in that ends the run ([`PluginHost::ended`]).
    pub fn exit_status(&self) -> Option<u8> {
        self.slots
            .iter()
            .filter(|slot| slot.is_active())
            .find(|slot| guarded(|| slot.plugin.ended()).ok().flatten().is_some())
            .and_then(|slot| guarded(|| slot.plugin.exit_status()).ok().flatten())
    }

    /// Tells every active plug-in whether its buttons reach the console; returns how many
    /// plug-ins are active.
    pub fn set_in_control(&mut self, in_control: bool) -> usize {
        self.in_control = in_control;
        let mut active = 0;
        for index in 0..self.slots.len() {
            let in_control = self.in_control(index);
            let slot = &mut self.slots[index];
            if !slot.is_running() {
                continue;
            }
            active += 1;
            if !in_control {
                slot.buttons = Buttons::NONE;
            }
            // One waiting for its restart is told then.
            if !slot.is_active() {
                continue;
            }
            if let Err(panic) = guarded(|| slot.plugin.set_in_control(in_control)) {
                self.panicked(index, &panic);
            }
        }
        active
    }

    /// Sets an option on every active plug-in that knows it; `Err` when none accepted it.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        self.set_option_where(None, name, value)
    }

    /// Sets an option of the active plug-in called `plugin` only (two plug-ins may declare
    /// options of the same name).
    pub fn set_option_of(&mut self, plugin: &str, name: &str, value: &str) -> Result<(), String> {
        self.set_option_where(Some(plugin), name, value)
    }

    fn set_option_where(
        &mut self,
        plugin: Option<&str>,
        name: &str,
        value: &str,
    ) -> Result<(), String> {
        let mut refusals = Vec::new();
        let mut accepted = false;
        for index in 0..self.slots.len() {
            let slot = &mut self.slots[index];
            if !slot.is_active() || plugin.is_some_and(|p| p != slot.name()) {
                continue;
            }
            match guarded(|| slot.plugin.set_option(name, value)) {
                Ok(Ok(())) => accepted = true,
                Ok(Err(reason)) => refusals.push(reason),
                Err(panic) => self.panicked(index, &panic),
            }
        }
        if accepted {
            Ok(())
        } else if refusals.is_empty() {
            Err(match plugin {
                Some(plugin) => format!("no active plug-in {plugin} to take option `{name}`"),
                None => format!("no active plug-in to take option `{name}`"),
            })
        } else {
            Err(refusals.join("; "))
        }
    }

    /// Options of the active plug-ins, by plug-in name.
    pub fn options(&self) -> Vec<(String, Vec<PluginOption>)> {
        self.active()
            .filter_map(|slot| {
                guarded(|| slot.plugin.options())
                    .ok()
                    .map(|o| (slot.name().to_owned(), o))
            })
            .collect()
    }

    /// Inspector views of the active plug-ins.
    pub fn inspect(&self, ram: &Ram) -> Vec<(String, Inspection)> {
        self.active()
            .filter_map(|slot| {
                guarded(|| slot.plugin.inspect(ram))
                    .ok()
                    .map(|i| (slot.name().to_owned(), i))
            })
            .collect()
    }

    /// What the active plug-ins tell a watcher, with charts of at most `recent` events.
    pub fn stories(&self, recent: usize) -> Vec<(String, Story)> {
        self.active()
            .filter_map(|slot| {
                guarded(|| slot.plugin.story(recent))
                    .ok()
                    .map(|story| (slot.name().to_owned(), story))
            })
            .collect()
    }

    /// What the first active plug-in wants recorded (`None` when no plug-in runs).
    pub fn recording(&self) -> Option<Recording> {
        self.active()
            .find_map(|slot| guarded(|| slot.plugin.recording()).ok())
    }

    /// Statistics of the plug-ins that ran (disabled ones included: their counts still stand).
    pub fn stats(&self) -> Vec<(String, Vec<Stat>)> {
        self.slots
            .iter()
            .filter(|s| s.is_running() || matches!(s.state, SlotState::Disabled(_)))
            .filter_map(|slot| {
                guarded(|| slot.plugin.stats())
                    .ok()
                    .map(|s| (slot.name().to_owned(), s))
            })
            .collect()
    }

    /// An integer statistic by key, from the first running plug-in that has it.
    pub fn stat(&self, key: &str) -> Option<i64> {
        self.slots
            .iter()
            .filter(|s| s.is_running())
            .find_map(|slot| guarded(|| slot.plugin.stat(key)).ok().flatten())
    }

    /// The conditions the active plug-ins offer runs to stop at.
    pub fn stop_conditions(&self) -> Vec<StopCondition> {
        self.active()
            .flat_map(|slot| guarded(|| slot.plugin.stop_conditions()).unwrap_or_default())
            .collect()
    }

    /// The series of the plug-ins that ran, for reports.
    pub fn series(&self) -> Vec<Series> {
        self.slots
            .iter()
            .filter(|s| s.is_running())
            .flat_map(|slot| guarded(|| slot.plugin.series()).unwrap_or_default())
            .collect()
    }

    /// The milestones of the plug-ins that ran, in the order of their frames.
    pub fn milestones(&self) -> Vec<Milestone> {
        let mut milestones: Vec<Milestone> = self
            .slots
            .iter()
            .filter(|s| s.is_running())
            .flat_map(|slot| guarded(|| slot.plugin.milestones()).unwrap_or_default())
            .collect();
        milestones.sort_by_key(|m| m.frame);
        milestones
    }

    /// Every running plug-in's snapshot for a checkpoint, by name; `None` while one of them
    /// cannot give one now. A plug-in that panics here gives none: it will resume fresh.
    pub fn checkpoint(&mut self) -> Option<Vec<(String, Vec<u8>)>> {
        let mut snapshots = Vec::new();
        for slot in self.slots.iter_mut().filter(|s| s.is_running()) {
            match guarded(|| slot.plugin.checkpoint()) {
                Ok(Some(snapshot)) => snapshots.push((slot.plugin.name().to_owned(), snapshot)),
                Ok(None) => return None,
                Err(_) => {}
            }
        }
        Some(snapshots)
    }

    /// Gives each plug-in its snapshot back, with the RAM of the console the checkpoint holds;
    /// `Err` says which plug-in refused it (or panicked) and why.
    pub fn resume(&mut self, snapshots: &[(String, Vec<u8>)], ram: &Ram) -> Result<(), String> {
        for slot in self.slots.iter_mut().filter(|s| s.is_running()) {
            let name = slot.plugin.name().to_owned();
            let Some((_, snapshot)) = snapshots.iter().find(|(n, _)| *n == name) else {
                continue;
            };
            let refusal = match guarded(|| slot.plugin.resume(snapshot, ram)) {
                Ok(Ok(())) => continue,
                Ok(Err(reason)) => reason,
                Err(panic) => format!("it panicked: {panic}"),
            };
            return Err(format!(
                "{name} cannot take back its state from the checkpoint: {refusal}"
            ));
        }
        Ok(())
    }

    /// The names of the plug-ins that run on the loaded ROM.
    pub fn running_names(&self) -> Vec<String> {
        self.slots
            .iter()
            .filter(|s| s.is_running())
            .map(|s| s.plugin.name().to_owned())
            .collect()
    }

    fn active(&self) -> impl Iterator<Item = &PluginSlot> {
        self.slots.iter().filter(|s| s.is_active())
    }
}

/// The plug-ins called before one in a frame, as [`GameNews`].
struct EarlierPlugins<'a> {
    slots: &'a [PluginSlot],
    ram: &'a Ram,
    announced: &'a [Announcement],
}

impl GameNews for EarlierPlugins<'_> {
    fn announced(&self) -> &[Announcement] {
        self.announced
    }

    fn descriptions(&self) -> Vec<(String, String)> {
        self.slots
            .iter()
            .filter(|slot| slot.is_active())
            .filter_map(|slot| {
                let description = guarded(|| slot.plugin.describe(self.ram)).ok().flatten()?;
                Some((slot.name().to_owned(), description))
            })
            .collect()
    }

    fn offered(&self) -> Vec<(String, Vec<String>)> {
        self.slots
            .iter()
            .filter(|slot| slot.is_active())
            .filter_map(|slot| {
                let events = guarded(|| slot.plugin.events()).ok()?;
                (!events.is_empty()).then(|| (slot.name().to_owned(), events))
            })
            .collect()
    }
}

fn with_held_back(message: String, held_back: u64) -> String {
    if held_back == 0 {
        message
    } else {
        format!("{message} ({held_back} more like it since the last message)")
    }
}

/// Runs plug-in code, turning a panic into its message.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_owned())
    })
}
