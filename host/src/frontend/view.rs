//! What the window shows, apart from how it is drawn: the frontend's display settings, a
//! frame's snapshot of the session, the colours and the inspector's dimensions.

use super::canvas::Color;
use crate::plugin_host::SlotState;
use crate::session::Session;
use jewelbot_plugin::{Buttons, Inspection, Mark, Ram, Story, RAM_SIZE};

pub const BACKGROUND: Color = [16, 16, 20, 255];
pub const TEXT: Color = [232, 232, 232, 255];
pub const DIM: Color = [150, 150, 165, 255];
pub const ACCENT: Color = [255, 200, 80, 255];
pub const HEADING: Color = [120, 200, 255, 255];
pub const WARNING: Color = [255, 140, 90, 255];

/// Characters per line of the inspector panel.
pub const PANEL_COLUMNS: usize = 60;

/// Events (columns placed, say) the dashboard's charts show.
pub const CHART_EVENTS: usize = 300;

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

/// The frontend's own display settings and texts. The parts shown stay as they are set for as
/// long as the window is open (resets and state loads keep them).
#[derive(Debug, Clone)]
pub struct Ui {
    /// The RAM inspector.
    pub inspector: bool,
    /// The plug-ins' marks over the picture.
    pub marks: bool,
    /// The plug-ins' status lines in the band.
    pub status: bool,
    /// The controller's buttons in the band.
    pub input: bool,
    /// The plug-ins' figures and charts.
    pub dashboard: bool,
    pub help: bool,
    /// Lines the inspector's content takes (its fields and panels), for the layout.
    pub inspector_lines: usize,
    /// First row (16 bytes each) of the hex view.
    pub hex_row: usize,
    /// The address selected in the inspector (a labelled address or a byte of the hex view),
    /// for editing, and a first hex digit typed for it.
    pub selected: Option<u16>,
    pub typed: Option<u8>,
    pub aspect: Aspect,
    /// The frontend's status bar: control, speed, pause, mute, slot.
    pub bar: String,
    /// A passing message (state saved, screenshot written, errors).
    pub message: Option<String>,
}

impl Default for Ui {
    fn default() -> Self {
        Self {
            inspector: false,
            marks: true,
            status: true,
            input: true,
            dashboard: true,
            help: false,
            inspector_lines: 0,
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
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct SlotView {
    pub name: String,
    pub lines: Vec<String>,
    /// Drawn with the picture they belong to.
    #[serde(skip)]
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
    pub stories: Vec<(String, Story)>,
}

impl Snapshot {
    /// Copies what is needed from `session`; plug-in inspections and stories only for the
    /// parts of `ui` shown, and only with `panels` (they cost a little and only those parts,
    /// drawn a few times a second, show them).
    pub fn capture(session: &mut Session, ui: &Ui, panels: bool) -> Self {
        let picture = session.picture_rgba().to_vec();
        let slots = slot_views(session);
        let inspections = if ui.inspector && panels {
            session.plugins().inspect(session.ram())
        } else {
            Vec::new()
        };
        let stories = if ui.dashboard && panels {
            session.plugins().stories(CHART_EVENTS)
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
            stories,
        }
    }
}

/// What each plug-in has to show now: its status lines and marks, or why it is not running.
pub fn slot_views(session: &Session) -> Vec<SlotView> {
    session
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
        .collect()
}
