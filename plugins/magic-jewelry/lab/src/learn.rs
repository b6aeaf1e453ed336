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
//! spread over the table entries the previous board hit. With `--steps N` the return runs N
//! moves (the discounted jewels of the N boards that follow, then the value of the last)
//! before it leans on a value. Several games play side by side, a
//! column each per step, with the network as it was at the start of the step; the updates
//! are then applied game by game in a fixed order, so the result depends on the seed and the
//! number of games, not on the number of threads. The mean is a running average of the
//! jewels on the board, so values stay near 0 whatever the level of play.
//!
//! Learning with `smart` makes the smart player worse, not better: the board it keeps was
//! chosen knowing the next column, so its value learns a luck that the search's leaves,
//! scored without knowing the column after, do not have. `simple` chooses without that
//! knowledge, and its values serve `smart` and `deep` best (`weights/README.md`).

use super::player_args::{GameKnobs, PlayerArgs};
use super::runner::SimGameArgs;
use super::{mix_seed, progress};
use crate::args::Workers;
use crate::outputs::TrainingFiles;
use anyhow::{bail, Context};
use jewelbot_plugin::files;
use magic_jewelry_engine::eval::value::Active;
use magic_jewelry_engine::{
    Board, FallState, Game, Greedy, InputModel, Question, RuleSet, Strategy, ValueNetwork,
};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::VecDeque;
use std::io::Write;
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
    #[command(flatten)]
    pub game: SimGameArgs,
    /// The rules and the pace of presses of the games learned from.
    #[command(flatten)]
    pub player: PlayerArgs<GameKnobs>,
    /// Columns to play, over all games.
    #[arg(long, default_value_t = 10_000_000, value_parser = clap::value_parser!(u64).range(1..=crate::args::MAX_COLUMNS))]
    pub columns: u64,
    /// Learning rate at the start: the share of a return's error corrected.
    #[arg(long, default_value_t = 0.1, value_parser = crate::args::learning_rate)]
    pub alpha: f32,
    /// Learning rate at the end (it falls geometrically from --alpha; default: --alpha).
    #[arg(long, value_parser = crate::args::learning_rate)]
    pub final_alpha: Option<f32>,
    /// Discount of later columns' jewels.
    #[arg(long, default_value_t = 0.99, value_parser = crate::args::discount)]
    pub gamma: f32,
    /// Moves a return runs before it ends on a value (n-step TD; 1 is TD(0)).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub steps: u32,
    /// Games played side by side.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=crate::args::MAX_GAMES))]
    pub games: u64,
    #[command(flatten)]
    pub files: TrainingFiles,
    #[command(flatten)]
    pub workers: Workers,
    /// Columns between reports.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub report_every: u64,
}

impl Default for Args {
    fn default() -> Self {
        Self {
            search: Search::Simple,
            columns: 10_000_000,
            alpha: 0.1,
            final_alpha: None,
            gamma: 0.99,
            steps: 1,
            games: 8,
            files: TrainingFiles::default(),
            game: SimGameArgs::default(),
            player: PlayerArgs::default(),
            report_every: 1_000_000,
            workers: Workers::default(),
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

/// An afterstate waiting for the returns that follow it.
struct Pending {
    active: Active,
    /// Discounted jewels (less the mean) seen since.
    partial: f64,
    /// The discount of the next return: gamma to the power of the returns seen.
    discount: f64,
    seen: u32,
}

impl Pending {
    // It keeps the entries: taking them by value moves them once.
    #[allow(clippy::large_types_passed_by_value)]
    fn new(active: Active) -> Self {
        Self {
            active,
            partial: 0.0,
            discount: 1.0,
            seen: 0,
        }
    }

    /// Adds the jewels of the next afterstate.
    fn see(&mut self, reward: f64, gamma: f64) {
        self.partial += self.discount * reward;
        self.discount *= gamma;
        self.seen += 1;
    }

    /// The error of its value against the return completed by `tail` (the value of the
    /// board the return stops at, or the cost of losing).
    fn error(&self, net: &ValueNetwork, tail: f64) -> f64 {
        self.partial + self.discount * tail - net.value_of(&self.active)
    }
}

/// One of the games played side by side.
struct Learner {
    game: Game,
    /// The last afterstates, oldest first, waiting for the returns that follow them.
    pending: VecDeque<Pending>,
}

/// What a game's step gives: the updates to learn, and statistics.
struct Step {
    updates: Vec<(Active, f64)>,
    jewels: u32,
    lost: bool,
}

fn choose(net: &ValueNetwork, search: Search, game: &Game, input: InputModel) -> Option<(u8, u8)> {
    let start = FallState::spawn(game.fall_speed());
    let question = Question::new(
        *game.board(),
        game.current(),
        Some(game.next()),
        start,
        input,
    );
    let strategy = match search {
        Search::Simple => Greedy::simple(net),
        Search::Smart => Greedy::smart(net),
    };
    let choice = strategy.with_rules(game.rules()).choose(&question)?;
    Some((choice.x, choice.arrangement))
}

/// Moves the pending afterstates on by one move that led to `after` (`None`: the game was
/// lost) and returns the updates of those whose `steps`-step return is complete: the jewels
/// of the boards that followed, less the mean, discounted, then the discounted value of the
/// last one; a lost game completes every return with the cost of losing.
fn advance(
    pending: &mut VecDeque<Pending>,
    net: &ValueNetwork,
    after: Option<&Board>,
    mean: f64,
    gamma: f64,
    steps: u32,
) -> Vec<(Active, f64)> {
    let Some(board) = after else {
        return pending
            .drain(..)
            .map(|p| (p.active, p.error(net, LOSS_COST)))
            .collect();
    };
    let reward = f64::from(board.jewels()) - mean;
    for p in pending.iter_mut() {
        p.see(reward, gamma);
    }
    // The board's entries serve both its value (the tail of the returns completed now) and
    // its own wait.
    let active = Active::of(board);
    let mut updates = Vec::new();
    if pending.front().is_some_and(|p| p.seen >= steps) {
        let tail = net.value_of(&active);
        while let Some(p) = pending.front().filter(|p| p.seen >= steps) {
            updates.push((p.active, p.error(net, tail)));
            pending.pop_front();
        }
    }
    pending.push_back(Pending::new(active));
    updates
}

impl Learner {
    fn new(rules: RuleSet, seed: u64) -> Self {
        Self {
            game: Game::new(rules, seed),
            pending: VecDeque::new(),
        }
    }

    /// Plays one column with `net` and returns what to learn from it.
    fn step(&mut self, net: &ValueNetwork, args: &Args, mean: f64) -> Step {
        let placement = choose(net, args.search, &self.game, args.player.spec.input);
        let turn = self.game.play(placement);
        let after = (!turn.lost).then_some(self.game.board());
        let gamma = f64::from(args.gamma);
        let updates = advance(&mut self.pending, net, after, mean, gamma, args.steps);
        Step {
            updates,
            jewels: self.game.board().jewels(),
            lost: turn.lost,
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
    if args.columns == 0 || args.report_every == 0 {
        bail!("--columns and --report-every must be at least 1");
    }
    if args.steps == 0 {
        bail!("--steps must be at least 1");
    }
    if !(0.0..=1.0).contains(&args.gamma) {
        bail!("--gamma must be between 0 and 1");
    }
    let final_alpha = args.final_alpha.unwrap_or(args.alpha);
    if !(args.alpha > 0.0 && final_alpha > 0.0 && args.alpha.is_finite() && final_alpha.is_finite())
    {
        bail!(
            "--alpha and --final-alpha must be positive numbers, not {} and {final_alpha}",
            args.alpha
        );
    }
    let mut network = match &args.files.from {
        Some(path) => ValueNetwork::load(path)?,
        None => ValueNetwork::zeroed(),
    };
    let pool = crate::worker_pool(args.workers.threads)?;
    let mut games: Vec<Learner> = (0..args.games)
        .map(|g| Learner::new(args.player.spec.rules, mix_seed(args.game.seed, g)))
        .collect();
    let per_step = args.games;
    let steps = args.columns.div_ceil(per_step);
    let decay = f64::from(final_alpha / args.alpha).powf(1.0 / steps.max(1) as f64);
    let mut alpha = f64::from(args.alpha);
    let mut mean = 10.0;
    let bar = progress::bar_if(!args.workers.quiet, steps * per_step, "learn");
    let mut window = Progress::default();
    let mut window_columns = 0;
    let mut window_updates = 0u64;
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
            for (active, error) in &result.updates {
                let share = alpha * error / active.indices().len() as f64;
                network.adjust(active, share as f32);
                window.mean_error += error.abs();
                window_updates += 1;
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
            window.mean_error /= window_updates.max(1) as f64;
            window.entries_set = network.entries_set();
            window.columns_per_second = window_columns as f64 / began.elapsed().as_secs_f64();
            bar.suspend(|| report(&window, &network));
            window = Progress::default();
            window_columns = 0;
            window_updates = 0;
            began = Instant::now();
        }
    }
    bar.finish_and_clear();
    Ok(network)
}

/// Runs `learn` from the command line: a line per report, the network saved at each.
pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<()> {
    args.files.check()?;
    let mut saved = Ok(());
    writeln!(
        out,
        "learning under the {} rules, {} columns, into {}",
        args.player.spec.rules,
        args.columns,
        args.files.out.display()
    )?;
    // A report that cannot be printed (the reader went away) does not stop the learning, whose
    // network is saved all the same; the error is said at the end.
    let mut printed = Ok(());
    learn(args, |progress, network| {
        if printed.is_err() {
            return;
        }
        printed = writeln!(
            out,
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
            saved = files::write_file(&args.files.out, &network.to_bytes(), true);
        }
    })
    .context("learning stopped")?;
    saved.with_context(|| format!("cannot save the network to {}", args.files.out.display()))?;
    Ok(printed?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use magic_jewelry_engine::PlayerSpec;

    fn short(threads: usize) -> Args {
        Args {
            columns: 40_000,
            report_every: 10_000,
            games: 4,
            workers: Workers {
                threads,
                quiet: true,
            },
            player: PlayerArgs::from(PlayerSpec {
                rules: RuleSet::Reference,
                ..PlayerSpec::default()
            }),
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

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn errors_are_one_step_returns() {
        let mut net = ValueNetwork::zeroed();
        let previous = Board::from_text("11....").unwrap();
        let after = Board::from_text("11....\n23....").unwrap();
        net.adjust(&Active::of(&previous), 0.01);
        let (v_previous, v_after) = (net.value(&previous), net.value(&after));
        let mut pending = VecDeque::from([Pending::new(Active::of(&previous))]);
        let updates = advance(&mut pending, &net, Some(&after), 5.0, 0.5, 1);
        assert_eq!(updates.len(), 1);
        assert!(close(updates[0].1, 4.0 - 5.0 + 0.5 * v_after - v_previous));
        assert_eq!(pending.len(), 1, "the board after waits for its own return");
        // A lost game: the return is the loss, and nothing waits any more.
        let mut pending = VecDeque::from([Pending::new(Active::of(&previous))]);
        let updates = advance(&mut pending, &net, None, 5.0, 0.5, 1);
        assert!(close(updates[0].1, LOSS_COST - v_previous));
        assert!(pending.is_empty());
    }

    #[test]
    fn three_step_returns_wait_for_three_moves() {
        let mut net = ValueNetwork::zeroed();
        let boards = ["11....", "11....\n23....", "1.....\n23....", "2....."]
            .map(|text| Board::from_text(text).unwrap());
        net.adjust(&Active::of(&boards[0]), 0.01);
        net.adjust(&Active::of(&boards[3]), -0.02);
        let mut pending = VecDeque::from([Pending::new(Active::of(&boards[0]))]);
        for board in &boards[1..3] {
            assert!(advance(&mut pending, &net, Some(board), 2.0, 0.5, 3).is_empty());
        }
        let updates = advance(&mut pending, &net, Some(&boards[3]), 2.0, 0.5, 3);
        assert_eq!(updates.len(), 1);
        // Jewels 4, 3, 1 less the mean 2, discounted, then the value of the last board.
        let expected =
            2.0 + 0.5 * 1.0 - 0.25 + 0.125 * net.value(&boards[3]) - net.value(&boards[0]);
        assert!(close(updates[0].1, expected), "{}", updates[0].1);
        assert_eq!(pending.len(), 3);
        // Losing now completes the three waiting returns with the loss.
        let updates = advance(&mut pending, &net, None, 2.0, 0.5, 3);
        assert_eq!(updates.len(), 3);
        assert!(close(updates[2].1, LOSS_COST - net.value(&boards[3])));
    }

    #[test]
    fn learning_under_the_real_rules_plays_the_real_game() {
        let args = Args {
            columns: 8_000,
            report_every: 8_000,
            player: PlayerArgs::default(),
            ..short(2)
        };
        let mut reports = Vec::new();
        learn(&args, |p, _| reports.push(p.clone())).unwrap();
        assert_eq!(reports.len(), 1);
        // Wild columns and red and blue twice as often: far fewer jewels than a blank network
        // keeps under the reference's conditions.
        assert!(reports[0].mean_jewels < 30.0, "{reports:?}");
    }

    #[test]
    fn bad_options_are_errors() {
        for args in [
            Args {
                alpha: f32::NAN,
                ..short(1)
            },
            Args {
                columns: 0,
                ..short(1)
            },
            Args {
                report_every: 0,
                ..short(1)
            },
            Args {
                games: 0,
                ..short(1)
            },
            Args {
                steps: 0,
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
                files: TrainingFiles {
                    from: Some(std::path::PathBuf::from("/nonexistent/value.jwl")),
                    ..TrainingFiles::default()
                },
                ..short(1)
            },
        ] {
            assert!(learn(&args, |_, _| {}).is_err());
        }
    }
}
