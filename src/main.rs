use anyhow::Context;
use clap::Parser;
use jewelbot::headless;
use jewelbot::inspector;
use jewelbot::rom::{RomError, RomImage};
use jewelbot::session::{Session, SessionConfig, SessionError};
use jewelbot_plugin::Plugin;
use magic_jewelry::conformance;
use magic_jewelry::dumps;
use magic_jewelry::engine::AnyEvaluator;
use magic_jewelry::plugin::{MagicJewelryPlugin, Mode};
use std::path::Path;
use std::process::ExitCode;

mod cli;
use cli::{Cli, Command, GameArgs, ModeArg, Switch};

/// Exit code for a ROM that cannot be used.
const EXIT_BAD_ROM: u8 = 3;

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    match run(cli) {
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

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        None => play(&cli.play),
        Some(Command::Run(args)) => {
            let mut session = open_session(&args.game)?;
            report_messages(&mut session);
            let summary = headless::run(&mut session, Some(args.frames), |_, _| {})?;
            if args.json {
                println!("{}", serde_json::to_string_pretty(&summary)?);
            } else {
                println!("{}", summary.to_text());
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Ram(args)) => ram(&args),
        Some(Command::RomInfo(args)) => rom_info(&args.path),
        Some(Command::Sim(args)) => magic_jewelry_lab::sim::run(args).map(|()| ExitCode::SUCCESS),
        Some(Command::Compare(args)) => {
            magic_jewelry_lab::compare::run(args).map(|()| ExitCode::SUCCESS)
        }
        Some(Command::Train(args)) => {
            magic_jewelry_lab::train::run(args).map(|()| ExitCode::SUCCESS)
        }
        Some(Command::Learn(args)) => {
            magic_jewelry_lab::learn::run(args).map(|()| ExitCode::SUCCESS)
        }
        Some(Command::Conform(args)) => conform(args.rom.as_deref()),
    }
}

/// Opens the window and plays until it is closed.
fn play(args: &cli::PlayArgs) -> anyhow::Result<ExitCode> {
    let window = &args.window;
    let options = jewelbot::frontend::Options {
        ai: args.game.ai == Switch::On,
        software: window.software,
        fullscreen: window.fullscreen,
        scale: window.scale,
        inspector: window.inspector,
        mute: window.mute,
        square_pixels: window.square_pixels,
        state_dir: window.state_dir.clone(),
        screenshot_dir: window.screenshot_dir.clone(),
    };
    jewelbot::frontend::run(options, |config| {
        let mut session = open_session_with(&args.game, config)?;
        report_messages(&mut session);
        Ok(session)
    })?;
    Ok(ExitCode::SUCCESS)
}

fn ram(args: &cli::RamArgs) -> anyhow::Result<ExitCode> {
    let mut session = open_session(&args.game)?;
    report_messages(&mut session);
    let mut before = inspect(&session);
    while session.frame_number() < args.frame {
        session.run_frame()?;
        if args.watch {
            let now = inspect(&session);
            let changes = inspector::changes(&before, &now);
            if !changes.is_empty() {
                println!("frame {}: {}", session.frame_number(), changes.join(", "));
            }
            before = now;
        }
    }
    println!("frame {}", session.frame_number());
    let inspections = session.plugins().inspect(session.ram());
    if inspections.is_empty() {
        println!("(no plug-in describes this ROM's RAM)");
    }
    for (_, inspection) in &inspections {
        print!("{}", inspector::render(inspection));
    }
    if args.hex || inspections.is_empty() {
        print!("\n{}", inspector::hex_dump(session.ram()));
    }
    Ok(ExitCode::SUCCESS)
}

fn inspect(session: &Session) -> jewelbot_plugin::Inspection {
    session
        .plugins()
        .inspect(session.ram())
        .into_iter()
        .next()
        .map(|(_, i)| i)
        .unwrap_or_default()
}

/// Runs every conformance scenario, printing a line for each as it finishes.
fn conform(path: Option<&Path>) -> anyhow::Result<ExitCode> {
    let rom = open_rom(path)?;
    let name = rom.name.clone();
    // No plug-in: the scenarios press the buttons themselves.
    let mut session = Session::new(rom, Vec::new(), SessionConfig::default())?;
    println!("conformance of {name}");
    let mut outcomes = Vec::new();
    for scenario in conformance::scenarios() {
        let outcome = conformance::run(&mut session, &scenario);
        println!("{outcome}");
        outcomes.push(outcome);
    }
    let report = conformance::Report { outcomes };
    println!("{}", report.summary());
    Ok(if report.all_passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn rom_info(path: &Path) -> anyhow::Result<ExitCode> {
    let rom = RomImage::from_path(path)?;
    let h = &rom.header;
    println!("file: {} ({} bytes)", path.display(), rom.file_len);
    println!("format: {}", h.format);
    println!("mapper: {}", h.mapper);
    println!(
        "PRG: {} bytes, CHR: {} bytes{}",
        rom.prg.len(),
        rom.chr.len(),
        if h.has_trainer { ", trainer" } else { "" }
    );
    println!(
        "mirroring: {}{}",
        if h.four_screen {
            "four-screen"
        } else if h.vertical_mirroring {
            "vertical"
        } else {
            "horizontal"
        },
        if h.battery { ", battery" } else { "" }
    );
    println!("SHA-1 (file): {}", rom.file_sha1);
    println!("SHA-1 (PRG+CHR): {}", rom.prg_chr_sha1);
    println!("CRC32 (PRG+CHR): {:08X}", rom.prg_chr_crc32);
    if let Some(change) = &rom.normalisation {
        println!("loaded as: {change} (in memory; the file is untouched)");
    }
    let id = dumps::identify(rom.prg_chr_crc32, &rom.file_sha1, &rom.prg);
    println!("identified as: {}", id.describe());
    Ok(ExitCode::SUCCESS)
}

fn open_rom(path: Option<&Path>) -> anyhow::Result<RomImage> {
    match path {
        Some(path) => {
            RomImage::from_path(path).with_context(|| format!("cannot use ROM {}", path.display()))
        }
        None => Ok(jewelbot::cartridge::rom()?),
    }
}

fn open_session(game: &GameArgs) -> anyhow::Result<Session> {
    open_session_with(game, SessionConfig::default())
}

/// A session with the frontend's audio settings.
fn open_session_with(game: &GameArgs, config: SessionConfig) -> anyhow::Result<Session> {
    let rom = open_rom(game.rom.as_deref())?;
    let mode = match game.mode {
        ModeArg::Normal => Mode::Normal,
        ModeArg::Fast => Mode::Fast,
    };
    let evaluation = match &game.weights {
        Some(path) => magic_jewelry_lab::load_evaluation(path)?.0,
        None => AnyEvaluator::default(),
    };
    let plugin = MagicJewelryPlugin::new(game.ai == Switch::On, mode, &game.strategy, evaluation)
        .map_err(anyhow::Error::msg)?;
    let plugins: Vec<Box<dyn Plugin>> = vec![Box::new(plugin)];
    Ok(Session::new(rom, plugins, config)?)
}

fn report_messages(session: &mut Session) {
    for message in session.plugins_mut().drain_messages() {
        eprintln!("note: {message}");
    }
}
