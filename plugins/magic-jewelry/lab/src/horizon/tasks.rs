//! The real game's proof split into tasks, for a driver that hands its starts to workers in
//! other processes or on other machines (the Python package's Ray driver, `docs/cluster.md`).
//! The [`Driver`] opens the run once: the player, its settings and fingerprint, the starts
//! still to play, the results file (it alone writes it). A [`Worker`] plays starts: it checks
//! that its player is the driver's, keeps each start's checkpoint in the run's folder (a
//! retried start goes on from it), and says what the start taught as [`Lesson`]s, which the
//! driver passes on to the starts after it. One start's result is its results line, the same
//! `jewelbot horizon --results` writes. The reference rules' estimate splits likewise
//! ([`super::Estimating`]): each run, and the direct count, a task; its parts travel as bytes
//! ([`part_to_bytes`]).

use super::checkpoint::Checkpoints;
pub use super::checkpoint::{lessons_from_bytes, lessons_to_bytes};
use super::real::{open_checkpoints, real_player, settings_of, FirstError, Resumed, StartRunner};
use super::results_file::{Held, Kind, ResultsFile};
use super::settings::{differences, same};
use super::{refuse_the_estimates_options, starts, Args, Blind, Known, Lesson, KEEP_ONE_IN};
use crate::stop::Stop;
use anyhow::Context;
use clap::{Args as _, FromArgMatches};
use indicatif::ProgressBar;
use magic_jewelry_engine::{PlayerSpec, RuleSet};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

/// `horizon`'s options from the words after `jewelbot horizon`, as the command parses them.
pub fn parse_args<I, T>(words: I) -> Result<Args, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let command = Args::augment_args(clap::Command::new("horizon"));
    let matches = command.try_get_matches_from(
        std::iter::once("horizon".into()).chain(words.into_iter().map(Into::into)),
    )?;
    Args::from_arg_matches(&matches)
}

/// The run as its driver holds it.
pub struct Driver {
    args: Args,
    settings: Value,
    to_play: Vec<u16>,
    held: HashMap<u16, Held>,
    file: Option<ResultsFile>,
    lessons: Vec<Lesson>,
}

impl Driver {
    /// Opens the run `args` describe, as `jewelbot horizon` does: the player (it must decide the
    /// same way every time), the starts asked for less those the results file holds (a file of
    /// other settings is refused), and the lessons the checkpoints' folder keeps.
    pub fn open(args: &Args) -> anyhow::Result<Self> {
        if args.player.spec.rules == RuleSet::Reference {
            anyhow::bail!(
                "the reference rules' estimate is no proof of starts: its runs are made by \
                 Estimating"
            );
        }
        refuse_the_estimates_options(args)?;
        let spec = real_player(args)?;
        let settings = settings_of(args, &spec);
        let asked = starts(args);
        let resumed = Resumed::open(args, &settings, &asked)?;
        let to_play = resumed.to_play(asked);
        let checkpoints = open_checkpoints(args, &settings, &spec)?;
        let lessons = match &checkpoints {
            Some(checkpoints) => checkpoints.load_lessons()?,
            None => Vec::new(),
        };
        Ok(Self {
            args: args.clone(),
            settings,
            to_play,
            held: resumed.held,
            file: resumed.file,
            lessons,
        })
    }

    /// The settings every worker's player must have (its fingerprint among them).
    pub fn settings(&self) -> &Value {
        &self.settings
    }

    /// The starts still to play, in the order asked.
    pub fn starts(&self) -> &[u16] {
        &self.to_play
    }

    /// What the checkpoints' folder kept of the starts decided before.
    pub fn lessons(&self) -> &[Lesson] {
        &self.lessons
    }

    /// The lines of the results file it refused, each in words.
    pub fn refused(&self) -> &[String] {
        self.file.as_ref().map_or(&[], |f| f.refused.as_slice())
    }

    /// Starts the results file held from an earlier run, by outcome: proven, lost, undecided.
    pub fn held(&self) -> [usize; 3] {
        let count = |kind| self.held.values().filter(|h| h.kind == kind).count();
        [
            count(Kind::Proven),
            count(Kind::Lost),
            count(Kind::Undecided),
        ]
    }

    /// The cycles the held proofs end in.
    pub fn held_cycles(&self) -> Vec<u64> {
        let mut cycles: Vec<u64> = self.held.values().filter_map(|h| h.cycle).collect();
        cycles.sort_unstable();
        cycles.dedup();
        cycles
    }

    /// Appends a start's results line (a worker's), as `horizon --results` writes it.
    pub fn record(&self, line: &str) -> anyhow::Result<()> {
        match &self.file {
            Some(file) => file.append_line(line),
            None => Ok(()),
        }
    }

    /// The options of the run.
    pub fn args(&self) -> &Args {
        &self.args
    }
}

/// A worker's side: the player (checked to be the driver's), what the starts decided so far
/// taught it, and the run's checkpoints.
pub struct Worker {
    spec: PlayerSpec,
    max_columns: u64,
    known: Learner,
    checkpoints: Option<Checkpoints>,
    /// The threads a game and its decisions run on (`--threads`): the cores the cluster gave
    /// the worker, not every core of the node, which other workers share. A game played on
    /// the pool's own thread hands its decisions to no other thread.
    pool: rayon::ThreadPool,
}

/// What a worker knows, shared with whoever brings it lessons from another thread while a
/// start plays: the start meets what others decided meanwhile.
#[derive(Clone)]
pub struct Learner(Arc<Known>);

impl Learner {
    /// Takes in what decided starts taught.
    pub fn learn(&self, lessons: &[Lesson]) {
        self.0.insert(lessons);
    }
}

impl Worker {
    /// The worker of the run `args` describe, whose player must have the driver's `settings`:
    /// another player, or another build that plays differently, is refused.
    pub fn open(args: &Args, settings: &Value) -> anyhow::Result<Self> {
        let spec = real_player(args)?;
        let own = settings_of(args, &spec);
        if !same(&own, settings) {
            anyhow::bail!(
                "this worker's player is not the driver's ({}): run the same version of the \
                 package on every node",
                differences(settings, &own)
            );
        }
        let checkpoints = open_checkpoints(args, &own, &spec)?;
        let pool = crate::worker_pool(args.workers.threads)?;
        Ok(Self {
            pool,
            known: Learner(Arc::new(Known::new(Blind::of(spec.objective), KEEP_ONE_IN))),
            max_columns: args.max_columns(),
            spec,
            checkpoints,
        })
    }

    /// Takes in what decided starts taught.
    pub fn learn(&self, lessons: &[Lesson]) {
        self.known.learn(lessons);
    }

    /// Its knowledge, to take in lessons while a start plays.
    pub fn learner(&self) -> Learner {
        self.known.clone()
    }

    /// The states it knows the fate of.
    pub fn known_states(&self) -> usize {
        self.known.0.len()
    }

    /// Plays the start from generator state `start` (from its checkpoint if the run's folder
    /// keeps one), keeping its checkpoint as it goes; returns its results line and what it
    /// taught. `stop` ends it early (its checkpoint kept): the line is then `None`. `played`
    /// counts the columns it plays as it goes, not those of the checkpoint it resumed from.
    pub fn play(
        &self,
        start: u16,
        stop: &Stop,
        played: &AtomicU64,
    ) -> anyhow::Result<(Option<String>, Vec<Lesson>)> {
        let resumable = super::real::resumable(self.checkpoints.as_ref(), &[start])?;
        let errors = FirstError::default();
        let bar = ProgressBar::hidden();
        let runner = StartRunner {
            spec: &self.spec,
            max_columns: self.max_columns,
            known: &self.known.0,
            checkpoints: self.checkpoints.as_ref(),
            resumable: &resumable,
            file: None,
            bar: &bar,
            played,
            lone: false,
            stop,
            errors: &errors,
        };
        let (result, lessons) = self.pool.install(|| runner.play_learning(start));
        if let Some(error) = errors.take() {
            return Err(error);
        }
        if result.outcome.is_stopped() {
            return Ok((None, Vec::new()));
        }
        let line = serde_json::to_string(&result).context("a start's result")?;
        Ok((Some(line), lessons))
    }
}

/// One part of the reference rules' estimate as bytes, to travel between processes: an
/// estimate or the direct count ([`super::Estimating`]).
pub fn part_to_bytes<T: serde::Serialize>(part: &T) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    ciborium::into_writer(part, &mut bytes)?;
    Ok(bytes)
}

/// A part from [`part_to_bytes`]' bytes.
pub fn part_from_bytes<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> anyhow::Result<T> {
    ciborium::from_reader(bytes).context("a part that is not the reference estimate's")
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHEAP: [&str; 6] = ["--ai", "simple", "--starts", "3", "--max-columns", "800"];

    /// A line without its time.
    fn timeless(line: &str) -> Value {
        let mut value: Value = serde_json::from_str(line).expect("a results line");
        value.as_object_mut().expect("an object").remove("seconds");
        value
    }

    #[test]
    fn workers_play_the_starts_as_the_command_does() {
        let args = parse_args(CHEAP).expect("horizon's options");
        let driver = Driver::open(&args).expect("a run");
        assert_eq!(driver.starts().len(), 3);
        let worker = Worker::open(&args, driver.settings()).expect("the driver's player");
        let report = super::super::horizon(&args, &|| false).expect("the command's run");
        let mut played: Vec<Value> = driver
            .starts()
            .iter()
            .map(|&start| {
                let counted = AtomicU64::new(0);
                let (line, _) = worker.play(start, &|| false, &counted).expect("a start");
                let alone = report.results.iter().find(|r| r.generator_state == start);
                let alone = alone.expect("the command played the start too");
                assert_eq!(counted.into_inner(), alone.outcome.columns_played());
                timeless(&line.expect("decided or undecided, not stopped"))
            })
            .collect();
        let mut alone: Vec<Value> = report
            .results
            .iter()
            .map(|r| timeless(&serde_json::to_string(r).expect("a result")))
            .collect();
        let by_start = |v: &Value| v["generator_state"].as_u64();
        played.sort_by_key(by_start);
        alone.sort_by_key(by_start);
        assert_eq!(played, alone);
    }

    #[test]
    fn another_player_is_refused() {
        let driver = Driver::open(&parse_args(CHEAP).expect("options")).expect("a run");
        let mut other: Vec<&str> = CHEAP.to_vec();
        other[1] = "smart";
        let error = Worker::open(&parse_args(other).expect("options"), driver.settings())
            .err()
            .expect("refused");
        assert!(error.to_string().contains("not the driver's"), "{error}");
    }

    #[test]
    fn the_estimate_in_parts_is_the_command_s() {
        let words = [
            "--rules",
            "reference",
            "--ai",
            "simple",
            "--random-share",
            "0.3",
            "--trials",
            "10",
            "--replications",
            "2",
            "--direct-columns",
            "300",
            "--runs",
            "2",
            "--direct-games",
            "3",
            "--seed",
            "4",
        ];
        let args = parse_args(words).expect("options");
        let estimating = super::super::Estimating::open(&args).expect("an estimate");
        let estimates = (0..u64::from(estimating.runs()))
            .map(|run| {
                let bytes = part_to_bytes(&estimating.estimate(run)).expect("bytes");
                part_from_bytes(&bytes).expect("an estimate back")
            })
            .collect();
        let direct = estimating
            .direct()
            .map(|d| part_from_bytes(&part_to_bytes(&d).expect("bytes")).expect("a count back"));
        let text = |report: &super::super::ReferenceReport| {
            let mut value = serde_json::to_value(report).expect("a report");
            value.as_object_mut().expect("an object").remove("seconds");
            value
        };
        let parts = estimating.report(estimates, direct, 0.0);
        let alone = super::super::reference_report(&args).expect("the command's estimate");
        assert_eq!(text(&parts), text(&alone));
        assert!(part_from_bytes::<crate::splitting::Estimate>(b"junk").is_err());
    }

    #[test]
    fn lessons_travel_as_bytes() {
        let bytes = lessons_to_bytes(&[]).expect("bytes");
        assert!(lessons_from_bytes(&bytes).expect("lessons").is_empty());
        assert!(lessons_from_bytes(b"not lessons").is_err());
    }
}
