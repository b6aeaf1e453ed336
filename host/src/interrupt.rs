//! A signal to stop (SIGINT from Ctrl-C, SIGTERM, SIGHUP) taken as a request: a long run ends
//! at the next frame boundary as if its condition held and writes what it has; a second signal
//! ends the process at once, with the status a shell gives a program that signal killed.
//!
//! Only the commands that honour the request listen ([`Interrupt::listen`]); every other one
//! keeps the default, and a signal ends it straight away.

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The signals that ask a run to stop.
const SIGNALS: [(i32, &str); 3] = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM"), (SIGHUP, "SIGHUP")];

/// Whether a stop was asked for, and by which signal.
#[derive(Debug, Clone, Default)]
pub struct Interrupt {
    /// Set by the first signal of any kind.
    any: Arc<AtomicBool>,
    /// Set by each kind of signal.
    each: Vec<(i32, Arc<AtomicBool>)>,
}

impl Interrupt {
    /// Listens for the signals from now on.
    pub fn listen() -> std::io::Result<Self> {
        let any = Arc::new(AtomicBool::new(false));
        let mut each = Vec::new();
        for (signal, _) in SIGNALS {
            // Registered first, so the first signal finds the flag clear and only the second
            // one ends the process.
            signal_hook::flag::register_conditional_shutdown(signal, 128 + signal, any.clone())?;
            signal_hook::flag::register(signal, any.clone())?;
            // Plug-ins that wait on something outside (a bot's answer) stop waiting.
            signal_hook::flag::register(signal, jewelbot_plugin::stop_flag())?;
            let flag = Arc::new(AtomicBool::new(false));
            signal_hook::flag::register(signal, flag.clone())?;
            each.push((signal, flag));
        }
        Ok(Self { any, each })
    }

    /// A stop asked for without a signal (tests; `signal` names it).
    pub fn request(&self, signal: i32) {
        self.any.store(true, Ordering::SeqCst);
        if let Some((_, flag)) = self.each.iter().find(|(s, _)| *s == signal) {
            flag.store(true, Ordering::SeqCst);
        }
    }

    /// Whether a stop was asked for.
    pub fn requested(&self) -> bool {
        self.any.load(Ordering::Relaxed)
    }

    /// The signal that asked for the stop, when one did.
    pub fn signal(&self) -> Option<Signal> {
        if !self.requested() {
            return None;
        }
        let number = self
            .each
            .iter()
            .find(|(_, flag)| flag.load(Ordering::SeqCst))
            .map_or(SIGINT, |(signal, _)| *signal);
        Some(Signal(number))
    }
}

/// A signal that stopped a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Signal(pub i32);

impl Signal {
    /// Its name (`SIGINT`).
    pub fn name(self) -> &'static str {
        SIGNALS
            .iter()
            .find(|(s, _)| *s == self.0)
            .map_or("a signal", |(_, name)| name)
    }

    /// The exit status of a program the signal ended: 128 + its number.
    pub fn exit_status(self) -> u8 {
        (128 + self.0).clamp(0, 255) as u8
    }
}
