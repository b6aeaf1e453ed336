//! `jewelbot ram`: runs to a frame and prints the plug-ins' view of RAM (and its changes).

use crate::cli::RamArgs;
use crate::setup::{open_session, report_messages, Plugins};
use anyhow::Context;
use jewelbot_host::inspector;
use jewelbot_host::interrupt::Interrupt;
use jewelbot_host::session::Session;
use std::io::Write;
use std::process::ExitCode;

/// Frames between updates of the progress bar.
const PROGRESS_EVERY: u64 = 1000;

pub fn ram(args: &RamArgs, plugins: &Plugins, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let mut session = open_session(&args.game, plugins)?;
    report_messages(&mut session);
    if let Some(path) = &args.state {
        crate::setup::load_state(&mut session, path, plugins)?;
        if session.frame_number() > args.frame {
            anyhow::bail!(
                "--frame {}: {} is at frame {}, past it",
                args.frame,
                path.display(),
                session.frame_number()
            );
        }
    }
    if let Some((_, total)) = session.movie_playback() {
        if args.frame > total as u64 {
            let after = match args.game.ai {
                crate::cli::Switch::On => "the AI's buttons",
                crate::cli::Switch::Off => "no buttons",
            };
            eprintln!(
                "note: the movie has {total} frames; frame {} is past its end, so frames {} to \
                 {} are played with {after}",
                args.frame,
                total + 1,
                args.frame
            );
        }
    }
    let mut before = inspect(&session);
    let interrupt = Interrupt::listen().context("cannot listen for signals")?;
    let bar = jewelbot_plugin::progress::bar(args.frame, "frames");
    bar.set_position(session.frame_number());
    while session.frame_number() < args.frame {
        if let Some(signal) = interrupt.signal() {
            bar.finish_and_clear();
            eprintln!(
                "note: {} stopped the run at frame {} of {}",
                signal.name(),
                session.frame_number(),
                args.frame
            );
            return Ok(ExitCode::from(signal.exit_status()));
        }
        session.run_frame()?;
        if session.frame_number().is_multiple_of(PROGRESS_EVERY) {
            bar.set_position(session.frame_number());
        }
        if args.watch {
            let now = inspect(&session);
            let changes = inspector::changes(&before, &now);
            if !changes.is_empty() {
                writeln!(
                    out,
                    "frame {}: {}",
                    session.frame_number(),
                    changes.join(", ")
                )?;
            }
            before = now;
        }
    }
    bar.finish_and_clear();
    writeln!(out, "frame {}", session.frame_number())?;
    let inspections = session.plugins().inspect(session.ram());
    if inspections.is_empty() {
        writeln!(out, "(no plug-in describes this ROM's RAM)")?;
    }
    for (_, inspection) in &inspections {
        write!(out, "{}", inspector::render(inspection))?;
    }
    if args.hex || inspections.is_empty() {
        write!(out, "\n{}", inspector::hex_dump(session.ram()))?;
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
