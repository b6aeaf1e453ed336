//! The real game's proof, step by step: the player ([`real_player`]), the settings its files
//! keep ([`settings_of`]), the starts a results file already holds ([`Resumed`]), the
//! checkpoints ([`open_checkpoints`]), one start played with its checkpoints and its result
//! written ([`StartRunner`]), and the tally ([`tally`]).

use super::checkpoint::Checkpoints;
use super::results_file::{Held, Kind, ResultsFile};
use super::{
    choices_of, play_start_from, player_fingerprint, Args, Blind, Known, Lesson, Outcome, Progress,
    Repeat, Report, StartResult,
};
use crate::stop::Stop;
use indicatif::ProgressBar;
use magic_jewelry_engine::{Game, PlayerSpec, RuleSet};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The player of the real game's proof that `args` describe: it must decide the same way every
/// time.
pub(super) fn real_player(args: &Args) -> anyhow::Result<PlayerSpec> {
    let spec = args
        .player
        .spec
        .named(&args.ai)
        .map_err(anyhow::Error::msg)?
        .spec;
    let budget = spec.budget();
    if !budget.is_deterministic() {
        anyhow::bail!(
            "the proof needs a player that decides the same way every time, not {budget}"
        );
    }
    Ok(PlayerSpec {
        rules: RuleSet::Real,
        ..spec
    })
}

/// The settings a run's results file and checkpoints keep: what asked for the player, its
/// fingerprint (its choices, which decide) with its description beside it, and how long a
/// start may play.
pub(super) fn settings_of(args: &Args, spec: &PlayerSpec) -> Value {
    serde_json::json!({
        "ai": args.ai,
        "objective": spec.objective,
        "work": spec.budget().work.unwrap_or(0),
        "foresight": format!("{:?}", spec.foresight.then_some(spec.lookahead)),
        "player": player_fingerprint(&mut choices_of(spec.build().as_mut())),
        "description": spec.description(),
        "max_columns": args.max_columns(),
    })
}

/// The results file of a run, and the starts asked for that it already holds: they are
/// counted, not played again.
pub(super) struct Resumed {
    pub file: Option<ResultsFile>,
    pub held: HashMap<u16, Held>,
}

impl Resumed {
    /// Opens `args`' results file for `settings` (saying the lines it refused) and keeps the
    /// results of the starts in `asked`; the file's others are none of this run's.
    pub fn open(args: &Args, settings: &Value, asked: &[u16]) -> anyhow::Result<Self> {
        let mut file = args
            .results
            .as_deref()
            .map(|path| ResultsFile::open(path, settings))
            .transpose()?;
        for refused in file.iter().flat_map(|f| &f.refused) {
            eprintln!("{refused}");
        }
        let mut held = file
            .as_mut()
            .map(|f| std::mem::take(&mut f.held))
            .unwrap_or_default();
        let asked: HashSet<u16> = asked.iter().copied().collect();
        held.retain(|start, _| asked.contains(start));
        Ok(Self { file, held })
    }

    /// The starts of `asked` still to play.
    pub fn to_play(&self, asked: Vec<u16>) -> Vec<u16> {
        asked
            .into_iter()
            .filter(|start| !self.held.contains_key(start))
            .collect()
    }
}

/// The checkpoints `args` ask for. They hold the game, not how long a start may play: a start
/// undecided at one `--max-columns` goes on from its checkpoint at a larger one.
pub(super) fn open_checkpoints(
    args: &Args,
    settings: &Value,
    spec: &PlayerSpec,
) -> anyhow::Result<Option<Checkpoints>> {
    let Some(dir) = &args.checkpoint else {
        return Ok(None);
    };
    let mut kept = settings.clone();
    if let Some(map) = kept.as_object_mut() {
        map.remove("max_columns");
    }
    let every = Duration::from_secs(args.checkpoint_every());
    Ok(Some(
        Checkpoints::open(dir, kept, every)?.with_blind(Blind::of(spec.objective)),
    ))
}

/// The games in progress the checkpoints held, each taken by the start that goes on from it.
pub(super) type Resumable = HashMap<u16, Mutex<Option<(Progress, Game)>>>;

/// The games `checkpoints` hold for `starts`, each taken once by the start that goes on
/// from it. Read before any start plays, so that a file that cannot be resumed stops the run
/// first.
pub(super) fn resumable(
    checkpoints: Option<&Checkpoints>,
    starts: &[u16],
) -> anyhow::Result<Resumable> {
    let mut resumable = HashMap::new();
    if let Some(checkpoints) = checkpoints {
        for &start in starts {
            if let Some(resumed) = checkpoints.load(start)? {
                resumable.insert(start, Mutex::new(Some(resumed)));
            }
        }
    }
    Ok(resumable)
}

/// The first error met writing a run's files: the run goes on, and says it at the end.
#[derive(Default)]
pub(super) struct FirstError(Mutex<Option<anyhow::Error>>);

impl FirstError {
    pub fn keep(&self, error: anyhow::Error) {
        if let Ok(mut first) = self.0.lock() {
            first.get_or_insert(error);
        }
    }

    pub fn take(self) -> Option<anyhow::Error> {
        self.0.into_inner().ok().flatten()
    }
}

/// What every start of a run shares: the player, the files, what the decided starts taught,
/// the progress bar.
pub(super) struct StartRunner<'a> {
    pub spec: &'a PlayerSpec,
    pub max_columns: u64,
    pub known: &'a Known,
    pub checkpoints: Option<&'a Checkpoints>,
    pub resumable: &'a Resumable,
    pub file: Option<&'a ResultsFile>,
    pub bar: &'a ProgressBar,
    /// The columns its games played, without those of the checkpoints they resumed from.
    pub played: &'a AtomicU64,
    /// The run plays one start only: it says when a repeat is found and checked.
    pub lone: bool,
    pub stop: &'a Stop,
    pub errors: &'a FirstError,
}

impl StartRunner<'_> {
    /// Plays the start from generator state `state` (from its checkpoint if one was kept),
    /// keeps its checkpoint and lessons, and appends its result to the results file.
    pub fn play(&self, state: u16) -> StartResult {
        self.play_learning(state).0
    }

    /// [`StartRunner::play`], with what the start taught (a decided start's lessons).
    pub fn play_learning(&self, state: u16) -> (StartResult, Vec<Lesson>) {
        let mut strategy = self.spec.build();
        let started = Instant::now();
        let resumed = self
            .resumable
            .get(&state)
            .and_then(|r| r.lock().ok().and_then(|mut r| r.take()));
        let mut counted = resumed
            .as_ref()
            .map_or(0, |(p, _)| p.columns().min(self.max_columns));
        self.bar.inc(counted);
        let mut saver = Saver {
            runner: self,
            state,
            last_save: Instant::now(),
            announced: false,
        };
        let (outcome, lessons) = play_start_from(
            &mut choices_of(strategy.as_mut()),
            state,
            self.max_columns,
            self.known,
            |columns| {
                // A check of a period may play past the bar's end.
                let columns = columns.min(self.max_columns);
                let new = columns.saturating_sub(counted);
                self.bar.inc(new);
                self.played.fetch_add(new, Ordering::Relaxed);
                counted = counted.max(columns);
            },
            resumed,
            &mut |progress, game, last| saver.save(progress, game, last),
            self.stop,
        );
        // Progress comes every few columns: the outcome says where the game ended.
        self.played.fetch_add(
            outcome.columns_played().saturating_sub(counted),
            Ordering::Relaxed,
        );
        self.bar.inc(self.max_columns.saturating_sub(counted));
        let decided = !matches!(outcome, Outcome::Undecided { .. } | Outcome::Stopped { .. });
        if let (Some(checkpoints), true) = (self.checkpoints, decided) {
            if !lessons.is_empty() {
                if let Err(e) = checkpoints.save_lessons(state, &lessons) {
                    self.errors.keep(e);
                }
            }
            checkpoints.remove(state);
        }
        let result = StartResult {
            generator_state: state,
            outcome,
            seconds: started.elapsed().as_secs_f64(),
        };
        // A stopped start has no result yet: the same command plays it on.
        if let Some(file) = self.file.filter(|_| !result.outcome.is_stopped()) {
            if let Err(e) = file.append(&result) {
                self.errors.keep(e);
            }
        }
        (result, lessons)
    }
}

/// What a start in play does as it goes: announce a repeat (a lone game may take hours to its
/// repeat, and as long again to check it) and write its checkpoint when one is due.
struct Saver<'a> {
    runner: &'a StartRunner<'a>,
    state: u16,
    last_save: Instant,
    announced: bool,
}

impl Saver<'_> {
    fn save(&mut self, progress: &Progress, game: &Game, last: bool) {
        let runner = self.runner;
        if let Some(Repeat { first, again }) =
            progress.repeat.filter(|_| runner.lone && !self.announced)
        {
            self.announced = true;
            let state = self.state;
            runner.bar.suspend(|| {
                eprintln!(
                    "from generator state {state:#06X}: the state at column {first} came back \
                     at column {again}; playing one more period ({} columns) to check it",
                    again - first
                );
            });
        }
        let Some(checkpoints) = runner.checkpoints else {
            return;
        };
        if last || checkpoints.due(self.last_save) {
            if let Err(e) = checkpoints.save(self.state, progress, game) {
                runner.errors.keep(e);
            }
            self.last_save = Instant::now();
        }
    }
}

/// The report of a run: the starts played now and those the results file held, counted by
/// outcome, with the distinct cycles the proven ones end in.
pub(super) fn tally(
    args: &Args,
    spec: &PlayerSpec,
    held: &HashMap<u16, Held>,
    results: Vec<StartResult>,
    seconds: f64,
) -> Report {
    let held_count = |kind: Kind| held.values().filter(|h| h.kind == kind).count();
    let count = |f: fn(&Outcome) -> bool| results.iter().filter(|r| f(&r.outcome)).count();
    let mut cycles: HashSet<u64> = held.values().filter_map(|h| h.cycle).collect();
    for result in &results {
        if let Outcome::Perpetual { cycle, .. } | Outcome::Joined { cycle, .. } = result.outcome {
            cycles.insert(cycle);
        }
    }
    Report {
        resumed: held.len(),
        ai: format!(
            "{} ({:?} with {})",
            args.ai,
            spec.strategy,
            spec.evaluation.source(spec.rules)
        ),
        objective: spec.objective,
        work: spec.budget().work.unwrap_or(0),
        foresight: spec.foresight,
        proven: count(|o| matches!(o, Outcome::Perpetual { .. } | Outcome::Joined { .. }))
            + held_count(Kind::Proven),
        cycles: cycles.len(),
        lost: count(|o| matches!(o, Outcome::GameOver { .. })) + held_count(Kind::Lost),
        undecided: count(|o| matches!(o, Outcome::Undecided { .. })) + held_count(Kind::Undecided),
        stopped: count(Outcome::is_stopped),
        results,
        seconds,
    }
}
