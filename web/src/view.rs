//! What the page shows beside the picture, a few times a second: the status band (the
//! plug-ins' lines and notices, the buttons held, the bar), the dashboard (the plug-ins'
//! figures and charts, as the window draws them), the RAM inspector (labelled addresses,
//! decoded panels, all of RAM), the plug-ins' options, and for a headless run its summary so
//! far. Every figure comes from the plug-ins and the session, as the window's do.

use jewelbot_host::frontend::controls::Controls;
use jewelbot_host::frontend::view::{slot_views, SlotView, CHART_EVENTS};
use jewelbot_host::headless::until::Until;
use jewelbot_host::headless::{merged_stats, plugin_summaries};
use jewelbot_host::session::{Control, Session};
use jewelbot_plugin::{Inspection, Story};
use serde::Serialize;

/// One view of the game, sent as JSON text.
#[derive(Debug, Clone, Serialize)]
pub struct View {
    /// `view`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub frame: u64,
    /// The status bar: who plays, speed, pause, slot, frames a second.
    pub bar: String,
    /// A passing message (state saved, screenshot written, errors).
    pub message: Option<String>,
    /// Controller 1's buttons during the frame (bits as [`crate::protocol::Request::Buttons`]).
    pub buttons: u8,
    pub slots: Vec<SlotView>,
    pub stories: Vec<(String, Story)>,
    pub inspections: Vec<(String, Inspection)>,
    /// The console's 2 KiB of RAM, as hex.
    pub ram: String,
    /// Bytes held at a value: (address, value).
    pub frozen: Vec<(u16, u8)>,
    pub options: Vec<OptionView>,
    /// The controls' state, in `serve`.
    pub console: Option<ConsoleState>,
    /// The run's summary so far, in a headless run.
    pub run: Option<RunProgress>,
}

/// A plug-in option and its value now.
#[derive(Debug, Clone, Serialize)]
pub struct OptionView {
    pub plugin: String,
    pub name: String,
    pub value: String,
    pub choices: Vec<String>,
    pub help: String,
}

/// The state of the controls.
#[derive(Debug, Clone, Serialize)]
pub struct ConsoleState {
    /// The plug-ins hold the controller.
    pub ai: bool,
    pub paused: bool,
    pub stopped: Option<String>,
    /// `1x`, `2x` or `max`.
    pub speed: &'static str,
    pub slot: u8,
    pub recording_gif: bool,
    pub fps: f64,
}

/// A headless run's summary so far.
#[derive(Debug, Clone, Serialize)]
pub struct RunProgress {
    /// Frames this run has played, in its seconds, at its rate.
    pub frames: u64,
    pub seconds: f64,
    pub fps: f64,
    /// How far each `--until` condition has come.
    pub until: Vec<UntilProgress>,
    /// The plug-ins' statistics, as the run's summary gives them.
    pub stats: serde_json::Map<String, serde_json::Value>,
}

#[derive(Debug, Clone, Serialize)]
pub struct UntilProgress {
    pub condition: String,
    pub value: i64,
    pub at_least: i64,
}

impl RunProgress {
    pub fn of(session: &Session, frames: u64, seconds: f64, until: &[Until]) -> Self {
        Self {
            frames,
            seconds,
            fps: frames as f64 / seconds.max(f64::EPSILON),
            until: until
                .iter()
                .map(|u| UntilProgress {
                    condition: u.text.clone(),
                    value: u.value(session.plugins()),
                    at_least: u.at_least,
                })
                .collect(),
            stats: merged_stats(&plugin_summaries(session)),
        }
    }
}

impl View {
    /// The view of `session` now.
    pub fn of(session: &Session) -> Self {
        let plugins = session.plugins();
        Self {
            kind: "view",
            frame: session.frame_number(),
            bar: String::new(),
            message: None,
            buttons: session.last_buttons().bits(),
            slots: slot_views(session),
            stories: plugins.stories(CHART_EVENTS),
            inspections: plugins.inspect(session.ram()),
            ram: session.ram().iter().map(|b| format!("{b:02x}")).collect(),
            frozen: session.frozen().to_vec(),
            options: plugins
                .options()
                .into_iter()
                .flat_map(|(plugin, options)| {
                    options.into_iter().map(move |o| OptionView {
                        plugin: plugin.clone(),
                        name: o.name,
                        value: o.value,
                        choices: o.choices,
                        help: o.help,
                    })
                })
                .collect(),
            console: None,
            run: None,
        }
    }

    /// The view of a game the controls drive, with their state.
    pub fn of_controls(controls: &Controls) -> Self {
        let mut view = Self::of(controls.session());
        view.bar = controls.bar_parts().join(" | ");
        view.message = controls.message();
        view.console = Some(ConsoleState {
            ai: controls.session().control() == Control::Plugins,
            paused: controls.paused(),
            stopped: controls.stopped().map(str::to_owned),
            speed: controls.speed().label(),
            slot: controls.slot(),
            recording_gif: controls.recording_gif(),
            fps: controls.fps(),
        });
        view
    }
}
