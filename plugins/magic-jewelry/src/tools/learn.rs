//! `learn`: trains a [`ValueNetwork`] by temporal-difference learning while it plays.
//!
//! The network values the board after each placement (the afterstate): the jewels the board
//! will hold over the columns to come, beyond the long-run mean. Moves are chosen by a search
//! that scores each reachable result by its jewels plus its value (`simple` or `smart`), and
//! each afterstate's value moves towards its TD(lambda) return:
//!
//! ```text
//! G(t) = jewels(t+1) - mean + gamma * ((1 - lambda) * V(t+1) + lambda * G(t+1))
//! ```
//!
//! Several games play in parallel in rounds: each plays a stretch of columns with the network
//! as it was at the start of the round and records its returns, then the updates are applied
//! game by game in a fixed order. The result depends on the seed, the number of games and the
//! round length, not on the number of threads. The mean is a running average of the jewels on
//! the board, so values stay near 0 whatever the level of play.

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
    /// Weight of longer returns (0: one-step TD).
    #[arg(long, default_value_t = 0.0)]
    pub lambda: f32,
    /// Games played side by side.
    #[arg(long, default_value_t = 8)]
    pub games: u64,
    /// Columns each game plays per round, with the network fixed.
    #[arg(long, default_value_t = 256)]
    pub round: u64,
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
            lambda: 0.0,
            games: 8,
            round: 256,
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

/// How fast the running mean follows the jewels on the board, per round.
const MEAN_RATE: f64 = 0.05;
/// What losing costs, in jewels: more than any board could hold for long.
const LOSS_COST: f64 = 1e3;

/// An afterstate met in a round.
struct Visit {
    active: Active,
    value: f64,
    jewels: f64,
}

/// One of the games played side by side.
struct Game {
    generator: ColumnGenerator,
    board: Board,
    current: Column,
    next: Column,
    /// The last afterstate of the previous round, still waiting for its return.
    carried: Option<Board>,
}

/// What a game's round gives: returns to learn, and statistics.
#[derive(Default)]
struct RoundResult {
    updates: Vec<(Active, f64)>,
    jewel_sum: u64,
    max_jewels: u32,
    game_overs: u64,
    error_sum: f64,
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

/// The TD(lambda) returns of a stretch of afterstates, the last of which is not updated (it
/// bootstraps); `ended` when the stretch ended with a lost game.
fn returns(
    visits: &[Visit],
    ended: bool,
    mean: f64,
    gamma: f64,
    lambda: f64,
    out: &mut RoundResult,
) {
    if ended {
        // The last visit led to a loss: its return is the loss, the rest follow from it.
        let Some(last) = visits.last() else { return };
        let mut g = LOSS_COST;
        out.error_sum += (g - last.value).abs();
        out.updates.push((last.active, g - last.value));
        for t in (0..visits.len() - 1).rev() {
            let after = &visits[t + 1];
            g = after.jewels - mean + gamma * ((1.0 - lambda) * after.value + lambda * g);
            out.error_sum += (g - visits[t].value).abs();
            out.updates.push((visits[t].active, g - visits[t].value));
        }
        return;
    }
    if visits.len() < 2 {
        return;
    }
    let last = &visits[visits.len() - 1];
    let mut g = last.value;
    for t in (0..visits.len() - 1).rev() {
        let after = &visits[t + 1];
        let bootstrap = if t + 1 == visits.len() - 1 {
            after.value
        } else {
            (1.0 - lambda) * after.value + lambda * g
        };
        g = after.jewels - mean + gamma * bootstrap;
        out.error_sum += (g - visits[t].value).abs();
        out.updates.push((visits[t].active, g - visits[t].value));
    }
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
            carried: None,
        }
    }

    fn visit(net: &ValueNetwork, board: &Board) -> Visit {
        let active = Active::of(board);
        Visit {
            value: net.value_of(&active),
            active,
            jewels: f64::from(board.jewels()),
        }
    }

    /// Plays `columns` columns with `net` fixed and records the returns.
    fn play_round(&mut self, net: &ValueNetwork, args: &Args, mean: f64) -> RoundResult {
        let (gamma, lambda) = (f64::from(args.gamma), f64::from(args.lambda));
        let mut result = RoundResult::default();
        let mut visits: Vec<Visit> = Vec::with_capacity(args.round as usize + 1);
        if let Some(board) = &self.carried {
            visits.push(Self::visit(net, board));
        }
        for _ in 0..args.round {
            let outcome = choose(net, args.search, self).and_then(|(x, rotations)| {
                lock(&mut self.board, self.current.rotated(rotations), x as usize).ok()
            });
            if outcome.is_none_or(|o| o.game_over) {
                result.game_overs += 1;
                returns(&visits, true, mean, gamma, lambda, &mut result);
                visits.clear();
                self.board = Board::empty();
            } else {
                visits.push(Self::visit(net, &self.board));
            }
            let jewels = self.board.jewels();
            result.jewel_sum += u64::from(jewels);
            result.max_jewels = result.max_jewels.max(jewels);
            self.current = self.next;
            self.next = self.generator.next_column();
        }
        returns(&visits, false, mean, gamma, lambda, &mut result);
        self.carried = (!visits.is_empty()).then_some(self.board);
        result
    }
}

/// Learns for `args.columns` columns, calling `report` at every report.
pub fn learn(
    args: &Args,
    mut report: impl FnMut(&Progress, &ValueNetwork),
) -> anyhow::Result<ValueNetwork> {
    if args.games == 0 || args.round == 0 {
        bail!("--games and --round must be at least 1");
    }
    if !(0.0..=1.0).contains(&args.gamma) || !(0.0..=1.0).contains(&args.lambda) {
        bail!("--gamma and --lambda must be between 0 and 1");
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
    let per_round = args.games * args.round;
    let rounds = args.columns.div_ceil(per_round);
    let final_alpha = args.final_alpha.unwrap_or(args.alpha);
    let decay = f64::from(final_alpha / args.alpha).powf(1.0 / rounds.max(1) as f64);
    let mut alpha = f64::from(args.alpha);
    let mut mean = 10.0;
    let bar = progress_bar(rounds * per_round, !args.quiet, "learn");
    let mut window = Progress::default();
    let mut window_columns = 0;
    let mut began = Instant::now();
    for round in 1..=rounds {
        let net = &network;
        let results: Vec<RoundResult> = pool.install(|| {
            games
                .par_iter_mut()
                .map(|game| game.play_round(net, args, mean))
                .collect()
        });
        let mut jewel_sum = 0;
        for result in &results {
            for (active, error) in &result.updates {
                let share = alpha * error / active.indices().len() as f64;
                network.adjust(active, share as f32);
            }
            jewel_sum += result.jewel_sum;
            window.max_jewels = window.max_jewels.max(result.max_jewels);
            window.game_overs += result.game_overs;
            window.mean_error += result.error_sum;
            window.mean_jewels += result.jewel_sum as f64;
        }
        mean += MEAN_RATE * (jewel_sum as f64 / per_round as f64 - mean);
        alpha *= decay;
        window_columns += per_round;
        bar.inc(per_round);
        let played = round * per_round;
        if played % args.report_every < per_round || round == rounds {
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
            round: 2,
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
    fn returns_follow_the_recursion() {
        let board = Board::from_text("11....").unwrap();
        let visit = |value: f64, jewels: f64| Visit {
            active: Active::of(&board),
            value,
            jewels,
        };
        let visits = [visit(1.0, 3.0), visit(2.0, 6.0), visit(4.0, 3.0)];
        let (mean, gamma) = (5.0, 0.5);
        let mut out = RoundResult::default();
        returns(&visits, false, mean, gamma, 0.0, &mut out);
        // One-step: jewels(t+1) - mean + gamma V(t+1) - V(t), the last visit waits.
        let errors: Vec<f64> = out.updates.iter().map(|(_, e)| *e).collect();
        assert_eq!(errors, [3.0 - 5.0 + 2.0 - 2.0, 6.0 - 5.0 + 1.0 - 1.0]);
        let mut out = RoundResult::default();
        returns(&visits, false, mean, gamma, 1.0, &mut out);
        // Monte Carlo to the last visit: G(1) = -2 + 2 = 0, G(0) = 1 + 0.5 * 0 = 1.
        let errors: Vec<f64> = out.updates.iter().map(|(_, e)| *e).collect();
        assert_eq!(errors, [0.0 - 2.0, 1.0 - 1.0]);
        let mut out = RoundResult::default();
        returns(&visits, true, mean, gamma, 0.0, &mut out);
        // A lost game: the last visit's return is the loss.
        let errors: Vec<f64> = out.updates.iter().map(|(_, e)| *e).collect();
        assert_eq!(
            errors,
            [
                LOSS_COST - 4.0,
                3.0 - 5.0 + 2.0 - 2.0,
                6.0 - 5.0 + 1.0 - 1.0
            ]
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
                from: Some(PathBuf::from("/nonexistent/value.jwl")),
                ..short(1)
            },
        ] {
            assert!(learn(&args, |_, _| {}).is_err());
        }
    }
}
