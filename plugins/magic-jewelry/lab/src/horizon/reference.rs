//! `horizon --rules reference`: no game repeats, so the mean columns to game over is
//! estimated, with its interval, by multilevel splitting.

use super::Args;
use crate::splitting::{self, Mixed, Player};
use crate::with_threads;
use magic_jewelry_engine::PlayerSpec;
use serde::Serialize;
use std::io::Write;
use std::time::Instant;

/// What `horizon --rules reference` found.
#[derive(Debug, Clone, Serialize)]
pub struct ReferenceReport {
    pub ai: String,
    pub work: u64,
    pub random_share: f64,
    pub config: splitting::Config,
    /// One estimate a run (seeds `seed`, `seed + 1`, ...).
    pub estimates: Vec<splitting::Estimate>,
    pub direct: Option<splitting::DirectLife>,
    /// With a direct figure: how many of the estimates' intervals hold it.
    pub covered: Option<usize>,
    pub seconds: f64,
}

/// The reference rules' estimate in its parts, so that its runs and its direct count can be
/// made apart (each a task of the cluster driver's, [`super::tasks`]) and put together the same
/// as one machine does: the options checked, the player, the settings of each run.
pub struct Estimating {
    label: String,
    spec: PlayerSpec,
    random_share: f64,
    config: splitting::Config,
    runs: u32,
    direct_games: Option<u64>,
    game_limit: u64,
    seed: u64,
}

impl Estimating {
    /// The estimate `args` ask for, its options checked.
    pub fn open(args: &Args) -> anyhow::Result<Self> {
        if args.generator_state.is_some() || args.starts.is_some() || args.every_start {
            anyhow::bail!(
                "--generator-state, --starts and --every-start choose the real game's starts: \
                 the reference rules' colours come from --seed"
            );
        }
        if args.player.spec.foresight {
            anyhow::bail!(
                "--foresight reads the real game's generator: under the reference rules the \
                 colours are independent and nothing can be foreseen"
            );
        }
        if args.results.is_some() || args.checkpoint.is_some() {
            anyhow::bail!(
                "--results and --checkpoint keep the real game's starts: the reference rules' \
                 estimate is one run (--json prints it)"
            );
        }
        let real = args.real_options_given();
        if !real.is_empty() {
            anyhow::bail!(
                "{} belong{} to the real rules' proof (--rules real): the reference rules' \
                 estimate would ignore {}",
                real.join(", "),
                if real.len() == 1 { "s" } else { "" },
                if real.len() == 1 { "it" } else { "them" }
            );
        }
        let ai = args
            .player
            .spec
            .named(&args.ai)
            .map_err(anyhow::Error::msg)?;
        let a = &args.splitting;
        Ok(Self {
            label: format!(
                "{} ({:?} with {})",
                ai.label,
                ai.spec.strategy,
                ai.spec.evaluation.source(ai.spec.rules)
            ),
            random_share: a.random_share(),
            config: a.config(args.seed),
            runs: a.runs(),
            direct_games: a.direct_games,
            game_limit: a.game_limit(),
            seed: args.seed,
            spec: ai.spec,
        })
    }

    /// Estimates to make (`--runs`).
    pub fn runs(&self) -> u32 {
        self.runs
    }

    /// Whether the life is also counted directly (`--direct-games`).
    pub fn counts_directly(&self) -> bool {
        self.direct_games.is_some()
    }

    fn player(&self) -> Box<dyn Player> {
        Box::new(Mixed {
            strategy: self.spec.build(),
            random_share: self.random_share,
        })
    }

    /// Estimate number `run` (seed `--seed + run`), on the worker threads.
    pub fn estimate(&self, run: u64) -> splitting::Estimate {
        let config = splitting::Config {
            seed: self.config.seed.wrapping_add(run),
            ..self.config
        };
        splitting::estimate(&|| self.player(), &config)
    }

    /// The life counted directly, when asked for.
    pub fn direct(&self) -> Option<splitting::DirectLife> {
        self.direct_games.map(|games| {
            splitting::direct_life(&|| self.player(), games, self.game_limit, self.seed)
        })
    }

    /// The report of the estimates made and the direct count.
    pub fn report(
        &self,
        estimates: Vec<splitting::Estimate>,
        direct: Option<splitting::DirectLife>,
        seconds: f64,
    ) -> ReferenceReport {
        let covered = direct.map(|d| {
            estimates
                .iter()
                .filter(|e| e.low <= d.mean_life && d.mean_life <= e.high)
                .count()
        });
        ReferenceReport {
            ai: self.label.clone(),
            work: self.spec.budget().work.unwrap_or(0),
            random_share: self.random_share,
            config: self.config,
            estimates,
            direct,
            covered,
            seconds,
        }
    }
}

/// The reference rules: the splitting estimate of the mean columns to game over, and with
/// `--direct-games` the life counted directly to hold it against.
pub fn reference_report(args: &Args) -> anyhow::Result<ReferenceReport> {
    let estimating = Estimating::open(args)?;
    let began = Instant::now();
    let (estimates, direct) = with_threads(args.workers.threads, || {
        let estimates: Vec<splitting::Estimate> = (0..u64::from(estimating.runs()))
            .map(|run| estimating.estimate(run))
            .collect();
        (estimates, estimating.direct())
    })?;
    Ok(estimating.report(estimates, direct, began.elapsed().as_secs_f64()))
}

/// `horizon --rules reference`.
pub(super) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<()> {
    let report = reference_report(args)?;
    write_report(&report, args.json, out)
}

/// The report as `horizon --rules reference` prints it (`json`: as `--json` does).
pub fn write_report(
    report: &ReferenceReport,
    json: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(());
    }
    let share = if report.random_share > 0.0 {
        format!(", {} of its placements at random", report.random_share)
    } else {
        String::new()
    };
    writeln!(
        out,
        "{}, {} boards a decision{share}, reference rules (uniform, independent colours)",
        report.ai, report.work
    )?;
    for (run, e) in report.estimates.iter().enumerate() {
        let seed = report.config.seed.wrapping_add(run as u64);
        let set = format!(
            "safe set: stacks of at most {} rows, {} levels every {} rows to the game over, a \
             departure every {:.1} columns; {} columns played",
            e.safe_height,
            e.levels.len(),
            report.config.level_step,
            e.columns_per_departure,
            e.columns_played
        );
        if e.chance > 0.0 {
            writeln!(
                out,
                "estimate (seed {seed}): mean life {:.4e} columns, 95% interval {:.4e} to {:.4e}; a \
                 departure ends the game with chance {:.3e}; {set}",
                e.mean_life, e.low, e.high, e.chance
            )?;
        } else {
            let reached: Vec<String> = e.level_chances.iter().map(|c| format!("{c:.4}")).collect();
            let bound = e.life_at_least.map_or(String::new(), |life| {
                format!(
                    "; a bound instead: the mean life is at least {life:.4e} columns (95%, the \
                     last level's chance below 3 / its trials)"
                )
            });
            writeln!(
                out,
                "estimate (seed {seed}): no trial reached the game over, so no estimate: each \
                 level's share {}{bound}; more trials (--trials, or --reach K for the rare \
                 levels) reach further; {set}",
                reached.join(", ")
            )?;
        }
    }
    if let Some(d) = report.direct {
        writeln!(
            out,
            "counted directly: {} games, mean life {:.4e} columns, 95% interval {:.4e} to \
             {:.4e}{}",
            d.games,
            d.mean_life,
            d.low,
            d.high,
            if d.unfinished > 0 {
                format!(
                    " ({} games unfinished at the limit: a lower bound)",
                    d.unfinished
                )
            } else {
                String::new()
            }
        )?;
    }
    if let Some(covered) = report.covered {
        writeln!(
            out,
            "{covered} of {} intervals hold the direct figure",
            report.estimates.len()
        )?;
    }
    writeln!(out, "({:.0} s)", report.seconds)?;
    Ok(())
}
