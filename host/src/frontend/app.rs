//! The window's event handling: keys and gamepads in, emulated frames paced to real time,
//! the composed picture out.

use super::audio::Audio;
use super::canvas::Canvas;
use super::changes::Changes;
use super::compose::{self, Redraw};
use super::controls::{Controls, Places};
use super::fps_trial::{FpsTrial, Turn};
use super::input::{self, Input};
use super::keys::{self, Action};
use super::layout;
use super::pacing::{Due, Speed};
use super::panel;
use super::presenter::Presenter;
use super::view::{Aspect, Snapshot, Ui, HEX_ROWS};
use super::Options;
use crate::gif_capture::GifCapture;
use crate::session::Session;
use jewelbot_plugin::{RAM_SIZE, SCREEN_HEIGHT};
use std::sync::Arc;
use std::time::{Duration, Instant};
use winit::application::ApplicationHandler;
use winit::dpi::{LogicalSize, PhysicalSize};
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow};
use winit::keyboard::{KeyCode, ModifiersState, PhysicalKey};
use winit::window::{Fullscreen, Window, WindowId};

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
    /// The console and what the person does with it (shared with the web page).
    controls: Controls,
    audio: Audio,
    input: Input,
    ui: Ui,
    help: Vec<(String, String)>,
    changes: Changes,
    canvas: Canvas,
    window: Option<Arc<Window>>,
    presenter: Option<Presenter>,
    modifiers: ModifiersState,
    started: Instant,
    cursor: (f64, f64),
    /// Where the last picture put what a click in the inspector selects.
    clickable: panel::Clickable,
    /// When the whole window was last drawn; `None` when it must be at the next picture
    /// (something shown changed, or the window did).
    whole_drawn: Option<Instant>,
    /// The monitor's size in pixels (or the default screen's), to fit the window in.
    screen: (usize, usize),
    last_redraw: Instant,
    error: Option<anyhow::Error>,
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
        let places = Places {
            state_dir: options.state_dir.clone(),
            screenshot_dir: options.screenshot_dir.clone(),
        };
        let controls = Controls::new(session, places, options.ai);
        let help = keys::help_rows(controls.plugin_keys());
        Self {
            controls,
            audio,
            input: Input::new(),
            ui,
            help,
            changes: Changes::new(),
            canvas: Canvas::default(),
            window: None,
            presenter: None,
            modifiers: ModifiersState::empty(),
            started: Instant::now(),
            cursor: (0.0, 0.0),
            clickable: panel::Clickable::default(),
            whole_drawn: None,
            screen: layout::DEFAULT_SCREEN,
            last_redraw: Instant::now(),
            error: None,
            trial: None,
            options,
        }
    }

    /// Records the game's pictures to `gif` from now on.
    pub fn set_gif(&mut self, gif: Option<GifCapture>) {
        self.controls.set_gif(gif);
    }

    /// Writes the recorded movie and the GIF being recorded, then gives the error that ended
    /// the event loop, if one did.
    pub fn finish(mut self) -> anyhow::Result<()> {
        let error = self.error.take().map_or(Ok(()), Err);
        let movie = self.options.record_movie.clone();
        let written = self.controls.finish(movie.as_deref(), self.options.force);
        error.and(written)
    }

    fn fail(&mut self, event_loop: &ActiveEventLoop, error: anyhow::Error) {
        self.error = Some(error);
        event_loop.exit();
    }

    fn say(&mut self, text: impl Into<String>) {
        self.controls.say(text);
        self.request_redraw();
    }

    fn request_redraw(&self) {
        if let Some(window) = &self.window {
            window.request_redraw();
        }
    }

    fn create_window(&mut self, event_loop: &ActiveEventLoop) -> anyhow::Result<()> {
        self.screen = screen_size(event_loop);
        self.measure_inspector();
        let (w, h) = layout::window_size(&self.ui, self.screen, self.most_scale());
        let mut attributes = Window::default_attributes()
            .with_title(format!("jewelbot - {}", self.controls.session().rom().name))
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
            self.controls.set_speed(Speed::Unthrottled);
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

    /// Runs one frame and plays its sound; `false` when emulation stopped.
    fn step(&mut self) -> bool {
        if !self.controls.step() {
            self.request_redraw();
            return false;
        }
        if let Some(trial) = &mut self.trial {
            trial.count();
        }
        let speed = self.controls.speed();
        self.audio
            .push_frame(self.controls.session().audio_samples(), speed);
        true
    }

    fn bar_text(&self) -> String {
        let mut parts = self.controls.bar_parts();
        if self.audio.is_muted() {
            // Before the slot and the frame rate, as it always stood.
            let at = parts.len().saturating_sub(2);
            parts.insert(at, "muted".into());
        }
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
        let snapshot = Snapshot::capture(self.controls.session_mut(), &self.ui, whole);
        if self.ui.inspector && whole {
            self.changes
                .observe(&snapshot.inspections, &snapshot.ram, now_ms);
            self.ui.inspector_lines = panel::content_lines(&snapshot.inspections);
        }
        self.ui.bar = self.bar_text();
        self.ui.message = self.controls.message();
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
        if self.controls.act(action) {
            self.request_redraw();
            return;
        }
        match action {
            Action::Help => self.ui.help = !self.ui.help,
            Action::WindowScreenshot => {
                let frame = self.controls.session().frame_number();
                let canvas = std::mem::take(&mut self.canvas);
                self.controls.write_screenshot(
                    "window",
                    frame,
                    canvas.width(),
                    canvas.height(),
                    canvas.rgba(),
                );
                self.canvas = canvas;
            }
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
            // The console's own, done above.
            _ => {}
        }
        self.request_redraw();
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
            let session = self.controls.session();
            let inspections = session.plugins().inspect(session.ram());
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
        let session = self.controls.session();
        let inspections = session.plugins().inspect(session.ram());
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

    /// Keys while a byte of the hex view is selected: hex digits write it, Enter freezes or
    /// thaws it, arrows move the selection, Esc leaves. `true` when the key was taken.
    fn edit_key(&mut self, code: KeyCode) -> bool {
        let Some(address) = self.ui.selected else {
            return false;
        };
        let digit = keys::hex_digit(&input::code(code)).filter(|_| self.modifiers.is_empty());
        if let Some(digit) = digit {
            match self.ui.typed.take() {
                None => self.ui.typed = Some(digit),
                Some(high) => self.controls.poke(address, high << 4 | digit),
            }
            return true;
        }
        let step: i32 = match code {
            KeyCode::ArrowLeft => -1,
            KeyCode::ArrowRight => 1,
            KeyCode::ArrowUp => -16,
            KeyCode::ArrowDown => 16,
            KeyCode::Enter | KeyCode::NumpadEnter => {
                self.controls.toggle_freeze(address);
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
            let action = keys::action_with_plugins(
                &input::code(code),
                input::modifiers(self.modifiers),
                self.controls.plugin_keys(),
            );
            if let Some(action) = action {
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
        let buttons = self.input.buttons();
        self.controls.session_mut().set_manual_buttons(buttons);
        let now = Instant::now();
        let Some(due) = self.controls.due(now) else {
            // Keep looking at gamepads; let highlights and messages fade.
            event_loop.set_control_flow(ControlFlow::WaitUntil(now + IDLE_TICK));
            if self.controls.message_fading(IDLE_TICK) || self.ui.inspector {
                self.request_redraw();
            }
            return;
        };
        self.trial_turn(event_loop);
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
