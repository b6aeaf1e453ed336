//! Value parsers the lab's commands share: a number or file a command cannot use is refused
//! while the command line is parsed, with the flag's name, so a long run never starts on it.

use magic_jewelry_engine::eval::weights::check_evaluation_file;
use std::path::PathBuf;

/// How a lab command runs, apart from what it computes: its worker threads and progress bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::Args)]
pub struct Workers {
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0, value_parser = threads)]
    pub threads: usize,
    /// Hide the progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// More worker threads than any machine has cores is a typo.
pub const MAX_THREADS: usize = 4096;

/// Worker threads: 0 (one per core) to [`MAX_THREADS`].
pub fn threads(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|&n| n <= MAX_THREADS)
        .ok_or_else(|| {
            format!("`{text}` is not a count of threads from 0 (one per core) to {MAX_THREADS}")
        })
}

/// Most weight vectors a training round tries.
pub const MAX_POPULATION: usize = 10_000;

/// A population: 1 to [`MAX_POPULATION`].
pub fn population(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|n| (1..=MAX_POPULATION).contains(n))
        .ok_or_else(|| format!("`{text}` is not a population from 1 to {MAX_POPULATION}"))
}

/// Most columns a lab command plays: some weeks of a machine. A count past it is a typo, and
/// an unbounded one would run for ever.
pub const MAX_COLUMNS: u64 = 10_000_000_000;

/// Most column sequences `compare` pairs.
pub const MAX_SEEDS: u64 = 1_000_000;

/// Most games `learn` plays side by side (each holds a board and its search).
pub const MAX_GAMES: u64 = 65_536;

/// Most iterations or rounds of `train`.
pub const MAX_ITERATIONS: u32 = 100_000;

/// The largest relative change of a weight `train` may try in one step: ten times the weight.
pub const MAX_STEP: f64 = 10.0;

/// A training step: a finite number above 0, at most [`MAX_STEP`].
pub fn step(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v > 0.0 && *v <= MAX_STEP)
        .ok_or_else(|| format!("`{text}` is not a step above 0 and at most {MAX_STEP}"))
}

/// A learning rate: above 0 and at most 1 (a larger one overshoots every error it corrects).
pub fn learning_rate(text: &str) -> Result<f32, String> {
    text.parse::<f32>()
        .ok()
        .filter(|v| v.is_finite() && *v > 0.0 && *v <= 1.0)
        .ok_or_else(|| format!("`{text}` is not a learning rate above 0 and at most 1"))
}

/// A finite number above 0.
pub fn positive(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v > 0.0)
        .ok_or_else(|| format!("`{text}` is not a finite number above 0"))
}

/// A discount: a number from 0 to 1.
pub fn discount(text: &str) -> Result<f32, String> {
    text.parse::<f32>()
        .ok()
        .filter(|v| (0.0..=1.0).contains(v))
        .ok_or_else(|| format!("`{text}` is not a discount from 0 to 1"))
}

/// An evaluation file (weights or a learned value): a regular file, checked before it is
/// opened (a FIFO or a device would block or never end).
pub fn evaluation_file(text: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(text);
    check_evaluation_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// An AI as `sim`, `compare` and `horizon` take it: `player`, `reference`, `NAME` or
/// `NAME@FILE`, the name a strategy and FILE a regular file
/// ([`magic_jewelry_engine::player::check_name`]: the file checked, not read).
pub fn ai(text: &str) -> Result<String, String> {
    magic_jewelry_engine::player::check_name(text)?;
    Ok(text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_values_are_refused_with_why() {
        assert_eq!(threads("0"), Ok(0));
        assert!(threads("4097").unwrap_err().contains("4096"));
        for bad in ["0", "-1", "NaN", "inf", "x"] {
            assert!(positive(bad).is_err(), "{bad}");
        }
        assert!(discount("1.5").is_err() && discount("NaN").is_err());
        assert_eq!(discount("0.99"), Ok(0.99));
        assert!(ai("deep:1:18446744073709551615")
            .unwrap_err()
            .contains("1024"));
        assert!(ai("smart@/nonexistent.json").is_err());
        assert_eq!(ai("player"), Ok("player".to_owned()));
    }
}
