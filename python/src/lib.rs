//! `jewelbot._jewelbot`: the native part of the `jewelbot` Python package (`docs/python.md`).
//!
//! - [`console`]: `Console`, any ROM the host runs, frame by frame;
//! - [`game`]: `Game`, the engine's Magic Jewelry one column a step;
//! - [`emulated`] and [`environment`]: the game in the emulator, as the environments play it;
//! - [`player`] and [`knobs`]: `Player`, from the one description of the player;
//! - [`measure`]: `simulate` (the lab's `sim`) and `evaluate` (a Python policy, the same
//!   statistics);
//! - [`horizon`]: `horizon`'s proof as tasks, for the Ray driver (`jewelbot.cluster`);
//! - [`observed`]: the decoded game every one of them shows.

mod console;
mod convert;
mod emulated;
mod environment;
mod game;
mod horizon;
mod knobs;
mod measure;
mod observed;
mod player;
mod rom;

use pyo3::prelude::*;

/// Every setting of the player: its keyword, default, values and help.
#[pyfunction(name = "knobs")]
fn knob_table(py: Python<'_>) -> PyResult<Bound<'_, pyo3::types::PyList>> {
    knobs::describe(py)
}

#[pymodule]
fn _jewelbot(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<console::Console>()?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<player::Player>()?;
    m.add_class::<environment::EmulatedGame>()?;
    m.add_function(wrap_pyfunction!(knob_table, m)?)?;
    m.add_function(wrap_pyfunction!(measure::simulate, m)?)?;
    m.add_function(wrap_pyfunction!(measure::evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(measure::sim_games, m)?)?;
    m.add_class::<horizon::HorizonDriver>()?;
    m.add_class::<horizon::HorizonWorker>()?;
    m.add_function(wrap_pyfunction!(horizon::horizon_help, m)?)?;
    m.add_function(wrap_pyfunction!(horizon::horizon_estimates, m)?)?;
    m.add_class::<horizon::ReferenceEstimate>()?;
    m.add("BUTTONS", convert::BUTTON_NAMES.to_vec())?;
    m.add("COUNTERS", observed::COUNTERS.to_vec())?;
    m.add("ACTIONS", game::ACTIONS)?;
    m.add("SCREEN_SHAPE", (console::HEIGHT, console::WIDTH, 3))?;
    m.add("RAM_SIZE", jewelbot_plugin::RAM_SIZE)?;
    Ok(())
}
