//! `jewelbot serve`: the game in real time on a web page, with the controls for whoever opens
//! it with its token (docs/web.md).

use crate::cli::{ServeArgs, ViewerArgs};
use crate::setup::Plugins;
use anyhow::Context;
use jewelbot_host::interrupt::Interrupt;
use jewelbot_host::outputs;
use jewelbot_host::session::SessionConfig;
use std::net::SocketAddr;
use std::process::ExitCode;

/// The server's settings from the command line.
pub fn config(
    address: SocketAddr,
    open_controls: bool,
    viewers: &ViewerArgs,
) -> jewelbot_web::Config {
    jewelbot_web::Config {
        address,
        open_controls,
        max_viewers: usize::from(viewers.max_viewers),
        allowed_hosts: viewers.allow_host.clone(),
        watch_only: false,
    }
}

/// Says where the page is, before the game starts, on standard error (standard output may
/// carry `--json`).
pub fn announce(server: &jewelbot_web::Server) {
    match jewelbot_web::address::warning(server.address()) {
        Some(warning) => eprintln!("note: {warning}"),
        None => eprintln!(
            "note: the page is served on {}, to this machine only (the address 0.0.0.0 \
             serves others, over plain HTTP)",
            server.address()
        ),
    }
    match server.token() {
        Some(_) => eprintln!(
            "serving the game at {} (this address holds the controls: keep it to yourself; \
             without its token a viewer only watches). Ctrl+C ends the game.",
            server.url()
        ),
        None => eprintln!("serving the run at {} (watched only)", server.url()),
    }
}

pub fn serve(args: &ServeArgs, plugins: &Plugins) -> anyhow::Result<ExitCode> {
    let interrupt = Interrupt::listen().context("cannot listen for signals")?;
    let built = plugins.build_for()?;
    outputs::check(
        &args.files.outputs(),
        &crate::setup::game_inputs(&args.game, plugins),
        args.files.force,
    )?;
    let mut session =
        crate::setup::open_session_with(&args.game, plugins, built, SessionConfig::default())?;
    // Played in real time, as in the window: the plug-ins keep up by time.
    session
        .plugins_mut()
        .set_pacing(jewelbot_host::plugin_host::WINDOW_PACING);
    crate::setup::report_messages(&mut session);
    if args.files.record_movie.is_some() {
        session.record_movie()?;
    }
    let address = SocketAddr::new(args.web.bind, args.web.port);
    let options = jewelbot_web::console::Options {
        ai: args.game.ai == crate::cli::Switch::On,
        places: args.files.places(),
        record_movie: args.files.record_movie.clone(),
        gif: args.files.gif.clone(),
        force: args.files.force,
        interrupt: interrupt.clone(),
    };
    let config = config(address, args.web.open_controls, &args.web.viewers);
    jewelbot_web::console::serve(session, &options, &config, announce)?;
    Ok(interrupt.signal().map_or(ExitCode::SUCCESS, |signal| {
        ExitCode::from(signal.exit_status())
    }))
}
