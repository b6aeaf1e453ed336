//! `train`: tunes the evaluation weights on short random column sequences.
//!
//! - `hill` (the reference's method): W is rated on a random 20,000-40,000-column sequence
//!   (total jewels left after each placement, lower is better); then 5-11 times, a population
//!   of variants of W (each weight moved by up to +-5%) is rated in parallel on the same
//!   sequence, and the best replaces W if it beats it.
//! - `cem` (cross-entropy method): a Gaussian over the weights; each iteration samples a
//!   population, rates it on a fresh sequence and refits the Gaussian to the best quarter.
//!
//! Weights at 0 move by a small absolute step, so extra features can switch on.

use super::player_args::{GameKnobs, PlayerArgs};
use super::runner::{rate, GameConfig, SimGameArgs};
use super::{mix_seed, progress, with_threads};
use crate::args::Workers;
use crate::outputs::TrainingFiles;
use anyhow::{bail, Context};
use jewelbot_plugin::files;
use magic_jewelry_engine::eval::weights::{Weights, MAX_WEIGHT, WEIGHT_COUNT, WEIGHT_NAMES};
use magic_jewelry_engine::{AnyEvaluator, Budget, Objective, PlayerSpec, StrategySpec};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::io::Write;

/// Training methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    Hill,
    Cem,
}

/// Options of `train`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Strategy whose weights are trained (simple, smart, deep...).
    #[arg(long, default_value = "smart")]
    pub ai: StrategySpec,
    #[command(flatten)]
    pub game: SimGameArgs,
    /// The rules and the pace of presses of the games rated.
    #[command(flatten)]
    pub player: PlayerArgs<GameKnobs>,
    #[arg(long, value_enum, default_value_t = Method::Hill)]
    pub method: Method,
    /// Outer iterations (a new sequence each).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::args::MAX_ITERATIONS)))]
    pub iterations: u32,
    /// Shortest and longest sequence.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=crate::args::MAX_COLUMNS))]
    pub min_columns: u64,
    #[arg(long, default_value_t = 40_000, value_parser = clap::value_parser!(u64).range(1..=crate::args::MAX_COLUMNS))]
    pub max_columns: u64,
    /// Variants rated per round (hill) or samples per iteration (cem).
    #[arg(long, default_value_t = 8, value_parser = crate::args::population)]
    pub population: usize,
    /// Largest relative change of a weight per step (hill).
    #[arg(long, default_value_t = 0.05, value_parser = crate::args::step)]
    pub step: f64,
    #[command(flatten)]
    pub files: TrainingFiles,
    #[command(flatten)]
    pub workers: Workers,
}

/// The player whose weights are trained: the strategy, playing to survive with no limit on a
/// decision, so that a rating is of the weights alone.
fn trainee(args: &Args) -> PlayerSpec {
    PlayerSpec {
        strategy: args.ai,
        objective: Objective::Survive,
        ..args.player.spec.clone().with_budget(Budget::UNLIMITED)
    }
}

/// Rates weights on one sequence (lower is better).
fn rating(trainee: &PlayerSpec, weights: &Weights, seed: u64, columns: u64) -> u64 {
    let evaluation = AnyEvaluator::features_for(weights, trainee.rules);
    let mut strategy = trainee.build_with(evaluation);
    rate(strategy.as_mut(), seed, columns, GameConfig::of(trainee))
}

fn rate_all(args: &Args, population: &[Weights], seed: u64, columns: u64) -> Vec<u64> {
    let trainee = trainee(args);
    population
        .par_iter()
        .map(|w| rating(&trainee, w, seed, columns))
        .collect()
}

/// A random variant of `w`: each weight moved by up to `step` of itself (or of the mean
/// weight for weights near 0), never below 0.
fn variant(w: &Weights, step: f64, rng: &mut ChaCha8Rng) -> Weights {
    let v = w.to_vector();
    let scale = v.iter().map(|x| x.abs()).sum::<f64>() / WEIGHT_COUNT as f64;
    let mut out = [0.0; WEIGHT_COUNT];
    for i in 0..WEIGHT_COUNT {
        let base = v[i].abs().max(0.1 * scale);
        out[i] = (v[i] + rng.random_range(-step..=step) * base).clamp(0.0, MAX_WEIGHT);
    }
    Weights::from_vector(out)
}

fn describe(w: &Weights) -> String {
    w.to_vector()
        .iter()
        .zip(WEIGHT_NAMES)
        .map(|(v, n)| format!("{n}={v:.3}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Trains and returns the best weights found (also written to `args.files.out`).
pub fn train(args: &Args) -> anyhow::Result<Weights> {
    if !(args.step.is_finite() && args.step > 0.0 && args.step <= crate::args::MAX_STEP) {
        bail!(
            "--step must be above 0 and at most {}, not {}",
            crate::args::MAX_STEP,
            args.step
        );
    }
    if args.iterations == 0 || args.min_columns == 0 || args.max_columns == 0 {
        bail!("--iterations, --min-columns and --max-columns must be at least 1");
    }
    let start = match &args.files.from {
        Some(path) => Weights::load(path)?,
        None => Weights::PUBLISHED,
    };
    let max_columns = args.max_columns.max(args.min_columns);
    let bar = progress::bar_if(!args.workers.quiet, u64::from(args.iterations), "train");
    let mut run = Run {
        args,
        rng: ChaCha8Rng::seed_from_u64(args.game.seed),
        max_columns,
        bar: &bar,
    };
    let result = with_threads(args.workers.threads, || match args.method {
        Method::Hill => hill(&mut run, start),
        Method::Cem => cem(&mut run, start),
    })??;
    bar.finish_and_clear();
    Ok(result)
}

/// What both methods share over a run: the options, the random source of the sequences'
/// lengths and of the method's draws, and the progress bar.
struct Run<'a> {
    args: &'a Args,
    rng: ChaCha8Rng,
    max_columns: u64,
    bar: &'a indicatif::ProgressBar,
}

impl Run<'_> {
    /// The sequence iteration `iteration` rates on: its length and seed.
    fn sequence(&mut self, iteration: u32) -> (u64, u64) {
        let columns = self
            .rng
            .random_range(self.args.min_columns..=self.max_columns);
        (
            columns,
            mix_seed(self.args.game.seed, u64::from(iteration) + 1),
        )
    }

    /// Writes the weights found so far and logs the iteration.
    fn iteration_done(&self, w: &Weights, line: String) -> anyhow::Result<()> {
        let out = &self.args.files.out;
        files::write_file(out, w.to_file_text().as_bytes(), true)
            .with_context(|| format!("saving {}", out.display()))?;
        log(self.bar, line);
        self.bar.inc(1);
        Ok(())
    }
}

/// Hill climbing: a few rounds of random variants per iteration, the best kept.
fn hill(run: &mut Run, start: Weights) -> anyhow::Result<Weights> {
    let args = run.args;
    let mut w = start;
    for iteration in 0..args.iterations {
        let (columns, seed) = run.sequence(iteration);
        let rng = &mut run.rng;
        let mut r = rating(&trainee(args), &w, seed, columns);
        let rounds = rng.random_range(5..=11);
        let before = r;
        for _ in 0..rounds {
            let population: Vec<Weights> = (0..args.population.max(1))
                .map(|_| variant(&w, args.step, rng))
                .collect();
            let ratings = rate_all(args, &population, seed, columns);
            if let Some((i, &best)) = ratings.iter().enumerate().min_by_key(|(_, &t)| t) {
                if best < r {
                    r = best;
                    w = population[i];
                }
            }
        }
        run.iteration_done(
            &w,
            format!(
                "iteration {iteration} ({} rules): {columns} columns, mean jewels {:.4} -> {:.4}; {}",
                args.player.spec.rules,
                before as f64 / columns as f64,
                r as f64 / columns as f64,
                describe(&w)
            ),
        )?;
    }
    Ok(w)
}

/// The cross-entropy method: a Gaussian over the weights, refitted to the best quarter of its
/// samples each iteration.
fn cem(run: &mut Run, start: Weights) -> anyhow::Result<Weights> {
    let args = run.args;
    let mut mean = start.to_vector();
    let scale = mean.iter().map(|x| x.abs()).sum::<f64>() / WEIGHT_COUNT as f64;
    let mut sd: [f64; WEIGHT_COUNT] = mean.map(|m| 0.2 * m.abs().max(0.2 * scale));
    let population = args.population.max(4);
    let elite = (population / 4).max(2);
    let mut best = start;
    for iteration in 0..args.iterations {
        let (columns, seed) = run.sequence(iteration);
        let rng = &mut run.rng;
        let mut samples: Vec<Weights> = vec![Weights::from_vector(mean)];
        while samples.len() < population {
            let mut v = [0.0; WEIGHT_COUNT];
            for i in 0..WEIGHT_COUNT {
                v[i] = (mean[i] + sd[i] * gaussian(rng)).clamp(0.0, MAX_WEIGHT);
            }
            samples.push(Weights::from_vector(v));
        }
        let ratings = rate_all(args, &samples, seed, columns);
        let mut order: Vec<usize> = (0..samples.len()).collect();
        order.sort_by_key(|&i| ratings[i]);
        let top: Vec<[f64; WEIGHT_COUNT]> = order[..elite]
            .iter()
            .map(|&i| samples[i].to_vector())
            .collect();
        for i in 0..WEIGHT_COUNT {
            let m = top.iter().map(|v| v[i]).sum::<f64>() / elite as f64;
            let var = top.iter().map(|v| (v[i] - m).powi(2)).sum::<f64>() / elite as f64;
            mean[i] = m;
            // A little extra noise keeps the search from collapsing too early.
            sd[i] = var.sqrt() + 0.01 * scale;
        }
        best = Weights::from_vector(mean);
        run.iteration_done(&best, format!(
            "iteration {iteration} ({} rules): {columns} columns, mean jewels: old mean {:.4}, best sample {:.4}; {}",
            args.player.spec.rules,
            ratings[0] as f64 / columns as f64,
            ratings[order[0]] as f64 / columns as f64,
            describe(&best)
        ))?;
    }
    Ok(best)
}

/// One line of training log: above the progress bar, or on stderr without one.
fn log(bar: &indicatif::ProgressBar, line: String) {
    if bar.is_hidden() {
        eprintln!("{line}");
    } else {
        bar.println(line);
    }
}

/// A standard normal sample (Box-Muller).
fn gaussian(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = rng.random_range(f64::EPSILON..1.0);
    let u2: f64 = rng.random_range(0.0..1.0);
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// `train`: train and print the weights.
pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<()> {
    args.files.check()?;
    if args.min_columns > args.max_columns {
        anyhow::bail!(
            "--min-columns {} is more than --max-columns {}",
            args.min_columns,
            args.max_columns
        );
    }
    let w = train(args)?;
    writeln!(out, "{}", w.to_json())?;
    writeln!(
        out,
        "trained under the {} rules; written to {}",
        args.player.spec.rules,
        args.files.out.display()
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn args(method: Method, out: PathBuf) -> Args {
        Args {
            ai: StrategySpec::Smart,
            method,
            iterations: 1,
            min_columns: 200,
            max_columns: 300,
            population: 4,
            step: 0.05,
            files: TrainingFiles {
                from: None,
                out,
                force: false,
            },
            game: SimGameArgs { seed: 4 },
            player: PlayerArgs::default(),
            workers: Workers {
                threads: 2,
                quiet: true,
            },
        }
    }

    #[test]
    fn both_methods_write_weights() {
        let dir = std::env::temp_dir();
        for method in [Method::Hill, Method::Cem] {
            let out = dir.join(format!("mj-train-{method:?}-{}.json", std::process::id()));
            let w = train(&args(method, out.clone())).unwrap();
            assert_eq!(Weights::load(&out).unwrap(), w);
            assert!(w.to_vector().iter().all(|&x| x >= 0.0 && x.is_finite()));
            std::fs::remove_file(&out).ok();
        }
    }

    #[test]
    fn variants_stay_close_and_move_zeros() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let w = Weights::PUBLISHED;
        let v = variant(&w, 0.05, &mut rng).to_vector();
        for (a, b) in w.to_vector().iter().zip(&v) {
            assert!((a - b).abs() <= 0.05 * a.abs().max(1.2) + 1e-9, "{a} {b}");
        }
        let moved = (0..20).any(|_| variant(&w, 0.05, &mut rng).danger > 0.0);
        assert!(moved);
        // However far the steps push, the weights stay ones a weights file may hold.
        let mut far = w;
        for _ in 0..200 {
            far = variant(&far, crate::args::MAX_STEP, &mut rng);
        }
        assert!(far
            .to_vector()
            .iter()
            .all(|v| (0.0..=MAX_WEIGHT).contains(v)));
    }

    #[test]
    fn bad_options_are_errors() {
        let out = std::env::temp_dir().join(format!("mj-train-unused-{}.json", std::process::id()));
        let mut a = args(Method::Hill, out.clone());
        a.files.from = Some(PathBuf::from("/nonexistent/w.json"));
        assert!(train(&a).is_err());
        for step in [f64::NAN, 0.0, -0.1, f64::INFINITY, 10.5, 9e307] {
            let a = Args {
                step,
                ..args(Method::Hill, out.clone())
            };
            let message = train(&a).unwrap_err().to_string();
            assert!(message.contains("--step"), "{message}");
        }
        assert!(
            !out.exists(),
            "nothing is written when the options are refused"
        );
    }
}
