//! What a script sees of the console and leaves for the host, between two frames: shared by
//! the Lua functions and the plug-in that runs them.

use crate::hooked::Hooked;
use jewelbot_plugin::{Buttons, ConsoleRequest, Drawing, Ram, RAM_SIZE};
use std::sync::{Arc, Mutex, MutexGuard};

/// The console as the script sees it.
#[derive(Debug)]
pub struct Console {
    /// RAM at the end of the last frame, with the script's writes since.
    pub ram: Ram,
    /// RAM writes to apply before the next frame.
    pub pokes: Vec<(u16, u8)>,
    /// The ROM file's bytes after its header (PRG then CHR), for `rom.readbyte`.
    pub rom: Vec<u8>,
    /// Frames run since power-on.
    pub frame: u64,
    /// Controller 1's buttons during the next frame, as the script set them.
    pub buttons: Buttons,
    /// The buttons the person holds.
    pub person: Buttons,
    /// Whether the last frame read no controller, and such frames since power-on.
    pub lagged: bool,
    pub lag_count: u64,
    /// Resets, power cycles and state loads for the host, after the script's part of a frame.
    pub requests: Vec<ConsoleRequest>,
    /// Drawn this frame.
    pub drawings: Vec<Drawing>,
    /// Messages (`emu.message`) shown until the script gives another.
    pub message: Option<String>,
    /// The script called `os.exit` with this status: the run ends.
    pub exit: Option<i64>,
    /// The addresses the script's memory hooks watch.
    pub hooked: Hooked,
}

impl Default for Console {
    fn default() -> Self {
        Self {
            ram: [0; RAM_SIZE],
            pokes: Vec::new(),
            rom: Vec::new(),
            frame: 0,
            buttons: Buttons::NONE,
            person: Buttons::NONE,
            lagged: false,
            lag_count: 0,
            requests: Vec::new(),
            drawings: Vec::new(),
            message: None,
            exit: None,
            hooked: Hooked::default(),
        }
    }
}

/// The console shared between the plug-in and its Lua functions.
#[derive(Debug, Clone, Default)]
pub struct Shared(Arc<Mutex<Console>>);

impl Shared {
    pub fn lock(&self) -> MutexGuard<'_, Console> {
        // A panic while holding it leaves plain data behind: use it as it is.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
