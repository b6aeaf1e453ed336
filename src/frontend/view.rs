//! What the window shows, apart from how it is drawn: the frontend's display settings, a
//! frame's snapshot of the session, the colours and the inspector's dimensions.

use super::canvas::Color;
use crate::plugin_host::SlotState;
use crate::session::Session;
use jewelbot_plugin::{Buttons, Inspection, Mark, Ram, RAM_SIZE};

pub const BACKGROUND: Color = [16, 16, 20, 255];
pub const TEXT: Color = [232, 232, 232, 255];
pub const DIM: Color = [150, 150, 165, 255];
pub const ACCENT: Color = [255, 200, 80, 255];
pub const HEADING: Color = [120, 200, 255, 255];
pub const WARNING: Color = [255, 140, 90, 255];

/// Characters per line of the inspector panel.
pub const PANEL_COLUMNS: usize = 60;

/// Size of the RAM the hex view pages through, in rows of 16.
pub const HEX_ROWS: usize = RAM_SIZE / 16;

/// Shape of the NES picture's pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aspect {
    /// 8:7, as a television showed the NES picture.
    Ntsc,
    /// Square pixels: every NES pixel the same whole number of screen pixels.
    Square,
}

/// The frontend's own display settings and texts.
#[derive(Debug, Clone)]
pub struct Ui {
    pub panel: bool,
    pub overlay: bool,
    pub help: bool,
    /// First row (16 bytes each) of the hex view.
    pub hex_row: usize,
    /// The byte selected in the hex view for editing, and a first hex digit typed for it.
    pub selected: Option<u16>,
    pub typed: Option<u8>,
    pub aspect: Aspect,
    /// The status bar under the overlay: control, speed, pause, mute, slot.
    pub bar: String,
    /// A passing message (state saved, screenshot written, errors).
    pub message: Option<String>,
}

impl Default for Ui {
    fn default() -> Self {
        Self {
            panel: false,
            overlay: true,
            help: false,
            hex_row: 0,
            selected: None,
            typed: None,
            aspect: Aspect::Ntsc,
            bar: String::new(),
            message: None,
        }
    }
}

/// What one plug-in has to show.
#[derive(Debug, Clone, Default)]
pub struct SlotView {
    pub name: String,
    pub lines: Vec<String>,
    pub marks: Vec<Mark>,
    /// Why the plug-in is not running, when it is not.
    pub notice: Option<String>,
}

/// What the frontend shows of a session at one moment.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub picture: Vec<u8>,
    pub ram: Ram,
    pub frame: u64,
    /// Controller 1's buttons during the frame shown, whoever pressed them.
    pub buttons: Buttons,
    /// RAM bytes held at a value, by address.
    pub frozen: Vec<(u16, u8)>,
    pub slots: Vec<SlotView>,
    pub inspections: Vec<(String, Inspection)>,
}

impl Snapshot {
    /// Copies what is needed from `session`; plug-in inspections only when `inspect` is set
    /// (they cost a little every frame and only the panel shows them).
    pub fn capture(session: &mut Session, inspect: bool) -> Self {
        let picture = session.picture_rgba().to_vec();
        let slots = session
            .plugins()
            .slots()
            .iter()
            .map(|slot| {
                let name = slot.name().to_owned();
                match slot.state() {
                    SlotState::Active(_) => SlotView {
                        lines: slot.status().lines.clone(),
                        marks: slot.status().marks.clone(),
                        name,
                        notice: None,
                    },
                    SlotState::Declined(reason) => SlotView {
                        notice: Some(format!("{name} is not running: {reason}")),
                        name,
                        ..SlotView::default()
                    },
                    SlotState::Disabled(reason) | SlotState::Restarting(reason) => SlotView {
                        notice: Some(reason.clone()),
                        name,
                        ..SlotView::default()
                    },
                    SlotState::Idle => SlotView {
                        name,
                        ..SlotView::default()
                    },
                }
            })
            .collect();
        let inspections = if inspect {
            session.plugins().inspect(session.ram())
        } else {
            Vec::new()
        };
        Self {
            picture,
            ram: *session.ram(),
            frame: session.frame_number(),
            buttons: session.last_buttons(),
            frozen: session.frozen().to_vec(),
            slots,
            inspections,
        }
    }
}
