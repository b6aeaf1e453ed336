//! `horizon`'s proof as tasks, for the Ray driver (`jewelbot.cluster`): the driver's side
//! ([`HorizonDriver`]) and a worker's ([`HorizonWorker`]), both over the lab's
//! `horizon::tasks`.

use magic_jewelry_lab::horizon::tasks::{
    lessons_from_bytes, lessons_to_bytes, parse_args, Driver, Worker,
};
use magic_jewelry_lab::horizon::Args;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

fn args(words: Vec<String>) -> PyResult<Args> {
    parse_args(words).map_err(|e| PyValueError::new_err(e.render().to_string()))
}

fn runtime(e: &anyhow::Error) -> PyErr {
    PyRuntimeError::new_err(format!("{e:#}"))
}

/// `jewelbot horizon`'s help: the options the driver takes.
#[pyfunction]
pub fn horizon_help() -> String {
    use clap::Args as _;
    Args::augment_args(clap::Command::new("horizon"))
        .render_help()
        .to_string()
}

/// A proof run as its driver holds it: ``HorizonDriver(words)`` with the words after
/// ``jewelbot horizon``. It opens the results file (refusing one of other settings) and
/// reads the lessons the checkpoints' folder keeps.
#[pyclass(module = "jewelbot", name = "HorizonDriver", frozen)]
pub struct HorizonDriver {
    driver: Driver,
}

#[pymethods]
impl HorizonDriver {
    #[new]
    fn new(py: Python<'_>, words: Vec<String>) -> PyResult<Self> {
        let args = args(words)?;
        // The player's fingerprint plays its first columns.
        let driver = py
            .detach(|| Driver::open(&args))
            .map_err(|e| PyValueError::new_err(format!("{e:#}")))?;
        Ok(Self { driver })
    }

    /// The settings every worker's player must have, as JSON (the results file's header).
    #[getter]
    fn settings(&self) -> String {
        self.driver.settings().to_string()
    }

    /// The starts still to play (generator states), in the order asked.
    #[getter]
    fn starts(&self) -> Vec<u16> {
        self.driver.starts().to_vec()
    }

    /// What the checkpoints' folder kept of starts decided before, as lessons' bytes.
    fn lessons<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = lessons_to_bytes(self.driver.lessons()).map_err(|e| runtime(&e))?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// The results file's lines it refused, in words.
    #[getter]
    fn refused(&self) -> Vec<String> {
        self.driver.refused().to_vec()
    }

    /// Starts the results file held: ``(proven, lost, undecided)``.
    #[getter]
    fn held(&self) -> (usize, usize, usize) {
        let [proven, lost, undecided] = self.driver.held();
        (proven, lost, undecided)
    }

    /// The cycles the held proofs end in, as their names.
    #[getter]
    fn held_cycles(&self) -> Vec<String> {
        self.driver
            .held_cycles()
            .into_iter()
            .map(|c| format!("{c:016x}"))
            .collect()
    }

    /// The most columns a start may play.
    #[getter]
    fn max_columns(&self) -> u64 {
        self.driver.args().max_columns()
    }

    /// The results file, if one was given.
    #[getter]
    fn results(&self) -> Option<std::path::PathBuf> {
        self.driver.args().results.clone()
    }

    /// The checkpoints' folder, if one was given.
    #[getter]
    fn checkpoint(&self) -> Option<std::path::PathBuf> {
        self.driver.args().checkpoint.clone()
    }

    /// Appends a worker's results line to the results file.
    fn record(&self, line: &str) -> PyResult<()> {
        self.driver.record(line).map_err(|e| runtime(&e))
    }
}

/// A worker of a proof run: ``HorizonWorker(words, settings)`` refuses a player other than
/// the driver's (``settings``: ``HorizonDriver.settings``).
#[pyclass(module = "jewelbot", name = "HorizonWorker", frozen)]
pub struct HorizonWorker {
    worker: Worker,
}

#[pymethods]
impl HorizonWorker {
    #[new]
    fn new(py: Python<'_>, words: Vec<String>, settings: &str) -> PyResult<Self> {
        let args = args(words)?;
        let settings: serde_json::Value = serde_json::from_str(settings)
            .map_err(|e| PyValueError::new_err(format!("the driver's settings: {e}")))?;
        let worker = py
            .detach(|| Worker::open(&args, &settings))
            .map_err(|e| runtime(&e))?;
        Ok(Self { worker })
    }

    /// Takes in lessons' bytes (``HorizonDriver.lessons`` or a start's).
    fn learn(&self, py: Python<'_>, lessons: &[u8]) -> PyResult<()> {
        let lessons = lessons_from_bytes(lessons).map_err(|e| runtime(&e))?;
        py.detach(|| self.worker.learn(&lessons));
        Ok(())
    }

    /// States whose fate it knows.
    #[getter]
    fn known_states(&self) -> usize {
        self.worker.known_states()
    }

    /// Plays the start from generator state ``start`` (from its checkpoint if the run's folder
    /// keeps one), without the GIL: its results line and the lessons' bytes it taught.
    fn play<'py>(
        &self,
        py: Python<'py>,
        start: u16,
    ) -> PyResult<(Option<String>, Bound<'py, PyBytes>)> {
        let (line, lessons) = py
            .detach(|| self.worker.play(start, &|| false))
            .map_err(|e| runtime(&e))?;
        let bytes = lessons_to_bytes(&lessons).map_err(|e| runtime(&e))?;
        Ok((line, PyBytes::new(py, &bytes)))
    }
}
