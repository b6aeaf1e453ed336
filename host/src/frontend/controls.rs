//! The person's controls over a running console, whatever shows it: who plays (the AI or
//! you), speed, pause and frame advance, reset and power, state slots, screenshots, GIFs,
//! RAM pokes and freezes, plug-in options. The window and the web page both act through
//! [`Controls`], so the same request does the same thing in either, and writes its files to
//! the same places.

use super::keys::{self, Action, PluginKey};
use super::pacing::{Due, Pacer, Speed};
use super::{screenshot, states};
use crate::gif_capture::GifCapture;
use crate::movie::file as movie_file;
use crate::session::{Control, Session};
use jewelbot_plugin::{RAM_SIZE, SCREEN_HEIGHT, SCREEN_WIDTH};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long a passing message stays on screen.
pub const MESSAGE_TIME: Duration = Duration::from_secs(3);

/// Where the controls write: save states and screenshots (and GIFs).
#[derive(Debug, Clone, Default)]
pub struct Places {
    /// Save states (default: the user's data directory).
    pub state_dir: Option<PathBuf>,
    /// Screenshots and GIFs (default: the current directory).
    pub screenshot_dir: Option<PathBuf>,
}

/// A running console and the person's controls over it.
pub struct Controls {
    session: Session,
    places: Places,
    pacer: Pacer,
    paused: bool,
    /// Why emulation stopped (a crashed ROM); cleared by reset, power cycle or a state load.
    stopped: Option<String>,
    slot: u8,
    message: Option<(String, Instant)>,
    /// The GIF being recorded (`--gif`, or Ctrl+F12).
    gif: Option<GifCapture>,
    /// Letter keys that step plug-in options.
    plugin_keys: Vec<PluginKey>,
    fps: FpsMeter,
}

impl Controls {
    /// Takes `session` in hand; the AI holds the controller at start with `ai` (or when a
    /// script or bot was given, which holds it all the same).
    pub fn new(session: Session, places: Places, ai: bool) -> Self {
        let options: Vec<_> = session
            .plugins()
            .options()
            .into_iter()
            .flat_map(|(_, options)| options)
            .collect();
        let mut controls = Self {
            plugin_keys: keys::plugin_keys(&options),
            session,
            places,
            pacer: Pacer::new(Speed::RealTime),
            paused: false,
            stopped: None,
            slot: 1,
            message: None,
            gif: None,
            fps: FpsMeter::default(),
        };
        controls.report_plugin_messages();
        if ai || controls.session.control() == Control::Plugins {
            controls.give_control_to_ai();
        } else {
            controls.session.set_control(Control::Manual);
        }
        controls
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    /// The letter keys the plug-ins' options take.
    pub fn plugin_keys(&self) -> &[PluginKey] {
        &self.plugin_keys
    }

    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Why emulation stopped, when it did.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    pub fn speed(&self) -> Speed {
        self.pacer.speed()
    }

    pub fn slot(&self) -> u8 {
        self.slot
    }

    /// Emulated frames a second, over the last second or so.
    pub fn fps(&self) -> f64 {
        self.fps.value()
    }

    /// Shows `text` for a moment.
    pub fn say(&mut self, text: impl Into<String>) {
        self.message = Some((text.into(), Instant::now()));
    }

    /// The message on show: a passing one, or why emulation stopped.
    pub fn message(&self) -> Option<String> {
        self.message
            .as_ref()
            .filter(|(_, at)| at.elapsed() < MESSAGE_TIME)
            .map(|(text, _)| text.clone())
            .or_else(|| self.stopped.clone())
    }

    /// Whether a message is still on show or just went (so a paused picture is redrawn).
    pub fn message_fading(&self, margin: Duration) -> bool {
        self.message
            .as_ref()
            .is_some_and(|(_, at)| at.elapsed() < MESSAGE_TIME + margin)
    }

    /// What to run now: `None` while paused or stopped.
    pub fn due(&mut self, now: Instant) -> Option<Due> {
        if self.paused || self.stopped.is_some() {
            self.fps.idle();
            return None;
        }
        Some(self.pacer.due(now))
    }

    /// Runs one frame; `false` when emulation stopped.
    pub fn step(&mut self) -> bool {
        if let Err(error) = self.session.run_frame() {
            let text = format!("{error}. Ctrl+R resets, F7 loads a state");
            eprintln!("error: {error}");
            self.stopped = Some(text.clone());
            self.say(text);
            return false;
        }
        self.fps.count();
        if let Some(gif) = &mut self.gif {
            if let Err(error) = gif.frame(self.session.picture_rgba()) {
                self.gif = None;
                self.say(format!("GIF stopped: {error}"));
            }
        }
        self.report_plugin_messages();
        true
    }

    /// Who plays, the speed, pause, the slot and the frame rate, as the status bar shows
    /// them.
    pub fn bar_parts(&self) -> Vec<String> {
        let control = match (self.session.control(), self.session.plugins().holder()) {
            (Control::Plugins, Some(holder)) => format!("{holder} plays"),
            (Control::Plugins, None) if self.session.plugins().anyone_presses() => {
                "AI plays".to_owned()
            }
            (Control::Plugins | Control::Manual, _) => "you play".to_owned(),
        };
        let mut parts = vec![control, self.pacer.speed().label().to_owned()];
        if self.stopped.is_some() {
            parts.push("STOPPED".into());
        } else if self.paused {
            parts.push("paused".into());
        }
        parts.push(format!("slot {}", self.slot));
        parts.push(format!("{:.0} fps", self.fps.value()));
        parts
    }

    /// Does `action` when it is one of the console's; `false` for the others (what a window
    /// or a page shows is theirs to change).
    pub fn act(&mut self, action: Action) -> bool {
        match action {
            Action::ToggleAi => {
                if self.session.control() == Control::Plugins {
                    self.session.set_control(Control::Manual);
                    self.say("you play (Space gives control to the AI)");
                } else {
                    self.give_control_to_ai();
                }
            }
            Action::PluginOption(letter) => self.step_plugin_option(letter),
            Action::CycleSpeed => self.change_speed(self.pacer.speed().next()),
            Action::Pause => {
                self.paused = !self.paused;
                self.pacer.resync();
            }
            Action::FrameAdvance => {
                self.paused = true;
                if self.stopped.is_none() {
                    self.step();
                }
            }
            Action::Reset => {
                self.session.reset();
                self.after_jump();
                self.say("reset");
            }
            Action::PowerCycle => match self.session.power_cycle() {
                Ok(()) => {
                    self.after_jump();
                    self.say("power cycled");
                }
                Err(error) => self.say(format!("power cycle failed: {error}")),
            },
            Action::SelectSlot(slot) => {
                self.slot = slot.clamp(1, 9);
                self.say(format!("state slot {}", self.slot));
            }
            Action::SaveState => self.save_state(),
            Action::LoadState => self.load_state(),
            Action::Screenshot => {
                let frame = self.session.frame_number();
                let picture = self.session.picture_rgba().to_vec();
                self.write_screenshot("game", frame, SCREEN_WIDTH, SCREEN_HEIGHT, &picture);
            }
            Action::Gif => self.toggle_gif(),
            _ => return false,
        }
        true
    }

    pub fn set_speed(&mut self, speed: Speed) {
        self.pacer.set_speed(speed);
    }

    /// Sets the speed and says so.
    pub fn change_speed(&mut self, speed: Speed) {
        self.set_speed(speed);
        let said = match speed {
            Speed::RealTime => "real time",
            Speed::Double => "2x",
            Speed::Unthrottled => "unthrottled (silent)",
        };
        self.say(format!("speed: {said}"));
    }

    /// Sets the plug-in option `name` to `value`, saying what came of it.
    pub fn set_plugin_option(&mut self, name: &str, value: &str) {
        match self.session.plugins_mut().set_option(name, value) {
            Ok(()) => self.say(format!("{name}: {value}")),
            Err(reason) => self.say(format!("cannot change {name}: {reason}")),
        }
    }

    /// Writes `value` at `address`; a frozen byte stays frozen, at its new value.
    pub fn poke(&mut self, address: u16, value: u8) {
        self.session.poke(address, value);
        if self.is_frozen(address) {
            self.session.freeze(address, value);
        }
        self.say(format!("wrote ${address:04X} = {value:02X}"));
    }

    pub fn is_frozen(&self, address: u16) -> bool {
        self.session.frozen().iter().any(|&(a, _)| a == address)
    }

    /// Freezes `address` at its value, or thaws it.
    pub fn toggle_freeze(&mut self, address: u16) {
        if self.is_frozen(address) {
            self.session.unfreeze(address);
            self.say(format!("${address:04X} thawed"));
        } else {
            let value = self.session.ram()[usize::from(address) % RAM_SIZE];
            self.session.freeze(address, value);
            self.say(format!("${address:04X} frozen at {value:02X}"));
        }
    }

    /// Records the game's pictures to `gif` from now on.
    pub fn set_gif(&mut self, gif: Option<GifCapture>) {
        self.gif = gif;
    }

    pub fn recording_gif(&self) -> bool {
        self.gif.is_some()
    }

    /// Writes the GIF being recorded and the movie recorded from power-on (to `movie`, when
    /// one was asked for), saying where; the first error is given after both are tried.
    pub fn finish(&mut self, movie: Option<&Path>, force: bool) -> anyhow::Result<()> {
        let mut result = Ok(());
        if let Some(gif) = self.gif.take() {
            let (pictures, path) = (gif.pictures(), gif.path().to_owned());
            match gif.finish() {
                Ok(()) => eprintln!("GIF of {pictures} pictures written to {}", path.display()),
                Err(error) => result = Err(error.into()),
            }
        }
        if let Some(path) = movie {
            if let Some(recorded) = self.session.take_recorded_movie() {
                match movie_file::write(path, &recorded, force) {
                    Ok(()) => eprintln!(
                        "movie of {} frames recorded to {}",
                        recorded.frames.len(),
                        path.display()
                    ),
                    Err(error) => result = result.and(Err(error.into())),
                }
            }
        }
        result
    }

    /// Writes a PNG of `rgba` (`w` by `h`) in the screenshot directory.
    pub fn write_screenshot(&mut self, what: &str, frame: u64, w: usize, h: usize, rgba: &[u8]) {
        let result = self.screenshot_dir().and_then(|dir| {
            std::fs::create_dir_all(&dir)?;
            let path = screenshot::fresh_path(&dir, &self.session.rom().name, frame, what, "png");
            screenshot::write_png(&path, w, h, rgba)?;
            Ok(path)
        });
        match result {
            Ok(path) => self.say(format!("screenshot {}", path.display())),
            Err(error) => self.say(format!("screenshot failed: {error:#}")),
        }
    }

    fn screenshot_dir(&self) -> anyhow::Result<PathBuf> {
        match &self.places.screenshot_dir {
            Some(dir) => Ok(dir.clone()),
            None => std::env::current_dir().map_err(|e| anyhow::anyhow!(e)),
        }
    }

    fn report_plugin_messages(&mut self) {
        for message in self.session.plugins_mut().drain_messages() {
            eprintln!("note: {message}");
            self.say(message);
        }
    }

    fn give_control_to_ai(&mut self) {
        if self.session.set_control(Control::Plugins) > 0 {
            let player = self
                .session
                .plugins()
                .holder()
                .unwrap_or("the AI")
                .to_owned();
            self.say(format!("{player} plays (Space takes control)"));
        } else {
            self.session.set_control(Control::Manual);
            self.say("you play: no plug-in runs on this ROM");
        }
    }

    /// Steps the plug-in option bound to `letter` to its next value.
    fn step_plugin_option(&mut self, letter: char) {
        let Some(key) = self.plugin_keys.iter().find(|k| k.letter == letter) else {
            return;
        };
        let name = key.option.clone();
        let option = self
            .session
            .plugins()
            .options()
            .into_iter()
            .flat_map(|(_, options)| options)
            .find(|o| o.name == name);
        let Some(next) = option.as_ref().and_then(|o| o.next_choice()) else {
            return;
        };
        let next = next.to_owned();
        self.set_plugin_option(&name, &next);
    }

    /// After a reset or a state load: emulation may go on, and a paused console shows a
    /// picture at once (a restored state carries no picture until a frame runs).
    fn after_jump(&mut self) {
        self.stopped = None;
        self.pacer.resync();
        if self.paused {
            self.step();
        }
    }

    /// Starts a GIF in the screenshot directory, or ends the one being recorded.
    fn toggle_gif(&mut self) {
        if let Some(gif) = self.gif.take() {
            let (pictures, path) = (gif.pictures(), gif.path().to_owned());
            match gif.finish() {
                Ok(()) => self.say(format!("GIF of {pictures} pictures: {}", path.display())),
                Err(error) => self.say(format!("GIF failed: {error}")),
            }
            return;
        }
        let frame = self.session.frame_number();
        let started = self.screenshot_dir().and_then(|dir| {
            std::fs::create_dir_all(&dir)?;
            let path = screenshot::fresh_path(&dir, &self.session.rom().name, frame, "game", "gif");
            Ok(GifCapture::create(&path, false)?)
        });
        match started {
            Ok(gif) => {
                self.say(format!(
                    "recording {} (Ctrl+F12 stops)",
                    gif.path().display()
                ));
                self.gif = Some(gif);
            }
            Err(error) => self.say(format!("GIF failed: {error:#}")),
        }
    }

    fn slot_path(&self) -> Result<PathBuf, String> {
        let dir = states::state_dir(self.places.state_dir.as_deref())?;
        let rom = self.session.rom();
        Ok(states::slot_path(
            &dir,
            &rom.name,
            rom.prg_chr_crc32,
            self.slot,
        ))
    }

    fn save_state(&mut self) {
        let result = self.slot_path().and_then(|path| {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            // The slot's earlier state is replaced only once the new one is written whole.
            let replaced = path.exists();
            self.session
                .save_state_file(&path)
                .map_err(|e| e.to_string())?;
            Ok((path, replaced))
        });
        match result {
            Ok((path, replaced)) => self.say(format!(
                "saved slot {} to {}{}",
                self.slot,
                path.display(),
                if replaced {
                    " (replacing its earlier state)"
                } else {
                    ""
                }
            )),
            Err(error) => self.say(format!("cannot save: {error}")),
        }
    }

    fn load_state(&mut self) {
        let path = match self.slot_path() {
            Ok(path) => path,
            Err(error) => return self.say(format!("cannot load: {error}")),
        };
        if !path.exists() {
            return self.say(format!("slot {} is empty", self.slot));
        }
        match self.session.load_state_file(&path) {
            Ok(_) => {
                self.after_jump();
                self.say(format!("loaded slot {}", self.slot));
            }
            // Refused before the console was touched: the game goes on as it was.
            Err(error) => self.say(format!("slot {} not loaded: {error}", self.slot)),
        }
    }
}

/// Emulated frames per second, over the last second or so.
#[derive(Debug)]
struct FpsMeter {
    since: Instant,
    frames: u32,
    value: f64,
}

impl Default for FpsMeter {
    fn default() -> Self {
        Self {
            since: Instant::now(),
            frames: 0,
            value: 0.0,
        }
    }
}

impl FpsMeter {
    fn count(&mut self) {
        self.frames += 1;
        let elapsed = self.since.elapsed();
        if elapsed >= Duration::from_secs(1) {
            self.value = f64::from(self.frames) / elapsed.as_secs_f64();
            self.frames = 0;
            self.since = Instant::now();
        }
    }

    fn idle(&mut self) {
        self.value = 0.0;
        self.frames = 0;
        self.since = Instant::now();
    }

    fn value(&self) -> f64 {
        self.value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rom::{tiny, RomImage};
    use crate::session::SessionConfig;

    fn controls(dir: &Path) -> Controls {
        let rom = RomImage::from_bytes("tiny.nes", &tiny::tiny_rom()).expect("the tiny ROM");
        let session = Session::new(rom, Vec::new(), SessionConfig::default()).expect("a session");
        let places = Places {
            state_dir: Some(dir.join("states")),
            screenshot_dir: Some(dir.join("shots")),
        };
        Controls::new(session, places, true)
    }

    #[test]
    fn files_go_where_the_places_say_and_a_state_comes_back() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let mut controls = controls(dir.path());
        // No plug-in runs: the person plays.
        assert_eq!(controls.session().control(), Control::Manual);
        for _ in 0..10 {
            assert!(controls.step());
        }
        assert!(controls.act(Action::SelectSlot(3)));
        assert!(controls.act(Action::SaveState));
        let saved_at = controls.session().frame_number();
        let states: Vec<_> = std::fs::read_dir(dir.path().join("states"))
            .expect("the state directory")
            .map(|e| e.expect("an entry").file_name())
            .collect();
        assert_eq!(states.len(), 1);
        assert!(states[0].to_string_lossy().ends_with(".slot3.state"));
        for _ in 0..5 {
            controls.step();
        }
        assert!(controls.act(Action::LoadState));
        assert_eq!(controls.session().frame_number(), saved_at);
        assert!(controls
            .message()
            .is_some_and(|m| m.contains("loaded slot 3")));
        assert!(controls.act(Action::Screenshot));
        assert!(controls.act(Action::Gif));
        controls.step();
        assert!(controls.act(Action::Gif));
        let mut kinds: Vec<String> = std::fs::read_dir(dir.path().join("shots"))
            .expect("the screenshot directory")
            .filter_map(|e| {
                let path = e.expect("an entry").path();
                path.extension().map(|x| x.to_string_lossy().into_owned())
            })
            .collect();
        kinds.sort();
        assert_eq!(kinds, ["gif", "png"]);
        // The window's and the page's own actions are not the console's.
        assert!(!controls.act(Action::ToggleInspector));
    }

    #[test]
    fn pause_steps_and_pokes_act_on_the_console() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let mut controls = controls(dir.path());
        assert!(controls.due(Instant::now()).is_some());
        controls.act(Action::Pause);
        assert!(controls.due(Instant::now()).is_none());
        let frame = controls.session().frame_number();
        controls.act(Action::FrameAdvance);
        assert_eq!(controls.session().frame_number(), frame + 1);
        assert!(controls.paused());
        controls.poke(0x0700, 0xAB);
        assert_eq!(controls.session().ram()[0x0700], 0xAB);
        controls.toggle_freeze(0x0700);
        assert!(controls.is_frozen(0x0700));
        controls.poke(0x0700, 0x12);
        assert_eq!(controls.session().frozen(), &[(0x0700, 0x12)]);
        controls.toggle_freeze(0x0700);
        assert!(!controls.is_frozen(0x0700));
        controls.act(Action::SelectSlot(12));
        assert_eq!(controls.slot(), 9);
        assert!(controls.bar_parts().iter().any(|p| p == "paused"));
    }
}
