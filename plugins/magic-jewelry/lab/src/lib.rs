//! The lab around the Magic Jewelry AI: the offline tools that play without the emulator under
//! either of the engine's rule sets (simulator, statistics and plots, trainer, value learner,
//! strategy comparison, behaviour signature, proofs), and the commands that check the plug-in
//! against a ROM (`conform`, `model-check`). Each tool has a clap `Args` struct and a
//! `run(args)`; [`command::commands`] lists them once, and the `jewelbot` binary mounts them
//! with the plug-in, one row of its table ([`command::OFFER`]).
//!
//! The in-process plug-in (`magic-jewelry`) depends on none of this: command-line parsing,
//! plots and thread pools live here only (progress bars take the style every command shares,
//! `jewelbot_plugin::progress`).

pub mod args;
pub mod bench;
pub mod column;
pub mod command;
pub mod compare;
pub mod conform;
pub mod horizon;
pub mod learn;
pub mod model_check;
pub mod outputs;
pub mod player_args;
pub mod runner;
pub mod sim;

pub mod splitting;
pub mod stats;
pub mod stop;
pub mod train;

use jewelbot_plugin::progress;
/// The names `--ai` gives the player's own configuration and the reference AI.
pub use magic_jewelry_engine::player::{PLAYER, REFERENCE};

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
    use clap::FromArgMatches;
    use magic_jewelry_engine::RuleSet;

    fn refused(line: &str) -> String {
        match command::parse(line) {
            Ok((name, _)) => panic!("{line:?} was accepted as `{name}`"),
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
        ] {
            let message = refused(line);
            assert!(message.contains("is not in"), "{line}: {message}");
        }
        let message = refused("sim --tap-interval 0");
        assert!(message.contains("from 1 to 255"), "{message}");
        // Nothing is written unless --out names it.
        for line in ["train", "learn"] {
            assert!(refused(line).contains("--out"), "{line}");
        }
        let (name, matches) = command::parse("sim --rules reference").expect("a good line");
        assert_eq!(name, "sim");
        let args = sim::Args::from_arg_matches(&matches).expect("sim's flags");
        assert_eq!(
            (args.player.spec.rules, args.ai.as_str()),
            (RuleSet::Reference, PLAYER)
        );
    }
}
