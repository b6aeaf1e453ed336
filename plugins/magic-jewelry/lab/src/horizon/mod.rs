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
mod game_so_far;
mod known;
mod outcome;
mod play;
mod real;
mod reference;
mod results_file;
mod settings;
mod state;
pub mod tasks;
#[cfg(test)]
mod tests;

pub use crate::column::{choices_of, play_column, Choose, Step};
pub use args::{
    Args, SplittingArgs, DEFAULT_CHECKPOINT_EVERY, DEFAULT_MAX_COLUMNS, MOST_MAX_COLUMNS,
};
pub use expected_repeat::{expected_repeat, ExpectedRepeat, NearMisses};
pub use game_so_far::{Progress, Repeat};
pub use known::{Fate, Known, Lesson, KEEP_ONE_IN};
pub use outcome::{describe, Outcome, StartResult};
pub use play::{play_start, play_start_from, player_fingerprint, FINGERPRINT_COLUMNS};
pub use reference::{reference_report, write_report, Estimating, ReferenceReport};
pub use state::{Blind, SpawnState};

use crate::stop::Stop;
use crate::{progress, with_threads};
use magic_jewelry_engine::{GameGenerator, Objective, RuleSet};
use rayon::prelude::*;
use real::{open_checkpoints, real_player, settings_of, tally, FirstError, Resumed, StartRunner};
use serde::Serialize;
use std::io::Write;
use std::sync::atomic::AtomicU64;
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
    refuse_the_estimates_options(args)?;
    let spec = real_player(args)?;
    let settings = settings_of(args, &spec);
    let asked = starts(args);
    let resumed = Resumed::open(args, &settings, &asked)?;
    let starts = resumed.to_play(asked);
    let checkpoints = open_checkpoints(args, &settings, &spec)?;
    let resumable = real::resumable(checkpoints.as_ref(), &starts)?;
    let known = Known::new(Blind::of(spec.objective), KEEP_ONE_IN);
    if let Some(checkpoints) = &checkpoints {
        known.insert(&checkpoints.load_lessons()?);
    }
    let max_columns = args.max_columns();
    let bar = progress::bar_if(
        !args.workers.quiet,
        starts.len() as u64 * max_columns,
        "horizon",
    );
    let errors = FirstError::default();
    let played = AtomicU64::new(0);
    let runner = StartRunner {
        spec: &spec,
        max_columns,
        known: &known,
        checkpoints: checkpoints.as_ref(),
        resumable: &resumable,
        file: resumed.file.as_ref(),
        bar: &bar,
        played: &played,
        lone: starts.len() == 1,
        stop,
        errors: &errors,
    };
    let began = Instant::now();
    let results: Vec<StartResult> = with_threads(args.workers.threads, || {
        starts.par_iter().map(|&state| runner.play(state)).collect()
    })?;
    bar.finish_and_clear();
    let report = tally(
        args,
        &spec,
        &resumed.held,
        results,
        began.elapsed().as_secs_f64(),
    );
    Ok((report, errors.take()))
}

/// The options of the reference rules' estimate, refused under the real rules, which would
/// ignore them.
fn refuse_the_estimates_options(args: &Args) -> anyhow::Result<()> {
    let reference = args.splitting.given();
    if reference.is_empty() {
        return Ok(());
    }
    anyhow::bail!(
        "{} belong{} to the reference rules' estimate (--rules reference): the real rules' \
         proof would ignore {}",
        reference.join(", "),
        if reference.len() == 1 { "s" } else { "" },
        if reference.len() == 1 { "it" } else { "them" }
    )
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
