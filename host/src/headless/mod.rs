//! Runs a session without a window, as fast as the emulator goes, and summarises it: for a
//! number of frames or until a condition holds ([`until`]), writing checkpoints a run can be
//! resumed from as if it had not stopped.

pub mod memory;
pub mod report;
pub mod until;

use crate::files;
use crate::interrupt::Interrupt;
use crate::plugin_host::Note;
use crate::session::Session;
use jewelbot_plugin::{Stat, StatValue};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Instant;
use until::Until;

/// Frames into a run at which its resident memory is taken as its baseline.
pub const MEMORY_BASELINE_FRAMES: u64 = 100_000;

/// How long a run goes on, and what it writes on the way.
#[derive(Debug, Clone, Default)]
pub struct RunPlan {
    /// At most this many frames (`None`: no limit).
    pub frames: Option<u64>,
    /// Stop at the first frame where one of these holds.
    pub until: Vec<Until>,
    /// Write a checkpoint every so many frames.
    pub checkpoints: Option<Checkpoints>,
    /// Stop at the next frame boundary once a signal asks.
    pub interrupt: Interrupt,
}

/// Checkpoints to `path`, one every `every` frames (on the first frame from then on where the
/// plug-ins can give their state), each replacing the last only once it is whole, and one more
/// when a signal stops the run.
#[derive(Debug, Clone)]
pub struct Checkpoints {
    pub path: PathBuf,
    pub every: u64,
    /// The file at `path` when the run starts may be replaced (`--force`, or the checkpoint
    /// the run resumes from); any other is kept.
    pub replace: bool,
}

/// Frames a stopped run may go on to reach one where the plug-ins can give their state for a
/// last checkpoint: more than any column takes to fall and resolve.
pub const CHECKPOINT_GRACE_FRAMES: u64 = 20_000;

/// What a run carries from one leg to the next through its checkpoints.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// The frame the run began at (0: power-on).
    pub began_at_frame: u64,
    /// Wall time of the legs before this one.
    pub seconds_before: f64,
    /// Legs before this one (each resume starts a leg).
    pub legs_before: u32,
    /// Frames the legs before this one ran (a plug-in's state loads and power cycles move the
    /// frame number, not this). `None` in a checkpoint written before it was kept: the frame
    /// number then tells.
    #[serde(default)]
    pub frames_before: Option<u64>,
    /// Resident memory [`MEMORY_BASELINE_FRAMES`] into the run, once it got there.
    pub resident_at_baseline_kib: Option<u64>,
}

impl RunRecord {
    /// A run that begins at `session`'s frame now.
    pub fn starting(session: &Session) -> Self {
        Self {
            began_at_frame: session.frame_number(),
            frames_before: Some(0),
            ..Self::default()
        }
    }

    /// Frames the whole run has run, `done` of them in this leg, now at frame `frame`.
    fn frames_run(&self, done: u64, frame: u64) -> u64 {
        match self.frames_before {
            Some(before) => before + done,
            None => frame.saturating_sub(self.began_at_frame),
        }
    }

    /// The record a checkpoint carried, or a fresh one.
    pub fn resumed(saved: Option<serde_json::Value>, session: &Session) -> Result<Self, String> {
        match saved {
            None => Ok(Self::starting(session)),
            Some(value) => serde_json::from_value(value)
                .map_err(|e| format!("the checkpoint's run record does not read: {e}")),
        }
    }
}

/// Why a run ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ended {
    /// Its frames ran out.
    Frames,
    /// A condition held (as the user wrote it).
    Until(String),
    /// A signal asked it to stop (its name).
    Interrupted(&'static str),
    /// A plug-in asked it to end (why).
    Plugin(String),
}

impl std::fmt::Display for Ended {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Frames => f.write_str("its frames ran out"),
            Self::Until(condition) => write!(f, "--until {condition} held"),
            Self::Interrupted(signal) => write!(f, "{signal} stopped it"),
            Self::Plugin(why) => f.write_str(why),
        }
    }
}

/// A milestone of a plug-in's, with its frame.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MilestoneOut {
    pub label: String,
    pub frame: u64,
}

/// Resident memory over a run, in KiB (`None` where the system does not say).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct MemoryUse {
    pub at_baseline_kib: Option<u64>,
    pub at_end_kib: Option<u64>,
    pub peak_kib: Option<u64>,
}
/// What a headless run did: the host's figures, every plug-in's statistics at the top level
/// (a key two plug-ins share is prefixed with the plug-in's name), and each plug-in's state.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub rom: String,
    /// Frames run by this leg, in its seconds, at its rate.
    pub frames: u64,
    pub seconds: f64,
    pub fps: f64,
    /// The frame the run ended at, why, and the whole run's frames and seconds (over its legs,
    /// when it was resumed from checkpoints).
    pub last_frame: u64,
    pub ended: Ended,
    pub run_frames: u64,
    pub run_seconds: f64,
    pub legs: u32,
    pub milestones: Vec<MilestoneOut>,
    pub memory: MemoryUse,
    /// Checkpoints written by this leg, and the frame of the last.
    pub checkpoints: u64,
    pub last_checkpoint_frame: Option<u64>,
    #[serde(flatten)]
    pub stats: serde_json::Map<String, serde_json::Value>,
    /// Plug-in statistics by plug-in name, then key.
    pub plugins: Vec<PluginSummary>,
    pub messages: Vec<String>,
    /// The plug-ins' notes, oldest first, when the session keeps them
    /// ([`crate::plugin_host::PluginHost::keep_notes`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PluginSummary {
    pub name: String,
    pub state: String,
    /// Frames whose buttons were released because it overran the stall limit (`--stall-limit`).
    pub stalls: u64,
    /// The longest it took over one frame in this leg of the run, in milliseconds.
    pub slowest_frame_ms: f64,
    pub stats: serde_json::Map<String, serde_json::Value>,
    #[serde(skip)]
    labels: Vec<(String, String)>,
}

/// Runs `session` as `plan` says, calling `after_frame` after each frame (a GIF, a progress
/// bar); an error from it, from the console or from writing a checkpoint stops the run.
/// `record` is the run's record so far (see [`RunRecord::resumed`]).
pub fn run(
    session: &mut Session,
    plan: &RunPlan,
    record: &mut RunRecord,
    mut after_frame: impl FnMut(&mut Session) -> anyhow::Result<()>,
) -> anyhow::Result<Summary> {
    let start = Instant::now();
    let mut messages = session.plugins_mut().drain_messages();
    let mut notes = session.plugins_mut().drain_notes();
    let mut done = 0u64;
    let mut checkpoints = 0u64;
    let mut last_checkpoint_frame = None;
    let mut next_checkpoint = plan
        .checkpoints
        .as_ref()
        .map(|c| next_multiple(session.frame_number(), c.every));
    let mut checkpoint_file = plan
        .checkpoints
        .as_ref()
        .map(|c| files::Rewritten::new(&c.path, c.replace));
    // Set once a signal asks to stop: the frame it came at.
    let mut stopping: Option<u64> = None;
    let ended = loop {
        if let Some(signal) = plan.interrupt.signal() {
            let asked_at = *stopping.get_or_insert(done);
            let Some(file) = &mut checkpoint_file else {
                break Ended::Interrupted(signal.name());
            };
            // A last checkpoint, where the plug-ins can give their state: at once, or after
            // the column in hand.
            if write_checkpoint(session, record, (start, done), file)? {
                checkpoints += 1;
                last_checkpoint_frame = Some(session.frame_number());
                if done > asked_at {
                    messages.push(format!(
                        "{} came at frame {}; the run went on to frame {} to write its last \
                         checkpoint there",
                        signal.name(),
                        session.frame_number().saturating_sub(done - asked_at),
                        session.frame_number()
                    ));
                }
                break Ended::Interrupted(signal.name());
            }
            if done - asked_at >= CHECKPOINT_GRACE_FRAMES || plan.frames.is_some_and(|n| done >= n)
            {
                messages.push(format!(
                    "{} stopped the run before the plug-ins could give their state: no last \
                     checkpoint was written",
                    signal.name()
                ));
                break Ended::Interrupted(signal.name());
            }
        }
        if stopping.is_none() {
            if let Some(until) = plan.until.iter().find(|u| u.holds(session.plugins())) {
                break Ended::Until(until.text.clone());
            }
            if let Some(why) = session.plugins().ended() {
                break Ended::Plugin(why);
            }
            if plan.frames.is_some_and(|n| done >= n) {
                break Ended::Frames;
            }
        }
        session.run_frame()?;
        done += 1;
        if record.resident_at_baseline_kib.is_none()
            && session.frame_number().saturating_sub(record.began_at_frame)
                >= MEMORY_BASELINE_FRAMES
        {
            record.resident_at_baseline_kib = memory::resident().map(|r| r.now_kib);
        }
        if let (Some(due), Some(every), Some(file)) =
            (next_checkpoint, &plan.checkpoints, &mut checkpoint_file)
        {
            if session.frame_number() >= due
                && stopping.is_none()
                && write_checkpoint(session, record, (start, done), file)?
            {
                checkpoints += 1;
                last_checkpoint_frame = Some(session.frame_number());
                next_checkpoint = Some(next_multiple(session.frame_number(), every.every));
            }
        }
        after_frame(session)?;
        if done.is_multiple_of(64) {
            messages.extend(session.plugins_mut().drain_messages());
            notes.extend(session.plugins_mut().drain_notes());
        }
    };
    messages.extend(session.plugins_mut().drain_messages());
    notes.extend(session.plugins_mut().drain_notes());
    let seconds = start.elapsed().as_secs_f64();
    let plugins = plugin_summaries(session);
    let resident = memory::resident();
    let last_frame = session.frame_number();
    Ok(Summary {
        rom: session.rom().name.clone(),
        frames: done,
        seconds,
        fps: done as f64 / seconds.max(f64::EPSILON),
        last_frame,
        ended,
        run_frames: record.frames_run(done, last_frame),
        run_seconds: record.seconds_before + seconds,
        legs: record.legs_before + 1,
        milestones: session
            .plugins()
            .milestones()
            .into_iter()
            .map(|m| MilestoneOut {
                label: m.label,
                frame: m.frame,
            })
            .collect(),
        memory: MemoryUse {
            at_baseline_kib: record.resident_at_baseline_kib,
            at_end_kib: resident.map(|r| r.now_kib),
            peak_kib: resident.map(|r| r.peak_kib),
        },
        checkpoints,
        last_checkpoint_frame,
        stats: merged_stats(&plugins),
        plugins,
        messages,
        notes,
    })
}

/// The first multiple of `every` after `frame`.
/// Writes a checkpoint of the run so far to `file` if the plug-ins can give their state now;
/// whether it did.
fn write_checkpoint(
    session: &mut Session,
    record: &RunRecord,
    (start, done): (Instant, u64),
    file: &mut files::Rewritten,
) -> anyhow::Result<bool> {
    let mut leg = record.clone();
    leg.seconds_before += start.elapsed().as_secs_f64();
    leg.legs_before += 1;
    leg.frames_before = Some(record.frames_run(done, session.frame_number()));
    let Some(bytes) = session.checkpoint(serde_json::to_value(&leg)?)? else {
        return Ok(false);
    };
    file.write(&bytes)?;
    Ok(true)
}

fn next_multiple(frame: u64, every: u64) -> u64 {
    (frame / every + 1) * every
}

/// Current statistics and state of every plug-in.
pub fn plugin_summaries(session: &Session) -> Vec<PluginSummary> {
    let stats = session.plugins().stats();
    session
        .plugins()
        .slots()
        .iter()
        .map(|slot| {
            let own: &[Stat] = stats
                .iter()
                .find(|(name, _)| name == slot.name())
                .map_or(&[], |(_, s)| s.as_slice());
            PluginSummary {
                name: slot.name().to_owned(),
                state: format!("{:?}", slot.state()),
                stalls: slot.stalls(),
                slowest_frame_ms: slot.slowest_frame().as_secs_f64() * 1000.0,
                stats: own
                    .iter()
                    .map(|s| (s.key.clone(), json_value(&s.value)))
                    .collect(),
                labels: own
                    .iter()
                    .map(|s| (s.label.clone(), s.value.to_string()))
                    .collect(),
            }
        })
        .collect()
}

/// Every plug-in's statistics in one map; the host's own keys and keys already taken are
/// prefixed with the plug-in's name.
pub fn merged_stats(plugins: &[PluginSummary]) -> serde_json::Map<String, serde_json::Value> {
    const HOST_KEYS: [&str; 15] = [
        "rom",
        "frames",
        "seconds",
        "fps",
        "last_frame",
        "ended",
        "run_frames",
        "run_seconds",
        "legs",
        "milestones",
        "memory",
        "checkpoints",
        "last_checkpoint_frame",
        "plugins",
        "messages",
    ];
    let mut merged = serde_json::Map::new();
    for plugin in plugins {
        for (key, value) in &plugin.stats {
            let key = if HOST_KEYS.contains(&key.as_str()) || merged.contains_key(key) {
                format!("{}.{key}", plugin.name)
            } else {
                key.clone()
            };
            merged.insert(key, value.clone());
        }
    }
    merged
}

fn json_value(value: &StatValue) -> serde_json::Value {
    match value {
        StatValue::Int(v) => (*v).into(),
        StatValue::Float(v) => (*v).into(),
        StatValue::Text(v) => v.clone().into(),
    }
}

impl Summary {
    /// The summary as text for a terminal.
    pub fn to_text(&self) -> String {
        let mut lines = vec![
            format!("rom: {}", self.rom),
            format!(
                "frames: {} in {:.2} s ({:.0} fps)",
                self.frames, self.seconds, self.fps
            ),
            format!("ended at frame {}: {}", self.last_frame, self.ended),
        ];
        if self.legs > 1 {
            lines.push(format!(
                "the whole run: {} frames in {:.2} s over {} legs",
                self.run_frames, self.run_seconds, self.legs
            ));
        }
        for milestone in &self.milestones {
            lines.push(format!("{} at frame {}", milestone.label, milestone.frame));
        }
        if let (Some(end), Some(peak)) = (self.memory.at_end_kib, self.memory.peak_kib) {
            let baseline = self.memory.at_baseline_kib.map_or_else(String::new, |b| {
                format!(", {b} KiB after {MEMORY_BASELINE_FRAMES} frames")
            });
            lines.push(format!(
                "resident memory: {end} KiB at the end{baseline}, {peak} KiB at the peak"
            ));
        }
        if let Some(frame) = self.last_checkpoint_frame {
            lines.push(format!(
                "checkpoints written: {}, the last at frame {frame}",
                self.checkpoints
            ));
        }
        for plugin in &self.plugins {
            lines.push(format!("plug-in {}: {}", plugin.name, plugin.state));
            lines.push(format!(
                "  slowest frame: {:.1} ms",
                plugin.slowest_frame_ms
            ));
            if plugin.stalls > 0 {
                lines.push(format!(
                    "  frames over the stall limit, buttons released: {}",
                    plugin.stalls
                ));
            }
            for (label, value) in &plugin.labels {
                lines.push(format!("  {label}: {value}"));
            }
        }
        lines.extend(self.messages.iter().map(|m| format!("note: {m}")));
        lines.join("\n")
    }
}
