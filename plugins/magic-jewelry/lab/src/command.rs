//! The lab's commands, declared once: the `jewelbot` binary mounts this table as its own
//! subcommands (with their help), the tests parse it, and the README's table of commands is
//! checked against it.

use std::io::Write;

pub use crate::stop::Stop;

/// A command of the lab: each plays without the emulator.
#[derive(Debug, clap::Subcommand)]
pub enum LabCommand {
    /// Play columns without the emulator and report fill statistics.
    Sim(crate::sim::Args),
    /// Compare two strategies on the same column sequences.
    Compare(crate::compare::Args),
    /// Tune the evaluation weights.
    Train(crate::train::Args),
    /// Learn a board value by temporal-difference learning while playing.
    Learn(crate::learn::Args),
    /// Print the behaviour signature: the default player on a fixed seed, for each objective,
    /// boards scored, mean jewels and points.
    Bench(crate::bench::Args),
    /// Prove that a deterministic AI plays the real game for ever: play from a start until a
    /// state repeats at a spawn (then it repeats for ever) or the game ends.
    Horizon(crate::horizon::Args),
}

impl LabCommand {
    /// Whether the command ends early when asked, keeping what it did (a `horizon` of hours
    /// keeps its checkpoints); the others are simply ended by a signal.
    pub fn honours_stop(&self) -> bool {
        matches!(self, Self::Horizon(_))
    }

    /// Runs the command, writing its report to `out`; `stop` says when a stop was asked for.
    pub fn run(&self, out: &mut dyn Write, stop: &Stop) -> anyhow::Result<()> {
        match self {
            Self::Sim(args) => crate::sim::run(args, out),
            Self::Compare(args) => crate::compare::run(args, out),
            Self::Train(args) => crate::train::run(args, out),
            Self::Learn(args) => crate::learn::run(args, out),
            Self::Bench(args) => crate::bench::run(args, out),
            Self::Horizon(args) => crate::horizon::run(args, out, stop),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The commands' names, as typed.
    fn names() -> Vec<String> {
        use clap::Subcommand;
        let command = LabCommand::augment_subcommands(clap::Command::new("lab"));
        command
            .get_subcommands()
            .map(|c| c.get_name().to_owned())
            .collect()
    }

    /// The README's table of commands has a row for every lab command.
    #[test]
    fn the_readme_lists_every_lab_command() {
        let readme = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../README.md");
        let text = std::fs::read_to_string(readme).expect("the README");
        let names = names();
        assert_eq!(names.len(), 6, "{names:?}");
        for name in names {
            assert!(
                text.contains(&format!("| `jewelbot {name} ")),
                "the README's table of commands has no row for `{name}`"
            );
        }
    }
}
