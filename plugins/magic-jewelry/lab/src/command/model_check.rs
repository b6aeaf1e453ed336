//! `jewelbot model-check`: the player in the emulator against the model's game from power-on,
//! or a recording of a game the player played (`--trace`) against it.

use crate::model_check::{check_recording, read_trace, Ending, ModelCheck as Check, STALL_FRAMES};
use anyhow::anyhow;
use clap::{ArgMatches, FromArgMatches};
use jewelbot_commands::{Host, PluginCommand};
use magic_jewelry::plugin::{MagicJewelryPlugin, Settings};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// The longest run: a bound on a count a user types, far past any marathon (3.3 million
/// frames).
const MAX_FRAMES: u64 = 1_000_000_000;

#[derive(Debug, Clone, clap::Args)]
pub struct ModelCheckArgs {
    /// ROM to play (default: the built-in open cartridge).
    #[arg(long, value_name = "PATH", conflicts_with = "trace")]
    pub rom: Option<PathBuf>,
    /// Check a recording of a game the player played (`jewelbot record`) instead of playing a
    /// ROM; give the settings it was played with.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Spawns to compare (default: 2,000; with --trace, every spawn the recording holds).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub columns: Option<u64>,
    /// The most frames to run (default: as many as the columns take; the run stops when no
    /// column has spawned for 10,000 frames).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=MAX_FRAMES))]
    pub frames: Option<u64>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

/// The command.
pub struct ModelCheck;

impl PluginCommand for ModelCheck {
    fn command(&self) -> clap::Command {
        <ModelCheckArgs as clap::Args>::augment_args(clap::Command::new("model-check")).about(
            "Check that the player in the emulator plays the game the model plays from \
             power-on (the game `horizon` proves things about), spawn for spawn, and say where \
             they part",
        )
    }

    /// The player's options are the plug-in's, given on the command line.
    fn takes_plugin_options(&self) -> bool {
        true
    }

    fn run(
        &self,
        matches: &ArgMatches,
        host: &dyn Host,
        out: &mut dyn Write,
    ) -> anyhow::Result<ExitCode> {
        model_check(&ModelCheckArgs::from_arg_matches(matches)?, host, out)
    }
}

/// Spawns a live check compares unless told otherwise.
const DEFAULT_COLUMNS: u64 = 2_000;

/// How a check's run stopped, when it stopped before the spawns it was asked for without a
/// parting or an ending.
enum Stop {
    /// It compared what it was asked to.
    Done,
    /// The `--frames` bound.
    Frames,
    /// No column spawned for [`STALL_FRAMES`] frames.
    Stalled,
    /// The recording ended.
    RecordingEnded,
}

/// Runs the console with the plug-in from power-on (or replays `--trace`) and compares every
/// spawn with the model's. Succeeds when the spawns asked for all agree (with a recording:
/// every spawn it holds, up to `--columns`).
fn model_check(
    args: &ModelCheckArgs,
    host: &dyn Host,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    let settings = player_settings(host)?;
    let mut check = Check::new(&settings)?;
    let (frame, stop) = match &args.trace {
        Some(path) => {
            let trace = read_trace(path)?;
            let columns = args.columns.unwrap_or(u64::MAX);
            let frames = args.frames.unwrap_or(u64::MAX);
            let limited = trace_prefix(trace, frames);
            let frame = check_recording(&mut check, &limited, columns);
            let stop = if check.columns() >= columns {
                Stop::Done
            } else if (limited.frames.len() as u64) < frames {
                Stop::RecordingEnded
            } else {
                Stop::Frames
            };
            (frame, stop)
        }
        None => play(
            args,
            host,
            &mut check,
            args.columns.unwrap_or(DEFAULT_COLUMNS),
        )?,
    };
    let agreed = check.agrees()
        && (check.ending().is_some() || matches!(stop, Stop::Done | Stop::RecordingEnded));
    if args.json {
        let report = serde_json::json!({
            "columns_compared": check.columns(),
            "frames": frame,
            "agreed": agreed,
            "parting": check.parting(),
            "ending": check.ending(),
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        writeln!(out, "{}", verdict(args, &check, frame, &stop))?;
    }
    Ok(if agreed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The player the plug-in's options on the command line make.
fn player_settings(host: &dyn Host) -> anyhow::Result<Settings> {
    let mut settings = Settings::default();
    for setting in host.options_given(MagicJewelryPlugin::NAME) {
        settings = settings
            .with(&setting.name, &setting.value)
            .map_err(|reason| anyhow!("{} {}: {reason}", setting.flag, setting.value))?
            .0;
    }
    Ok(settings)
}

/// A recording's first `frames` frames.
fn trace_prefix(mut trace: jewelbot_plugin::Trace, frames: u64) -> jewelbot_plugin::Trace {
    trace
        .frames
        .truncate(usize::try_from(frames).unwrap_or(usize::MAX));
    trace
}

/// Plays the ROM with the plug-ins from power-on until `columns` spawns are compared, the
/// games part or end, the `--frames` bound, or a stall; the last frame run and why it stopped.
fn play(
    args: &ModelCheckArgs,
    host: &dyn Host,
    check: &mut Check,
    columns: u64,
) -> anyhow::Result<(u64, Stop)> {
    let mut session = host.open(args.rom.as_deref(), true)?;
    let frames = args.frames.unwrap_or(u64::MAX);
    let bar = jewelbot_plugin::progress::bar(columns, "columns");
    let stop = loop {
        let frame = session.frame_number();
        if check.columns() >= columns || check.is_done() {
            break Stop::Done;
        }
        if frame >= frames {
            break Stop::Frames;
        }
        if check.stalled(frame) {
            break Stop::Stalled;
        }
        session.run_frame()?;
        check.observe(session.frame_number(), session.ram());
        bar.set_position(check.columns());
    };
    bar.finish_and_clear();
    Ok((session.frame_number(), stop))
}

/// What the check found, in a sentence (two more lines and the boards at a parting).
fn verdict(args: &ModelCheckArgs, check: &Check, frame: u64, stop: &Stop) -> String {
    let columns = check.columns();
    let game = if args.trace.is_some() {
        "the recording's game"
    } else {
        "the emulator's game"
    };
    if let Some(parting) = check.parting() {
        return format!(
            "{game} and the model's part at column {} (frame {}): {} differ\nemulator: {:?}\n{}\n\
             model: {:?}\n{}",
            parting.column,
            parting.frame,
            parting.differences.join(", "),
            parting.emulator,
            parting.emulator_board,
            parting.model,
            parting.model_board
        );
    }
    if let Some(ending) = check.ending() {
        return match ending {
            Ending::Together(column) => format!(
                "{game} and the model's agree on every one of {columns} spawns and both end at \
                 column {column} (frame {frame})"
            ),
            Ending::EmulatorOnly(column) => format!(
                "{game} agrees with the model's on every one of {columns} spawns; it ends at \
                 column {column} (frame {frame}) and the model's goes on"
            ),
            Ending::ModelOnly(column) => format!(
                "the model's game ends at column {column} and {game} goes on (frame {frame}), \
                 after {columns} spawns that agree"
            ),
        };
    }
    match stop {
        Stop::Done => format!(
            "{game} and the model's agree on every one of {columns} spawns (frames 1 to {frame})"
        ),
        Stop::RecordingEnded => format!(
            "{game} and the model's agree on every one of the recording's {columns} spawns \
             (frames 1 to {frame})"
        ),
        Stop::Frames => format!(
            "{columns} spawns agree; the run stopped at its {frame} frames before {} columns",
            args.columns.unwrap_or(DEFAULT_COLUMNS)
        ),
        Stop::Stalled => format!(
            "{columns} spawns agree; then no column spawned for {STALL_FRAMES} frames (frame \
             {frame}): the game stalled"
        ),
    }
}
