//! `sim`: plays seeded column sequences without the emulator and reports the statistics.

use crate::args::Workers;
use crate::outputs::write_whole;
use crate::player_args::PlayerArgs;
use crate::runner::{play, GameConfig, SimGameArgs};
use crate::stats::{tail_fit, Stats};
use crate::{mix_seed, progress, with_threads, PLAYER};
use anyhow::Context;
use magic_jewelry_engine::player::Evaluation;
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

mod plot;
mod report;
pub use report::{summary, Report, SpeedShare};

/// Columns per independent chunk (each from an empty board, with its own seed): fixed, so the
/// results do not depend on the number of threads.
pub const CHUNK_COLUMNS: u64 = 250_000;

/// The independent games `columns` columns seeded by `seed` are played as: (the game's seed,
/// its columns), in order. `sim` plays them in parallel; any other player that plays them
/// (a Python policy) meets the same column sequences.
pub fn chunks(seed: u64, columns: u64) -> impl Iterator<Item = (u64, u64)> {
    (0..columns.div_ceil(CHUNK_COLUMNS)).map(move |chunk| {
        let played = CHUNK_COLUMNS.min(columns - chunk * CHUNK_COLUMNS);
        (mix_seed(seed, chunk), played)
    })
}

/// Options of `sim`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Strategy: `player` (the player's own: its strategy with the rules' default evaluation),
    /// `reference` (smart with the published weights), simple, smart, deep or `deep:K:S[:M]`
    /// (S may be `all`), scoring with the rules' default evaluation; NAME@FILE to score with the
    /// weights or learned value in FILE.
    #[arg(long, default_value = PLAYER, value_parser = crate::args::ai)]
    pub ai: String,
    /// Columns to play.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..=crate::args::MAX_COLUMNS))]
    pub columns: u64,
    /// The player's other settings: objective, rules, evaluation, foresight, budget, pace.
    #[command(flatten)]
    pub player: PlayerArgs,
    #[command(flatten)]
    pub game: SimGameArgs,
    #[command(flatten)]
    pub workers: Workers,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Directory for the histogram CSV, the report JSON and the plots (SVG and PNG).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write into --out DIR even if it holds files (the report's names are replaced).
    #[arg(long)]
    pub force: bool,
}

impl Default for Args {
    fn default() -> Self {
        Self {
            ai: PLAYER.into(),
            columns: 1_000_000,
            player: PlayerArgs::default(),
            game: SimGameArgs::default(),
            workers: Workers::default(),
            json: false,
            out: None,
            force: false,
        }
    }
}

/// Runs the simulation and returns its report (no printing).
pub fn simulate(args: &Args) -> anyhow::Result<Report> {
    let ai = args
        .player
        .spec
        .named(&args.ai)
        .map_err(anyhow::Error::msg)?;
    let spec = &ai.spec;
    let rules = spec.rules;
    let config = GameConfig {
        timed: true,
        ..GameConfig::of(spec)
    };
    let chunks: Vec<(u64, u64)> = chunks(args.game.seed, args.columns).collect();
    let bar = progress::bar_if(
        !args.workers.quiet,
        args.columns,
        &format!("sim {} ({rules})", ai.label),
    );
    let began = Instant::now();
    let stats = with_threads(args.workers.threads, || {
        chunks
            .into_par_iter()
            .map(|(seed, columns)| -> anyhow::Result<Stats> {
                let mut strategy = spec.build();
                let mut stats = Stats::default();
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
        rules,
        ai: ai.label,
        strategy: spec.strategy.to_string(),
        objective: spec.objective,
        evaluation: spec.evaluation.source(rules).to_string(),
        weights: spec.evaluation.weights(),
        foresight: spec.foresight.then_some(spec.lookahead),
        budget: spec.budget().to_string(),
        seed: args.game.seed,
        tap_interval: config.input.interval(),
        mean_jewels: stats.mean_jewels(),
        max_jewels: stats.max_jewels,
        columns_per_clear: stats.columns_per_clear(),
        game_overs: stats.game_overs,
        points_per_column: stats.points_per_column(),
        wild_columns: stats.wild_columns,
        highest_level: stats.highest_level,
        speeds: stats
            .speed_shares()
            .into_iter()
            .map(|(frames_per_row, share)| SpeedShare {
                frames_per_row,
                share,
            })
            .collect(),
        mean_decision_micros: stats.decisions.mean().as_secs_f64() * 1e6,
        median_decision_micros: stats.decisions.median().as_micros() as u64,
        columns_per_second: stats.columns as f64 / seconds.max(1e-9),
        tail_fit: tail_fit(&stats, 20),
        stats,
    })
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
        write_whole(&dir.join(name), |partial| {
            Ok(std::fs::write(partial, text)?)
        })
    };
    write("histogram.csv", &csv)?;
    write("report.json", &serde_json::to_string_pretty(report)?)?;
    plot::fill_plots(report, dir)?;
    Ok(())
}

/// The files `--out DIR` holds once written.
pub const OUTPUT_NAMES: [&str; 8] = [
    "histogram.csv",
    "report.json",
    "fill.svg",
    "fill.png",
    "log10.svg",
    "log10.png",
    "speeds.svg",
    "speeds.png",
];

/// An evaluation file `sim` reads is never one of the files it writes, `--force` or not.
fn refuse_reading_an_output(args: &Args, dir: &std::path::Path) -> anyhow::Result<()> {
    let ai_file = args.ai.split_once('@').map(|(_, file)| PathBuf::from(file));
    let weights = match &args.player.spec.evaluation {
        Evaluation::File(path, _) => Some(path.clone()),
        _ => None,
    };
    for input in weights.iter().chain(&ai_file) {
        let Ok(input_place) = std::fs::canonicalize(input) else {
            continue;
        };
        for name in OUTPUT_NAMES {
            if std::fs::canonicalize(dir.join(name)).is_ok_and(|place| place == input_place) {
                anyhow::bail!(
                    "--out {} would replace {}, which sim reads: an output never replaces an \
                     input, --force or not",
                    dir.display(),
                    input.display()
                );
            }
        }
    }
    Ok(())
}

/// `sim`: simulate, print, and write the outputs.
pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<()> {
    if let Some(dir) = &args.out {
        crate::outputs::refuse_full_dir(dir, args.force)?;
        refuse_reading_an_output(args, dir)?;
    }
    let report = simulate(args)?;
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        write!(out, "{}", summary(&report))?;
    }
    if let Some(dir) = &args.out {
        write_outputs(&report, dir)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use magic_jewelry_engine::{Budget, Objective, PlayerSpec};

    #[test]
    fn sim_is_reproducible_and_writes_outputs() {
        let dir = std::env::temp_dir().join(format!("mj-sim-test-{}", std::process::id()));
        let args = Args {
            ai: "smart".into(),
            columns: 3000,
            game: SimGameArgs { seed: 9 },
            workers: Workers {
                threads: 2,
                quiet: true,
            },
            out: Some(dir.clone()),
            ..Args::default()
        };
        let a = simulate(&args).unwrap();
        let b = simulate(&Args {
            workers: Workers {
                threads: 1,
                ..args.workers
            },
            ..args.clone()
        })
        .unwrap();
        assert_eq!(a.stats.fill, b.stats.fill);
        assert_eq!(a.stats.columns, 3000);
        write_outputs(&a, &dir).unwrap();
        for file in OUTPUT_NAMES {
            assert!(dir.join(file).metadata().unwrap().len() > 100, "{file}");
        }
        for file in ["fill.png", "log10.png", "speeds.png"] {
            assert!(
                caption_has_ink(&dir.join(file)),
                "{file} has no caption text"
            );
        }
        let text = summary(&a);
        assert!(
            text.contains("mean") && text.contains("real rules"),
            "{text}"
        );
        assert!(text.contains("wild columns"), "{text}");
        let json = std::fs::read_to_string(dir.join("report.json")).unwrap();
        assert!(json.contains("\"rules\": \"real\""), "{json}");
        std::fs::remove_dir_all(&dir).ok();
    }

    /// The player's configuration with no limit on a decision playing for points against
    /// playing to survive, on the same 3,000 columns of the real game: pinned points, and no
    /// game over.
    #[test]
    fn the_score_objective_scores_more() {
        let run = |objective| {
            let spec = PlayerSpec {
                objective,
                ..PlayerSpec::default().with_budget(Budget::UNLIMITED)
            };
            simulate(&Args {
                columns: 3000,
                game: SimGameArgs { seed: 4 },
                player: PlayerArgs::from(spec),
                workers: Workers {
                    threads: 1,
                    quiet: true,
                },
                ..Args::default()
            })
            .unwrap()
        };
        let survive = run(Objective::Survive);
        let score = run(Objective::Score);
        assert_eq!(score.objective, Objective::Score);
        let pinned = |r: &Report| (r.stats.chains.points, r.stats.wild_points, r.game_overs);
        assert_eq!(pinned(&survive), (2_072_902, 207_875, 0));
        assert_eq!(pinned(&score), (14_259_139, 1_179_233, 0));
        // 4,062.1 points a column more, most of it from the chains it holds ready.
        assert_eq!(
            score.stats.chains.points - survive.stats.chains.points,
            12_186_237
        );
        assert!(summary(&score).contains("playing to score"));
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
            ai: "smart@/nonexistent.json".into(),
            workers: Workers {
                quiet: true,
                ..Workers::default()
            },
            ..Args::default()
        };
        assert!(simulate(&args).is_err());
        let args = Args {
            ai: "nonsense".into(),
            workers: Workers {
                quiet: true,
                ..Workers::default()
            },
            ..Args::default()
        };
        assert!(simulate(&args).is_err());
    }
}
