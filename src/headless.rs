//! Runs a session without a window, as fast as the emulator goes, and summarises it.

use crate::plugin_host::Note;
use crate::session::Session;
use jewelbot_plugin::{Stat, StatValue};
use serde::Serialize;
use std::time::Instant;

/// What a headless run did: the host's figures, every plug-in's statistics at the top level
/// (a key two plug-ins share is prefixed with the plug-in's name), and each plug-in's state.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub rom: String,
    pub frames: u64,
    pub seconds: f64,
    pub fps: f64,
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
    pub stats: serde_json::Map<String, serde_json::Value>,
    #[serde(skip)]
    labels: Vec<(String, String)>,
}

/// Runs `frames` frames (forever when `None`), calling `after_frame` after each one (a GIF,
/// a progress bar); an error from it stops the run.
pub fn run(
    session: &mut Session,
    frames: Option<u64>,
    mut after_frame: impl FnMut(&mut Session) -> anyhow::Result<()>,
) -> anyhow::Result<Summary> {
    let start = Instant::now();
    let mut messages = session.plugins_mut().drain_messages();
    let mut notes = session.plugins_mut().drain_notes();
    let mut done = 0u64;
    while frames.is_none_or(|n| done < n) {
        session.run_frame()?;
        done += 1;
        after_frame(session)?;
        if done.is_multiple_of(64) {
            messages.extend(session.plugins_mut().drain_messages());
            notes.extend(session.plugins_mut().drain_notes());
        }
    }
    messages.extend(session.plugins_mut().drain_messages());
    notes.extend(session.plugins_mut().drain_notes());
    let seconds = start.elapsed().as_secs_f64();
    let plugins = plugin_summaries(session);
    Ok(Summary {
        rom: session.rom().name.clone(),
        frames: done,
        seconds,
        fps: done as f64 / seconds.max(f64::EPSILON),
        stats: merged_stats(&plugins),
        plugins,
        messages,
        notes,
    })
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
fn merged_stats(plugins: &[PluginSummary]) -> serde_json::Map<String, serde_json::Value> {
    const HOST_KEYS: [&str; 6] = ["rom", "frames", "seconds", "fps", "plugins", "messages"];
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
        ];
        for plugin in &self.plugins {
            lines.push(format!("plug-in {}: {}", plugin.name, plugin.state));
            for (label, value) in &plugin.labels {
                lines.push(format!("  {label}: {value}"));
            }
        }
        lines.extend(self.messages.iter().map(|m| format!("note: {m}")));
        lines.join("\n")
    }
}
