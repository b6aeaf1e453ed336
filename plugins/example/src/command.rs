//! A command of the plug-in's own, `jewelbot ram-watch`: the game's plug-ins play the ROM and
//! every change of one RAM byte is printed, a line each. It comes with the plug-in's row of
//! the binary's table ([`OFFER`]), as any plug-in's commands do (`docs/plugins.md`).

use crate::RamWatch;
use clap::{Arg, ArgMatches};
use jewelbot_commands::{Host, Offer, PluginCommand};
use jewelbot_plugin::RAM_SIZE;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// The plug-in's row of the binary's table: its command only (the watcher itself does not run
/// on every console command).
pub const OFFER: Offer = Offer {
    name: RamWatch::NAME,
    make: None,
    starter: None,
    commands: || vec![Box::new(WatchCommand)],
};

/// The most frames one watch runs: about a day of play.
const MOST_FRAMES: u64 = 5_184_000;

/// `jewelbot ram-watch --address ADDR [--frames N] [--rom PATH]`.
pub struct WatchCommand;

impl PluginCommand for WatchCommand {
    fn command(&self) -> clap::Command {
        clap::Command::new("ram-watch")
            .about(
                "Print every change of one RAM byte while the game's plug-ins play the ROM (the \
                 example plug-in's command, docs/plugins.md)",
            )
            .arg(
                Arg::new("address")
                    .long("address")
                    .value_name("ADDR")
                    .required(true)
                    .value_parser(address)
                    .help("The byte watched: $6E, 0x6E or 110 ($0000-$07FF)."),
            )
            .arg(
                Arg::new("frames")
                    .long("frames")
                    .value_name("N")
                    .default_value("600")
                    .value_parser(clap::value_parser!(u64).range(1..=MOST_FRAMES))
                    .help("Frames to run from power-on."),
            )
            .arg(
                Arg::new("rom")
                    .long("rom")
                    .value_name("PATH")
                    .value_parser(clap::value_parser!(PathBuf))
                    .help("ROM to run (default: the built-in open cartridge)."),
            )
    }

    /// The game's plug-ins play, with the options given them.
    fn takes_plugin_options(&self) -> bool {
        true
    }

    fn run(
        &self,
        matches: &ArgMatches,
        host: &dyn Host,
        out: &mut dyn Write,
    ) -> anyhow::Result<ExitCode> {
        let address = matches.get_one::<u16>("address").copied().unwrap_or(0);
        let frames = matches.get_one::<u64>("frames").copied().unwrap_or(600);
        let rom = matches.get_one::<PathBuf>("rom");
        let mut console = host.open(rom.map(PathBuf::as_path), true)?;
        let mut last = console.ram()[usize::from(address)];
        writeln!(out, "frame 0: ${address:04X} = ${last:02X}")?;
        for _ in 0..frames {
            console.run_frame()?;
            let value = console.ram()[usize::from(address)];
            if value != last {
                writeln!(
                    out,
                    "frame {}: ${address:04X} = ${value:02X}",
                    console.frame_number()
                )?;
                last = value;
            }
        }
        Ok(ExitCode::SUCCESS)
    }
}

/// A RAM address: `$6E`, `0x6E` or `110`, within the 2 KiB of CPU RAM.
fn address(text: &str) -> Result<u16, String> {
    let parsed = match text.strip_prefix('$').or_else(|| text.strip_prefix("0x")) {
        Some(hex) => u16::from_str_radix(hex, 16),
        None => text.parse(),
    };
    parsed
        .ok()
        .filter(|&a| usize::from(a) < RAM_SIZE)
        .ok_or_else(|| format!("`{text}` is not a RAM address ($0000-$07FF)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_read_in_hex_or_decimal_and_checked() {
        assert_eq!(address("$6E"), Ok(0x6E));
        assert_eq!(address("0x7FF"), Ok(0x7FF));
        assert_eq!(address("110"), Ok(110));
        for bad in ["$800", "2048", "x", "", "$"] {
            assert!(address(bad).is_err(), "{bad}");
        }
    }
}
