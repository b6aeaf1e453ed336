//! `jewelbot.Console`: a NES running any ROM the host runs, frame by frame, from Python.

use crate::convert;
use crate::rom::rom_image;
use jewelbot_host::session::{Session, SessionConfig};
use jewelbot_plugin::Buttons;
use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// Screen height and width in pixels.
pub const HEIGHT: usize = 240;
pub const WIDTH: usize = 256;

/// Most frames one call runs (about 77 days of play): a typo's bound, not a limit of use.
pub const MOST_FRAMES: u64 = 400_000_000;

/// Frames run between two looks at Python's signals (about a second of emulation), so that
/// Ctrl-C stops a long run.
pub const SIGNAL_FRAMES: u64 = 1000;

/// A session behind a lock that Python threads share, gone once closed.
pub struct Shared<T>(Mutex<Option<T>>);

impl<T> Shared<T> {
    pub fn new(value: T) -> Self {
        Self(Mutex::new(Some(value)))
    }

    /// The value, or `RuntimeError` once closed. A panic while it was held (none is expected:
    /// the session contains its own) leaves it usable.
    pub fn lock(&self, what: &str) -> PyResult<Guard<'_, T>> {
        let guard = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if guard.is_none() {
            return Err(PyRuntimeError::new_err(format!("the {what} is closed")));
        }
        Ok(Guard(guard))
    }

    pub fn close(&self) {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take();
    }

    pub fn is_closed(&self) -> bool {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_none()
    }
}

pub struct Guard<'a, T>(MutexGuard<'a, Option<T>>);

impl<T> std::ops::Deref for Guard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // Checked open when the guard was made.
        self.0.as_ref().expect("open")
    }
}

impl<T> std::ops::DerefMut for Guard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        self.0.as_mut().expect("open")
    }
}

/// A console with no plug-in: what a Python program presses is what the game reads.
pub fn open_session(rom: Option<&Bound<'_, PyAny>>, video: bool) -> PyResult<Session> {
    let image = rom_image(rom)?;
    let config = SessionConfig {
        video,
        ..SessionConfig::default()
    };
    let mut session = Session::new(image, Vec::new(), config)
        .map_err(|e| PyValueError::new_err(format!("the console cannot run this ROM: {e}")))?;
    session.set_manual_buttons(Buttons::NONE);
    Ok(session)
}

/// Runs `frames` frames holding `buttons`.
pub fn run_frames(session: &mut Session, buttons: Buttons, frames: u64) -> Result<(), String> {
    for _ in 0..frames {
        jewelbot_plugin::Machine::step(session, buttons).map_err(|e| e.0)?;
    }
    Ok(())
}

/// The last frame's picture as a `(240, 256, 3)` `uint8` array.
pub fn screen<'py>(py: Python<'py>, session: &mut Session) -> PyResult<Bound<'py, PyArray3<u8>>> {
    let rgba = session.picture_rgba();
    let rgb: Vec<u8> = rgba
        .chunks_exact(4)
        .flat_map(|pixel| [pixel[0], pixel[1], pixel[2]])
        .collect();
    PyArray1::from_vec(py, rgb).reshape([HEIGHT, WIDTH, 3])
}

/// A copy of the 2 KiB of console RAM as a `uint8` array.
pub fn ram<'py>(py: Python<'py>, session: &Session) -> Bound<'py, PyArray1<u8>> {
    PyArray1::from_slice(py, &session.ram()[..])
}

/// The console for any ROM the host runs, or the open cartridge.
///
/// ``Console(rom=None, *, video=True)``: ``rom`` is a path, the bytes of an iNES file, or
/// ``None`` for the built-in open cartridge. With ``video=False`` the picture is not drawn
/// (the game runs the same, faster); ``screen()`` then shows the last picture drawn.
///
/// Buttons are an int 0-255 (A is bit 0 ... Right bit 7, as nes-py's actions), names joined by
/// ``+`` (``"A+LEFT"``), or 8 truth values in ``jewelbot.BUTTONS`` order (as stable-retro's
/// ``MultiBinary`` actions). Frames run without the GIL, so consoles in threads run in
/// parallel. Closed (``close()``, or leaving a ``with`` block), every call raises
/// ``RuntimeError``.
#[pyclass(module = "jewelbot", name = "Console", frozen)]
pub struct Console {
    session: Shared<Session>,
}

impl Console {
    fn session(&self) -> PyResult<Guard<'_, Session>> {
        self.session.lock("console")
    }
}

#[pymethods]
impl Console {
    #[new]
    #[pyo3(signature = (rom=None, *, video=true))]
    fn new(rom: Option<&Bound<'_, PyAny>>, video: bool) -> PyResult<Self> {
        Ok(Self {
            session: Shared::new(open_session(rom, video)?),
        })
    }

    /// Runs one frame holding ``buttons``.
    #[pyo3(signature = (buttons=None))]
    fn step(&self, py: Python<'_>, buttons: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        self.run(py, 1, buttons)
    }

    /// Runs ``frames`` frames holding ``buttons`` (the GIL released meanwhile).
    #[pyo3(signature = (frames, buttons=None))]
    fn run(&self, py: Python<'_>, frames: i64, buttons: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let frames = convert::count("frames", frames, MOST_FRAMES)?;
        let buttons = buttons.map_or(Ok(Buttons::NONE), convert::buttons)?;
        let mut guard = self.session()?;
        let session: &mut Session = &mut guard;
        let mut left = frames;
        while left > 0 {
            let now = left.min(SIGNAL_FRAMES);
            py.detach(|| run_frames(session, buttons, now))
                .map_err(PyRuntimeError::new_err)?;
            left -= now;
            // Ctrl-C stops a long run between frames.
            py.check_signals()?;
        }
        Ok(())
    }

    /// Soft reset, as the console's Reset button.
    fn reset(&self) -> PyResult<()> {
        self.session()?.reset();
        Ok(())
    }

    /// Power off and on: RAM as at power-on (all zeros), frame 0.
    fn power_on(&self) -> PyResult<()> {
        self.session()?
            .power_cycle()
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }

    /// A copy of the 2 KiB of RAM ($0000-$07FF) as a ``uint8`` array of 2048.
    #[getter]
    fn ram<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let session = self.session()?;
        Ok(ram(py, &session))
    }

    /// The byte at RAM ``address`` (0 to 0x7FF; ``IndexError`` past it).
    fn peek(&self, address: i64) -> PyResult<u8> {
        let address = convert::address(address)?;
        Ok(self.session()?.ram()[usize::from(address)])
    }

    /// Writes ``value`` (0-255) at RAM ``address`` (0 to 0x7FF).
    fn poke(&self, address: i64, value: i64) -> PyResult<()> {
        let (address, value) = (convert::address(address)?, convert::byte(value)?);
        self.session()?.poke(address, value);
        Ok(())
    }

    /// The last frame as a ``(240, 256, 3)`` ``uint8`` RGB array.
    fn screen<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let mut session = self.session()?;
        screen(py, &mut session)
    }

    /// Whether pictures are drawn (off: faster; the game runs the same).
    #[getter]
    fn video(&self) -> PyResult<bool> {
        Ok(self.session()?.video())
    }

    #[setter]
    fn set_video(&self, on: bool) -> PyResult<()> {
        self.session()?.set_video(on);
        Ok(())
    }

    /// The whole console as a state file's bytes (the format of ``jewelbot --save-state``).
    fn save_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let state = self
            .session()?
            .save_state()
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok(PyBytes::new(py, &state))
    }

    /// Restores a state from ``save_state`` (or a ``--save-state`` file's bytes) of this ROM.
    /// A state of another ROM, or damaged, raises ``ValueError`` and changes nothing.
    fn load_state(&self, state: &[u8]) -> PyResult<()> {
        self.session()?
            .load_state(state)
            .map(drop)
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// Frames since power-on.
    #[getter]
    fn frame(&self) -> PyResult<u64> {
        Ok(self.session()?.frame_number())
    }

    /// Frames since power-on that read no controller.
    #[getter]
    fn lag_frames(&self) -> PyResult<u64> {
        Ok(self.session()?.lag_count())
    }

    /// Whether the last frame read no controller.
    #[getter]
    fn lagged(&self) -> PyResult<bool> {
        Ok(self.session()?.lagged())
    }

    /// The SHA-1 of the ROM's PRG and CHR data (what state files name).
    #[getter]
    fn rom_sha1(&self) -> PyResult<String> {
        Ok(self.session()?.rom().prg_chr_sha1.clone())
    }

    /// Lets the console go; any later call raises ``RuntimeError``.
    fn close(&self) {
        self.session.close();
    }

    #[getter]
    fn closed(&self) -> bool {
        self.session.is_closed()
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __exit__(
        &self,
        _kind: Option<&Bound<'_, PyAny>>,
        _value: Option<&Bound<'_, PyAny>>,
        _traceback: Option<&Bound<'_, PyAny>>,
    ) {
        self.close();
    }

    fn __repr__(&self) -> String {
        match self.session() {
            Ok(session) => format!(
                "Console(rom {}, frame {})",
                session.rom().name,
                session.frame_number()
            ),
            Err(_) => "Console(closed)".to_owned(),
        }
    }
}
