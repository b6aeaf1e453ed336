//! `horizon`'s proof as tasks, for the Ray driver (`jewelbot.cluster`): the driver's side
//! ([`HorizonDriver`]) and a worker's ([`HorizonWorker`]), both over the lab's
//! `horizon::tasks`.

use magic_jewelry_engine::RuleSet;
use magic_jewelry_lab::horizon::tasks::{
    lessons_from_bytes, lessons_to_bytes, parse_args, part_from_bytes, part_to_bytes, Driver,
    Learner, Worker,
};
use magic_jewelry_lab::horizon::{write_report, Args, Estimating};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

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
    /// ``threads``, if given, is the threads its games and their decisions run on, in place
    /// of the words' ``--threads`` (the CPUs the cluster gave the worker).
    #[new]
    #[pyo3(signature = (words, settings, threads=None))]
    fn new(
        py: Python<'_>,
        words: Vec<String>,
        settings: &str,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        let mut args = args(words)?;
        if let Some(threads) = threads {
            args.workers.threads = threads;
        }
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
    ///
    /// ``news``, if given, is called every ``news_every`` seconds while the game plays, and
    /// returns the lessons' bytes decided elsewhere since it was last called: the game meets
    /// them as it goes on. ``progress``, if given, is called as often with the columns the game
    /// has played so far (not those of the checkpoint it resumed from), and once more when it
    /// ends. A signal's exception (``KeyboardInterrupt``: Ctrl-C, or Ray cancelling the task),
    /// or one that ``news`` or ``progress`` raises, ends the game where it is, its checkpoint
    /// kept, and is raised.
    #[pyo3(signature = (start, news=None, news_every=5.0, progress=None))]
    fn play<'py>(
        &self,
        py: Python<'py>,
        start: u16,
        news: Option<Bound<'py, PyAny>>,
        news_every: f64,
        progress: Option<Bound<'py, PyAny>>,
    ) -> PyResult<(Option<String>, Bound<'py, PyBytes>)> {
        let every = seconds(news_every)?;
        let mut between = Between::new(
            callable("news", news)?,
            callable("progress", progress)?,
            every,
            self.worker.learner(),
        );
        let stop = Arc::clone(&between.stop);
        let played = AtomicU64::new(0);
        let outcome = py.detach(|| {
            thread::scope(|scope| {
                // The game plays on its own thread, while this one (Python's main thread, in a
                // Ray task: the one signals reach) looks at Python now and then.
                let (done, finished) = mpsc::channel();
                let counted = &played;
                scope.spawn(move || {
                    let outcome =
                        self.worker
                            .play(start, &move || stop.load(Ordering::Relaxed), counted);
                    // The receiver waits for it, unless this thread panicked first.
                    let _ = done.send(outcome);
                });
                loop {
                    match finished.recv_timeout(LOOK_EVERY) {
                        Ok(outcome) => break Some(outcome),
                        Err(RecvTimeoutError::Timeout) => {
                            between.look(played.load(Ordering::Relaxed));
                        }
                        Err(RecvTimeoutError::Disconnected) => break None,
                    }
                }
            })
        });
        between.last(played.into_inner());
        let (line, lessons) = outcome
            .ok_or_else(|| PyRuntimeError::new_err("the game's thread ended without a result"))?
            .map_err(|e| runtime(&e))?;
        if let Some(error) = between.raised.take() {
            return Err(error);
        }
        let bytes = lessons_to_bytes(&lessons).map_err(|e| runtime(&e))?;
        Ok((line, PyBytes::new(py, &bytes)))
    }
}

fn seconds(value: f64) -> PyResult<Duration> {
    Duration::try_from_secs_f64(value)
        .map_err(|_| PyValueError::new_err(format!("news_every must be seconds, not {value}")))
}

/// An optional callback, refused unless it can be called.
fn callable(name: &str, value: Option<Bound<'_, PyAny>>) -> PyResult<Option<Py<PyAny>>> {
    match value {
        Some(value) if !value.is_callable() => {
            Err(PyTypeError::new_err(format!("{name} must be callable")))
        }
        value => Ok(value.map(Bound::unbind)),
    }
}

/// How often the thread that waits for a game looks at Python's signals.
const LOOK_EVERY: Duration = Duration::from_millis(100);

/// What the thread that waits for a game does now and then, with the GIL for that moment: it
/// looks at Python's signals, asks for the lessons decided elsewhere meanwhile, and says how
/// far the game has gone. The first exception raised is kept, and stops the game.
struct Between {
    news: Option<Py<PyAny>>,
    progress: Option<Py<PyAny>>,
    every: Duration,
    asked: Instant,
    learner: Learner,
    stop: Arc<AtomicBool>,
    raised: Option<PyErr>,
}

impl Between {
    fn new(
        news: Option<Py<PyAny>>,
        progress: Option<Py<PyAny>>,
        every: Duration,
        learner: Learner,
    ) -> Self {
        Self {
            news,
            progress,
            every,
            asked: Instant::now(),
            learner,
            stop: Arc::new(AtomicBool::new(false)),
            raised: None,
        }
    }

    fn look(&mut self, played: u64) {
        if self.raised.is_some() {
            return;
        }
        if let Err(error) = self.look_around(played) {
            self.raised = Some(error);
            self.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Says the columns played in all, once the game has ended.
    fn last(&mut self, played: u64) {
        if self.raised.is_some() {
            return;
        }
        if let Err(error) = Python::attach(|py| self.say_progress(py, played)) {
            self.raised = Some(error);
        }
    }

    fn look_around(&mut self, played: u64) -> PyResult<()> {
        let taught = Python::attach(|py| -> PyResult<Vec<Vec<u8>>> {
            py.check_signals()?;
            if self.asked.elapsed() < self.every {
                return Ok(Vec::new());
            }
            self.asked = Instant::now();
            self.say_progress(py, played)?;
            let Some(news) = &self.news else {
                return Ok(Vec::new());
            };
            news.bind(py)
                .call0()?
                .try_iter()?
                .map(|lessons| lessons?.extract::<Vec<u8>>())
                .collect()
        })?;
        // Learned without the GIL, while the game plays: lessons can be megabytes.
        for bytes in taught {
            let lessons = lessons_from_bytes(&bytes).map_err(|e| runtime(&e))?;
            self.learner.learn(&lessons);
        }
        Ok(())
    }

    fn say_progress(&self, py: Python<'_>, played: u64) -> PyResult<()> {
        if let Some(progress) = &self.progress {
            progress.bind(py).call1((played,))?;
        }
        Ok(())
    }
}

/// Whether the words ask for the reference rules' estimate (``--rules reference``) rather
/// than the real game's proof.
#[pyfunction]
pub fn horizon_estimates(words: Vec<String>) -> PyResult<bool> {
    Ok(args(words)?.player.spec.rules == RuleSet::Reference)
}

/// The reference rules' estimate in parts: ``ReferenceEstimate(words)`` with the words after
/// ``jewelbot horizon --rules reference``. Each run (``estimate(run)``) and the direct count
/// (``direct()``) can be made apart, as bytes; ``report(...)`` puts them together as the
/// command prints them.
#[pyclass(module = "jewelbot", name = "ReferenceEstimate", frozen)]
pub struct ReferenceEstimate {
    estimating: Estimating,
}

#[pymethods]
impl ReferenceEstimate {
    #[new]
    fn new(words: Vec<String>) -> PyResult<Self> {
        let estimating =
            Estimating::open(&args(words)?).map_err(|e| PyValueError::new_err(format!("{e:#}")))?;
        Ok(Self { estimating })
    }

    /// Estimates to make (``--runs``).
    #[getter]
    fn runs(&self) -> u32 {
        self.estimating.runs()
    }

    /// Whether the life is also counted directly (``--direct-games``).
    #[getter]
    fn counts_directly(&self) -> bool {
        self.estimating.counts_directly()
    }

    /// Estimate number ``run`` (seed ``--seed + run``) as bytes, without the GIL.
    fn estimate<'py>(&self, py: Python<'py>, run: u64) -> PyResult<Bound<'py, PyBytes>> {
        let estimate = py.detach(|| self.estimating.estimate(run));
        let bytes = part_to_bytes(&estimate).map_err(|e| runtime(&e))?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// The life counted directly as bytes (``None`` without ``--direct-games``).
    fn direct<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyBytes>>> {
        let Some(direct) = py.detach(|| self.estimating.direct()) else {
            return Ok(None);
        };
        let bytes = part_to_bytes(&direct).map_err(|e| runtime(&e))?;
        Ok(Some(PyBytes::new(py, &bytes)))
    }

    /// The report of the estimates' and the direct count's bytes, as ``jewelbot horizon``
    /// prints it (``json``: as ``--json`` does).
    #[pyo3(signature = (estimates, direct, seconds, json=false))]
    fn report(
        &self,
        estimates: Vec<Vec<u8>>,
        direct: Option<Vec<u8>>,
        seconds: f64,
        json: bool,
    ) -> PyResult<String> {
        let estimates = estimates
            .into_iter()
            .map(|bytes| part_from_bytes(&bytes))
            .collect::<anyhow::Result<Vec<_>>>()
            .map_err(|e| PyValueError::new_err(format!("{e:#}")))?;
        let direct = direct
            .map(|bytes| part_from_bytes(&bytes))
            .transpose()
            .map_err(|e| PyValueError::new_err(format!("{e:#}")))?;
        let report = self.estimating.report(estimates, direct, seconds);
        let mut text = Vec::new();
        write_report(&report, json, &mut text).map_err(|e| runtime(&e))?;
        String::from_utf8(text).map_err(|e| runtime(&e.into()))
    }
}
