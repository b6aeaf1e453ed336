//! The `jewelbot` command: the window, headless runs, the RAM inspector, traces, conformance,
//! and the lab's tools, each command in its own module.

use clap::FromArgMatches;
use jewelbot::outputs::Input;
use jewelbot::rom::RomError;
use jewelbot::session::{SessionConfig, SessionError};
use jewelbot_plugin::PluginOption;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

mod cli;
mod conform;
mod message;
mod model_check;
mod play;
mod ram;
mod record;
mod rom_info;
mod run;
mod setup;
mod stdout;

use cli::{Cli, Command};
use setup::{game_inputs, open_session_with, plugins, report_messages, Plugins};
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
    let options: Vec<PluginOption> = plugins().iter().flat_map(|p| p.options()).collect();
    let matches = match cli::command(&options).try_get_matches() {
        Ok(matches) => matches,
        Err(error) => return command_line_error(&error),
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => return command_line_error(&error),
    };
    let settings = cli::plugin_settings(&matches, &options);
    let files = settings
        .iter()
        .filter(|(name, _)| {
            options
                .iter()
                .any(|o| &o.name == name && o.value_name == "FILE")
        })
        .map(|(name, value)| Input::new(&format!("--{name}"), Path::new(value)))
        .collect();
    let plugins = Plugins { settings, files };
    let mut out = stdout::StandardOutput(std::io::stdout().lock());
    let result = run(cli, &plugins, &mut out).and_then(|code| {
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

fn run(cli: Cli, plugins: &Plugins, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    match cli.command {
        None => play::play(&cli.play, plugins),
        Some(Command::Run(args)) => {
            // Nothing looks at the picture without a GIF: the PPU need not draw it.
            let config = SessionConfig {
                video: args.gif.is_some(),
                ..SessionConfig::default()
            };
            let mut session =
                open_session_with(&args.game, plugins.build_for(&args.game)?, config)?;
            report_messages(&mut session);
            run::run(
                &args,
                &mut session,
                plugins,
                &game_inputs(&args.game, plugins),
                out,
            )
        }
        Some(Command::Ram(args)) => ram::ram(&args, plugins, out),
        Some(Command::Record(args)) => record::record(&args, plugins, out),
        Some(Command::RomInfo(args)) => rom_info::rom_info(&args.path, out),
        Some(Command::Lab(command)) => command.run(out).map(|()| ExitCode::SUCCESS),
        Some(Command::Conform(args)) => conform::conform(args.rom.as_deref(), out),
        Some(Command::ModelCheck(args)) => model_check::model_check(&args, plugins, out),
    }
}
