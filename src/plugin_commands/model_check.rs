//! `jewelbot model-check`: the player in the emulator against the model's game from power-on,
//! or a recording of a game the player played (`--trace`) against it.

use crate::cli::ModelCheckArgs;
use crate::setup::{open_rom, Plugins};
use anyhow::anyhow;
use jewelbot_host::session::{Control, Session, SessionConfig};
use magic_jewelry::plugin::{MagicJewelryPlugin, Settings};
use magic_jewelry_lab::model_check::{
    check_recording, read_trace, Ending, ModelCheck, STALL_FRAMES,
};
use std::io::Write;
use std::process::ExitCode;

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
pub fn model_check(
    args: &ModelCheckArgs,
    plugins: &Plugins,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    let settings = player_settings(plugins)?;
    let mut check = ModelCheck::new(&settings)?;
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
            plugins,
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
fn player_settings(plugins: &Plugins) -> anyhow::Result<Settings> {
    let mut settings = Settings::default();
    let own = plugins
        .settings
        .iter()
        .filter(|s| s.plugin == MagicJewelryPlugin::NAME);
    for setting in own {
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
    plugins: &Plugins,
    check: &mut ModelCheck,
    columns: u64,
) -> anyhow::Result<(u64, Stop)> {
    let config = SessionConfig {
        video: false,
        ..SessionConfig::default()
    };
    let built = plugins.build()?;
    let mut session = Session::new(open_rom(args.rom.as_deref())?, built, config)?;
    session.set_control(Control::Plugins);
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
fn verdict(args: &ModelCheckArgs, check: &ModelCheck, frame: u64, stop: &Stop) -> String {
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
