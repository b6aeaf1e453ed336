//! The `jewelbot` command: the window, headless runs, the RAM inspector, traces, conformance,
//! and the lab's tools, each command in its own module.

use clap::FromArgMatches;
use jewelbot_host::outputs::Input;
use jewelbot_host::rom::RomError;
use jewelbot_host::session::{SessionConfig, SessionError};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

mod cli;
mod message;
mod play;
mod plugin_command;
mod plugins;
mod ram;
mod record;
mod rom_info;
mod run;
mod serve;
mod setup;
mod stdout;

use cli::{Cli, Command, OfferedOption};
use setup::{game_inputs, open_session_with, report_messages, Plugins};
use tracing_subscriber::filter::Targets;
use tracing_subscriber::prelude::*;

/// Exit code for a ROM that cannot be used.
const EXIT_BAD_ROM: u8 = 3;

fn main() -> ExitCode {
    // `RUST_LOG` as `LEVEL` or `TARGET=LEVEL,...` (warnings only by default).
    let filter = std::env::var("RUST_LOG")
        .ok()
        .and_then(|text| text.parse::<Targets>().ok())
        .unwrap_or_else(|| Targets::new().with_default(tracing::Level::WARN));
    tracing_subscriber::registry()
        .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr))
        .with(filter)
        .init();
    let declared: Vec<(String, _)> = plugins::make_all()
        .iter()
        .map(|p| (p.name().to_owned(), p.options()))
        .collect();
    let options = OfferedOption::list(&declared);
    let matches = match cli::command(&options).try_get_matches() {
        Ok(matches) => matches,
        Err(error) => return command_line_error(&error),
    };
    let settings = cli::plugin_settings(&matches, &options);
    let files = settings
        .iter()
        .filter(|given| {
            options.iter().any(|o| {
                o.plugin == given.plugin
                    && o.option.name == given.name
                    && o.option.value_name == "FILE"
            })
        })
        .map(|given| Input::new(&given.flag, Path::new(&given.value)))
        .collect();
    let console = match matches.subcommand() {
        None => Some(matches.clone()),
        Some((name, sub)) if cli::CONSOLE_COMMANDS.contains(&name) => Some(sub.clone()),
        Some(_) => None,
    };
    let mut files: Vec<Input> = files;
    files.extend(console.iter().flat_map(Plugins::starter_files));
    let plugins = Plugins {
        settings,
        files,
        console,
    };
    let mut out = stdout::StandardOutput(std::io::stdout().lock());
    let result = dispatch(&matches, &plugins, &mut out).and_then(|code| {
        out.flush()?;
        Ok(code)
    });
    match result {
        Ok(code) => code,
        Err(error) if stdout::reader_gone(&error) => ExitCode::from(stdout::EXIT_READER_GONE),
        Err(error) => {
            eprintln!("error: {}", message::one_line(&format!("{error:#}")));
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
            eprintln!("{} (see --help)", message::one_line(&line.join(" ")));
            ExitCode::from(2)
        }
    }
}

/// Runs the command `matches` names: a plug-in's, or one of the binary's own.
fn dispatch(
    matches: &clap::ArgMatches,
    plugins: &Plugins,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    if let Some((name, sub)) = matches.subcommand() {
        let commands = plugins::commands();
        if let Some(command) = commands.iter().find(|c| c.command().get_name() == name) {
            return plugin_command::run(command.as_ref(), sub, plugins, out);
        }
    }
    let cli = match Cli::from_arg_matches(matches) {
        Ok(cli) => cli,
        Err(error) => return Ok(command_line_error(&error)),
    };
    run(cli, plugins, out)
}

fn run(cli: Cli, plugins: &Plugins, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    match cli.command {
        None => play::play(&cli.play, plugins),
        Some(Command::Run(args)) => {
            // Nothing looks at the picture without a GIF: the PPU need not draw it.
            let config = SessionConfig {
                video: args.gif.is_some(),
                ..SessionConfig::default()
            };
            let mut session = open_session_with(&args.game, plugins, plugins.build_for()?, config)?;
            report_messages(&mut session);
            run::run(
                &args,
                &mut session,
                plugins,
                &game_inputs(&args.game, plugins),
                out,
            )
        }
        Some(Command::Serve(args)) => serve::serve(&args, plugins),
        Some(Command::Ram(args)) => ram::ram(&args, plugins, out),
        Some(Command::Record(args)) => record::record(&args, plugins, out),
        Some(Command::RomInfo(args)) => rom_info::rom_info(&args.path, out),
    }
}
