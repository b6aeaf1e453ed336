//! `horizon --rules reference`: no game repeats, so the mean columns to game over is
//! estimated, with its interval, by multilevel splitting.

use super::Args;
use crate::splitting::{self, Mixed, Player};
use crate::with_threads;
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

/// The reference rules: the splitting estimate of the mean columns to game over, and with
/// `--direct-games` the life counted directly to hold it against.
pub fn reference_report(args: &Args) -> anyhow::Result<ReferenceReport> {
    if args.generator_state.is_some() || args.starts.is_some() || args.every_start {
        anyhow::bail!(
            "--generator-state, --starts and --every-start choose the real game's starts: the \
             reference rules' colours come from --seed"
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
    let spec = &ai.spec;
    let work = spec.budget().work.unwrap_or(0);
    let random_share = args.splitting.random_share();
    let make = || -> Box<dyn Player> {
        let strategy = spec.build();
        Box::new(Mixed {
            strategy,
            random_share,
        })
    };
    let a = &args.splitting;
    let config = a.config(args.seed);
    let began = Instant::now();
    let (estimates, direct) = with_threads(args.workers.threads, || {
        let estimates: Vec<splitting::Estimate> = (0..u64::from(a.runs()))
            .map(|run| {
                let config = splitting::Config {
                    seed: config.seed.wrapping_add(run),
                    ..config
                };
                splitting::estimate(&make, &config)
            })
            .collect();
        let direct = a
            .direct_games
            .map(|games| splitting::direct_life(&make, games, a.game_limit(), args.seed));
        (estimates, direct)
    })?;
    let covered = direct.map(|d| {
        estimates
            .iter()
            .filter(|e| e.low <= d.mean_life && d.mean_life <= e.high)
            .count()
    });
    Ok(ReferenceReport {
        ai: format!(
            "{} ({:?} with {})",
            ai.label,
            spec.strategy,
            spec.evaluation.source(spec.rules)
        ),
        work,
        random_share,
        config,
        estimates,
        direct,
        covered,
        seconds: began.elapsed().as_secs_f64(),
    })
}

/// `horizon --rules reference`.
pub(super) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<()> {
    let report = reference_report(args)?;
    if args.json {
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
