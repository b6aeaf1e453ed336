//! `jewelbot model-check`: the player in the emulator against the model's game from power-on.

use crate::cli::ModelCheckArgs;
use crate::setup::{open_rom, Plugins};
use anyhow::anyhow;
use jewelbot_host::session::{Control, Session, SessionConfig};
use magic_jewelry::plugin::{MagicJewelryPlugin, Settings};
use magic_jewelry_lab::model_check::{Ending, ModelCheck};
use std::io::Write;
use std::process::ExitCode;

/// Frames a column may take at most, for the default bound on a check's frames: the slowest
/// column (the first level's 63 frames a row over 13 rows, a clear and the wild column's
/// resolution) takes well under half of it.
const FRAMES_A_COLUMN: u64 = 400;

/// Runs the console with the plug-in from power-on and compares every spawn with the model's.
/// Succeeds when the first `--columns` spawns all agree.
pub fn model_check(
    args: &ModelCheckArgs,
    plugins: &Plugins,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
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
    let mut check = ModelCheck::new(&settings)?;
    let config = SessionConfig {
        video: false,
        ..SessionConfig::default()
    };
    let built = plugins.build()?;
    let mut session = Session::new(open_rom(args.rom.as_deref())?, built, config)?;
    session.set_control(Control::Plugins);
    let frames = args
        .frames
        .unwrap_or(args.columns.saturating_mul(FRAMES_A_COLUMN));
    let bar = jewelbot_plugin::progress::bar(args.columns, "columns");
    while check.columns() < args.columns && !check.is_done() && session.frame_number() < frames {
        session.run_frame()?;
        check.observe(session.frame_number(), session.ram());
        bar.set_position(check.columns());
    }
    bar.finish_and_clear();
    let agreed = check.agrees() && (check.columns() >= args.columns || check.ending().is_some());
    if args.json {
        let report = serde_json::json!({
            "columns_compared": check.columns(),
            "frames": session.frame_number(),
            "agreed": agreed,
            "parting": check.parting(),
            "ending": check.ending(),
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        let frame = session.frame_number();
        let columns = check.columns();
        if let Some(parting) = check.parting() {
            writeln!(
                out,
                "the emulator's game and the model's part at column {} (frame {}): {} differ",
                parting.column,
                parting.frame,
                parting.differences.join(", ")
            )?;
            writeln!(
                out,
                "emulator: {:?}\n{}\nmodel: {:?}\n{}",
                parting.emulator, parting.emulator_board, parting.model, parting.model_board
            )?;
        } else if let Some(ending) = check.ending() {
            let text = match ending {
                Ending::Together(column) => format!(
                    "the emulator's game and the model's agree on every one of {columns} spawns \
                     and both end at column {column} (frame {frame})"
                ),
                Ending::EmulatorOnly(column) => format!(
                    "the emulator's game ends at column {column} (frame {frame}) and the model's \
                     goes on"
                ),
                Ending::ModelOnly(column) => format!(
                    "the model's game ends at column {column} and the emulator's goes on (frame \
                     {frame})"
                ),
            };
            writeln!(out, "{text}")?;
        } else if agreed {
            writeln!(
                out,
                "the emulator's game and the model's agree on every one of {columns} spawns \
                 (frames 0 to {frame})"
            )?;
        } else {
            writeln!(
                out,
                "{columns} spawns agree; the run stopped at its {frames} frames before {} \
                 columns",
                args.columns
            )?;
        }
    }
    Ok(if agreed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
