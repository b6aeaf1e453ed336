//! The lab around the Magic Jewelry AI: the offline tools that play without the emulator under
//! either of the engine's rule sets (simulator, statistics and plots, trainer, value learner,
//! strategy comparison, behaviour signature, proofs). Each tool has a clap `Args` struct and a
//! `run(args)`; [`command::LabCommand`] lists them once, and the `jewelbot` binary mounts that
//! table as its subcommands.
//!
//! The in-process plug-in (`magic-jewelry`) depends on none of this: command-line parsing,
//! plots and thread pools live here only (progress bars take the style every command shares,
//! `jewelbot_plugin::progress`).

pub mod args;
pub mod bench;
pub mod command;
pub mod compare;
pub mod conform;
pub mod horizon;
pub mod learn;
pub mod model_check;
pub mod outputs;
pub mod runner;
pub mod sim;

use jewelbot_plugin::progress;
pub mod splitting;
pub mod stats;
pub mod train;

use magic_jewelry::engine::{
    load_evaluator_for, AnyEvaluator, Budget, Objective, RuleSet, Strategy, StrategySpec, Weights,
};
use std::path::Path;

/// The AI `sim` and `compare` play without `--ai`: the player's own configuration.
pub const PLAYER: &str = "player";
/// The reference AI: `smart` with the published weights.
pub const REFERENCE: &str = "reference";

/// A strategy and what it scores boards with.
#[derive(Debug, Clone)]
pub struct Ai {
    /// What was asked for: `player`, `reference`, `NAME` or `NAME@FILE`.
    pub label: String,
    /// The strategy (`simple`, `smart`, `deep`, `deep:K:S`…).
    pub strategy: StrategySpec,
    pub evaluation: AnyEvaluator,
    /// Where the evaluation came from: `published weights`, `built-in value (RULES)`,
    /// `weights FILE` or `value FILE`.
    pub source: String,
    /// The weights of a feature evaluation.
    pub weights: Option<Weights>,
}

/// Reads an evaluation file under `rules`: a learned value file, or evaluation weights as JSON.
pub fn load_evaluation(
    path: &Path,
    rules: RuleSet,
) -> anyhow::Result<(AnyEvaluator, Option<Weights>)> {
    Ok(load_evaluator_for(path, rules)?)
}

/// Parses an AI under `rules`:
/// - `player`: the player's configuration (its strategy with the rule set's default
///   evaluation);
/// - `reference`: the reference AI, `smart` with the published weights;
/// - `NAME`: a strategy with `default_file` if given, else the rule set's default evaluation;
/// - `NAME@FILE`: a strategy scoring with the weights or learned value in FILE.
pub fn parse_ai(spec: &str, default_file: Option<&Path>, rules: RuleSet) -> anyhow::Result<Ai> {
    let (name, file) = match spec.split_once('@') {
        Some((name, file)) => (name, Some(Path::new(file))),
        None => (spec, default_file),
    };
    let (strategy, published) = match name {
        PLAYER => (StrategySpec::default(), false),
        REFERENCE => (StrategySpec::Smart, true),
        other => (other.parse()?, false),
    };
    let (evaluation, weights, source) = match file {
        _ if published => (
            AnyEvaluator::features_for(&Weights::PUBLISHED, rules),
            Some(Weights::PUBLISHED),
            "published weights".to_owned(),
        ),
        Some(path) => {
            let (evaluation, weights) = load_evaluation(path, rules)?;
            let kind = if weights.is_some() {
                "weights"
            } else {
                "value"
            };
            (evaluation, weights, format!("{kind} {}", path.display()))
        }
        None => (
            AnyEvaluator::for_rules(rules),
            None,
            format!("built-in value ({rules})"),
        ),
    };
    Ok(Ai {
        label: spec.to_owned(),
        strategy,
        evaluation,
        source,
        weights,
    })
}

/// A fresh strategy for one worker under `rules` playing for `objective`, with no time budget so
/// results depend only on the seed.
pub fn build_strategy(
    spec: StrategySpec,
    evaluation: &AnyEvaluator,
    rules: RuleSet,
    objective: Objective,
) -> Box<dyn Strategy> {
    let mut strategy = spec.build(evaluation.clone(), objective);
    strategy.set_budget(Budget::UNLIMITED);
    strategy.set_rules(rules);
    strategy
}

/// Runs `job` on a pool of `threads` threads (0: one per core).
pub fn with_threads<T: Send>(threads: usize, job: impl FnOnce() -> T + Send) -> anyhow::Result<T> {
    Ok(worker_pool(threads)?.install(job))
}

/// A pool of `threads` worker threads (0: one per core). The system's reason is said once (the
/// pool's error repeats it as its source).
pub fn worker_pool(threads: usize) -> anyhow::Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .spawn_handler(|thread| {
            let mut builder = std::thread::Builder::new();
            if let Some(name) = thread.name() {
                builder = builder.name(name.to_owned());
            }
            if let Some(size) = thread.stack_size() {
                builder = builder.stack_size(size);
            }
            room_for_a_thread(thread.stack_size())?;
            let (started, running) = std::sync::mpsc::channel();
            builder.spawn(move || {
                let _ = started.send(());
                thread.run();
            })?;
            // Each thread is under way (its signal stack made) before the next is asked for:
            // a system out of room refuses the next thread, never aborts one already started.
            let _ = running.recv();
            Ok(())
        })
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start {threads} worker threads: {e}"))
}

/// Whether the address space has room for one more thread: its stack (`stack`, or the most
/// a default stack takes), and beside it the signal stack the thread makes as it starts, which
/// the system can refuse only by aborting the program. Threads start one at a time, so room
/// found here is there for the thread. (An anonymous mapping takes address space, not memory,
/// until it is written.)
fn room_for_a_thread(stack: Option<usize>) -> std::io::Result<()> {
    const MARGIN: usize = 1 << 20;
    memmap2::MmapMut::map_anon(stack.unwrap_or(8 << 20) + MARGIN).map(drop)
}

/// Mixes a base seed with an index (SplitMix64), for independent per-chunk streams.
pub fn mix_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// The lab's subcommands as the binary offers them.
    #[derive(Debug, Parser)]
    struct Lab {
        #[command(subcommand)]
        command: command::LabCommand,
    }

    fn refused(line: &str) -> String {
        let words = std::iter::once("lab").chain(line.split_whitespace());
        match Lab::try_parse_from(words) {
            Ok(parsed) => panic!("{line:?} was accepted: {parsed:?}"),
            Err(error) => error.to_string(),
        }
    }

    #[test]
    fn command_lines_refuse_bad_input() {
        for line in [
            "sim --rules arcade",
            "compare --rules Real",
            "train --rules reference2 --out w.json",
            "learn --rules --out v.jwl",
        ] {
            let message = refused(line);
            assert!(
                message.contains("possible values: reference, real"),
                "{message}"
            );
        }
        for line in [
            "sim --columns 0",
            "compare --columns 0",
            "compare --seeds 1",
            "train --min-columns 0 --out w.json",
            "learn --columns 0 --out v.jwl",
            "learn --report-every 0 --out v.jwl",
            "bench --columns 0",
            "sim --tap-interval 0",
        ] {
            let message = refused(line);
            assert!(message.contains("is not in"), "{line}: {message}");
        }
        // Nothing is written unless --out names it.
        for line in ["train", "learn"] {
            assert!(refused(line).contains("--out"), "{line}");
        }
        let ok = Lab::try_parse_from(["lab", "sim", "--rules", "reference"]).unwrap();
        let command::LabCommand::Sim(args) = ok.command else {
            unreachable!()
        };
        assert_eq!(
            (args.game.rules, args.ai.as_str()),
            (RuleSet::Reference, PLAYER)
        );
    }

    #[test]
    fn ai_names() {
        let player = parse_ai(PLAYER, None, RuleSet::Real).unwrap();
        assert_eq!(player.strategy, StrategySpec::default());
        assert_eq!(player.source, "built-in value (real)");
        let reference = parse_ai(REFERENCE, None, RuleSet::Reference).unwrap();
        assert_eq!(
            (reference.strategy, reference.weights),
            (StrategySpec::Smart, Some(Weights::PUBLISHED))
        );
        let smart = parse_ai("smart", None, RuleSet::Reference).unwrap();
        assert_eq!(smart.source, "built-in value (reference)");
        for bad in ["clever", "deep:0:1", "smart@/nonexistent/file.json"] {
            assert!(parse_ai(bad, None, RuleSet::Real).is_err(), "{bad}");
        }
    }
}
