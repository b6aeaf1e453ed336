//! The web page: an HTTP server in the process that shows a running game to browsers, live
//! (the picture, the status band, the dashboard, the RAM inspector), and takes the controls
//! of the person holding the token (`docs/web.md`). It knows no game: it shows what the
//! plug-ins publish, as the window does.
//!
//! - [`address`]: where it listens; loopback unless told otherwise.
//! - [`access`]: `Host` and `Origin` checks, and the token that gives the controls.
//! - [`hub`]: where the game's thread and the server meet, neither waiting on the other.
//! - [`picture`]: pictures as palette indices and changed rows.
//! - [`protocol`]: the WebSocket's messages.
//! - [`view`]: the status, dashboard and inspector sent beside the picture.
//! - [`server`]: the HTTP server and each viewer's socket.
//! - [`console`]: `jewelbot serve`, a game in real time with the controls.
//! - [`watch`]: `jewelbot run --headless --serve`, a run watched only.

pub mod access;
pub mod address;
pub mod console;
pub mod hub;
pub mod picture;
pub mod protocol;
pub mod server;
pub mod view;
pub mod watch;

pub use server::{Config, Server};
