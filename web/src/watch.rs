//! `jewelbot run --headless --serve`: a headless run watched from browsers. Nobody can press
//! anything, and the run's game is the one it plays without the server: the picture is drawn
//! only for frames a viewer is ready for (drawing it changes nothing in the game), and
//! nothing the page sends reaches the console.

use crate::hub::{GameSide, Hub, RawPicture};
use crate::protocol::Hello;
use crate::server::{Config, Server};
use crate::view::{RunProgress, View};
use jewelbot_host::headless::until::Until;
use jewelbot_host::session::Session;
use std::time::Instant;

/// The server of a headless run, and what it has sent.
pub struct Watch {
    game: GameSide,
    server: Server,
    until: Vec<Until>,
    started: Instant,
    frames: u64,
}

impl Watch {
    /// Starts serving `session`'s run (stopping at `until`), watched only.
    pub fn start(mut config: Config, session: &Session, until: Vec<Until>) -> anyhow::Result<Self> {
        config.watch_only = true;
        let hello = Hello::new(&session.rom().name, "watch", &[]);
        let (hub, game) = Hub::new(serde_json::to_value(hello)?);
        let server = Server::start(&config, hub)?;
        Ok(Self {
            game,
            server,
            until,
            started: Instant::now(),
            frames: 0,
        })
    }

    pub fn server(&self) -> &Server {
        &self.server
    }

    /// After each frame: its picture when one was drawn for a viewer, and a view when one is
    /// due. Returns whether the next frame's picture should be drawn.
    pub fn after_frame(&mut self, session: &mut Session) -> bool {
        self.frames += 1;
        let now = Instant::now();
        if session.video() && self.game.wants_picture(now) {
            self.game.publish_picture(RawPicture::of(session), now);
        }
        if self.game.wants_view(now) {
            let mut view = View::of(session);
            let seconds = self.started.elapsed().as_secs_f64();
            let progress = RunProgress::of(session, self.frames, seconds, &self.until);
            view.bar = format!(
                "watching a headless run | frame {} | {:.0} fps | {} watching",
                session.frame_number(),
                progress.fps,
                self.game.hub().viewers()
            );
            view.run = Some(progress);
            self.game.publish_view(&view, now);
        }
        // Requests cannot come (nobody holds the controls); none is kept.
        drop(self.game.take_requests());
        self.game.wants_picture(Instant::now())
    }

    /// Tells the viewers the run has ended and closes their sockets.
    pub fn stop(self) {
        let Self { game, server, .. } = self;
        drop(game);
        server.stop();
    }
}
