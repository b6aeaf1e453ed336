//! The commands the offered plug-ins bring (`conform`, `model-check`, the lab's): run with the
//! console the binary lends them ([`Host`]).

use crate::setup::{open_rom, Plugins};
use anyhow::Context;
use jewelbot_commands::{Cartridge, Console, GivenOption, Host, PluginCommand};
use jewelbot_host::interrupt::Interrupt;
use jewelbot_host::session::{Control, Session, SessionConfig};
use jewelbot_plugin::{Buttons, Machine, MachineError, Ram};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// Runs `command` with its flags `matches`. A command that honours a stop listens for signals
/// while it runs and exits with the signal's status; any other ends at once on one.
pub fn run(
    command: &dyn PluginCommand,
    matches: &clap::ArgMatches,
    plugins: &Plugins,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    let interrupt = if command.honours_stop() {
        Interrupt::listen().context("cannot listen for signals")?
    } else {
        Interrupt::default()
    };
    let code = command.run(matches, &Lent { plugins }, out)?;
    Ok(interrupt
        .signal()
        .map_or(code, |signal| ExitCode::from(signal.exit_status())))
}

/// What the binary lends a plug-in's command: consoles, and the plug-ins' options given.
struct Lent<'a> {
    plugins: &'a Plugins,
}

impl Host for Lent<'_> {
    fn open(&self, rom: Option<&Path>, plugins: bool) -> anyhow::Result<Box<dyn Console>> {
        // Nothing a command does looks at the picture.
        let config = SessionConfig {
            video: false,
            ..SessionConfig::default()
        };
        let built = if plugins {
            self.plugins.build()?
        } else {
            Vec::new()
        };
        let mut session = Session::new(open_rom(rom)?, built, config)?;
        if plugins {
            session.set_control(Control::Plugins);
        }
        Ok(Box::new(LentConsole(session)))
    }

    fn options_given(&self, plugin: &str) -> Vec<GivenOption> {
        self.plugins
            .settings
            .iter()
            .filter(|s| s.plugin == plugin)
            .map(|s| GivenOption {
                name: s.name.clone(),
                value: s.value.clone(),
                flag: s.flag.clone(),
            })
            .collect()
    }
}

/// A session as a command's console.
struct LentConsole(Session);

impl Machine for LentConsole {
    fn ram(&self) -> &Ram {
        self.0.ram()
    }

    fn poke(&mut self, address: u16, value: u8) {
        self.0.poke(address, value);
    }

    fn step(&mut self, buttons: Buttons) -> Result<(), MachineError> {
        Machine::step(&mut self.0, buttons)
    }

    fn frame_number(&self) -> u64 {
        self.0.frame_number()
    }

    fn power_cycle(&mut self) -> Result<(), MachineError> {
        Machine::power_cycle(&mut self.0)
    }
}

impl Console for LentConsole {
    fn cartridge(&self) -> Cartridge {
        Cartridge::from(self.0.rom().identity())
    }

    fn run_frame(&mut self) -> anyhow::Result<()> {
        Ok(self.0.run_frame()?)
    }
}
