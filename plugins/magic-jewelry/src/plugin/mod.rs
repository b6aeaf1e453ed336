//! The jewelbot plug-in: reads the game from RAM every frame and, with the AI on, plays it.
//!
//! - [`settings`]: the options, typed, declared in one table.
//! - `status`: the status lines and overlay marks of every frame.
//! - `stats`: the statistics, one table of keys for summaries, single reads and `--until`.
//! - `story`: the figures and charts of the window's dashboard.
//! - [`inspect()`]: the RAM inspector's view.

pub mod describe;
mod inspect;
pub mod settings;
mod stats;
mod status;
mod story;
#[cfg(test)]
mod tests;

pub use crate::play::{AfterGameOver, Mode};
pub use inspect::inspect;
pub use settings::{Settings, BUILT_IN};

use crate::dumps::{self, Identification};
use crate::game_view::GameView;
use crate::play::history::History;
use crate::play::tracker::{PlayStats, Tracker};
use crate::play::{Player, PlayerSnapshot};
use crate::screen::Geometry;
use jewelbot_plugin::{
    Buttons, FrameContext, Inspection, Milestone, Pacing, Plugin, PluginOption, Ram, Recording,
    RomIdentity, Series, Stat, StopCondition, Story,
};
use serde::{Deserialize, Serialize};

/// Magic Jewelry plug-in.
pub struct MagicJewelryPlugin {
    identification: Option<Identification>,
    /// Its buttons reach the console.
    in_control: bool,
    settings: Settings,
    /// Built when a game is attached, from the settings.
    player: Option<Player>,
    tracker: Tracker,
    /// Every column placed and the counters' rollovers, since the run began.
    history: History,
    /// Where the attached game draws its playfield.
    geometry: Geometry,
    /// Frames in a row whose RAM no state of the game explained.
    stuck: u64,
    /// The attached game's event routines, for recorders.
    routines: Vec<(String, u16)>,
}

impl Default for MagicJewelryPlugin {
    /// In control, with the default settings.
    fn default() -> Self {
        Self {
            identification: None,
            in_control: true,
            settings: Settings::default(),
            player: None,
            tracker: Tracker::default(),
            history: History::default(),
            geometry: Geometry::default(),
            stuck: 0,
            routines: Vec::new(),
        }
    }
}

impl MagicJewelryPlugin {
    pub const NAME: &'static str = "magic-jewelry";

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn mode(&self) -> Mode {
        self.settings.mode
    }

    pub fn tracker(&self) -> &Tracker {
        &self.tracker
    }

    /// The player, once a game is attached.
    pub fn player(&self) -> Option<&Player> {
        self.player.as_ref()
    }

    /// The player for the current settings (built on first use: the learned value is decoded
    /// only when a game needs it).
    fn player_mut(&mut self) -> &mut Player {
        self.player.get_or_insert_with(|| self.settings.player())
    }
}

impl Plugin for MagicJewelryPlugin {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn attach(&mut self, rom: &RomIdentity<'_>) -> Result<String, String> {
        let identification = dumps::identify(rom.prg_chr_crc32, rom.file_sha1, rom.prg);
        self.identification = Some(identification);
        if !identification.is_playable() {
            return Err(format!(
                "{} is {} (CRC32 of PRG+CHR {:08X}); see roms-readme.md",
                rom.name,
                identification.describe(),
                rom.prg_chr_crc32
            ));
        }
        self.geometry = Geometry::of(identification);
        self.routines = identification.routines(rom.prg);
        self.player_mut();
        Ok(identification.describe())
    }

    fn on_frame(&mut self, ctx: &mut FrameContext<'_>) {
        let view = match GameView::decode(ctx.ram()) {
            Ok(view) => view,
            Err(inconsistent) => {
                // Garbage in RAM: trust nothing, say why; stuck in it, press the way out.
                self.tracker.note_inconsistent();
                self.stuck += 1;
                let (stuck, in_control) = (self.stuck, self.in_control);
                let buttons = match self.player_mut() {
                    player if in_control => player.recover(stuck),
                    player => {
                        player.forget();
                        Buttons::NONE
                    }
                };
                ctx.set_buttons(buttons);
                let status = ctx.status();
                status.lines = vec![inconsistent.to_string()];
                if !buttons.is_empty() {
                    status.lines.push(format!(
                        "no state of the game for {stuck} frames: holding {buttons}, the \
                         game-over screen's way out"
                    ));
                }
                status.marks.clear();
                return;
            }
        };
        self.stuck = 0;
        let events = self.tracker.observe(&view);
        describe::announce(ctx, &events);
        let in_control = self.in_control;
        let player = self.player_mut();
        let buttons = if in_control {
            player.on_frame(&view, events)
        } else {
            Buttons::NONE
        };
        ctx.set_buttons(buttons);
        let decision = u32::try_from(player.last_decision().as_micros()).unwrap_or(u32::MAX);
        let note = player.take_explanation();
        let off_plan = player.take_off_plan_note();
        self.history
            .observe(ctx.frame_number(), &view, events, decision);
        status::show(self, ctx, &view, note);
        ctx.status().notes.extend(off_plan);
    }

    fn on_reset(&mut self) {
        self.tracker.forget();
        self.history.forget();
        if let Some(player) = &mut self.player {
            player.forget();
        }
    }

    fn set_in_control(&mut self, in_control: bool) {
        self.in_control = in_control;
        if let Some(player) = &mut self.player {
            player.forget();
        }
    }

    fn set_pacing(&mut self, pacing: Pacing) {
        self.settings.pacing = pacing;
        if let Some(player) = &mut self.player {
            self.settings.update(player);
        }
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let (settings, change) = self
            .settings
            .with(name, value)
            .map_err(|e| e.replace("no option", &format!("{} has no option", Self::NAME)))?;
        settings.apply(change, &mut self.player);
        self.settings = settings;
        Ok(())
    }

    fn options(&self) -> Vec<PluginOption> {
        self.settings.options()
    }

    fn inspect(&self, ram: &Ram) -> Inspection {
        inspect(ram)
    }

    fn events(&self) -> Vec<String> {
        describe::EVENTS.iter().map(|&e| e.to_owned()).collect()
    }

    fn describe(&self, ram: &Ram) -> Option<String> {
        describe::describe(ram)
    }

    fn recording(&self) -> Recording {
        Recording {
            ranges: dumps::TRACE_RANGES.to_vec(),
            routines: self.routines.clone(),
        }
    }

    fn stats(&self) -> Vec<Stat> {
        stats::all(self)
    }

    fn stat(&self, key: &str) -> Option<i64> {
        stats::stat(self, key)
    }

    fn stop_conditions(&self) -> Vec<StopCondition> {
        stats::stop_conditions()
    }

    fn series(&self) -> Vec<Series> {
        self.history.series()
    }

    fn story(&self, recent: usize) -> Story {
        story::tell(self, recent)
    }

    fn milestones(&self) -> Vec<Milestone> {
        self.history.milestones()
    }

    fn checkpoint(&mut self) -> Option<Vec<u8>> {
        if !self.tracker.between_columns() {
            return None;
        }
        let player = match &self.player {
            Some(player) => Some(player.snapshot()?),
            None => None,
        };
        let snapshot = Snapshot {
            version: SNAPSHOT_VERSION,
            tracker: self.tracker.stats().clone(),
            player,
            history: self.history.clone(),
        };
        serde_json::to_vec(&snapshot).ok()
    }

    fn resume(&mut self, snapshot: &[u8], ram: &Ram) -> Result<(), String> {
        let snapshot: Snapshot = serde_json::from_slice(snapshot)
            .map_err(|e| format!("its snapshot does not read: {e}"))?;
        if snapshot.version != SNAPSHOT_VERSION {
            return Err(format!(
                "its snapshot has version {}, this one reads {SNAPSHOT_VERSION}",
                snapshot.version
            ));
        }
        self.tracker
            .resume(snapshot.tracker, GameView::decode(ram).ok());
        self.history = snapshot.history;
        if let (Some(player), Some(saved)) = (self.player.as_mut(), snapshot.player) {
            player.restore(saved);
        }
        Ok(())
    }
}

/// Bumped whenever [`Snapshot`] changes.
const SNAPSHOT_VERSION: u32 = 1;

/// What the plug-in keeps in a checkpoint ([`Plugin::checkpoint`]): taken between columns,
/// when nothing of a column is in hand.
#[derive(Serialize, Deserialize)]
struct Snapshot {
    version: u32,
    tracker: PlayStats,
    player: Option<PlayerSnapshot>,
    history: History,
}
