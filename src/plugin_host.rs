//! Runs in-process plug-ins once per frame and contains their failures.

use jewelbot_plugin::{
    Buttons, FrameContext, Inspection, Plugin, PluginOption, Ram, Recording, RomIdentity, Stat,
    Status,
};
use std::panic::{self, AssertUnwindSafe};

/// Where a plug-in stands with the loaded ROM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SlotState {
    /// Not yet offered a ROM.
    Idle,
    /// Runs every frame; the text says what it recognised.
    Active(String),
    /// Declined the ROM; the emulator runs without it.
    Declined(String),
    /// Panicked and was switched off.
    Disabled(String),
}

/// One plug-in and what the host keeps for it.
pub struct PluginSlot {
    plugin: Box<dyn Plugin>,
    state: SlotState,
    status: Status,
    buttons: Buttons,
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
}

/// The plug-ins of a session.
#[derive(Default)]
pub struct PluginHost {
    slots: Vec<PluginSlot>,
    pokes: Vec<(u16, u8)>,
    messages: Vec<String>,
}

impl PluginHost {
    pub fn new(plugins: Vec<Box<dyn Plugin>>) -> Self {
        Self {
            slots: plugins
                .into_iter()
                .map(|plugin| PluginSlot {
                    plugin,
                    state: SlotState::Idle,
                    status: Status::default(),
                    buttons: Buttons::NONE,
                })
                .collect(),
            ..Self::default()
        }
    }

    pub fn slots(&self) -> &[PluginSlot] {
        &self.slots
    }

    /// Offers the ROM to every plug-in.
    pub fn attach(&mut self, rom: &RomIdentity<'_>) {
        for slot in &mut self.slots {
            let result = guarded(|| slot.plugin.attach(rom));
            slot.state = match result {
                Ok(Ok(recognised)) => SlotState::Active(recognised),
                Ok(Err(reason)) => SlotState::Declined(reason),
                Err(panic) => SlotState::Disabled(format!("panicked while attaching: {panic}")),
            };
            if let SlotState::Declined(reason) | SlotState::Disabled(reason) = &slot.state {
                self.messages
                    .push(format!("{} is not running: {reason}", slot.plugin.name()));
            }
        }
    }

    /// Calls every active plug-in with the frame just rendered; returns the buttons they want
    /// held during the next frame (their union).
    pub fn run_frame(&mut self, frame_number: u64, ram: &Ram, picture: &[u16]) -> Buttons {
        let mut wanted = Buttons::NONE;
        for index in 0..self.slots.len() {
            let slot = &mut self.slots[index];
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
            let result = guarded(|| {
                let mut ctx = FrameContext::new(frame_number, ram, picture, pokes, buttons, status);
                plugin.on_frame(&mut ctx);
            });
            match result {
                Ok(()) => wanted |= slot.buttons,
                Err(panic) => {
                    // Half-done work of a failing plug-in is not applied.
                    self.pokes.truncate(pokes_before);
                    self.disable(Some(index), &panic);
                }
            }
        }
        wanted
    }

    fn disable(&mut self, index: Option<usize>, panic: &str) {
        if let Some(slot) = index.and_then(|i| self.slots.get_mut(i)) {
            let message = format!("plug-in {} panicked and was disabled: {panic}", slot.name());
            slot.state = SlotState::Disabled(message.clone());
            slot.buttons = Buttons::NONE;
            slot.status.lines = vec![message.clone()];
            slot.status.marks.clear();
            self.messages.push(message);
        }
    }

    /// RAM writes the plug-ins queued this frame.
    pub fn take_pokes(&mut self) -> Vec<(u16, u8)> {
        std::mem::take(&mut self.pokes)
    }

    /// Messages for the user (a plug-in declined a ROM or was disabled), oldest first.
    pub fn drain_messages(&mut self) -> Vec<String> {
        std::mem::take(&mut self.messages)
    }

    /// Tells active plug-ins the console was reset or a state loaded.
    pub fn reset(&mut self) {
        for index in 0..self.slots.len() {
            let slot = &mut self.slots[index];
            if !slot.is_active() {
                continue;
            }
            slot.buttons = Buttons::NONE;
            if let Err(panic) = guarded(|| slot.plugin.on_reset()) {
                self.disable(Some(index), &panic);
            }
        }
    }

    /// Tells every active plug-in whether its buttons reach the console; returns how many
    /// plug-ins are active.
    pub fn set_in_control(&mut self, in_control: bool) -> usize {
        let mut active = 0;
        for index in 0..self.slots.len() {
            let slot = &mut self.slots[index];
            if !slot.is_active() {
                continue;
            }
            active += 1;
            if !in_control {
                slot.buttons = Buttons::NONE;
            }
            if let Err(panic) = guarded(|| slot.plugin.set_in_control(in_control)) {
                self.disable(Some(index), &panic);
            }
        }
        active
    }

    /// Sets an option on every active plug-in that knows it; `Err` when none accepted it.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let mut refusals = Vec::new();
        let mut accepted = false;
        for index in 0..self.slots.len() {
            let slot = &mut self.slots[index];
            if !slot.is_active() {
                continue;
            }
            match guarded(|| slot.plugin.set_option(name, value)) {
                Ok(Ok(())) => accepted = true,
                Ok(Err(reason)) => refusals.push(reason),
                Err(panic) => self.disable(Some(index), &panic),
            }
        }
        if accepted {
            Ok(())
        } else if refusals.is_empty() {
            Err(format!("no active plug-in to take option `{name}`"))
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

    /// What the first active plug-in wants recorded (`None` when no plug-in runs).
    pub fn recording(&self) -> Option<Recording> {
        self.active()
            .find_map(|slot| guarded(|| slot.plugin.recording()).ok())
    }

    /// Statistics of the plug-ins that ran (disabled ones included: their counts still stand).
    pub fn stats(&self) -> Vec<(String, Vec<Stat>)> {
        self.slots
            .iter()
            .filter(|s| matches!(s.state, SlotState::Active(_) | SlotState::Disabled(_)))
            .filter_map(|slot| {
                guarded(|| slot.plugin.stats())
                    .ok()
                    .map(|s| (slot.name().to_owned(), s))
            })
            .collect()
    }

    fn active(&self) -> impl Iterator<Item = &PluginSlot> {
        self.slots.iter().filter(|s| s.is_active())
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
