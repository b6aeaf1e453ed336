//! `jewelbot` with no command: the window.

use crate::cli::PlayArgs;
use crate::setup::Plugins;
#[cfg(feature = "window")]
use anyhow::Context;
#[cfg(feature = "window")]
use jewelbot_host::interrupt::Interrupt;
#[cfg(feature = "window")]
use jewelbot_host::outputs;
use std::process::ExitCode;

/// Opens the window and plays until it is closed.
#[cfg(feature = "window")]
pub fn play(args: &PlayArgs, plugins: &Plugins) -> anyhow::Result<ExitCode> {
    let window = &args.window;
    let options = jewelbot_host::frontend::Options {
        ai: args.game.ai == crate::cli::Switch::On,
        software: window.software,
        fullscreen: window.fullscreen,
        scale: window.scale,
        inspector: window.inspector,
        mute: window.mute,
        square_pixels: window.square_pixels,
        state_dir: window.files.state_dir.clone(),
        screenshot_dir: window.files.screenshot_dir.clone(),
        record_movie: window.files.record_movie.clone(),
        gif: window.files.gif.clone(),
        force: window.files.force,
        interrupt: Interrupt::listen().context("cannot listen for signals")?,
        fps_trial: window.fps_trial,
    };
    let interrupt = options.interrupt.clone();
    // Settings and files are refused before the window opens.
    let built = plugins.build_for()?;
    outputs::check(
        &window.files.outputs(),
        &crate::setup::game_inputs(&args.game, plugins),
        window.files.force,
    )?;
    if let Some(path) = &args.game.movie {
        jewelbot_host::movie::file::read(path)?;
    }
    jewelbot_host::frontend::run(options, |config| {
        let mut session = crate::setup::open_session_with(&args.game, plugins, built, config)?;
        // Played in real time: the plug-ins keep up by time, and a frame they hold up too long
        // is lost to them.
        session
            .plugins_mut()
            .set_pacing(jewelbot_host::plugin_host::WINDOW_PACING);
        crate::setup::report_messages(&mut session);
        Ok(session)
    })?;
    Ok(interrupt.signal().map_or(ExitCode::SUCCESS, |signal| {
        ExitCode::from(signal.exit_status())
    }))
}

/// This build has no window.
#[cfg(not(feature = "window"))]
pub fn play(_: &PlayArgs, _: &Plugins) -> anyhow::Result<ExitCode> {
    anyhow::bail!(
        "this build has no window (build with `--features window`, as ./play does); \
         to play without one use `jewelbot run --headless --frames N`"
    )
}
