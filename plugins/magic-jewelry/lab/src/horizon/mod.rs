//! `horizon`: how far the AI really goes on the real game.
//!
//! Under the real rules a deterministic player (a work budget, no time budget) makes the game a
//! finite-state machine: what happens from a spawn on depends only on the settled board, the
//! column falling and the one shown, the generator's place in its cycle of 2,048 jewels (the
//! colours depend on its state mod 2048 only), the cells removed since the last wild column
//! ($6E: when the next one comes), the internal level ($6D, mod 256: the speed, which decides
//! what a column can reach) and the combo counter ($A0: the points of a lock, which the score
//! objective weighs). The score, the jewel counter and the displayed level only grow; no rule
//! and no strategy reads them. So from any start the game either ends or comes back to a state
//! it has been in, and then repeats for ever: **a state seen twice at a spawn proves that the
//! game goes on for ever**. This command plays from a start until one of the two happens, and
//! checks a cycle it finds by playing one more period and comparing every state.

mod args;
mod checkpoint;
mod expected_repeat;
mod known;
mod outcome;
mod play;
mod reference;
mod results_file;
mod settings;
mod state;
#[cfg(test)]
mod tests;

pub use args::{
    Args, SplittingArgs, DEFAULT_CHECKPOINT_EVERY, DEFAULT_MAX_COLUMNS, MOST_MAX_COLUMNS,
};
pub use expected_repeat::{expected_repeat, ExpectedRepeat, NearMisses};
pub use known::{Fate, Known, Lesson, KEEP_ONE_IN};
pub use outcome::{describe, Outcome, StartResult};
pub use play::{
    choices_of, play_column, play_start, play_start_from, player_fingerprint, Choose, Progress,
    Repeat, Step, FINGERPRINT_COLUMNS,
};
pub use reference::{reference_report, ReferenceReport};
pub use state::{Blind, SpawnState};

use crate::command::Stop;
use crate::{progress, with_threads};
use checkpoint::Checkpoints;
use magic_jewelry_engine::{Game, GameGenerator, Objective, PlayerSpec, RuleSet};
use rayon::prelude::*;
use results_file::{Kind, ResultsFile};
use serde::Serialize;
use std::collections::HashMap;
use std::io::Write;
use std::sync::Mutex;
use std::time::Instant;

/// The report of a `horizon` run.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub ai: String,
    pub objective: Objective,
    pub work: u64,
    pub foresight: bool,
    /// The starts played now (those a results file held are counted, not repeated).
    pub results: Vec<StartResult>,
    /// Starts a results file held from an earlier run.
    pub resumed: usize,
    pub proven: usize,
    /// The distinct cycles the proven starts end in (those whose results name their cycle).
    pub cycles: usize,
    pub lost: usize,
    pub undecided: usize,
    /// Starts a stop left before they were decided.
    pub stopped: usize,
    pub seconds: f64,
}

/// The player of the real game's proof that `args` describe: it must decide the same way every
/// time.
fn real_player(args: &Args) -> anyhow::Result<PlayerSpec> {
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

/// The starts `args` asks for.
fn starts(args: &Args) -> Vec<u16> {
    if args.every_start {
        return (0..GameGenerator::CYCLE).collect();
    }
    if let Some(n) = args.starts {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.seed);
        let mut all: Vec<u16> = (0..GameGenerator::CYCLE).collect();
        all.shuffle(&mut rng);
        all.truncate(n as usize);
        return all;
    }
    vec![args
        .generator_state
        .unwrap_or(GameGenerator::POWER_ON_STATE)]
}

/// Plays every start `args` asks for, on the worker threads. A file that could not be
/// written as the run went makes it an error, the report lost: [`run`] prints the report
/// before it says the error.
pub fn horizon(args: &Args, stop: &Stop) -> anyhow::Result<Report> {
    let (report, write_error) = horizon_report(args, stop)?;
    match write_error {
        Some(e) => Err(e),
        None => Ok(report),
    }
}

/// [`horizon`]: the report, and the first error met writing the run's files, if any.
fn horizon_report(args: &Args, stop: &Stop) -> anyhow::Result<(Report, Option<anyhow::Error>)> {
    let reference = args.splitting.given();
    if !reference.is_empty() {
        anyhow::bail!(
            "{} belong{} to the reference rules' estimate (--rules reference): the real rules' \
             proof would ignore {}",
            reference.join(", "),
            if reference.len() == 1 { "s" } else { "" },
            if reference.len() == 1 { "it" } else { "them" }
        );
    }
    let max_columns = args.max_columns();
    let spec = real_player(args)?;
    let player = || spec.build();
    let work = spec.budget().work.unwrap_or(0);
    let settings = serde_json::json!({
        "ai": args.ai,
        "objective": spec.objective,
        "work": work,
        "foresight": format!("{:?}", spec.foresight.then_some(spec.lookahead)),
        "player": player_fingerprint(&mut choices_of(player().as_mut())),
        "description": spec.description(),
        "max_columns": max_columns,
    });
    let mut file = args
        .results
        .as_deref()
        .map(|path| ResultsFile::open(path, &settings))
        .transpose()?;
    for refused in file.iter().flat_map(|f| &f.refused) {
        eprintln!("{refused}");
    }
    // The starts asked for that the file holds are counted, not played; the file's others
    // are none of this run's.
    let asked = starts(args);
    let mut held = file
        .as_mut()
        .map(|f| std::mem::take(&mut f.held))
        .unwrap_or_default();
    let asked_set: std::collections::HashSet<u16> = asked.iter().copied().collect();
    held.retain(|start, _| asked_set.contains(start));
    let starts: Vec<u16> = asked
        .into_iter()
        .filter(|start| !held.contains_key(start))
        .collect();
    // The checkpoints hold the game, not how long a start may play: a start undecided at
    // one --max-columns goes on from its checkpoint at a larger one.
    let checkpoints = match &args.checkpoint {
        Some(dir) => {
            let mut kept = settings.clone();
            if let Some(map) = kept.as_object_mut() {
                map.remove("max_columns");
            }
            let every = std::time::Duration::from_secs(args.checkpoint_every());
            Some(Checkpoints::open(dir, kept, every)?.with_blind(Blind::of(spec.objective)))
        }
        None => None,
    };
    // Read before any start plays, so that a file that cannot be resumed stops the run first.
    let mut resumable: HashMap<u16, Mutex<Option<(Progress, Game)>>> = HashMap::new();
    if let Some(checkpoints) = &checkpoints {
        for &start in &starts {
            if let Some(resumed) = checkpoints.load(start)? {
                resumable.insert(start, Mutex::new(Some(resumed)));
            }
        }
    }
    let write_error: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let keep_error = |e: anyhow::Error| {
        if let Ok(mut first) = write_error.lock() {
            first.get_or_insert(e);
        }
    };
    let bar = progress::bar_if(
        !args.workers.quiet,
        starts.len() as u64 * max_columns,
        "horizon",
    );
    let began = Instant::now();
    let known = Known::new(Blind::of(spec.objective), KEEP_ONE_IN);
    if let Some(checkpoints) = &checkpoints {
        known.insert(&checkpoints.load_lessons()?);
    }
    let lone = starts.len() == 1;
    let results: Vec<StartResult> = with_threads(args.workers.threads, || {
        starts
            .par_iter()
            .map(|&state| {
                let mut strategy = player();
                let started = Instant::now();
                let resumed = resumable
                    .get(&state)
                    .and_then(|r| r.lock().ok().and_then(|mut r| r.take()));
                let mut counted = resumed
                    .as_ref()
                    .map_or(0, |(p, _)| p.columns().min(max_columns));
                bar.inc(counted);
                let mut last_save = Instant::now();
                let mut announced = false;
                let mut save = |progress: &Progress, game: &Game, last: bool| {
                    // A lone game may take hours to its repeat, and as long again to check it.
                    if let Some(Repeat { first, again }) =
                        progress.repeat.filter(|_| lone && !announced)
                    {
                        announced = true;
                        bar.suspend(|| {
                            eprintln!(
                                "from generator state {state:#06X}: the state at column {first} \
                                 came back at column {again}; playing one more period ({} \
                                 columns) to check it",
                                again - first
                            );
                        });
                    }
                    let Some(checkpoints) = &checkpoints else {
                        return;
                    };
                    if last || checkpoints.due(last_save) {
                        if let Err(e) = checkpoints.save(state, progress, game) {
                            keep_error(e);
                        }
                        last_save = Instant::now();
                    }
                };
                let (outcome, lessons) = play_start_from(
                    &mut choices_of(strategy.as_mut()),
                    state,
                    max_columns,
                    &known,
                    |columns| {
                        // A check of a period may play past the bar's end.
                        let columns = columns.min(max_columns);
                        bar.inc(columns.saturating_sub(counted));
                        counted = counted.max(columns);
                    },
                    resumed,
                    &mut save,
                    stop,
                );
                bar.inc(max_columns.saturating_sub(counted));
                let decided =
                    !matches!(outcome, Outcome::Undecided { .. } | Outcome::Stopped { .. });
                if let Some(checkpoints) = &checkpoints {
                    if decided {
                        if !lessons.is_empty() {
                            if let Err(e) = checkpoints.save_lessons(state, &lessons) {
                                keep_error(e);
                            }
                        }
                        checkpoints.remove(state);
                    }
                }
                let result = StartResult {
                    generator_state: state,
                    outcome,
                    seconds: started.elapsed().as_secs_f64(),
                };
                // A stopped start has no result yet: the same command plays it on.
                if let Some(file) = file.as_ref().filter(|_| !result.outcome.is_stopped()) {
                    if let Err(e) = file.append(&result) {
                        keep_error(e);
                    }
                }
                result
            })
            .collect()
    })?;
    bar.finish_and_clear();
    let write_error = write_error.into_inner().ok().flatten();
    let held_count = |kind: Kind| held.values().filter(|h| h.kind == kind).count();
    let count = |f: fn(&Outcome) -> bool| results.iter().filter(|r| f(&r.outcome)).count();
    let mut cycles: std::collections::HashSet<u64> =
        held.values().filter_map(|h| h.cycle).collect();
    for result in &results {
        if let Outcome::Perpetual { cycle, .. } | Outcome::Joined { cycle, .. } = result.outcome {
            cycles.insert(cycle);
        }
    }
    let report = Report {
        resumed: held.len(),
        ai: format!(
            "{} ({:?} with {})",
            args.ai,
            spec.strategy,
            spec.evaluation.source(spec.rules)
        ),
        objective: spec.objective,
        work,
        foresight: spec.foresight,
        proven: count(|o| matches!(o, Outcome::Perpetual { .. } | Outcome::Joined { .. }))
            + held_count(Kind::Proven),
        cycles: cycles.len(),
        lost: count(|o| matches!(o, Outcome::GameOver { .. })) + held_count(Kind::Lost),
        undecided: count(|o| matches!(o, Outcome::Undecided { .. })) + held_count(Kind::Undecided),
        stopped: count(Outcome::is_stopped),
        results,
        seconds: began.elapsed().as_secs_f64(),
    };
    Ok((report, write_error))
}

/// `jewelbot horizon`: `stop` says when a stop was asked for (a signal), and each start then
/// keeps its checkpoint and ends where it is.
pub fn run(args: &Args, out: &mut dyn Write, stop: &Stop) -> anyhow::Result<()> {
    if args.player.spec.rules == RuleSet::Reference {
        return reference::run(args, out);
    }
    let (report, write_error) = horizon_report(args, stop)?;
    // What the run found is said even when a file could not be written: its work is not lost.
    print_report(args, &report, out)?;
    match write_error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn print_report(args: &Args, report: &Report, out: &mut dyn Write) -> anyhow::Result<()> {
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(report)?)?;
        return Ok(());
    }
    writeln!(
        out,
        "{} playing to {}, {} boards a decision{}, real rules",
        report.ai,
        report.objective.name(),
        report.work,
        if report.foresight {
            ", with foresight"
        } else {
            ""
        }
    )?;
    // Starts a stop came before are counted below, not listed.
    let played = |r: &&StartResult| !matches!(r.outcome, Outcome::Stopped { columns: 0, .. });
    for result in report.results.iter().filter(played) {
        writeln!(out, "{}", describe(result))?;
    }
    if report.resumed > 0 {
        writeln!(
            out,
            "{} starts were decided by an earlier run (the results file holds them)",
            report.resumed
        )?;
    }
    if report.results.len() == 1 && report.resumed == 0 {
        if let Some(Outcome::Perpetual { first_board, .. }) =
            report.results.first().map(|r| &r.outcome)
        {
            writeln!(out, "the cycle's first board:\n{first_board}")?;
        }
    } else {
        writeln!(
            out,
            "{} starts: {} proven perpetual (in {} cycles), {} lost, {} undecided ({:.0} s)",
            report.results.len() + report.resumed,
            report.proven,
            report.cycles,
            report.lost,
            report.undecided,
            report.seconds
        )?;
    }
    if report.stopped > 0 {
        let (starts, games) = match report.stopped {
            1 => ("1 start".to_owned(), "its game is"),
            n => (format!("{n} starts"), "their games are"),
        };
        let kept = match &args.checkpoint {
            Some(dir) => format!(
                "{games} kept in {}, and the same command goes on from there",
                dir.display()
            ),
            None => format!("without --checkpoint {games} not kept"),
        };
        writeln!(out, "stopped when asked: {starts} undecided; {kept}")?;
    }
    Ok(())
}
