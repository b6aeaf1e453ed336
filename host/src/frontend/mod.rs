//! The desktop frontend: a window that shows the game with the plug-ins' overlay and a RAM
//! inspector, plays its sound, and takes keyboard and gamepad input.
//!
//! - `app`: window events, pacing and actions.
//! - [`view`]: what the window shows (settings, a frame's snapshot, colours).
//! - [`layout`]: where each part goes; nothing but the plug-ins' marks covers the game.
//! - [`compose`], [`panel`] (the RAM inspector) and [`dashboard`] (the plug-ins' figures and
//!   charts): the window picture, drawn on the CPU (testable without a window).
//! - `presenter`: GPU drawing through `pixels`, or `softbuffer` when there is no GPU.
//! - `audio` and [`ring`]: sound through `cpal`.
//! - [`keys`]: the key table (keys and gamepad buttons, what they press or do), named as
//!   the browser names keys, so the window and the web page read it alike.
//! - [`controls`]: the person's controls over the console (who plays, speed, pause, states,
//!   screenshots, GIFs, pokes), shared by the window and the web page.
//! - `input`: winit's keys and gilrs's gamepads read through the key table. [`pacing`]:
//!   frame timing.
//! - [`screenshot`], [`states`]: files the frontend writes.
//! - [`fps_trial`]: the window's own benchmark of what its parts cost.
//!
//! The frontend knows nothing about any particular game: it draws what plug-ins publish. The
//! window itself (`app`, `presenter`, `audio`, `input`) comes with the `window` feature; the
//! picture's composition is always built, so it is tested without a window.

#[cfg(feature = "window")]
pub mod app;
#[cfg(feature = "window")]
pub mod audio;
pub mod canvas;
pub mod changes;
pub mod compose;
pub mod controls;
pub mod dashboard;
pub mod fps_trial;
#[cfg(feature = "window")]
pub mod input;
pub mod keys;
pub mod layout;
pub mod pacing;
pub mod panel;
#[cfg(feature = "window")]
pub mod presenter;
pub mod ring;
pub mod screenshot;
pub mod states;
pub mod view;

#[cfg(feature = "window")]
use crate::gif_capture::GifCapture;
#[cfg(feature = "window")]
use crate::session::{Session, SessionConfig};
use std::path::PathBuf;
#[cfg(feature = "window")]
use winit::event_loop::EventLoop;

/// How the window starts.
#[derive(Debug, Clone)]
pub struct Options {
    /// The AI holds the controller at start.
    pub ai: bool,
    /// Draw without the GPU.
    pub software: bool,
    pub fullscreen: bool,
    /// The largest scale the picture opens at (whole number); without one, the largest that
    /// fits the screen.
    pub scale: Option<u32>,
    /// Show the RAM inspector at start.
    pub inspector: bool,
    pub mute: bool,
    /// Square pixels instead of the television's 8:7.
    pub square_pixels: bool,
    /// Where save states go (default: the user's data directory).
    pub state_dir: Option<PathBuf>,
    /// Where screenshots go (default: the current directory).
    pub screenshot_dir: Option<PathBuf>,
    /// Record controller 1 from power-on to this fm2 movie, written when the window closes.
    pub record_movie: Option<PathBuf>,
    /// Record a GIF of the game to this file from the start.
    pub gif: Option<PathBuf>,
    /// Replace the movie and GIF files if they exist.
    pub force: bool,
    /// A signal closes the window as its close button does (the movie and GIF are written).
    pub interrupt: crate::interrupt::Interrupt,
    /// Measure for this many seconds what the window's parts cost the emulator, print it and
    /// close ([`fps_trial`]).
    pub fps_trial: Option<u32>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            ai: true,
            software: false,
            fullscreen: false,
            scale: None,
            inspector: false,
            mute: false,
            square_pixels: false,
            state_dir: None,
            screenshot_dir: None,
            record_movie: None,
            gif: None,
            force: false,
            interrupt: crate::interrupt::Interrupt::default(),
            fps_trial: None,
        }
    }
}

/// Opens the window and plays until it is closed. `open` builds the session once the sound
/// device's sample rate is known.
#[cfg(feature = "window")]
pub fn run(
    options: Options,
    open: impl FnOnce(SessionConfig) -> anyhow::Result<Session>,
) -> anyhow::Result<()> {
    const HEADLESS_HINT: &str = "to play without a window use `jewelbot run --headless --frames N`";
    anyhow::ensure!(
        display_available(),
        "no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set); \
         {HEADLESS_HINT}"
    );
    let event_loop = EventLoop::new().map_err(|e| {
        let text = e.to_string();
        // winit prefixes its own source location; the person needs only the reason.
        let reason = text
            .split_once(".rs:")
            .and_then(|(_, rest)| rest.split_once(": "))
            .map_or(text.as_str(), |(_, reason)| reason);
        anyhow::anyhow!("cannot open a window ({reason}); {HEADLESS_HINT}")
    })?;
    let audio = audio::Audio::open(options.mute);
    let config = match audio.sample_rate() {
        Some(rate) => SessionConfig {
            audio: true,
            sample_rate: rate as f32,
            ..SessionConfig::default()
        },
        None => SessionConfig::default(),
    };
    let mut session = open(config)?;
    if options.record_movie.is_some() {
        session.record_movie()?;
    }
    let gif = options
        .gif
        .as_deref()
        .map(|path| GifCapture::create(path, options.force))
        .transpose()?;
    let mut app = app::App::new(session, audio, options);
    app.set_gif(gif);
    let ran = event_loop
        .run_app(&mut app)
        .map_err(|e| anyhow::anyhow!("the window stopped: {e}"));
    // The movie and the GIF are written however the window ended.
    let finished = app.finish();
    ran.and(finished)
}

/// Whether a window system is announced (X11 or Wayland); other systems always have one.
#[cfg(feature = "window")]
fn display_available() -> bool {
    if cfg!(all(unix, not(target_os = "macos"), not(target_os = "ios"))) {
        ["DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET"]
            .iter()
            .any(|var| std::env::var_os(var).is_some_and(|v| !v.is_empty()))
    } else {
        true
    }
}
