use anyhow::{anyhow, Context};
use clap::FromArgMatches;
use jewelbot::inspector;
use jewelbot::rom::{RomError, RomImage};
use jewelbot::session::{Control, Session, SessionConfig, SessionError};
use jewelbot_plugin::{Plugin, PluginOption};
use magic_jewelry::dumps;
use magic_jewelry::plugin::MagicJewelryPlugin;
use std::path::Path;
use std::process::ExitCode;

mod cli;
mod run_command;
use cli::{Cli, Command, GameArgs, Switch};

/// The plug-ins this binary hosts, with their default settings. The only place the host
/// names a plug-in: everything else it learns from the plug-in API.
fn plugins() -> Vec<Box<dyn Plugin>> {
    vec![Box::new(MagicJewelryPlugin::default())]
}

/// How to make the plug-ins: their defaults with the options given on the command line.
struct Plugins {
    settings: Vec<(String, String)>,
}

impl Plugins {
    /// Fresh plug-ins with the settings applied; a refused setting is an error naming its flag.
    fn build(&self) -> anyhow::Result<Vec<Box<dyn Plugin>>> {
        let mut list = plugins();
        for (name, value) in &self.settings {
            for plugin in &mut list {
                if plugin.options().iter().any(|o| &o.name == name) {
                    plugin
                        .set_option(name, value)
                        .map_err(|reason| anyhow!("--{name} {value}: {reason}"))?;
                }
            }
        }
        Ok(list)
    }
}

/// Larger than any input script a person writes.
const MAX_SCRIPT_LEN: u64 = 16 * 1024 * 1024;

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
        None => play(&cli.play, plugins),
        Some(Command::Run(args)) => {
            // Nothing looks at the picture without a GIF: the PPU need not draw it.
            let config = SessionConfig {
                video: args.gif.is_some(),
                ..SessionConfig::default()
            };
            let mut session = open_session_with(&args.game, plugins, config)?;
            report_messages(&mut session);
            run_command::run(&args, &mut session)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Ram(args)) => ram(&args, plugins),
        Some(Command::Record(args)) => record(&args, plugins),
        Some(Command::RomInfo(args)) => rom_info(&args.path),
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
        Some(Command::Conform(args)) => conform(args.rom.as_deref()),
    }
}

/// Opens the window and plays until it is closed.
#[cfg(feature = "window")]
fn play(args: &cli::PlayArgs, plugins: &Plugins) -> anyhow::Result<ExitCode> {
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
        record_movie: window.record_movie.clone(),
        gif: window.gif.clone(),
        force: window.force,
    };
    // Files are refused before the window opens.
    for path in [&window.record_movie, &window.gif].into_iter().flatten() {
        refuse_existing(path, window.force)?;
    }
    if let Some(path) = &args.game.movie {
        jewelbot::movie::file::read(path)?;
    }
    jewelbot::frontend::run(options, |config| {
        let mut session = open_session_with(&args.game, plugins, config)?;
        report_messages(&mut session);
        Ok(session)
    })?;
    Ok(ExitCode::SUCCESS)
}

/// This build has no window.
#[cfg(not(feature = "window"))]
fn play(_: &cli::PlayArgs, _: &Plugins) -> anyhow::Result<ExitCode> {
    anyhow::bail!(
        "this build has no window (build with `--features window`, as ./play does); \
         to play without one use `jewelbot run --headless --frames N`"
    )
}

fn ram(args: &cli::RamArgs, plugins: &Plugins) -> anyhow::Result<ExitCode> {
    let mut session = open_session(&args.game, plugins)?;
    report_messages(&mut session);
    if let Some(path) = &args.state {
        session
            .load_state_file(path)
            .with_context(|| format!("cannot start from {}", path.display()))?;
        if session.frame_number() > args.frame {
            anyhow::bail!(
                "--frame {}: {} is at frame {}, past it",
                args.frame,
                path.display(),
                session.frame_number()
            );
        }
    }
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

/// Records a trace and writes it where `--out` says, never over a file without `--force`.
fn record(args: &cli::RecordArgs, plugins: &Plugins) -> anyhow::Result<ExitCode> {
    for path in std::iter::once(&args.out).chain(&args.record_movie) {
        refuse_existing(path, args.force)?;
    }
    let script = match &args.script {
        Some(path) => {
            let text = jewelbot::files::read_regular_text(path, "script", MAX_SCRIPT_LEN)?;
            Some(
                jewelbot_plugin::Script::parse(&text)
                    .with_context(|| format!("script {}", path.display()))?,
            )
        }
        None => None,
    };
    let mut session = open_session(&args.game, plugins)?;
    report_messages(&mut session);
    if args.record_movie.is_some() {
        session.record_movie()?;
    }
    // A movie without --frames is recorded to its end.
    let frames = args
        .frames
        .or_else(|| session.movie_playback().map(|(_, total)| total as u64))
        .unwrap_or(0);
    let (driver, source) = match &script {
        Some(script) => (
            jewelbot::record::Driver::Script(script),
            format!(
                "script-{}",
                args.script
                    .as_deref()
                    .and_then(Path::file_name)
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
            ),
        ),
        None => (
            jewelbot::record::Driver::Frames(frames),
            match &args.game.movie {
                Some(path) => format!(
                    "movie-{}",
                    path.file_name()
                        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
                ),
                None => "jewelbot-player".to_owned(),
            },
        ),
    };
    // A script's length in frames is known only once it has run.
    let bar = match Some(frames).filter(|_| script.is_none()) {
        Some(frames) => jewelbot::progress::bar(frames, "frames"),
        None => jewelbot::progress::spinner("frames"),
    };
    let recorded = jewelbot::record::record(
        &mut session,
        &driver,
        &source,
        args.ranges.as_ref(),
        |frames| bar.set_position(frames),
    );
    bar.finish_and_clear();
    let recorded = recorded?;
    jewelbot::record::write_trace(&args.out, &recorded.text)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    println!(
        "{} frames recorded to {}",
        recorded.frames,
        args.out.display()
    );
    for event in &recorded.waited_out {
        eprintln!("note: the script waited for {event} and it did not come");
    }
    if let Some(path) = &args.record_movie {
        if let Some(movie) = session.take_recorded_movie() {
            jewelbot::movie::file::write(path, &movie, args.force)?;
            eprintln!(
                "movie of {} frames recorded to {}",
                movie.frames.len(),
                path.display()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Refuses, before any work is done, to replace `path` without `--force`.
fn refuse_existing(path: &Path, force: bool) -> anyhow::Result<()> {
    if !force && std::fs::symlink_metadata(path).is_ok() {
        anyhow::bail!("{} exists; pass --force to replace it", path.display());
    }
    Ok(())
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
    // No plug-in: the scenarios press the buttons themselves.
    let mut session = Session::new(open_rom(path)?, Vec::new(), SessionConfig::default())?;
    let rom = session.rom().clone();
    let identity = jewelbot_plugin::RomIdentity {
        name: &rom.name,
        mapper: rom.header.mapper,
        prg: &rom.prg,
        chr: &rom.chr,
        prg_chr_crc32: rom.prg_chr_crc32,
        file_sha1: &rom.file_sha1,
    };
    let limit = magic_jewelry_lab::conform::FRAME_LIMIT;
    let mut out = std::io::stdout().lock();
    let scenarios = magic_jewelry::conformance::scenarios().len() as u64;
    let bar = jewelbot::progress::bar(scenarios, "scenarios");
    let report = magic_jewelry_lab::conform::run_with_progress(
        &mut session,
        &identity,
        limit,
        &mut out,
        &bar,
    )?;
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

fn open_session(game: &GameArgs, plugins: &Plugins) -> anyhow::Result<Session> {
    open_session_with(game, plugins, SessionConfig::default())
}

/// A session with the frontend's audio settings, the controller with the AI or the person as
/// `--ai` says.
fn open_session_with(
    game: &GameArgs,
    plugins: &Plugins,
    config: SessionConfig,
) -> anyhow::Result<Session> {
    let rom = open_rom(game.rom.as_deref())?;
    let mut session = Session::new(rom, plugins.build()?, config)?;
    session.set_control(match game.ai {
        Switch::On => Control::Plugins,
        Switch::Off => Control::Manual,
    });
    for poke in &game.poke {
        session.schedule_poke(poke.frame, poke.address, poke.value);
    }
    for freeze in &game.freeze {
        session.freeze(freeze.address, freeze.value);
    }
    if let Some(path) = &game.movie {
        let movie = jewelbot::movie::file::read(path)?;
        for warning in movie.warnings() {
            eprintln!("note: {}: {warning}", path.display());
        }
        session
            .play_movie(movie)
            .with_context(|| format!("cannot play {}", path.display()))?;
    }
    Ok(session)
}

fn report_messages(session: &mut Session) {
    for message in session.plugins_mut().drain_messages() {
        eprintln!("note: {message}");
    }
}
