//! `jewelbot._jewelbot.EmulatedGame`: Magic Jewelry in the emulator as the environments drive
//! it (`jewelbot.envs`): new games dealt from a generator state, frames with the agent's
//! buttons, and placements carried out by the injector.

use crate::console::{self, Guard, Shared};
use crate::convert;
use crate::emulated::{Emulated, EmulatedError, Gained};
use crate::game::{placement_of, unreachable, ARRANGEMENTS};
use crate::rom::rom_image;
use numpy::{PyArray1, PyArray3};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

fn error(e: &EmulatedError) -> PyErr {
    match e {
        EmulatedError::NotTheGame(_) => PyValueError::new_err(e.to_string()),
        // An action is checked against the mask before it is carried out: a column that cannot
        // go on to its target halfway is the game's doing, not the caller's.
        EmulatedError::Unreachable(_) | EmulatedError::Emulation(_) | EmulatedError::Stuck(_) => {
            PyRuntimeError::new_err(e.to_string())
        }
    }
}

/// `(points, cleared, frames, game_over)`.
type GainedTuple = (u64, u64, u64, bool);

fn tuple(g: Gained) -> GainedTuple {
    (g.points, g.cleared, g.frames, g.game_over)
}

/// Magic Jewelry (a dump or the open cartridge) in the emulator, as the environments play it.
///
/// ``EmulatedGame(rom=None, *, video=False)``. ``new_game(state)`` powers on and starts a game
/// whose generator starts at ``state``; ``frames(buttons, count)`` and ``place(action)`` return
/// ``(points, cleared, frames, game_over)``.
#[pyclass(module = "jewelbot", name = "EmulatedGame", frozen)]
pub struct EmulatedGame {
    game: Shared<Emulated>,
}

impl EmulatedGame {
    fn game(&self) -> PyResult<Guard<'_, Emulated>> {
        self.game.lock("game")
    }
}

#[pymethods]
impl EmulatedGame {
    #[new]
    #[pyo3(signature = (rom=None, *, video=false))]
    fn new(rom: Option<&Bound<'_, PyAny>>, video: bool) -> PyResult<Self> {
        let game = Emulated::new(rom_image(rom)?, video).map_err(|e| error(&e))?;
        Ok(Self {
            game: Shared::new(game),
        })
    }

    /// Power-on and a new game dealt from generator state ``state`` (0-65535), to its first
    /// column.
    fn new_game(&self, py: Python<'_>, state: i64) -> PyResult<GainedTuple> {
        let state = u16::try_from(state).map_err(|_| {
            PyValueError::new_err(format!("generator state {state} is not 0-65535"))
        })?;
        let mut guard = self.game()?;
        let game: &mut Emulated = &mut guard;
        py.detach(|| game.new_game(state))
            .map(tuple)
            .map_err(|e| error(&e))
    }

    /// ``count`` frames holding ``buttons``, stopping at a game over.
    fn frames(
        &self,
        py: Python<'_>,
        buttons: &Bound<'_, PyAny>,
        count: i64,
    ) -> PyResult<GainedTuple> {
        let buttons = convert::buttons(buttons)?;
        let count = convert::count("frames", count, console::MOST_FRAMES)?;
        let mut guard = self.game()?;
        let game: &mut Emulated = &mut guard;
        let mut gained = Gained::default();
        let mut left = count;
        while left > 0 && !gained.game_over {
            let now = left.min(console::SIGNAL_FRAMES);
            let more = py
                .detach(|| game.frames(buttons, now))
                .map_err(|e| error(&e))?;
            gained.merge(&more);
            left -= now;
            py.check_signals()?;
        }
        Ok(tuple(gained))
    }

    /// Places the column in hand as ``action`` (``x * 3 + arrangement``) and runs to the next
    /// column or the game over.
    fn place(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<GainedTuple> {
        let (x, arrangement) = placement_of(action)?;
        let mut guard = self.game()?;
        let game: &mut Emulated = &mut guard;
        let mask = game.mask();
        if !mask[usize::from(x * ARRANGEMENTS + arrangement)] {
            return Err(unreachable(x, arrangement, &mask));
        }
        py.detach(|| game.place(x, arrangement))
            .map(tuple)
            .map_err(|e| error(&e))
    }

    /// The game as RAM shows it, decoded.
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.game()?.observed().into_dict(py)
    }

    /// Which of the 18 actions the column in hand can reach.
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        Ok(PyArray1::from_slice(py, &self.game()?.mask()))
    }

    /// A new column waits at its spawn for a placement.
    #[getter]
    fn at_decision(&self) -> PyResult<bool> {
        Ok(self.game()?.at_decision())
    }

    #[getter]
    fn game_over(&self) -> PyResult<bool> {
        Ok(self.game()?.game_over())
    }

    /// Frames whose RAM was no state of the game (their observation is the last good one).
    #[getter]
    fn inconsistent_frames(&self) -> PyResult<u64> {
        Ok(self.game()?.inconsistent_frames)
    }

    #[getter]
    fn frame(&self) -> PyResult<u64> {
        Ok(self.game()?.session().frame_number())
    }

    /// A copy of the 2 KiB of RAM.
    #[getter]
    fn ram<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u8>>> {
        Ok(console::ram(py, self.game()?.session()))
    }

    /// The last frame as a ``(240, 256, 3)`` ``uint8`` array.
    fn screen<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<u8>>> {
        console::screen(py, self.game()?.session())
    }

    #[getter]
    fn video(&self) -> PyResult<bool> {
        Ok(self.game()?.session().video())
    }

    #[setter]
    fn set_video(&self, on: bool) -> PyResult<()> {
        self.game()?.session().set_video(on);
        Ok(())
    }

    fn close(&self) {
        self.game.close();
    }

    #[getter]
    fn closed(&self) -> bool {
        self.game.is_closed()
    }
}
