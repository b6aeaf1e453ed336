//! `jewelbot conform`: the conformance scenarios on a ROM.

use clap::{Arg, ArgMatches};
use jewelbot_commands::{Host, PluginCommand};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// The command.
pub struct Conform;

impl PluginCommand for Conform {
    fn command(&self) -> clap::Command {
        clap::Command::new("conform")
            .about("Check that a ROM behaves as the AI's model of the game assumes")
            .arg(
                Arg::new("rom")
                    .long("rom")
                    .value_name("PATH")
                    .value_parser(clap::value_parser!(PathBuf))
                    .help("ROM to check (default: the built-in open cartridge)."),
            )
    }

    /// Runs every scenario, printing a line for each as it finishes; fails unless all pass.
    fn run(
        &self,
        matches: &ArgMatches,
        host: &dyn Host,
        out: &mut dyn Write,
    ) -> anyhow::Result<ExitCode> {
        let rom = matches.get_one::<PathBuf>("rom");
        // No plug-in: the scenarios press the buttons themselves.
        let mut console = host.open(rom.map(PathBuf::as_path), false)?;
        let cartridge = console.cartridge();
        let scenarios = magic_jewelry::conformance::scenarios().len() as u64;
        let bar = jewelbot_plugin::progress::bar(scenarios, "scenarios");
        let report = crate::conform::run_with_progress(
            &mut *console,
            &cartridge.identity(),
            crate::conform::FRAME_LIMIT,
            out,
            &bar,
        )?;
        Ok(if report.all_passed() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        })
    }
}
