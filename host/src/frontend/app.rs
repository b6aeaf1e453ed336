//! The window's event handling: keys and gamepads in, emulated frames paced to real time,
//! the composed picture out.

use super::audio::Audio;
use super::canvas::Canvas;
use super::changes::Changes;
use super::compose::{self, Redraw};
use super::fps_trial::{FpsTrial, Turn};
use super::input::{self, Action, Input};
use super::layout;
use super::pacing::{Due, Pacer, Speed};
use super::panel;
use super::presenter::Presenter;
use super::view::{Aspect, Snapshot, Ui, HEX_ROWS};
use super::{screenshot, states, Options};
use crate::gif_capture::GifCapture;
use crate::movie::file as movie_file;
use crate::session::{Control, Session};
use jewelbot_plugin::{RAM_SIZE, SCREEN_HEIGHT, SCREEN_WIDTH};
use std::sync::Arc;
use std::time::{Duration, Instant};
use winit::application::ApplicationHandler;
use winit::dpi::{LogicalSize, PhysicalSize};
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow};
use winit::keyboard::{KeyCode, ModifiersState, PhysicalKey};
use winit::window::{Fullscreen, Window, WindowId};

/// How long a passing message stays on screen.
const MESSAGE_TIME: Duration = Duration::from_secs(3);
/// How often to look at gamepads and fading highlights while no frames run.
const IDLE_TICK: Duration = Duration::from_millis(50);
/// Time between pictures while running unthrottled.
const UNTHROTTLED_REDRAW: Duration = Duration::from_millis(33);
/// Time between redraws of the dashboard and the inspector: often enough to read them.
const PANEL_REDRAW: Duration = Duration::from_millis(100);
/// Hex rows moved by one wheel notch.
const WHEEL_ROWS: f32 = 2.0;
/// The largest picture scale a window opens at when none is asked for.
const MOST_SCALE: usize = 8;

pub struct App {
    options: Options,
    session: Session,
    audio: Audio,
    input: Input,
    pacer: Pacer,
    ui: Ui,
    help: Vec<(String, String)>,
    /// Letter keys that step plug-in options.
    plugin_keys: Vec<input::PluginKey>,
    changes: Changes,
    canvas: Canvas,
    window: Option<Arc<Window>>,
    presenter: Option<Presenter>,
    modifiers: ModifiersState,
    paused: bool,
    /// Why emulation stopped (a crashed ROM); cleared by reset, power cycle or a state load.
    stopped: Option<String>,
    slot: u8,
    message: Option<(String, Instant)>,
    started: Instant,
    cursor: (f64, f64),
    /// Where the last picture put what a click in the inspector selects.
    clickable: panel::Clickable,
    /// When the whole window was last drawn; `None` when it must be at the next picture
    /// (something shown changed, or the window did).
    whole_drawn: Option<Instant>,
    /// The monitor's size in pixels (or the default screen's), to fit the window in.
    screen: (usize, usize),
    fps: FpsMeter,
    last_redraw: Instant,
    error: Option<anyhow::Error>,
    /// The GIF being recorded (`--gif`, or Ctrl+F12).
    gif: Option<GifCapture>,
    /// The window's benchmark, when asked for (`--fps-trial`).
    trial: Option<FpsTrial>,
}

impl App {
    pub fn new(session: Session, audio: Audio, options: Options) -> Self {
        let ui = Ui {
            inspector: options.inspector,
            aspect: if options.square_pixels {
                Aspect::Square
            } else {
                Aspect::Ntsc
            },
            ..Ui::default()
        };
        let mut app = Self {
            session,
            audio,
            input: Input::new(),
            pacer: Pacer::new(Speed::RealTime),
            ui,
            help: Vec::new(),
            plugin_keys: Vec::new(),
            changes: Changes::new(),
            canvas: Canvas::default(),
            window: None,
            presenter: None,
            modifiers: ModifiersState::empty(),
            paused: false,
            stopped: None,
            slot: 1,
            message: None,
            started: Instant::now(),
            cursor: (0.0, 0.0),
            clickable: panel::Clickable::default(),
            whole_drawn: None,
            screen: layout::DEFAULT_SCREEN,
            fps: FpsMeter::default(),
            last_redraw: Instant::now(),
            error: None,
            gif: None,
            trial: None,
            options,
        };
        app.report_plugin_messages();
        let options: Vec<_> = app
            .session
            .plugins()
            .options()
            .into_iter()
            .flat_map(|(_, options)| options)
            .collect();
        app.plugin_keys = input::plugin_keys(&options);
        app.help = input::help_rows(&app.plugin_keys);
        // A script or bot given with `--ai off` holds the controller all the same.
        if app.options.ai || app.session.control() == Control::Plugins {
            app.give_control_to_ai();
        } else {
            app.session.set_control(Control::Manual);
        }
        app
    }

    /// Records the game's pictures to `gif` from now on.
    pub fn set_gif(&mut self, gif: Option<GifCapture>) {
        self.gif = gif;
    }

    /// Writes the recorded movie and the GIF being recorded, then gives the error that ended
    /// the event loop, if one did.
    pub fn finish(mut self) -> anyhow::Result<()> {
        let mut result = self.error.take().map_or(Ok(()), Err);
        if let Some(gif) = self.gif.take() {
            let (pictures, path) = (gif.pictures(), gif.path().to_owned());
            match gif.finish() {
                Ok(()) => eprintln!("GIF of {pictures} pictures written to {}", path.display()),
                Err(error) => result = result.and(Err(error.into())),
            }
        }
        if let Some(path) = self.options.record_movie.clone() {
            if let Some(movie) = self.session.take_recorded_movie() {
                match movie_file::write(&path, &movie, self.options.force) {
                    Ok(()) => eprintln!(
                        "movie of {} frames recorded to {}",
                        movie.frames.len(),
                        path.display()
                    ),
                    Err(error) => result = result.and(Err(error.into())),
                }
            }
        }
        result
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
        let dir = match &self.options.screenshot_dir {
            Some(dir) => Ok(dir.clone()),
            None => std::env::current_dir().map_err(|e| anyhow::anyhow!(e)),
        };
        let frame = self.session.frame_number();
        let started = dir.and_then(|dir| {
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

    fn fail(&mut self, event_loop: &ActiveEventLoop, error: anyhow::Error) {
        self.error = Some(error);
        event_loop.exit();
    }

    fn say(&mut self, text: impl Into<String>) {
        self.message = Some((text.into(), Instant::now()));
        self.request_redraw();
    }

    fn request_redraw(&self) {
        if let Some(window) = &self.window {
            window.request_redraw();
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
        match self.session.plugins_mut().set_option(&name, &next) {
            Ok(()) => self.say(format!("{name}: {next}")),
            Err(reason) => self.say(format!("cannot change {name}: {reason}")),
        }
    }

    fn create_window(&mut self, event_loop: &ActiveEventLoop) -> anyhow::Result<()> {
        self.screen = screen_size(event_loop);
        self.measure_inspector();
        let (w, h) = layout::window_size(&self.ui, self.screen, self.most_scale());
        let mut attributes = Window::default_attributes()
            .with_title(format!("jewelbot - {}", self.session.rom().name))
            .with_inner_size(PhysicalSize::new(w as u32, h as u32))
            .with_min_inner_size(LogicalSize::new(
                layout::game_width(1, self.ui.aspect) as u32,
                SCREEN_HEIGHT as u32,
            ));
        if self.options.fullscreen {
            attributes = attributes.with_fullscreen(Some(Fullscreen::Borderless(None)));
        }
        let window = Arc::new(
            event_loop
                .create_window(attributes)
                .map_err(|e| anyhow::anyhow!("cannot open a window: {e}"))?,
        );
        let presenter = Presenter::new(&window, self.options.software)?;
        tracing::info!("drawing with {}", presenter.name());
        self.presenter = Some(presenter);
        self.window = Some(window);
        if let Some(seconds) = self.options.fps_trial {
            self.pacer.set_speed(Speed::Unthrottled);
            let trial = FpsTrial::new(seconds, Instant::now());
            self.show_every_part(trial.shown());
            self.trial = Some(trial);
        }
        Ok(())
    }

    fn run_frames(&mut self, due: Due) {
        let deadline = match due {
            Due::Frames(n, _) => {
                for _ in 0..n {
                    if !self.step() {
                        break;
                    }
                }
                return;
            }
            Due::Until(deadline) => deadline,
        };
        while Instant::now() < deadline {
            if !self.step() {
                break;
            }
        }
    }

    /// Runs one frame; `false` when emulation stopped.
    fn step(&mut self) -> bool {
        if let Err(error) = self.session.run_frame() {
            let text = format!("{error}. Ctrl+R resets, F7 loads a state");
            eprintln!("error: {error}");
            self.stopped = Some(text.clone());
            self.say(text);
            return false;
        }
        self.fps.count();
        if let Some(trial) = &mut self.trial {
            trial.count();
        }
        if let Some(gif) = &mut self.gif {
            if let Err(error) = gif.frame(self.session.picture_rgba()) {
                self.gif = None;
                self.say(format!("GIF stopped: {error}"));
            }
        }
        self.audio
            .push_frame(self.session.audio_samples(), self.pacer.speed());
        self.report_plugin_messages();
        true
    }

    fn bar_text(&self) -> String {
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
        if self.audio.is_muted() {
            parts.push("muted".into());
        }
        parts.push(format!("slot {}", self.slot));
        parts.push(format!("{:.0} fps", self.fps.value()));
        parts.push("F1 help".into());
        parts.join(" | ")
    }

    fn redraw(&mut self, event_loop: &ActiveEventLoop) {
        let Some(window) = &self.window else {
            return;
        };
        let size = window.inner_size();
        if size.width == 0 || size.height == 0 {
            return;
        }
        self.last_redraw = Instant::now();
        let (width, height) = (size.width as usize, size.height as usize);
        let whole = self.ui.help
            || (self.canvas.width(), self.canvas.height()) != (width, height)
            || self
                .whole_drawn
                .is_none_or(|at| at.elapsed() >= PANEL_REDRAW);
        self.canvas.resize(width, height);
        let now_ms = self.started.elapsed().as_millis() as u64;
        let snapshot = Snapshot::capture(&mut self.session, &self.ui, whole);
        if self.ui.inspector && whole {
            self.changes
                .observe(&snapshot.inspections, &snapshot.ram, now_ms);
            self.ui.inspector_lines = panel::content_lines(&snapshot.inspections);
        }
        self.ui.bar = self.bar_text();
        self.ui.message = self
            .message
            .as_ref()
            .filter(|(_, at)| at.elapsed() < MESSAGE_TIME)
            .map(|(text, _)| text.clone())
            .or_else(|| self.stopped.clone());
        let redraw = if whole {
            self.whole_drawn = Some(self.last_redraw);
            Redraw::Whole
        } else {
            Redraw::GameAndBand
        };
        let drawn = compose::compose(
            &mut self.canvas,
            &snapshot,
            &self.changes,
            &self.ui,
            &self.help,
            now_ms,
            redraw,
        );
        if whole {
            self.clickable = drawn.clickable;
        }
        if let Some(presenter) = &mut self.presenter {
            if let Err(error) = presenter.present(&self.canvas) {
                self.fail(event_loop, error);
            }
        }
    }

    fn act(&mut self, action: Action, event_loop: &ActiveEventLoop) {
        self.whole_drawn = None;
        match action {
            Action::Help => self.ui.help = !self.ui.help,
            Action::ToggleAi => {
                if self.session.control() == Control::Plugins {
                    self.session.set_control(Control::Manual);
                    self.say("you play (Space gives control to the AI)");
                } else {
                    self.give_control_to_ai();
                }
            }
            Action::PluginOption(letter) => self.step_plugin_option(letter),
            Action::CycleSpeed => {
                self.pacer.set_speed(self.pacer.speed().next());
                let speed = match self.pacer.speed() {
                    Speed::RealTime => "real time",
                    Speed::Double => "2x",
                    Speed::Unthrottled => "unthrottled (silent)",
                };
                self.say(format!("speed: {speed}"));
            }
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
                self.slot = slot;
                self.say(format!("state slot {slot}"));
            }
            Action::SaveState => self.save_state(),
            Action::LoadState => self.load_state(),
            Action::Screenshot => {
                let frame = self.session.frame_number();
                let picture = self.session.picture_rgba().to_vec();
                self.write_screenshot("game", frame, SCREEN_WIDTH, SCREEN_HEIGHT, &picture);
            }
            Action::WindowScreenshot => {
                let frame = self.session.frame_number();
                let canvas = std::mem::take(&mut self.canvas);
                self.write_screenshot(
                    "window",
                    frame,
                    canvas.width(),
                    canvas.height(),
                    canvas.rgba(),
                );
                self.canvas = canvas;
            }
            Action::Gif => self.toggle_gif(),
            Action::ToggleInspector => {
                self.ui.inspector = !self.ui.inspector;
                self.measure_inspector();
                self.fit_window();
            }
            Action::ToggleStatus => {
                self.ui.status = !self.ui.status;
                self.fit_window();
            }
            Action::ToggleInput => {
                self.ui.input = !self.ui.input;
                self.fit_window();
            }
            Action::ToggleDashboard => {
                self.ui.dashboard = !self.ui.dashboard;
                self.fit_window();
            }
            Action::NextField => self.step_field(1),
            Action::PreviousField => self.step_field(-1),
            Action::HexUp => self.scroll_hex(-16),
            Action::HexDown => self.scroll_hex(16),
            Action::ToggleMarks => self.ui.marks = !self.ui.marks,
            Action::Mute => {
                let muted = !self.audio.is_muted();
                self.audio.set_muted(muted);
                if self.audio.sample_rate().is_none() {
                    self.say("no sound device: playing silently");
                }
            }
            Action::Fullscreen => self.toggle_fullscreen(),
            Action::Back => {
                if self.ui.help {
                    self.ui.help = false;
                } else if let Some(window) = &self.window {
                    window.set_fullscreen(None);
                }
            }
            Action::Quit => event_loop.exit(),
        }
        self.request_redraw();
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

    fn scroll_hex(&mut self, rows: i32) {
        let row = self.ui.hex_row as i32 + rows;
        self.ui.hex_row = row.clamp(0, HEX_ROWS as i32 - 1) as usize;
    }

    fn toggle_fullscreen(&mut self) {
        if let Some(window) = &self.window {
            let full = window.fullscreen().is_some();
            window.set_fullscreen((!full).then_some(Fullscreen::Borderless(None)));
        }
    }

    /// Shows or hides every part of the window at once (the fps trial's turns).
    fn show_every_part(&mut self, shown: bool) {
        self.whole_drawn = None;
        let ui = &mut self.ui;
        ui.inspector = shown;
        ui.dashboard = shown;
        ui.status = shown;
        ui.input = shown;
        ui.marks = shown;
        self.measure_inspector();
    }

    /// Ends the fps trial's turn when it is up; prints its result and closes the window at
    /// its end.
    fn trial_turn(&mut self, event_loop: &ActiveEventLoop) {
        let Some(trial) = &mut self.trial else {
            return;
        };
        match trial.tick(Instant::now()) {
            Turn::Same => {}
            Turn::Show(shown) => self.show_every_part(shown),
            Turn::Done(result) => {
                println!("{result}");
                event_loop.exit();
            }
        }
    }

    /// The largest picture scale the window may take: the one asked for, or any that fits.
    fn most_scale(&self) -> usize {
        self.options
            .scale
            .map_or(MOST_SCALE, |scale| scale.max(1) as usize)
    }

    /// Counts the lines the inspector's content takes, for the layout.
    fn measure_inspector(&mut self) {
        if self.ui.inspector {
            let inspections = self.session.plugins().inspect(self.session.ram());
            self.ui.inspector_lines = panel::content_lines(&inspections);
        }
    }

    /// Sizes the window for the parts shown: the picture at the largest scale that fits the
    /// screen with them.
    fn fit_window(&mut self) {
        let Some(window) = &self.window else {
            return;
        };
        if window.fullscreen().is_some() || window.is_maximized() {
            return;
        }
        let (w, h) = layout::window_size(&self.ui, self.screen, self.most_scale());
        let _ = window.request_inner_size(PhysicalSize::new(w as u32, h as u32));
    }

    /// Selects the next (or previous) labelled address in the inspector.
    fn step_field(&mut self, step: i32) {
        if !self.ui.inspector {
            return;
        }
        let inspections = self.session.plugins().inspect(self.session.ram());
        let addresses = panel::field_addresses(&inspections);
        if addresses.is_empty() {
            return;
        }
        let n = addresses.len() as i32;
        let index = match self
            .ui
            .selected
            .and_then(|a| addresses.iter().position(|&f| f == a))
        {
            Some(i) => (i as i32 + step).rem_euclid(n),
            None if step > 0 => 0,
            None => n - 1,
        };
        self.ui.selected = Some(addresses[index as usize]);
        self.ui.typed = None;
    }

    fn slot_path(&self) -> Result<std::path::PathBuf, String> {
        let dir = states::state_dir(self.options.state_dir.as_deref())?;
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

    fn write_screenshot(&mut self, what: &str, frame: u64, w: usize, h: usize, rgba: &[u8]) {
        let dir = match &self.options.screenshot_dir {
            Some(dir) => Ok(dir.clone()),
            None => std::env::current_dir().map_err(|e| anyhow::anyhow!(e)),
        };
        let result = dir.and_then(|dir| {
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

    /// Keys while a byte of the hex view is selected: hex digits write it, Enter freezes or
    /// thaws it, arrows move the selection, Esc leaves. `true` when the key was taken.
    fn edit_key(&mut self, code: KeyCode) -> bool {
        let Some(address) = self.ui.selected else {
            return false;
        };
        if let Some(digit) = input::hex_digit(code).filter(|_| self.modifiers.is_empty()) {
            match self.ui.typed.take() {
                None => self.ui.typed = Some(digit),
                Some(high) => {
                    let value = high << 4 | digit;
                    self.session.poke(address, value);
                    if self.session.frozen().iter().any(|&(a, _)| a == address) {
                        self.session.freeze(address, value);
                    }
                    self.say(format!("wrote ${address:04X} = {value:02X}"));
                }
            }
            return true;
        }
        let step: i32 = match code {
            KeyCode::ArrowLeft => -1,
            KeyCode::ArrowRight => 1,
            KeyCode::ArrowUp => -16,
            KeyCode::ArrowDown => 16,
            KeyCode::Enter | KeyCode::NumpadEnter => {
                if self.session.frozen().iter().any(|&(a, _)| a == address) {
                    self.session.unfreeze(address);
                    self.say(format!("${address:04X} thawed"));
                } else {
                    let value = self.session.ram()[usize::from(address) % RAM_SIZE];
                    self.session.freeze(address, value);
                    self.say(format!("${address:04X} frozen at {value:02X}"));
                }
                return true;
            }
            KeyCode::Escape => {
                self.ui.selected = None;
                self.ui.typed = None;
                return true;
            }
            _ => return false,
        };
        let moved = (i32::from(address) + step).rem_euclid(RAM_SIZE as i32) as u16;
        self.ui.selected = Some(moved);
        self.ui.typed = None;
        true
    }

    fn on_key(&mut self, event: &winit::event::KeyEvent, event_loop: &ActiveEventLoop) {
        let PhysicalKey::Code(code) = event.physical_key else {
            return;
        };
        let pressed = event.state == ElementState::Pressed;
        if pressed && self.edit_key(code) {
            self.whole_drawn = None;
            self.request_redraw();
            return;
        }
        if pressed {
            let plugin_key = input::letter(code)
                .filter(|_| self.modifiers.is_empty())
                .filter(|l| self.plugin_keys.iter().any(|k| k.letter == *l))
                .map(Action::PluginOption);
            if let Some(action) = input::action_for(code, self.modifiers).or(plugin_key) {
                let repeats = matches!(
                    action,
                    Action::FrameAdvance
                        | Action::HexUp
                        | Action::HexDown
                        | Action::NextField
                        | Action::PreviousField
                );
                if !event.repeat || repeats {
                    self.act(action, event_loop);
                }
                return;
            }
        }
        self.input.key(code, pressed);
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.window.is_none() {
            if let Err(error) = self.create_window(event_loop) {
                self.fail(event_loop, error);
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::RedrawRequested => self.redraw(event_loop),
            WindowEvent::Resized(_) => {
                self.whole_drawn = None;
                self.request_redraw();
            }
            WindowEvent::ModifiersChanged(modifiers) => self.modifiers = modifiers.state(),
            WindowEvent::Focused(false) => self.input.release_keys(),
            WindowEvent::KeyboardInput { event, .. } => self.on_key(&event, event_loop),
            WindowEvent::CursorMoved { position, .. } => self.cursor = (position.x, position.y),
            WindowEvent::MouseInput {
                state: ElementState::Pressed,
                button: MouseButton::Left,
                ..
            } => {
                let (x, y) = (self.cursor.0 as i32, self.cursor.1 as i32);
                let picked = self.clickable.address_at(x, y);
                if picked.is_some() || self.ui.selected.is_some() {
                    self.ui.selected = picked;
                    self.ui.typed = None;
                    self.whole_drawn = None;
                    self.request_redraw();
                }
            }
            WindowEvent::MouseWheel { delta, .. } => {
                let layout = layout::layout(self.canvas.width(), self.canvas.height(), &self.ui);
                let over_panel = layout
                    .inspector
                    .is_some_and(|p| p.contains(self.cursor.0 as i32, self.cursor.1 as i32));
                if over_panel {
                    let lines = match delta {
                        MouseScrollDelta::LineDelta(_, y) => y,
                        MouseScrollDelta::PixelDelta(p) => (p.y / 16.0) as f32,
                    };
                    self.scroll_hex((-lines * WHEEL_ROWS).round() as i32);
                    self.whole_drawn = None;
                    self.request_redraw();
                }
            }
            _ => {}
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if self.options.interrupt.requested() {
            event_loop.exit();
            return;
        }
        if self.window.is_none() {
            return;
        }
        for action in self.input.poll_gamepads() {
            self.act(action, event_loop);
        }
        self.session.set_manual_buttons(self.input.buttons());
        let now = Instant::now();
        if self.paused || self.stopped.is_some() {
            self.fps.idle();
            // Keep looking at gamepads; let highlights and messages fade.
            event_loop.set_control_flow(ControlFlow::WaitUntil(now + IDLE_TICK));
            let fading = self
                .message
                .as_ref()
                .is_some_and(|(_, at)| at.elapsed() < MESSAGE_TIME + IDLE_TICK);
            if fading || self.ui.inspector {
                self.request_redraw();
            }
            return;
        }
        self.trial_turn(event_loop);
        let due = self.pacer.due(now);
        match due {
            Due::Frames(n, next) => {
                event_loop.set_control_flow(ControlFlow::WaitUntil(next));
                if n > 0 {
                    self.run_frames(due);
                    self.request_redraw();
                }
            }
            Due::Until(_) => {
                event_loop.set_control_flow(ControlFlow::Poll);
                self.run_frames(due);
                // Drawing costs as much as many frames: show progress, spend time emulating.
                if self.last_redraw.elapsed() >= UNTHROTTLED_REDRAW {
                    self.request_redraw();
                }
            }
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

/// The size of the monitor the window opens on, or [`layout::DEFAULT_SCREEN`] when it is not
/// known.
fn screen_size(event_loop: &ActiveEventLoop) -> (usize, usize) {
    event_loop
        .primary_monitor()
        .or_else(|| event_loop.available_monitors().next())
        .map(|m| m.size())
        .filter(|s| s.width > 0 && s.height > 0)
        .map_or(layout::DEFAULT_SCREEN, |s| {
            (s.width as usize, s.height as usize)
        })
}
