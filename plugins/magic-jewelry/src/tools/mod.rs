//! Simulator, statistics, trainer and strategy comparison, run without the emulator under the
//! engine's rules. Each tool has a clap `Args` struct for the root binary's subcommands (`sim`,
//! `compare`, `train`) and a `run(args)`.

pub mod compare;
pub mod game;
pub mod generator;
pub mod plot;
pub mod sim;
pub mod stats;
pub mod train;

use crate::engine::{strategy_by_name, Strategy, Weights};
use anyhow::Context;
use std::path::Path;

/// Parses `NAME` or `NAME@WEIGHTS.json` into a strategy name and its weights (the published
/// ones unless a file is given or `default_weights` is).
pub fn parse_ai(spec: &str, default_weights: Option<&Path>) -> anyhow::Result<(String, Weights)> {
    let (name, file) = match spec.split_once('@') {
        Some((name, file)) => (name, Some(Path::new(file))),
        None => (spec, default_weights),
    };
    let weights = match file {
        Some(path) => Weights::load(path)?,
        None => Weights::PUBLISHED,
    };
    // Fail early on a bad name.
    strategy_by_name(name, &weights)?;
    Ok((name.to_string(), weights))
}

/// A fresh strategy for one worker, with no time budget so results depend only on the seed.
pub fn build_strategy(name: &str, weights: &Weights) -> anyhow::Result<Box<dyn Strategy>> {
    let mut strategy =
        strategy_by_name(name, weights).with_context(|| format!("strategy {name}"))?;
    strategy.set_budget(None);
    Ok(strategy)
}

/// Runs `job` on a pool of `threads` threads (0: one per core).
pub fn with_threads<T: Send>(threads: usize, job: impl FnOnce() -> T + Send) -> anyhow::Result<T> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start worker threads")?;
    Ok(pool.install(job))
}

/// A progress bar on stderr (hidden when `show` is false).
pub fn progress_bar(total: u64, show: bool, what: &str) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    let style = indicatif::ProgressStyle::with_template(
        "{msg} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} ({per_sec}, eta {eta})",
    )
    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_message(what.to_string());
    bar
}

/// Mixes a base seed with an index (SplitMix64), for independent per-chunk streams.
pub fn mix_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
