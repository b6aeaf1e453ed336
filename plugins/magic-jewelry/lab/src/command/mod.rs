//! Magic Jewelry's commands, declared once: the plug-in paired with them is one row of the
//! `jewelbot` binary's table ([`OFFER`]), which mounts them as its own subcommands (with their
//! help); the tests parse them, and the README's table of commands is checked against them.
//!
//! The lab's tools play without the emulator; `conform` and `model-check` drive the console the
//! binary lends them ([`jewelbot_commands::Host`]).

mod conform;
mod model_check;

pub use model_check::ModelCheckArgs;

use crate::stop::Stop;
use clap::{ArgMatches, FromArgMatches};
use jewelbot_commands::{Host, Offer, PluginCommand};
use magic_jewelry::plugin::MagicJewelryPlugin;
use std::io::Write;
use std::marker::PhantomData;
use std::process::ExitCode;

/// Magic Jewelry as the binary offers it: the plug-in every console command runs, and its
/// commands.
pub const OFFER: Offer = Offer {
    name: MagicJewelryPlugin::NAME,
    make: Some(|| Box::new(MagicJewelryPlugin::default())),
    starter: None,
    commands,
};

/// Every command, in the order `--help` lists them.
pub fn commands() -> Vec<Box<dyn PluginCommand>> {
    vec![
        Box::new(conform::Conform),
        Box::new(model_check::ModelCheck),
        lab::<crate::sim::Args>(
            "sim",
            "Play columns without the emulator and report fill statistics",
            |args, out, _| crate::sim::run(args, out),
        ),
        lab::<crate::compare::Args>(
            "compare",
            "Compare two strategies on the same column sequences",
            |args, out, _| crate::compare::run(args, out),
        ),
        lab::<crate::train::Args>("train", "Tune the evaluation weights", |args, out, _| {
            crate::train::run(args, out)
        }),
        lab::<crate::learn::Args>(
            "learn",
            "Learn a board value by temporal-difference learning while playing",
            |args, out, _| crate::learn::run(args, out),
        ),
        lab::<crate::bench::Args>(
            "bench",
            "Print the behaviour signature: the default player on a fixed seed, for each \
             objective, boards scored, mean jewels and points",
            |args, out, _| crate::bench::run(args, out),
        ),
        Box::new(Lab::<crate::horizon::Args> {
            name: "horizon",
            about: "Prove that a deterministic AI plays the real game for ever: play from a \
                    start until a state repeats at a spawn (then it repeats for ever) or the \
                    game ends",
            run: crate::horizon::run,
            honours_stop: true,
            args: PhantomData,
        }),
    ]
}

/// A lab tool as a command: its flags are its `Args`, and it plays without the emulator.
struct Lab<A> {
    name: &'static str,
    about: &'static str,
    run: fn(&A, &mut dyn Write, &Stop) -> anyhow::Result<()>,
    /// Ends early when asked, keeping what it did (a `horizon` of hours keeps its
    /// checkpoints); the others are simply ended by a signal.
    honours_stop: bool,
    args: PhantomData<fn() -> A>,
}

/// A lab tool that a signal simply ends.
fn lab<A: clap::Args + FromArgMatches + 'static>(
    name: &'static str,
    about: &'static str,
    run: fn(&A, &mut dyn Write, &Stop) -> anyhow::Result<()>,
) -> Box<dyn PluginCommand> {
    Box::new(Lab {
        name,
        about,
        run,
        honours_stop: false,
        args: PhantomData,
    })
}

impl<A: clap::Args + FromArgMatches> PluginCommand for Lab<A> {
    fn command(&self) -> clap::Command {
        // After the flags: `augment_args` takes the `Args` struct's own doc as the about.
        A::augment_args(clap::Command::new(self.name)).about(self.about)
    }

    fn honours_stop(&self) -> bool {
        self.honours_stop
    }

    fn run(
        &self,
        matches: &ArgMatches,
        _: &dyn Host,
        out: &mut dyn Write,
    ) -> anyhow::Result<ExitCode> {
        let args = A::from_arg_matches(matches)?;
        (self.run)(&args, out, &jewelbot_plugin::stop_requested)?;
        Ok(ExitCode::SUCCESS)
    }
}

/// `matches`' command `name` parsed from `line` (the words after `jewelbot`), for tests.
#[cfg(test)]
pub(crate) fn parse(line: &str) -> Result<(String, ArgMatches), clap::Error> {
    let mut top = clap::Command::new("jewelbot");
    for command in commands() {
        top = top.subcommand(command.command());
    }
    let matches =
        top.try_get_matches_from(std::iter::once("jewelbot").chain(line.split_whitespace()))?;
    let (name, sub) = matches.subcommand().expect("a command");
    Ok((name.to_owned(), sub.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The commands' names, as typed.
    fn names() -> Vec<String> {
        commands()
            .iter()
            .map(|c| c.command().get_name().to_owned())
            .collect()
    }

    /// The README's table of commands has a row for every command of Magic Jewelry's.
    #[test]
    fn the_readme_lists_every_command() {
        let readme = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../README.md");
        let text = std::fs::read_to_string(readme).expect("the README");
        let names = names();
        assert_eq!(names.len(), 8, "{names:?}");
        for name in names {
            assert!(
                text.contains(&format!("| `jewelbot {name}")),
                "the README's table of commands has no row for `{name}`"
            );
        }
    }

    #[test]
    fn only_horizon_honours_a_stop_and_only_model_check_takes_the_plug_ins_options() {
        let stopping: Vec<String> = commands()
            .iter()
            .filter(|c| c.honours_stop())
            .map(|c| c.command().get_name().to_owned())
            .collect();
        assert_eq!(stopping, ["horizon"]);
        let with_options: Vec<String> = commands()
            .iter()
            .filter(|c| c.takes_plugin_options())
            .map(|c| c.command().get_name().to_owned())
            .collect();
        assert_eq!(with_options, ["model-check"]);
    }
}
