//! What a plug-in brings to the `jewelbot` command beside its options: flags that start it on
//! any console command (`--lua SCRIPT`, `--bot CMD`), and commands of its own (Magic Jewelry's
//! `conform`, `model-check` and its lab's). The binary names each plug-in once, in one
//! [`Offer`] of its table, and mounts what the offer brings.
//!
//! A command needs no emulator of its own: the binary lends it one through [`Host`] (a console
//! on the ROM asked for, with or without the plug-ins, and the plug-in options given on the
//! command line), so a plug-in and its commands build without the emulator. This crate stands
//! apart from the plug-in interface (`jewelbot-plugin`) so that the interface takes on no
//! command-line parser.

#![warn(missing_docs)]

use clap::{Arg, ArgMatches};
use jewelbot_plugin::{Machine, Plugin, RomIdentity};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// One plug-in as the binary offers it: one row of its table.
pub struct Offer {
    /// The plug-in's name, as it names itself ([`Plugin::name`]).
    pub name: &'static str,
    /// Makes the plug-in with its default settings, for every console command (the game's
    /// plug-ins); `None` for a plug-in that runs only when its [`Starter`]'s flags ask for it.
    pub make: Option<fn() -> Box<dyn Plugin>>,
    /// Flags on every console command that start the plug-in, which then holds the controller.
    pub starter: Option<Starter>,
    /// The commands it brings.
    pub commands: fn() -> Vec<Box<dyn PluginCommand>>,
}

impl Offer {
    /// A plug-in every console command runs, with no flags or commands of its own.
    pub const fn game(name: &'static str, make: fn() -> Box<dyn Plugin>) -> Self {
        Self {
            name,
            make: Some(make),
            starter: None,
            commands: no_commands,
        }
    }
}

/// An offer's `commands` when it brings none.
pub fn no_commands() -> Vec<Box<dyn PluginCommand>> {
    Vec::new()
}

/// Where a started plug-in runs among the game's, which are called in the table's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Before them: it sees each frame first (a Lua script, as in FCEUX).
    First,
    /// After them: it hears what they saw in the same frame (a bot, told the game's events).
    Last,
}

/// Flags that start a plug-in on every console command. At most one started plug-in runs: the
/// binary refuses two starters' flags together.
pub struct Starter {
    /// The flag that names what runs (`lua`: `--lua SCRIPT`), its id and long name: given, the
    /// plug-in starts.
    pub flag: &'static str,
    /// The flags: [`Starter::flag`]'s and those that tune it (which should `requires` it).
    pub flags: fn() -> Vec<Arg>,
    /// The plug-in the flags given ask for (`None` when [`Starter::flag`] is not given); what
    /// the flags name that cannot be used is an error naming the flag.
    pub start: Start,
    /// The files the flags given name (flag, path): inputs that no output may replace.
    pub files: fn(&ArgMatches) -> Vec<(&'static str, PathBuf)>,
    /// Where it runs among the game's plug-ins.
    pub place: Place,
}

/// Makes the plug-in the flags given ask for, if they ask for one ([`Starter::start`]).
pub type Start = fn(&ArgMatches) -> anyhow::Result<Option<Box<dyn Plugin>>>;

/// A command a plug-in brings: `jewelbot NAME ...`.
pub trait PluginCommand: Send + Sync {
    /// The command: its name, help and flags.
    fn command(&self) -> clap::Command;

    /// Whether it runs the console with the offered plug-ins, and so takes their options on
    /// its command line.
    fn takes_plugin_options(&self) -> bool {
        false
    }

    /// Whether it ends early when a signal asks, keeping what it did: while it runs the binary
    /// takes SIGINT, SIGTERM and SIGHUP as a request, which [`jewelbot_plugin::stop_requested`]
    /// then says, and exits with the signal's status once the command returns. Any other
    /// command is simply ended by the signal.
    fn honours_stop(&self) -> bool {
        false
    }

    /// Runs the command with its parsed flags, writing its report to `out`; the exit code says
    /// how it went.
    fn run(
        &self,
        matches: &ArgMatches,
        host: &dyn Host,
        out: &mut dyn Write,
    ) -> anyhow::Result<ExitCode>;
}

/// What the binary lends a plug-in's command.
pub trait Host {
    /// A console running `rom` (`None`: the built-in open cartridge) from power-on. With
    /// `plugins`, the offered plug-ins run on it with the options the command line gives them
    /// and hold the controller ([`Console::run_frame`]); without, the caller presses the
    /// buttons ([`Machine::step`]).
    fn open(&self, rom: Option<&Path>, plugins: bool) -> anyhow::Result<Box<dyn Console>>;

    /// The options the command line gives plug-in `plugin`, in the order declared.
    fn options_given(&self, plugin: &str) -> Vec<GivenOption>;
}

/// A console the binary opened for a command.
pub trait Console: Machine {
    /// The cartridge it runs.
    fn cartridge(&self) -> Cartridge;

    /// Runs one frame with the plug-ins choosing the buttons.
    fn run_frame(&mut self) -> anyhow::Result<()>;
}

/// A cartridge as a command is told of it: what [`RomIdentity`] borrows, owned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cartridge {
    /// File name (or built-in name) the ROM was loaded from.
    pub name: String,
    /// The iNES mapper number.
    pub mapper: u16,
    /// PRG ROM as loaded.
    pub prg: Vec<u8>,
    /// CHR ROM as loaded.
    pub chr: Vec<u8>,
    /// CRC32 of the PRG and CHR data as found in the file.
    pub prg_chr_crc32: u32,
    /// SHA-1 of the whole file, lowercase hex.
    pub file_sha1: String,
}

impl Cartridge {
    /// The cartridge as a plug-in is told of it.
    pub fn identity(&self) -> RomIdentity<'_> {
        RomIdentity {
            name: &self.name,
            mapper: self.mapper,
            prg: &self.prg,
            chr: &self.chr,
            prg_chr_crc32: self.prg_chr_crc32,
            file_sha1: &self.file_sha1,
        }
    }
}

impl From<RomIdentity<'_>> for Cartridge {
    fn from(rom: RomIdentity<'_>) -> Self {
        Self {
            name: rom.name.to_owned(),
            mapper: rom.mapper,
            prg: rom.prg.to_vec(),
            chr: rom.chr.to_vec(),
            prg_chr_crc32: rom.prg_chr_crc32,
            file_sha1: rom.file_sha1.to_owned(),
        }
    }
}

/// One plug-in option given on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GivenOption {
    /// The option's name.
    pub name: String,
    /// The value given.
    pub value: String,
    /// How it was given (`--mode`, `--magic-jewelry.mode`), for messages.
    pub flag: String,
}
