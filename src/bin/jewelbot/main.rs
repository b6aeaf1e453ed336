//! The `jewelbot` command: the window, headless runs, the RAM inspector, traces, conformance,
//! and the lab's tools, each command in its own module.

use clap::FromArgMatches;
use jewelbot::rom::RomError;
use jewelbot::session::{SessionConfig, SessionError};
use jewelbot_plugin::PluginOption;
use std::process::ExitCode;

mod cli;
mod conform;
mod play;
mod ram;
mod record;
mod rom_info;
mod run;
mod setup;

use cli::{Cli, Command};
use setup::{open_session_with, plugins, report_messages, Plugins};

/// Exit code for a ROM that cannot be used.
const EXIT_BAD_ROM: u8 = 3;

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let options: Vec<PluginOption> = plugins().iter().flat_map(|p| p.options()).collect();
    let matches = match cli::command(&options).try_get_matches() {
        Ok(matches) => matches,
        Err(error) => return command_line_error(&error),
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => return command_line_error(&error),
    };
    let plugins = Plugins {
        settings: cli::plugin_settings(&matches, &options),
    };
    match run(cli, &plugins) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            let bad_rom = error.chain().any(|e| {
                e.downcast_ref::<RomError>().is_some()
                    || matches!(e.downcast_ref::<SessionError>(), Some(SessionError::Rom(_)))
            });
            ExitCode::from(if bad_rom { EXIT_BAD_ROM } else { 1 })
        }
    }
}

/// Help and the version as clap prints them; a mistake in one line, as every other error.
fn command_line_error(error: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match error.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => error.exit(),
        _ => {
            // The message and what it lists (the missing arguments, say), without the usage.
            let rendered = error.render().to_string();
            let line: Vec<&str> = rendered
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            eprintln!("{} (see --help)", line.join(" "));
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli, plugins: &Plugins) -> anyhow::Result<ExitCode> {
    // Refuse bad plug-in settings before any ROM is opened.
    plugins.build()?;
    match cli.command {
        None => play::play(&cli.play, plugins),
        Some(Command::Run(args)) => {
            // Nothing looks at the picture without a GIF: the PPU need not draw it.
            let config = SessionConfig {
                video: args.gif.is_some(),
                ..SessionConfig::default()
            };
            let mut session = open_session_with(&args.game, plugins, config)?;
            report_messages(&mut session);
            run::run(&args, &mut session)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Ram(args)) => ram::ram(&args, plugins),
        Some(Command::Record(args)) => record::record(&args, plugins),
        Some(Command::RomInfo(args)) => rom_info::rom_info(&args.path),
        Some(Command::Sim(args)) => magic_jewelry_lab::sim::run(&args).map(|()| ExitCode::SUCCESS),
        Some(Command::Compare(args)) => {
            magic_jewelry_lab::compare::run(&args).map(|()| ExitCode::SUCCESS)
        }
        Some(Command::Train(args)) => {
            magic_jewelry_lab::train::run(&args).map(|()| ExitCode::SUCCESS)
        }
        Some(Command::Learn(args)) => {
            magic_jewelry_lab::learn::run(&args).map(|()| ExitCode::SUCCESS)
        }
        Some(Command::Bench(args)) => {
            magic_jewelry_lab::bench::run_bench(&args).map(|()| ExitCode::SUCCESS)
        }
        Some(Command::Conform(args)) => conform::conform(args.rom.as_deref()),
    }
}
