//! `sim`: plays seeded column sequences without the emulator and reports the statistics.

use super::runner::{play, GameConfig};
use super::stats::{tail_fit, Stats, TailFit};
use super::{build_strategy, mix_seed, parse_ai, progress_bar, with_threads};
use anyhow::Context;
use magic_jewelry::engine::rules::generator::DEFAULT_WILD_EVERY;
use magic_jewelry::engine::{InputModel, Weights};
use rayon::prelude::*;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// Columns per independent chunk (each from an empty board, with its own seed): fixed, so the
/// results do not depend on the number of threads.
pub const CHUNK_COLUMNS: u64 = 250_000;

/// Options of `sim`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Strategy: simple, smart, deep or `deep:K:S[:M]` (S may be `all`; NAME@FILE to score with
    /// the weights or learned value in FILE).
    #[arg(long, default_value = "smart")]
    pub ai: String,
    /// Columns to play.
    #[arg(long, default_value_t = 1_000_000)]
    pub columns: u64,
    /// Seed of the column sequences.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Insert wild columns (one after every --wild-every jewels removed).
    #[arg(long)]
    pub wild: bool,
    /// Jewels removed between wild columns (the game's real threshold is not documented).
    #[arg(long, default_value_t = DEFAULT_WILD_EVERY)]
    pub wild_every: u32,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Evaluation file: weights JSON or a learned value (default: the published weights).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Directory for the histogram CSV, the report JSON and the plots (SVG and PNG).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Frames per row of gravity (63 at level 0).
    #[arg(long, default_value_t = magic_jewelry::engine::LEVEL0_FALL_SPEED)]
    pub fall_speed: u8,
    /// Frames between taps (2: fast mode).
    #[arg(long, default_value_t = 2)]
    pub tap_interval: u8,
    /// Hide the progress bar.
    #[arg(long)]
    pub quiet: bool,
}

impl Default for Args {
    fn default() -> Self {
        Self {
            ai: "smart".into(),
            columns: 1_000_000,
            seed: 1,
            wild: false,
            wild_every: DEFAULT_WILD_EVERY,
            threads: 0,
            json: false,
            weights: None,
            out: None,
            fall_speed: magic_jewelry::engine::LEVEL0_FALL_SPEED,
            tap_interval: 2,
            quiet: false,
        }
    }
}

/// What `sim` reports.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub ai: String,
    /// `published weights`, `weights FILE` or `value FILE`.
    pub evaluation: String,
    /// The weights of a feature evaluation.
    pub weights: Option<Weights>,
    pub seed: u64,
    pub wild_every: Option<u32>,
    pub fall_speed: u8,
    pub tap_interval: u8,
    pub mean_jewels: f64,
    pub max_jewels: u32,
    pub columns_per_clear: f64,
    pub game_overs: u64,
    pub mean_decision_micros: f64,
    pub columns_per_second: f64,
    pub tail_fit: Option<TailFit>,
    pub stats: Stats,
}

/// Runs the simulation and returns its report (no printing).
pub fn simulate(args: &Args) -> anyhow::Result<Report> {
    let ai = parse_ai(&args.ai, args.weights.as_deref())?;
    let name = ai.name.clone();
    let config = GameConfig {
        fall_speed: args.fall_speed,
        input: if args.tap_interval <= 2 {
            InputModel::FAST
        } else {
            InputModel::normal(args.tap_interval)
        },
        wild_every: args.wild.then_some(args.wild_every),
        timed: true,
    };
    let chunks = args.columns.div_ceil(CHUNK_COLUMNS);
    let bar = progress_bar(args.columns, !args.quiet, &format!("sim {name}"));
    let began = Instant::now();
    let stats = with_threads(args.threads, || {
        (0..chunks)
            .into_par_iter()
            .map(|chunk| -> anyhow::Result<Stats> {
                let mut strategy = build_strategy(&ai.name, &ai.evaluation)?;
                let columns = CHUNK_COLUMNS.min(args.columns - chunk * CHUNK_COLUMNS);
                let mut stats = Stats::default();
                let seed = mix_seed(args.seed, chunk);
                play(strategy.as_mut(), seed, columns, config, &mut stats, |n| {
                    bar.inc(n);
                });
                Ok(stats)
            })
            .try_reduce(Stats::default, |mut a, b| {
                a.merge(&b);
                Ok(a)
            })
    })??;
    bar.finish_and_clear();
    let seconds = began.elapsed().as_secs_f64();
    Ok(Report {
        ai: name,
        evaluation: ai.source,
        weights: ai.weights,
        seed: args.seed,
        wild_every: config.wild_every,
        fall_speed: args.fall_speed,
        tap_interval: config.input.interval(),
        mean_jewels: stats.mean_jewels(),
        max_jewels: stats.max_jewels,
        columns_per_clear: stats.columns_per_clear(),
        game_overs: stats.game_overs,
        mean_decision_micros: stats.mean_decision_micros(),
        columns_per_second: stats.columns as f64 / seconds.max(1e-9),
        tail_fit: tail_fit(&stats, 20),
        stats,
    })
}

/// The text summary.
pub fn summary(report: &Report) -> String {
    let s = &report.stats;
    let mut out = format!(
        "ai {} over {} columns (seed {}, wild {}, fall speed {}, tap every {} frames)\n",
        report.ai,
        s.columns,
        report.seed,
        report
            .wild_every
            .map_or("off".to_string(), |n| format!("every {n} jewels")),
        report.fall_speed,
        report.tap_interval
    );
    out += &format!(
        "jewels on the board after each placement: mean {:.3}, max {}\n",
        report.mean_jewels, report.max_jewels
    );
    out += &format!(
        "complete clears: {} (one every {:.0} columns; longest wait {} columns)\n",
        s.clears, report.columns_per_clear, s.longest_without_clear
    );
    out += &format!(
        "game overs: {}; wild columns: {}; jewels removed: {}\n",
        s.game_overs, s.wild_columns, s.removed
    );
    let chains: Vec<String> = s
        .chains
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(len, n)| format!("{len}:{n}"))
        .collect();
    out += &format!("chain lengths (steps:locks): {}\n", chains.join(" "));
    let fill: Vec<String> = s
        .fill
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(j, n)| format!("{j}:{n}"))
        .collect();
    out += &format!("fill histogram (jewels:placements): {}\n", fill.join(" "));
    if let Some(fit) = &report.tail_fit {
        out += &format!(
            "log10 tail fit over {}-{} jewels: expected columns to 54 jewels {:.3e}, to 78 {:.3e}\n",
            fit.from, fit.to, fit.expected_columns_54, fit.expected_columns_78
        );
    }
    out += &format!(
        "decision {:.1} us mean; {:.0} columns per second\n",
        report.mean_decision_micros, report.columns_per_second
    );
    out
}

/// Writes the histogram CSV, the report JSON and the plots into `dir`.
pub fn write_outputs(report: &Report, dir: &std::path::Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let p = report.stats.fill_probability();
    let mut csv = String::from("jewels,placements,probability,log10_probability\n");
    for (j, (&n, &prob)) in report.stats.fill.iter().zip(&p).enumerate() {
        let log = if n > 0 {
            format!("{:.6}", prob.log10())
        } else {
            String::new()
        };
        csv += &format!("{j},{n},{prob:.9},{log}\n");
    }
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
    };
    write("histogram.csv", &csv)?;
    write("report.json", &serde_json::to_string_pretty(report)?)?;
    super::plot::fill_plots(report, dir)?;
    Ok(())
}

/// `sim`: simulate, print, and write the outputs.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let report = simulate(args)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", summary(&report));
    }
    if let Some(dir) = &args.out {
        write_outputs(&report, dir)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sim_is_reproducible_and_writes_outputs() {
        let dir = std::env::temp_dir().join(format!("mj-sim-test-{}", std::process::id()));
        let args = Args {
            columns: 3000,
            seed: 9,
            threads: 2,
            quiet: true,
            out: Some(dir.clone()),
            ..Args::default()
        };
        let a = simulate(&args).unwrap();
        let b = simulate(&Args {
            threads: 1,
            ..args.clone()
        })
        .unwrap();
        assert_eq!(a.stats.fill, b.stats.fill);
        assert_eq!(a.stats.columns, 3000);
        write_outputs(&a, &dir).unwrap();
        for file in [
            "histogram.csv",
            "report.json",
            "fill.svg",
            "fill.png",
            "log10.svg",
            "log10.png",
        ] {
            assert!(dir.join(file).metadata().unwrap().len() > 100, "{file}");
        }
        for file in ["fill.png", "log10.png"] {
            assert!(
                caption_has_ink(&dir.join(file)),
                "{file} has no caption text"
            );
        }
        let text = summary(&a);
        assert!(text.contains("mean"), "{text}");
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Whether the strip where the caption goes holds dark pixels (text) on the white page.
    fn caption_has_ink(path: &std::path::Path) -> bool {
        let decoder =
            png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut pixels).unwrap();
        let channels = info.color_type.samples();
        let row = info.line_size;
        (10..40).any(|y| {
            pixels[y * row..(y + 1) * row]
                .chunks(channels)
                .any(|p| p[..3].iter().all(|&v| v < 100))
        })
    }

    #[test]
    fn bad_weights_file_is_an_error() {
        let args = Args {
            weights: Some(PathBuf::from("/nonexistent.json")),
            quiet: true,
            ..Args::default()
        };
        assert!(simulate(&args).is_err());
        let args = Args {
            ai: "nonsense".into(),
            quiet: true,
            ..Args::default()
        };
        assert!(simulate(&args).is_err());
    }
}
