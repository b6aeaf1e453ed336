//! Where the game and the server meet. The game's thread publishes its newest picture and
//! view and takes the page's requests; the server's tasks read the newest of each. Nothing
//! the game does waits on a viewer: a picture is taken only when a viewer is ready for one,
//! the channels keep only the newest, and requests queue in a bounded line.

use crate::protocol::Request;
use jewelbot_plugin::Mark;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// The least time between two pictures the game takes for the page: a little under a frame of
/// real time, so a real-time game sends every frame and a faster one about a screen's worth
/// (a screen shows no more), whatever the viewers could read.
pub const PICTURE_GAP: Duration = Duration::from_millis(15);
/// Time between two views (status, dashboard, inspector) sent to the page: as often as the
/// window redraws its panels.
pub const VIEW_EVERY: Duration = Duration::from_millis(100);
/// Requests waiting for the game's thread; more are refused until it takes some.
const REQUEST_QUEUE: usize = 64;

/// A picture as the game made it: 256x240 RGBA, with the plug-ins' marks over it.
#[derive(Debug, Clone)]
pub struct RawPicture {
    pub frame: u64,
    pub rgba: Vec<u8>,
    pub marks: Vec<Mark>,
}

impl RawPicture {
    /// The session's last picture, as the window shows it, with the running plug-ins' marks.
    pub fn of(session: &mut jewelbot_host::session::Session) -> Self {
        let marks = jewelbot_host::frontend::view::slot_views(session)
            .into_iter()
            .flat_map(|slot| slot.marks)
            .collect();
        Self {
            frame: session.frame_number(),
            rgba: session.picture_rgba().to_vec(),
            marks,
        }
    }
}

/// A request from a page that holds the controls, as the game's thread takes it.
#[derive(Debug, Clone, PartialEq)]
pub struct Command {
    /// The viewer it came from, for its answer.
    pub viewer: u64,
    pub request: Request,
}

/// Why a request did not reach the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("the game is busy with earlier requests; try again")]
    Busy,
    #[error("the game has stopped")]
    Gone,
}

/// Shared by the game's thread ([`GameSide`]) and the server.
pub struct Hub {
    /// A viewer is ready for a picture.
    picture_wanted: AtomicBool,
    pictures: watch::Sender<Option<Arc<RawPicture>>>,
    /// The newest view, as the JSON text sent to pages.
    views: watch::Sender<Arc<str>>,
    /// What a page is told first ([`crate::protocol::Hello`]) but its own `controls`.
    hello: Mutex<Arc<serde_json::Value>>,
    requests: SyncSender<Command>,
    /// The buttons each viewer holding the controls holds now.
    held: Mutex<HashMap<u64, u8>>,
    viewers: AtomicUsize,
    /// Set when the game ends: the server closes its sockets.
    closing: watch::Sender<bool>,
}

impl Hub {
    /// A hub and the game's side of it.
    pub fn new(hello: serde_json::Value) -> (Arc<Self>, GameSide) {
        let (requests, taken) = mpsc::sync_channel(REQUEST_QUEUE);
        let hub = Arc::new(Self {
            picture_wanted: AtomicBool::new(false),
            pictures: watch::Sender::new(None),
            views: watch::Sender::new(Arc::from("")),
            hello: Mutex::new(Arc::new(hello)),
            requests,
            held: Mutex::new(HashMap::new()),
            viewers: AtomicUsize::new(0),
            closing: watch::Sender::new(false),
        });
        let game = GameSide {
            hub: Arc::clone(&hub),
            requests: taken,
            last_picture: None,
            last_view: None,
        };
        (hub, game)
    }

    /// A viewer asks for the next picture.
    pub fn want_picture(&self) {
        self.picture_wanted.store(true, Ordering::Relaxed);
    }

    pub fn pictures(&self) -> watch::Receiver<Option<Arc<RawPicture>>> {
        self.pictures.subscribe()
    }

    pub fn views(&self) -> watch::Receiver<Arc<str>> {
        self.views.subscribe()
    }

    pub fn closing(&self) -> watch::Receiver<bool> {
        self.closing.subscribe()
    }

    pub fn hello(&self) -> Arc<serde_json::Value> {
        Arc::clone(
            &self
                .hello
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    }

    /// Passes a request to the game's thread without waiting.
    pub fn send(&self, command: Command) -> Result<(), Refused> {
        self.requests.try_send(command).map_err(|e| match e {
            TrySendError::Full(_) => Refused::Busy,
            TrySendError::Disconnected(_) => Refused::Gone,
        })
    }

    /// A viewer holds these buttons now (bits as the NES reads them).
    pub fn hold(&self, viewer: u64, buttons: u8) {
        let mut held = self
            .held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if buttons == 0 {
            held.remove(&viewer);
        } else {
            held.insert(viewer, buttons);
        }
    }

    /// A viewer has gone: its buttons are let go.
    pub fn release(&self, viewer: u64) {
        self.hold(viewer, 0);
    }

    /// The buttons every viewer holds, together.
    pub fn held_buttons(&self) -> u8 {
        self.held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .values()
            .fold(0, |all, b| all | b)
    }

    /// Counts a viewer in, unless `limit` are already watching.
    pub fn join(&self, limit: usize) -> bool {
        self.viewers
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < limit).then_some(n + 1)
            })
            .is_ok()
    }

    pub fn leave(&self) {
        self.viewers.fetch_sub(1, Ordering::AcqRel);
    }

    pub fn viewers(&self) -> usize {
        self.viewers.load(Ordering::Acquire)
    }

    pub fn close(&self) {
        self.closing.send_replace(true);
    }
}

/// The game's side of the hub, held by the thread that runs the frames.
pub struct GameSide {
    hub: Arc<Hub>,
    requests: Receiver<Command>,
    last_picture: Option<Instant>,
    last_view: Option<Instant>,
}

impl GameSide {
    pub fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }

    /// Whether the next frame's picture should be taken: a viewer is ready for one, and the
    /// last was taken a screen refresh ago.
    pub fn wants_picture(&self, now: Instant) -> bool {
        self.hub.picture_wanted.load(Ordering::Relaxed)
            && self
                .last_picture
                .is_none_or(|at| now.duration_since(at) >= PICTURE_GAP)
    }

    pub fn publish_picture(&mut self, picture: RawPicture, now: Instant) {
        self.hub.picture_wanted.store(false, Ordering::Relaxed);
        self.last_picture = Some(now);
        self.hub.pictures.send_replace(Some(Arc::new(picture)));
    }

    /// Whether a view is due: someone watches, and the last is [`VIEW_EVERY`] old.
    pub fn wants_view(&self, now: Instant) -> bool {
        self.hub.viewers() > 0
            && self
                .last_view
                .is_none_or(|at| now.duration_since(at) >= VIEW_EVERY)
    }

    pub fn publish_view(&mut self, view: &impl serde::Serialize, now: Instant) {
        self.last_view = Some(now);
        match serde_json::to_string(view) {
            Ok(text) => {
                self.hub.views.send_replace(Arc::from(text));
            }
            Err(error) => tracing::warn!("a view did not serialise: {error}"),
        }
    }

    /// Replaces what pages are told first (a plug-in option changed, say).
    pub fn set_hello(&self, hello: serde_json::Value) {
        *self
            .hub
            .hello
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Arc::new(hello);
    }

    /// Waits up to `timeout` for a request.
    pub fn wait_request(&self, timeout: Duration) -> Option<Command> {
        self.requests.recv_timeout(timeout).ok()
    }

    /// The requests waiting, oldest first.
    pub fn take_requests(&self) -> Vec<Command> {
        self.requests.try_iter().collect()
    }
}

impl Drop for GameSide {
    fn drop(&mut self) {
        self.hub.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Request;

    #[test]
    fn pictures_are_taken_only_when_wanted_and_at_most_at_screen_rate() {
        let (hub, mut game) = Hub::new(serde_json::json!({}));
        let t0 = Instant::now();
        assert!(!game.wants_picture(t0));
        hub.want_picture();
        assert!(game.wants_picture(t0));
        let picture = RawPicture {
            frame: 1,
            rgba: vec![0; 4],
            marks: vec![],
        };
        game.publish_picture(picture.clone(), t0);
        assert!(!game.wants_picture(t0));
        hub.want_picture();
        assert!(!game.wants_picture(t0 + Duration::from_millis(5)));
        // Every frame of a real-time game (16.6 ms apart).
        assert!(game.wants_picture(t0 + Duration::from_micros(16_639)));
    }

    #[test]
    fn requests_beyond_the_queue_are_refused_not_waited_for() {
        let (hub, game) = Hub::new(serde_json::json!({}));
        let command = Command {
            viewer: 1,
            request: Request::Buttons { buttons: 0 },
        };
        for _ in 0..REQUEST_QUEUE {
            assert_eq!(hub.send(command.clone()), Ok(()));
        }
        assert_eq!(hub.send(command.clone()), Err(Refused::Busy));
        assert_eq!(game.take_requests().len(), REQUEST_QUEUE);
        drop(game);
        assert_eq!(hub.send(command), Err(Refused::Gone));
        assert!(*hub.closing().borrow());
    }

    #[test]
    fn viewers_beyond_the_limit_are_turned_away() {
        let (hub, _game) = Hub::new(serde_json::json!({}));
        assert!(hub.join(2));
        assert!(hub.join(2));
        assert!(!hub.join(2));
        hub.leave();
        assert!(hub.join(2));
        assert_eq!(hub.viewers(), 2);
    }

    #[test]
    fn buttons_held_by_viewers_add_up_and_go_with_them() {
        let (hub, _game) = Hub::new(serde_json::json!({}));
        hub.hold(1, 0x01);
        hub.hold(2, 0x40);
        assert_eq!(hub.held_buttons(), 0x41);
        hub.release(1);
        assert_eq!(hub.held_buttons(), 0x40);
        hub.hold(2, 0);
        assert_eq!(hub.held_buttons(), 0);
    }
}
