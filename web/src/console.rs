//! `jewelbot serve`: the game in real time, as the window plays it, shown to browsers and
//! driven by the person holding the controls.

use crate::hub::{Command, GameSide, RawPicture};
use crate::protocol::{self, Hello, Request};
use crate::server::{Config, Server};
use crate::view::View;
use jewelbot_host::frontend::controls::{Controls, Places};
use jewelbot_host::frontend::keys;
use jewelbot_host::frontend::pacing::Due;
use jewelbot_host::interrupt::Interrupt;
use jewelbot_host::session::Session;
use jewelbot_plugin::Buttons;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How long the loop waits, while paused, before it looks again.
const IDLE_TICK: Duration = Duration::from_millis(50);

/// How `serve` plays.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The AI holds the controller at start.
    pub ai: bool,
    pub places: Places,
    /// Record controller 1 from power-on to this fm2 movie, written at the end.
    pub record_movie: Option<PathBuf>,
    /// Record a GIF of the game to this file from the start.
    pub gif: Option<PathBuf>,
    pub force: bool,
    /// A signal ends the game (Ctrl+C), its files written.
    pub interrupt: Interrupt,
}

/// Plays `session` in real time and serves it until a signal stops it; `started` is told
/// the server's address and URL once it listens.
pub fn serve(
    session: Session,
    options: &Options,
    config: &Config,
    started: impl FnOnce(&Server),
) -> anyhow::Result<()> {
    let mut controls = Controls::new(session, options.places.clone(), options.ai);
    if let Some(path) = &options.gif {
        let gif = jewelbot_host::gif_capture::GifCapture::create(path, options.force)?;
        controls.set_gif(Some(gif));
    }
    let rom = controls.session().rom().name.clone();
    let hello = Hello::new(&rom, "serve", controls.plugin_keys());
    let (hub, mut game) = crate::hub::Hub::new(serde_json::to_value(hello)?);
    let server = Server::start(config, hub)?;
    started(&server);
    while !options.interrupt.requested() {
        for command in game.take_requests() {
            apply(&mut controls, command);
        }
        let buttons = Buttons::from_bits(game.hub().held_buttons());
        controls.session_mut().set_manual_buttons(buttons);
        let now = Instant::now();
        let next = match controls.due(now) {
            None => {
                // A picture for a viewer who came while the game stood still.
                if game.wants_picture(now) {
                    publish_picture(&mut controls, &mut game);
                }
                now + IDLE_TICK
            }
            Some(Due::Frames(n, next)) => {
                for _ in 0..n {
                    if !step(&mut controls, &mut game) {
                        break;
                    }
                }
                next
            }
            Some(Due::Until(deadline)) => {
                while Instant::now() < deadline {
                    if !step(&mut controls, &mut game) {
                        break;
                    }
                }
                Instant::now()
            }
        };
        let now = Instant::now();
        if game.wants_view(now) {
            game.publish_view(&View::of_controls(&controls), now);
        }
        // Wait for the next frame, or for a request.
        if let Some(command) = game.wait_request(next.saturating_duration_since(Instant::now())) {
            apply(&mut controls, command);
        }
    }
    drop(game);
    server.stop();
    controls.finish(options.record_movie.as_deref(), options.force)
}

/// Runs one frame, and takes its picture if a viewer is ready for one.
fn step(controls: &mut Controls, game: &mut GameSide) -> bool {
    if !controls.step() {
        return false;
    }
    if game.wants_picture(Instant::now()) {
        publish_picture(controls, game);
    }
    true
}

fn publish_picture(controls: &mut Controls, game: &mut GameSide) {
    let picture = RawPicture::of(controls.session_mut());
    game.publish_picture(picture, Instant::now());
}

/// Does what a page asked.
fn apply(controls: &mut Controls, command: Command) {
    match command.request {
        Request::Action { action } => {
            controls.act(action);
        }
        Request::Key { code, modifiers } => {
            let action = keys::action_with_plugins(&code, modifiers, controls.plugin_keys());
            if let Some(action) = action.filter(|a| protocol::is_console_action(*a)) {
                controls.act(action);
            }
        }
        Request::Option { name, value } => controls.set_plugin_option(&name, &value),
        Request::Speed { speed } => {
            if let Some(speed) = protocol::parse_speed(&speed) {
                controls.change_speed(speed);
            }
        }
        Request::Poke { address, value } => controls.poke(address, value),
        Request::Freeze { address } => controls.toggle_freeze(address),
        // Held in the hub, read every frame.
        Request::Buttons { .. } => {}
    }
}
