//! An emulator session: a `tetanes-core` console with a ROM, its plug-ins and who holds the
//! controller.

mod checkpoint;
mod console_view;
mod state_file;
mod state_trial;
mod watches;

pub use checkpoint::SavedOption;
pub use state_file::{
    decode as decode_state_file, reseal as reseal_state_file,
    reseal_extras as reseal_checkpoint_extras, Decoded, StateFileError, StateHeader,
    CHECKPOINT_FORMAT, FORMAT_VERSION, HOST_VERSION, MAX_FILE_LEN as MAX_STATE_FILE_LEN,
};
pub use state_trial::TrialError;

use crate::files;
use crate::movie::deck::MovieDeck;
use crate::movie::{self, Movie, MovieError, PowerOnRam};
use crate::plugin_host::PluginHost;
use crate::rom::{RomError, RomImage};
use jewelbot_plugin::{Buttons, ConsoleRequest, Machine, MachineError, Plugin, Ram, RAM_SIZE};
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use tetanes_core::input::JoypadBtn;
use tetanes_core::prelude::*;
use tetanes_core::video::VideoFilter;

/// Frames of a CPU stuck on a jam opcode before the session reports it frozen.
const JAM_FRAMES: u32 = 3;

/// Who presses controller 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    /// The plug-ins' buttons.
    Plugins,
    /// A person's buttons (keyboard, gamepad).
    Manual,
}

#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error(transparent)]
    Rom(#[from] RomError),
    #[error("emulation stopped: {0}")]
    Emulation(String),
    #[error("the CPU is stuck on an illegal opcode at ${pc:04X}; the ROM has crashed")]
    Jammed { pc: u16 },
    #[error("save state: {0}")]
    State(String),
    // The causes below are part of the message rather than sources, so they are said once.
    #[error("save state refused: {0}")]
    StateRefused(StateFileError),
    #[error("save state refused: {0}")]
    StateDoesNotRun(TrialError),
    #[error(transparent)]
    File(#[from] files::FileError),
    #[error("movie refused: {0}")]
    Movie(MovieError),
    #[error("a movie starts at power-on, and this console is at frame {frame}")]
    MovieNotAtPowerOn { frame: u64 },
}

impl From<StateFileError> for SessionError {
    fn from(error: StateFileError) -> Self {
        Self::StateRefused(error)
    }
}

impl From<TrialError> for SessionError {
    fn from(error: TrialError) -> Self {
        Self::StateDoesNotRun(error)
    }
}

impl From<MovieError> for SessionError {
    fn from(error: MovieError) -> Self {
        Self::Movie(error)
    }
}

/// Settings a frontend chooses when it opens a session.
#[derive(Debug, Clone, Copy)]
pub struct SessionConfig {
    /// Mix audio (off for headless runs: it is most of the cost of a frame).
    pub audio: bool,
    /// Audio sample rate in Hz.
    pub sample_rate: f32,
    /// Emulate the PPU's warm-up after power-on, when it ignores writes to its control
    /// registers for about a frame (tetanes-core's `emulate_ppu_warmup`; FCEUX does not).
    pub ppu_warmup: bool,
    /// Render pixels. Off, the PPU still runs every cycle (games see no difference, RAM is
    /// the same frame for frame) but draws no picture: for runs nothing looks at.
    pub video: bool,
}

impl Default for SessionConfig {
    fn default() -> Self {
        Self {
            audio: false,
            sample_rate: 48_000.0,
            ppu_warmup: false,
            video: true,
        }
    }
}

pub struct Session {
    deck: ControlDeck,
    /// Routines whose entry is recorded as an event, by address.
    /// The routines a recording names and the addresses plug-ins watch.
    watches: watches::Watches,
    /// The buttons held during the last frame.
    last_buttons: Buttons,
    /// RAM bytes rewritten around every frame, by address.
    frozen: Vec<(u16, u8)>,
    /// RAM writes waiting for their frame: (frame, address, value), soonest last.
    scheduled: Vec<(u64, u16, u8)>,
    rom: RomImage,
    ines: Vec<u8>,
    frame: u64,
    plugins: PluginHost,
    control: Control,
    plugin_buttons: Buttons,
    manual_buttons: Buttons,
    /// Whether the last frame read no controller, and such frames since power-on.
    lagged: bool,
    lag_count: u64,
    /// Whether the plug-ins have been shown the console at power-on (frame 0).
    shown_power_on: bool,
    /// The last picture with the plug-ins' drawings on it.
    drawn: Vec<u8>,
    jam_frames: u32,
    movies: MovieDeck,
    /// What RAM holds at every power-on of this session.
    power_on: PowerOnRam,
    /// What the console skips producing (sound, pictures).
    headless: HeadlessMode,
}

impl Session {
    /// Powers on a console with `rom` and offers it to `plugins`.
    pub fn new(
        rom: RomImage,
        plugins: Vec<Box<dyn Plugin>>,
        config: SessionConfig,
    ) -> Result<Self, SessionError> {
        let mut headless = HeadlessMode::empty();
        if !config.audio {
            headless |= HeadlessMode::NO_AUDIO;
        }
        if !config.video {
            headless |= HeadlessMode::NO_VIDEO;
        }
        // Reproducible power-on RAM (then filled as `power_on` says), no battery files next
        // to anything, a sharp picture.
        let deck_config = Config::default()
            .with_ram_state(RamState::AllZeros)
            .with_sram_dir(None)
            .with_filter(VideoFilter::Pixellate)
            .with_headless_mode(headless)
            .with_emulate_ppu_warmup(config.ppu_warmup)
            // The buttons asked for are the buttons held, opposite directions too, as FCEUX
            // plays a movie that holds them.
            .with_concurrent_dpad(true);
        let mut deck = ControlDeck::with_config(deck_config);
        deck.set_sample_rate(config.sample_rate);
        let ines = rom.to_ines()?;
        load(&mut deck, &rom, &ines)?;
        let mut plugins = PluginHost::new(plugins);
        plugins.attach(&rom.identity());
        Ok(Self {
            deck,
            watches: watches::Watches::default(),
            last_buttons: Buttons::NONE,
            frozen: Vec::new(),
            scheduled: Vec::new(),
            rom,
            ines,
            frame: 0,
            plugins,
            control: Control::Plugins,
            plugin_buttons: Buttons::NONE,
            manual_buttons: Buttons::NONE,
            jam_frames: 0,
            lagged: false,
            lag_count: 0,
            shown_power_on: false,
            drawn: Vec::new(),
            movies: MovieDeck::default(),
            power_on: PowerOnRam::default(),
            headless,
        })
    }

    /// Runs one frame with whoever holds the controller, then shows it to the plug-ins.
    pub fn run_frame(&mut self) -> Result<(), SessionError> {
        if self.frame == 0 && !self.shown_power_on {
            // As FCEUX resumes its scripts: once at power-on, so what they choose there is
            // pressed on the first frame.
            self.show_frame_to_plugins()?;
        }
        // With the AI off and no script or bot holding it, the controller is the person's.
        let buttons = match self.control {
            Control::Plugins if self.plugins.anyone_presses() => self.plugin_buttons,
            Control::Plugins | Control::Manual => self.manual_buttons,
        };
        self.run_frame_with(buttons)
    }

    fn run_frame_with(&mut self, buttons: Buttons) -> Result<(), SessionError> {
        let buttons = match self.movies.next_frame() {
            Some(frame) => {
                if frame.reset {
                    self.reset();
                }
                frame.buttons
            }
            None => buttons,
        };
        self.movies.applied(buttons);
        self.set_pad(buttons);
        self.last_buttons = buttons;
        self.apply_ram_edits(self.frame + 1);
        // A core that panics (a forged state can hold anything) stops emulation with a
        // message instead of taking the program down; a reset, power cycle or state load
        // recovers.
        let probe = console_view::LagProbe::arm(&mut self.deck);
        let (deck, watches) = (&mut self.deck, &mut self.watches);
        let clocked = panic::catch_unwind(AssertUnwindSafe(|| watches.clock_frame(deck)))
            .map_err(|_| SessionError::Emulation("the emulator core panicked".into()))?;
        let _clocked: Clocked = clocked.map_err(|e| SessionError::Emulation(e.to_string()))?;
        self.frame += 1;
        self.lagged = probe.lagged(&self.deck);
        let dropped = self.watches.dropped();
        if dropped > 0 {
            self.plugins.say(format!(
                "frame {}: {dropped} accesses to watched addresses past the first {} were not \
                 reported",
                self.frame,
                jewelbot_plugin::MOST_MEMORY_HITS
            ));
        }
        self.lag_count += u64::from(self.lagged);
        // Frozen bytes hold their value at the frame's end too, where plug-ins read RAM.
        self.apply_ram_edits(0);
        self.check_jam()?;
        self.show_frame_to_plugins()
    }

    /// Calls the plug-ins with the frame just run (or the console at power-on), then applies
    /// their RAM writes and does what they asked of the console.
    fn show_frame_to_plugins(&mut self) -> Result<(), SessionError> {
        self.shown_power_on = true;
        let console = console_view::ConsoleView {
            deck: &self.deck,
            rom_sha1: &self.rom.prg_chr_sha1,
            frame: self.frame,
            person: self.manual_buttons,
            lagged: self.lagged,
            lag_count: self.lag_count,
            memory_hits: self.watches.hits(),
        };
        self.plugin_buttons = self.plugins.run_frame(
            self.frame,
            self.deck.wram(),
            self.deck.frame_buffer_raw(),
            &console,
        );
        for (address, value) in self.plugins.take_pokes() {
            self.poke(address, value);
        }
        self.carry_out_requests()
    }

    /// What the plug-ins asked of the console this frame, in order. A state that cannot be
    /// loaded is refused with a message; the game goes on.
    fn carry_out_requests(&mut self) -> Result<(), SessionError> {
        for (plugin, request) in self.plugins.take_requests() {
            match request {
                ConsoleRequest::Watch(watches) => {
                    self.watches.set_plugin(&mut self.deck, &plugin, watches);
                }
                ConsoleRequest::Reset => self.reset(),
                ConsoleRequest::PowerOn => self.power_cycle()?,
                ConsoleRequest::LoadState(state) => {
                    if let Err(error) = self.load_state(&state) {
                        self.plugins
                            .say(format!("{plugin}'s state was not loaded: {error}"));
                    }
                }
            }
        }
        Ok(())
    }

    /// Whether the last frame read no controller (a lag frame).
    pub fn lagged(&self) -> bool {
        self.lagged
    }

    /// Lag frames since power-on.
    pub fn lag_count(&self) -> u64 {
        self.lag_count
    }

    fn set_pad(&mut self, buttons: Buttons) {
        press(&mut self.deck, buttons);
    }

    /// tetanes-core keeps cycling a jammed CPU without an error; a frontend must notice.
    fn check_jam(&mut self) -> Result<(), SessionError> {
        const JAM_OPCODES: [u8; 12] = [
            0x02, 0x12, 0x22, 0x32, 0x42, 0x52, 0x62, 0x72, 0x92, 0xB2, 0xD2, 0xF2,
        ];
        let pc = self.deck.bus().cpu.pc;
        if JAM_OPCODES.contains(&self.deck.bus().peek(pc)) {
            self.jam_frames += 1;
            if self.jam_frames >= JAM_FRAMES {
                return Err(SessionError::Jammed { pc });
            }
        } else {
            self.jam_frames = 0;
        }
        Ok(())
    }

    pub fn rom(&self) -> &RomImage {
        &self.rom
    }

    /// Writes a RAM byte before every frame and after it, until [`Session::unfreeze`].
    pub fn freeze(&mut self, address: u16, value: u8) {
        let address = address % RAM_SIZE as u16;
        self.frozen.retain(|&(a, _)| a != address);
        self.frozen.push((address, value));
        self.frozen.sort_unstable();
    }

    pub fn unfreeze(&mut self, address: u16) {
        self.frozen.retain(|&(a, _)| a != address % RAM_SIZE as u16);
    }

    /// The frozen bytes, by address.
    pub fn frozen(&self) -> &[(u16, u8)] {
        &self.frozen
    }

    /// Writes a RAM byte just before frame `frame` runs (frames count from 1 at power-on).
    pub fn schedule_poke(&mut self, frame: u64, address: u16, value: u8) {
        self.scheduled.push((frame, address, value));
        self.scheduled
            .sort_by_key(|&(frame, _, _)| std::cmp::Reverse(frame));
    }

    /// Scheduled pokes whose frame has not come: (frame, address, value), soonest first.
    pub fn pending_pokes(&self) -> impl Iterator<Item = (u64, u16, u8)> + '_ {
        self.scheduled.iter().rev().copied()
    }

    /// Pokes due before frame `frame` (0: none), then the frozen bytes.
    fn apply_ram_edits(&mut self, frame: u64) {
        while self.scheduled.last().is_some_and(|&(f, _, _)| f <= frame) {
            if let Some((_, address, value)) = self.scheduled.pop() {
                self.poke(address, value);
            }
        }
        for i in 0..self.frozen.len() {
            let (address, value) = self.frozen[i];
            self.poke(address, value);
        }
    }

    /// The buttons held on controller 1 during the last frame.
    pub fn last_buttons(&self) -> Buttons {
        self.last_buttons
    }

    /// Records, from now on, every entry into the routines at these CPU addresses (execution
    /// breakpoints that do not stop the console); [`Session::take_events`] names them.
    pub fn watch_routines(&mut self, routines: &[(String, u16)]) {
        self.watches.set_routines(&mut self.deck, routines);
    }

    /// The watched routines entered since the last call, each named once, in the order first
    /// entered.
    pub fn take_events(&mut self) -> Vec<String> {
        self.watches.take_events()
    }

    pub fn plugins(&self) -> &PluginHost {
        &self.plugins
    }

    pub fn plugins_mut(&mut self) -> &mut PluginHost {
        &mut self.plugins
    }

    pub fn control(&self) -> Control {
        self.control
    }

    /// Hands controller 1 to the plug-ins or to the person, and tells the plug-ins; returns
    /// how many plug-ins are active (0: nobody can take over from the person).
    pub fn set_control(&mut self, control: Control) -> usize {
        self.control = control;
        self.plugins.set_in_control(control == Control::Plugins)
    }

    /// The buttons a person holds, used while control is manual.
    pub fn set_manual_buttons(&mut self, buttons: Buttons) {
        self.manual_buttons = buttons;
    }

    /// The buttons the plug-ins asked for the next frame.
    pub fn plugin_buttons(&self) -> Buttons {
        self.plugin_buttons
    }

    pub fn ram(&self) -> &Ram {
        self.deck.wram()
    }

    pub fn poke(&mut self, address: u16, value: u8) {
        let ram = self.deck.wram_mut();
        let len = ram.len();
        ram[usize::from(address) % len] = value;
    }

    pub fn frame_number(&self) -> u64 {
        self.frame
    }

    /// Whether the picture is drawn ([`Session::set_video`]).
    pub fn video(&self) -> bool {
        !self.headless.contains(HeadlessMode::NO_VIDEO)
    }

    /// Draws the picture from the next frame on, or not (the game plays the same either way:
    /// [`SessionConfig::video`]).
    pub fn set_video(&mut self, video: bool) {
        self.headless.set(HeadlessMode::NO_VIDEO, !video);
        self.deck.set_headless_mode(self.headless);
    }

    /// The last frame as 256x240 RGBA, with the running plug-ins' drawings on it (as the
    /// window shows it, and screenshots and GIFs keep it).
    pub fn picture_rgba(&mut self) -> &[u8] {
        let drawings = self
            .plugins
            .slots()
            .iter()
            .filter(|slot| slot.is_active())
            .flat_map(|slot| &slot.status().drawings);
        if drawings.clone().next().is_none() {
            return self.deck.frame_buffer();
        }
        self.drawn.clear();
        self.drawn.extend_from_slice(self.deck.frame_buffer());
        crate::picture_drawing::draw_all(&mut self.drawn, drawings);
        &self.drawn
    }

    /// Mono samples of the last frame (empty when audio is off).
    pub fn audio_samples(&self) -> &[f32] {
        self.deck.audio_samples()
    }

    /// Soft reset, as the console's Reset button (a recorded movie keeps it).
    pub fn reset(&mut self) {
        self.deck.reset(ResetKind::Soft);
        self.movies.note_reset();
        self.after_discontinuity();
    }

    /// Power off and on: RAM back to its power-on state. A movie playing stops and one
    /// recording ends there.
    pub fn power_cycle(&mut self) -> Result<(), SessionError> {
        load(&mut self.deck, &self.rom, &self.ines)?;
        self.watches.arm(&mut self.deck);
        self.power_on.fill(self.deck.wram_mut());
        self.frame = 0;
        self.lag_count = 0;
        self.lagged = false;
        self.shown_power_on = false;
        self.movies.interrupt();
        self.after_discontinuity();
        Ok(())
    }

    /// Plays `movie` from power-on: its buttons (and resets) drive controller 1 for its
    /// frames, whoever holds the controller; then control returns to them. RAM is filled as
    /// the movie says the console powered on, for this and later power cycles. A movie made
    /// on another ROM is refused.
    pub fn play_movie(&mut self, movie: Movie) -> Result<(), SessionError> {
        self.at_power_on()?;
        movie.check_rom(&self.rom_md5())?;
        self.set_power_on_ram(movie.power_on)?;
        self.movies.play(movie);
        Ok(())
    }

    /// What RAM holds at power-on, from now on: set before the first frame (the console is
    /// still at power-on), and at every later power cycle.
    pub fn set_power_on_ram(&mut self, fill: PowerOnRam) -> Result<(), SessionError> {
        self.at_power_on()?;
        self.power_on = fill;
        fill.fill(self.deck.wram_mut());
        if let Some(movie) = self.movies.recording_mut() {
            movie.power_on = fill;
        }
        Ok(())
    }

    /// What RAM held at this session's power-on.
    pub fn power_on_ram(&self) -> PowerOnRam {
        self.power_on
    }

    /// Records controller 1 from power-on: the buttons applied to every frame, whoever
    /// pressed them, and soft resets.
    pub fn record_movie(&mut self) -> Result<(), SessionError> {
        self.at_power_on()?;
        let mut movie = Movie::new(&self.rom.name, self.rom_md5());
        movie.power_on = self.power_on;
        self.movies.record(movie);
        Ok(())
    }

    /// Ends the recording and hands over the movie.
    pub fn take_recorded_movie(&mut self) -> Option<Movie> {
        self.movies.take_recording()
    }

    /// (frames played, frames in the movie) while a movie plays.
    pub fn movie_playback(&self) -> Option<(usize, usize)> {
        self.movies.playback_position()
    }

    fn at_power_on(&self) -> Result<(), SessionError> {
        if self.frame == 0 {
            Ok(())
        } else {
            Err(SessionError::MovieNotAtPowerOn { frame: self.frame })
        }
    }

    /// The ROM's identity in an fm2 movie.
    fn rom_md5(&self) -> [u8; 16] {
        movie::rom_md5(&self.rom.prg, &self.rom.chr)
    }

    fn after_discontinuity(&mut self) {
        self.plugin_buttons = Buttons::NONE;
        self.jam_frames = 0;
        self.plugins.reset();
    }

    /// The whole console state as a state file's bytes: a header naming this host and ROM,
    /// then the core's state (`state_file`).
    pub fn save_state(&self) -> Result<Vec<u8>, SessionError> {
        console_view::encode_state(&self.deck, &self.rom.prg_chr_sha1, self.frame)
            .map_err(SessionError::State)
    }

    fn console_state(&self) -> Result<(StateHeader, Vec<u8>), SessionError> {
        let payload = console_view::state_payload(&self.deck).map_err(SessionError::State)?;
        let header = StateHeader {
            host_version: HOST_VERSION.to_owned(),
            rom_sha1: self.rom.prg_chr_sha1.clone(),
            frame: self.frame,
        };
        Ok((header, payload))
    }

    /// A checkpoint: the console's state with what a run needs to carry on from it as if it
    /// had not stopped (the plug-ins' own state, the buttons they chose for the next frame,
    /// the movie being recorded) and `run`, the caller's record of the run. `None` while a
    /// plug-in cannot give its state: try again after a later frame.
    pub fn checkpoint(&mut self, run: serde_json::Value) -> Result<Option<Vec<u8>>, SessionError> {
        let Some(snapshots) = self.plugins.checkpoint() else {
            return Ok(None);
        };
        let (header, payload) = self.console_state()?;
        let extras = checkpoint::Extras {
            buttons: self.plugin_buttons.bits(),
            plugins: snapshots
                .into_iter()
                .map(|(name, bytes)| checkpoint::PluginSnapshot::new(name, &bytes))
                .collect(),
            movie: self.movies.recording_mut().map(|movie| movie.to_fm2()),
            run,
            options: self
                .plugins
                .options()
                .into_iter()
                .flat_map(|(plugin, options)| {
                    options.into_iter().map(move |o| checkpoint::SavedOption {
                        plugin: plugin.clone(),
                        name: o.name,
                        value: o.value,
                    })
                })
                .collect(),
            playing: self
                .movies
                .playing()
                .map(|(movie, next)| checkpoint::PlayingMovie {
                    movie: movie.to_fm2(),
                    next,
                }),
        };
        let extras = extras
            .encode(checkpoint::MAX_UNPACKED_LEN)
            .map_err(SessionError::State)?;
        Ok(Some(state_file::encode(&header, &payload, Some(&extras))))
    }

    /// Restores a state from [`Session::save_state`] or [`Session::checkpoint`]. The bytes are
    /// checked (format, host version, ROM, checksum) and the state is tried on a copy of the
    /// console before it replaces this one: on any error the running console is exactly as it
    /// was. A checkpoint also gives the plug-ins their state back, continues the movie it was
    /// recording, and returns the run's record.
    pub fn load_state(&mut self, state: &[u8]) -> Result<Option<serde_json::Value>, SessionError> {
        let decoded = state_file::decode(state, &self.rom.prg_chr_sha1)?;
        let extras = decoded
            .extras
            .map(|bytes| checkpoint::Extras::decode(bytes, checkpoint::MAX_UNPACKED_LEN))
            .transpose()
            .map_err(SessionError::State)?;
        let movie = extras
            .as_ref()
            .and_then(|e| e.movie.as_deref())
            .map(Movie::parse)
            .transpose()?;
        let playing = extras
            .as_ref()
            .and_then(|e| e.playing.as_ref())
            .map(|p| Movie::parse(&p.movie).map(|movie| (movie, p.next)))
            .transpose()?;
        let snapshots = match &extras {
            Some(extras) => self.checked_snapshots(extras)?,
            None => Vec::new(),
        };
        let mut restored = state_trial::restore_on_copy(&self.deck, decoded.payload)?;
        // A state may keep the settings it was saved with; ours are the session's.
        restored.set_concurrent_dpad(true);
        restored.set_headless_mode(self.headless);
        if extras.is_some() {
            // The plug-ins take back their state before the console is replaced: one that
            // refuses leaves the console as it was (and the plug-ins as after a reset).
            self.plugins.reset();
            self.plugins
                .resume(&snapshots, restored.wram())
                .map_err(SessionError::State)?;
        }
        self.deck = restored;
        self.watches.arm(&mut self.deck);
        self.frame = decoded.header.frame;
        self.movies.interrupt();
        self.jam_frames = 0;
        let Some(extras) = extras else {
            self.after_discontinuity();
            return Ok(None);
        };
        if let Some(movie) = movie {
            self.power_on = movie.power_on;
            self.movies.record(movie);
        }
        if let Some((movie, next)) = playing {
            self.movies.play_from(movie, next);
        }
        self.plugin_buttons = Buttons::from_bits(extras.buttons);
        Ok(Some(extras.run))
    }

    /// The plug-ins' snapshots in a checkpoint: one for each plug-in that runs, and none of a
    /// plug-in this session does not run.
    fn checked_snapshots(
        &self,
        extras: &checkpoint::Extras,
    ) -> Result<Vec<(String, Vec<u8>)>, SessionError> {
        let running = self.plugins.running_names();
        let mut snapshots = Vec::new();
        for snapshot in &extras.plugins {
            if !running.contains(&snapshot.name) {
                return Err(SessionError::State(format!(
                    "the checkpoint holds the state of a plug-in `{}` that this run does not \
                     run (it runs {})",
                    snapshot.name,
                    running.join(", ")
                )));
            }
            snapshots.push((
                snapshot.name.clone(),
                snapshot.bytes().map_err(SessionError::State)?,
            ));
        }
        if let Some(missing) = running
            .iter()
            .find(|name| !snapshots.iter().any(|(n, _)| n == *name))
        {
            return Err(SessionError::State(format!(
                "the checkpoint holds no state of the plug-in `{missing}`, which this run runs"
            )));
        }
        Ok(snapshots)
    }

    /// The plug-in options a checkpoint was taken with (none for a plain state), read without
    /// loading it.
    pub fn checkpoint_options(
        &self,
        state: &[u8],
    ) -> Result<Vec<checkpoint::SavedOption>, SessionError> {
        let decoded = state_file::decode(state, &self.rom.prg_chr_sha1)?;
        Ok(decoded
            .extras
            .map(|bytes| checkpoint::Extras::decode(bytes, checkpoint::MAX_UNPACKED_LEN))
            .transpose()
            .map_err(SessionError::State)?
            .map(|extras| extras.options)
            .unwrap_or_default())
    }

    /// A movie recorded from power-on is being carried on (from a checkpoint, or since the
    /// session began).
    pub fn is_recording_movie(&mut self) -> bool {
        self.movies.recording_mut().is_some()
    }

    /// Writes the state to `path`, replacing a state there only whole (a failed write keeps
    /// the old one). Never the ROM's own path: states are named by the caller.
    pub fn save_state_file(&self, path: &Path) -> Result<(), SessionError> {
        let state = self.save_state()?;
        files::write_file(path, &state, true)?;
        Ok(())
    }

    /// Loads a state or checkpoint file ([`Session::load_state`]); only a regular file of a
    /// plausible size is opened.
    pub fn load_state_file(
        &mut self,
        path: &Path,
    ) -> Result<Option<serde_json::Value>, SessionError> {
        let state = files::read_regular(path, "save state", state_file::MAX_FILE_LEN)?;
        self.load_state(&state)
    }
}

/// The NES buttons and the emulator's names for them.
const PAD: [(Buttons, JoypadBtn); 8] = [
    (Buttons::A, JoypadBtn::A),
    (Buttons::B, JoypadBtn::B),
    (Buttons::SELECT, JoypadBtn::Select),
    (Buttons::START, JoypadBtn::Start),
    (Buttons::UP, JoypadBtn::Up),
    (Buttons::DOWN, JoypadBtn::Down),
    (Buttons::LEFT, JoypadBtn::Left),
    (Buttons::RIGHT, JoypadBtn::Right),
];

/// Holds exactly `buttons` on controller 1 of `deck` (for drivers of a bare deck too).
pub fn press(deck: &mut ControlDeck, buttons: Buttons) {
    let pad = deck.joypad_mut(Player::One);
    for (button, key) in PAD {
        pad.set_button(key, buttons.contains(button));
    }
}

fn load(deck: &mut ControlDeck, rom: &RomImage, ines: &[u8]) -> Result<(), RomError> {
    deck.load_rom(&rom.name, &mut &ines[..])
        .map(drop)
        .map_err(|e| match e {
            tetanes_core::control_deck::Error::UnimplementedMapper(mapper) => {
                RomError::UnsupportedMapper {
                    mapper,
                    hint: String::new(),
                }
            }
            tetanes_core::control_deck::Error::Cart(tetanes_core::cart::Error::InvalidHeader {
                byte,
                value,
                ..
            }) => RomError::Emulator(format!(
                "header byte {byte} ({}) holds ${value:02X}",
                header_field(byte)
            )),
            other => RomError::Emulator(other.to_string()),
        })
}

/// What an iNES header byte holds, for the core's messages that give only its number.
fn header_field(byte: u8) -> &'static str {
    match byte {
        4 => "PRG ROM size",
        5 => "CHR ROM size",
        6 => "mapper low nibble and flags",
        7 => "mapper high nibble and format",
        8 => "PRG RAM size",
        _ => "header",
    }
}

impl Machine for Session {
    fn ram(&self) -> &Ram {
        Session::ram(self)
    }

    fn poke(&mut self, address: u16, value: u8) {
        Session::poke(self, address, value);
    }

    fn step(&mut self, buttons: Buttons) -> Result<(), MachineError> {
        self.run_frame_with(buttons)
            .map_err(|e| MachineError(e.to_string()))
    }

    fn frame_number(&self) -> u64 {
        self.frame
    }

    fn power_cycle(&mut self) -> Result<(), MachineError> {
        Session::power_cycle(self).map_err(|e| MachineError(e.to_string()))
    }
}
