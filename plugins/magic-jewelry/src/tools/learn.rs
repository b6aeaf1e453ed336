//! `learn`: trains a [`ValueNetwork`] by temporal-difference learning while it plays.
//!
//! The network values the board after each placement (the afterstate): the jewels the board
//! will hold over the columns to come, beyond the long-run mean. Moves are chosen by a search
//! that scores each reachable result by its jewels plus its value (`simple` or `smart`), and
//! after each move the previous afterstate's value moves towards what followed it:
//!
//! ```text
//! error = jewels(after) - mean + gamma * V(after) - V(previous)
//! ```
//!
//! spread over the table entries the previous board hit. Several games play side by side, a
//! column each per step, with the network as it was at the start of the step; the updates
//! are then applied game by game in a fixed order, so the result depends on the seed and the
//! number of games, not on the number of threads. The mean is a running average of the
//! jewels on the board, so values stay near 0 whatever the level of play.
//!
//! Learning with `smart` makes the smart player worse, not better: the board it keeps was
//! chosen knowing the next column, so its value learns a luck that the search's leaves,
//! scored without knowing the column after, do not have. `simple` chooses without that
//! knowledge, and its values serve `smart` and `deep` best (`weights/README.md`).

use super::generator::ColumnGenerator;
use super::{mix_seed, progress_bar};
use crate::engine::strategy::{Simple, Smart};
use crate::engine::value::Active;
use crate::engine::{
    lock, Board, Column, InputModel, SpawnState, Strategy, ValueNetwork, LEVEL0_FALL_SPEED,
};
use anyhow::{bail, Context};
use rayon::prelude::*;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// The search that picks moves while learning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Search {
    /// The current column only (fast).
    Simple,
    /// Current and next column, as `smart` plays.
    Smart,
}

/// Options of `learn`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The search that picks moves while learning.
    #[arg(long, value_enum, default_value_t = Search::Simple)]
    pub search: Search,
    /// Columns to play, over all games.
    #[arg(long, default_value_t = 10_000_000)]
    pub columns: u64,
    /// Learning rate at the start: the share of a return's error corrected.
    #[arg(long, default_value_t = 0.1)]
    pub alpha: f32,
    /// Learning rate at the end (it falls geometrically from --alpha; default: --alpha).
    #[arg(long)]
    pub final_alpha: Option<f32>,
    /// Discount of later columns' jewels.
    #[arg(long, default_value_t = 0.99)]
    pub gamma: f32,
    /// Games played side by side.
    #[arg(long, default_value_t = 8)]
    pub games: u64,
    /// Network to start from (default: all zero).
    #[arg(long)]
    pub from: Option<PathBuf>,
    /// Where to write the network (rewritten at every report).
    #[arg(long, default_value = "value.jwl")]
    pub out: PathBuf,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Columns between reports.
    #[arg(long, default_value_t = 1_000_000)]
    pub report_every: u64,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Hide the progress bar.
    #[arg(long)]
    pub quiet: bool,
}

impl Default for Args {
    fn default() -> Self {
        Self {
            search: Search::Simple,
            columns: 10_000_000,
            alpha: 0.1,
            final_alpha: None,
            gamma: 0.99,
            games: 8,
            from: None,
            out: PathBuf::from("value.jwl"),
            seed: 1,
            report_every: 1_000_000,
            threads: 0,
            quiet: false,
        }
    }
}

/// Play between two reports.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Progress {
    /// Columns played so far.
    pub columns: u64,
    pub mean_jewels: f64,
    pub max_jewels: u32,
    pub game_overs: u64,
    /// Mean absolute error of the returns against the values.
    pub mean_error: f64,
    pub entries_set: usize,
    pub columns_per_second: f64,
}

/// How fast the running mean follows the jewels on the board, per step.
const MEAN_RATE: f64 = 0.05;
/// What losing costs, in jewels: more than any board could hold for long.
const LOSS_COST: f64 = 1e3;

/// One of the games played side by side.
struct Game {
    generator: ColumnGenerator,
    board: Board,
    current: Column,
    next: Column,
    /// The last afterstate, waiting for what follows it (none after a lost game).
    previous: Option<Board>,
}

/// What a game's step gives: the update to learn, and statistics.
struct Step {
    update: Option<(Active, f64)>,
    jewels: u32,
    lost: bool,
}

fn choose(net: &ValueNetwork, search: Search, game: &Game) -> Option<(u8, u8)> {
    let start = SpawnState::spawn(LEVEL0_FALL_SPEED);
    let (board, current, next) = (&game.board, game.current, Some(game.next));
    let choice = match search {
        Search::Simple => Simple::new(net).choose(board, current, next, start, InputModel::FAST),
        Search::Smart => Smart::new(net).choose(board, current, next, start, InputModel::FAST),
    }?;
    Some((choice.x, choice.rotations))
}

/// The error of `previous`'s value against its one-step return: the jewels after the move,
/// less the mean, plus the discounted value of the board after it (`None`: the game was lost).
fn td_error(
    net: &ValueNetwork,
    previous: &Active,
    after: Option<&Board>,
    mean: f64,
    gamma: f64,
) -> f64 {
    let target = match after {
        Some(board) => f64::from(board.jewels()) - mean + gamma * net.value(board),
        None => LOSS_COST,
    };
    target - net.value_of(previous)
}

impl Game {
    fn new(seed: u64) -> Self {
        let mut generator = ColumnGenerator::new(seed, None);
        let (current, next) = (generator.next_column(), generator.next_column());
        Self {
            generator,
            board: Board::empty(),
            current,
            next,
            previous: None,
        }
    }

    /// Plays one column with `net` and returns what to learn from it.
    fn step(&mut self, net: &ValueNetwork, args: &Args, mean: f64) -> Step {
        let outcome = choose(net, args.search, self).and_then(|(x, rotations)| {
            lock(&mut self.board, self.current.rotated(rotations), x as usize).ok()
        });
        let lost = outcome.is_none_or(|o| o.game_over);
        let after = (!lost).then_some(&self.board);
        let update = self.previous.map(|previous| {
            let active = Active::of(&previous);
            let error = td_error(net, &active, after, mean, f64::from(args.gamma));
            (active, error)
        });
        if lost {
            self.board = Board::empty();
            self.previous = None;
        } else {
            self.previous = Some(self.board);
        }
        self.current = self.next;
        self.next = self.generator.next_column();
        Step {
            update,
            jewels: self.board.jewels(),
            lost,
        }
    }
}

/// Learns for `args.columns` columns, calling `report` at every report.
pub fn learn(
    args: &Args,
    mut report: impl FnMut(&Progress, &ValueNetwork),
) -> anyhow::Result<ValueNetwork> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if !(0.0..=1.0).contains(&args.gamma) {
        bail!("--gamma must be between 0 and 1");
    }
    let final_alpha = args.final_alpha.unwrap_or(args.alpha);
    if !(args.alpha > 0.0 && final_alpha > 0.0 && args.alpha.is_finite() && final_alpha.is_finite())
    {
        bail!("--alpha and --final-alpha must be positive");
    }
    let mut network = match &args.from {
        Some(path) => ValueNetwork::load(path)?,
        None => ValueNetwork::zeroed(),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .context("cannot start worker threads")?;
    let mut games: Vec<Game> = (0..args.games)
        .map(|g| Game::new(mix_seed(args.seed, g)))
        .collect();
    let per_step = args.games;
    let steps = args.columns.div_ceil(per_step);
    let decay = f64::from(final_alpha / args.alpha).powf(1.0 / steps.max(1) as f64);
    let mut alpha = f64::from(args.alpha);
    let mut mean = 10.0;
    let bar = progress_bar(steps * per_step, !args.quiet, "learn");
    let mut window = Progress::default();
    let mut window_columns = 0;
    let mut began = Instant::now();
    for step in 1..=steps {
        let net = &network;
        let results: Vec<Step> = pool.install(|| {
            games
                .par_iter_mut()
                .map(|game| game.step(net, args, mean))
                .collect()
        });
        let mut jewel_sum = 0;
        for result in &results {
            if let Some((active, error)) = &result.update {
                let share = alpha * error / active.indices().len() as f64;
                network.adjust(active, share as f32);
                window.mean_error += error.abs();
            }
            jewel_sum += u64::from(result.jewels);
            window.max_jewels = window.max_jewels.max(result.jewels);
            window.game_overs += u64::from(result.lost);
        }
        window.mean_jewels += jewel_sum as f64;
        mean += MEAN_RATE * (jewel_sum as f64 / per_step as f64 - mean);
        alpha *= decay;
        window_columns += per_step;
        bar.inc(per_step);
        let played = step * per_step;
        if played % args.report_every < per_step || step == steps {
            window.columns = played;
            window.mean_jewels /= window_columns as f64;
            window.mean_error /= window_columns as f64;
            window.entries_set = network.entries_set();
            window.columns_per_second = window_columns as f64 / began.elapsed().as_secs_f64();
            bar.suspend(|| report(&window, &network));
            window = Progress::default();
            window_columns = 0;
            began = Instant::now();
        }
    }
    bar.finish_and_clear();
    Ok(network)
}

/// Runs `learn` from the command line: a line per report, the network saved at each.
pub fn run(args: Args) -> anyhow::Result<()> {
    let mut saved = Ok(());
    learn(&args, |progress, network| {
        println!(
            "{:>11} columns: mean {:.3} jewels, max {}, game overs {}, |error| {:.3}, {} entries set, {:.0} columns/s",
            progress.columns,
            progress.mean_jewels,
            progress.max_jewels,
            progress.game_overs,
            progress.mean_error,
            progress.entries_set,
            progress.columns_per_second
        );
        if saved.is_ok() {
            saved = network.save(&args.out);
        }
    })
    .context("learning stopped")?;
    saved.with_context(|| format!("cannot save the network to {}", args.out.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn short(threads: usize) -> Args {
        Args {
            columns: 40_000,
            report_every: 10_000,
            games: 4,
            threads,
            quiet: true,
            ..Args::default()
        }
    }

    #[test]
    fn learning_lowers_the_jewels_and_does_not_depend_on_threads() {
        let mut means = Vec::new();
        let one = learn(&short(1), |p, _| means.push(p.mean_jewels)).unwrap();
        assert_eq!(means.len(), 4);
        // From a blank network (take any clear, otherwise anything) to a learned one.
        assert!(means[3] < means[0] - 2.0, "{means:?}");
        let two = learn(&short(2), |_, _| {}).unwrap();
        assert!(one == two, "the thread count changed the network");
        assert!(one.entries_set() > 1000);
    }

    #[test]
    fn errors_are_one_step_returns() {
        let mut net = ValueNetwork::zeroed();
        let previous = Board::from_text("11....").unwrap();
        let after = Board::from_text("11....\n23....").unwrap();
        net.adjust(&Active::of(&previous), 0.01);
        let (v_previous, v_after) = (net.value(&previous), net.value(&after));
        let active = Active::of(&previous);
        let error = td_error(&net, &active, Some(&after), 5.0, 0.5);
        assert!((error - (4.0 - 5.0 + 0.5 * v_after - v_previous)).abs() < 1e-12);
        // A lost game: the return is the loss.
        assert_eq!(
            td_error(&net, &active, None, 5.0, 0.5),
            LOSS_COST - v_previous
        );
    }

    #[test]
    fn bad_options_are_errors() {
        for args in [
            Args {
                games: 0,
                ..short(1)
            },
            Args {
                gamma: 1.5,
                ..short(1)
            },
            Args {
                alpha: 0.0,
                ..short(1)
            },
            Args {
                final_alpha: Some(-1.0),
                ..short(1)
            },
            Args {
                from: Some(PathBuf::from("/nonexistent/value.jwl")),
                ..short(1)
            },
        ] {
            assert!(learn(&args, |_, _| {}).is_err());
        }
    }
}
