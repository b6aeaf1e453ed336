//! The lab's numbers and files, checked before a command starts: NaN, infinities, zero where
//! zero means nothing, and files that are not regular files are refused with the flag's name,
//! so a long run never starts on a value it cannot use and no read blocks on a FIFO.

use crate::cli::Command;
use anyhow::bail;
use std::path::Path;

/// More worker threads than any machine has cores is a typo.
const MAX_THREADS: usize = 4096;
/// Larger than any weights or value file.
const MAX_EVALUATION_FILE_LEN: u64 = 256 * 1024 * 1024;

pub fn validate(command: &Command) -> anyhow::Result<()> {
    match command {
        Command::Sim(a) => {
            at_least_one("--columns", a.columns)?;
            threads(a.threads)?;
            strategy_file("--ai", &a.ai)?;
            if let Some(path) = &a.weights {
                regular("--weights", path)?;
            }
        }
        Command::Compare(a) => {
            if a.ai.len() != 2 {
                bail!(
                    "--ai: give exactly two strategies to compare ({} given)",
                    a.ai.len()
                );
            }
            for ai in &a.ai {
                strategy_file("--ai", ai)?;
            }
            at_least_one("--columns", a.columns)?;
            at_least_one("--seeds", a.seeds)?;
            threads(a.threads)?;
        }
        Command::Train(a) => {
            strategy_file("--ai", &a.ai)?;
            at_least_one("--iterations", u64::from(a.iterations))?;
            at_least_one("--min-columns", a.min_columns)?;
            at_least_one("--population", a.population as u64)?;
            if a.min_columns > a.max_columns {
                bail!(
                    "--min-columns {} is more than --max-columns {}",
                    a.min_columns,
                    a.max_columns
                );
            }
            positive("--step", a.step)?;
            threads(a.threads)?;
            if let Some(path) = &a.from {
                regular("--from", path)?;
            }
        }
        Command::Learn(a) => {
            at_least_one("--columns", a.columns)?;
            at_least_one("--steps", u64::from(a.steps))?;
            at_least_one("--games", a.games)?;
            at_least_one("--report-every", a.report_every)?;
            positive("--alpha", f64::from(a.alpha))?;
            if let Some(alpha) = a.final_alpha {
                positive("--final-alpha", f64::from(alpha))?;
            }
            let gamma = f64::from(a.gamma);
            if !gamma.is_finite() || !(0.0..=1.0).contains(&gamma) {
                bail!("--gamma {gamma}: a discount is a number from 0 to 1");
            }
            threads(a.threads)?;
            if let Some(path) = &a.from {
                regular("--from", path)?;
            }
        }
        Command::Bench(a) => at_least_one("--columns", a.columns)?,
        _ => {}
    }
    Ok(())
}

fn at_least_one(flag: &str, value: u64) -> anyhow::Result<()> {
    if value == 0 {
        bail!("{flag} 0: it must be at least 1");
    }
    Ok(())
}

fn positive(flag: &str, value: f64) -> anyhow::Result<()> {
    if !value.is_finite() || value <= 0.0 {
        bail!("{flag} {value}: it must be a finite number above 0");
    }
    Ok(())
}

fn threads(value: usize) -> anyhow::Result<()> {
    if value > MAX_THREADS {
        bail!("--threads {value}: at most {MAX_THREADS} (0 uses one per core)");
    }
    Ok(())
}

/// `NAME@FILE` names an evaluation file: it must be a regular file.
fn strategy_file(flag: &str, ai: &str) -> anyhow::Result<()> {
    match ai.split_once('@') {
        Some((_, file)) => regular(flag, Path::new(file)),
        None => Ok(()),
    }
}

fn regular(flag: &str, path: &Path) -> anyhow::Result<()> {
    jewelbot::files::check_regular(path, "evaluation", MAX_EVALUATION_FILE_LEN)
        .map(drop)
        .map_err(|error| anyhow::anyhow!("{flag}: {error}"))
}
