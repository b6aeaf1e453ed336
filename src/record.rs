//! `jewelbot record`: a RAM trace of any ROM, driven by a script, a movie or the plug-ins.

use crate::cli::RecordArgs;
use crate::setup::{game_inputs, open_session, report_messages, Plugins};
use anyhow::Context;
use jewelbot_host::interrupt::Interrupt;
use jewelbot_host::outputs::{self, Input, Output};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// Larger than any input script a person writes.
const MAX_SCRIPT_LEN: u64 = 16 * 1024 * 1024;

/// Records a trace and writes it where `--out` says, never over a file without `--force`.
pub fn record(
    args: &RecordArgs,
    plugins: &Plugins,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    let mut inputs = game_inputs(&args.game, plugins);
    inputs.extend(args.script.as_deref().map(|p| Input::new("--script", p)));
    let mut outputs = vec![Output::file("--out", &args.out)];
    outputs.extend(
        args.record_movie
            .as_deref()
            .map(|p| Output::file("--record-movie", p)),
    );
    outputs::check(&outputs, &inputs, args.force)?;
    let script = match &args.script {
        Some(path) => {
            let text = jewelbot_host::files::read_regular_text(path, "script", MAX_SCRIPT_LEN)?;
            Some(
                jewelbot_plugin::Script::parse(&text)
                    .with_context(|| format!("script {}", path.display()))?,
            )
        }
        None => None,
    };
    let mut session = open_session(&args.game, plugins)?;
    report_messages(&mut session);
    if let (Some(script), Some(path)) = (&script, &args.script) {
        let known = jewelbot_host::record::known_events(&session);
        let known: Vec<&str> = known.iter().map(String::as_str).collect();
        script
            .check_events(&known)
            .with_context(|| format!("script {}", path.display()))?;
    }
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
            jewelbot_host::record::Driver::Script(script),
            format!(
                "script-{}",
                args.script
                    .as_deref()
                    .and_then(Path::file_name)
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
            ),
        ),
        None => (
            jewelbot_host::record::Driver::Frames(frames),
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
        Some(frames) => jewelbot_plugin::progress::bar(frames, "frames"),
        None => jewelbot_plugin::progress::spinner("frames"),
    };
    let recorded = jewelbot_host::record::record(
        &mut session,
        &driver,
        &source,
        args.ranges.as_ref(),
        &Interrupt::listen().context("cannot listen for signals")?,
        |frames| bar.set_position(frames),
    );
    bar.finish_and_clear();
    let recorded = recorded?;
    jewelbot_host::record::write_trace(&args.out, &recorded.text, args.force)?;
    writeln!(
        out,
        "{} frames recorded to {}",
        recorded.frames,
        args.out.display()
    )?;
    for event in &recorded.waited_out {
        eprintln!("note: the script waited for {event} and it did not come");
    }
    if let Some(path) = &args.record_movie {
        if let Some(movie) = session.take_recorded_movie() {
            jewelbot_host::movie::file::write(path, &movie, args.force)?;
            eprintln!(
                "movie of {} frames recorded to {}",
                movie.frames.len(),
                path.display()
            );
        }
    }
    crate::run::warn_unapplied_pokes(&session);
    Ok(match recorded.interrupted {
        Some(signal) => {
            eprintln!("note: {} stopped the recording", signal.name());
            ExitCode::from(signal.exit_status())
        }
        None => session
            .plugins()
            .exit_status()
            .map_or(ExitCode::SUCCESS, ExitCode::from),
    })
}
