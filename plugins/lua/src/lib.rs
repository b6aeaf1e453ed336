//! Lua scripts written for FCEUX, run as a jewelbot plug-in: bots that drive FCEUX from Lua
//! (read RAM, press buttons, draw, advance frames) run here unchanged, within what the host
//! can do ([`api`] says function by function; `docs/lua.md` has the table).
//!
//! The script runs as a coroutine, as in FCEUX: `emu.frameadvance()` yields it until the next
//! frame boundary. Its first part runs when the cartridge is attached; the host then shows
//! the plug-ins the console at power-on (frame 0) and after every frame, and at each of these
//! boundaries the plug-in calls the function registered with `emu.registerafter` (after a
//! frame only), resumes the script, then calls those of `emu.registerbefore` and
//! `gui.register`; the buttons set and the RAM written meanwhile reach the console before the
//! next frame. A bad script stops with its file and line, and the game goes on: a syntax or
//! run-time error, a frame's work past [`INSTRUCTION_LIMIT`] instructions or their worth in
//! allocation and library loops (a loop that never yields, in the script, a callback, a memory
//! hook or a pattern: the `work` module), memory past [`MEMORY_LIMIT`]. Code loads as source only
//! ([`loading`]); `os` and `io` (and the functions that read files) are off unless
//! [`LuaOptions::os_and_io`] turns them on.

mod allocator;
pub mod api;
mod charged;
mod console;
mod guard;
mod hooked;
pub mod loading;
mod offer;
mod work;

pub use offer::OFFER;

pub use work::{INSTRUCTION_LIMIT, WALL_LIMIT};

use console::Shared;
use jewelbot_plugin::{Buttons, Console, ConsoleRequest, FrameContext, Plugin, RomIdentity};
use mlua::{Function, HookTriggers, Lua, LuaOptions as MluaOptions, StdLib, Thread, ThreadStatus};
use std::path::Path;
use work::Work;

/// Instructions between two checks of [`INSTRUCTION_LIMIT`].
const CHECK_EVERY: u32 = 10_000;
/// Most memory a script's Lua state may hold.
pub const MEMORY_LIMIT: usize = 256 << 20;

/// How a script may reach outside the emulator.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LuaOptions {
    /// Lua's `os` and `io` libraries, `require`, `dofile` and `loadfile`: for scripts that
    /// write files (the RAM-dump script) or read settings from the environment.
    pub os_and_io: bool,
}

/// Why a script could not be started.
#[derive(Debug)]
pub struct ScriptError(pub String);

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScriptError {}

/// A Lua script playing through FCEUX's API.
pub struct LuaPlugin {
    lua: Lua,
    /// The script's main chunk, run as a coroutine (`None` once it has returned or stopped).
    main: Option<Thread>,
    shared: Shared,
    /// Work done since the frame's script work began.
    work: Work,
    /// Why the script stopped, once it has.
    stopped: Option<String>,
    name: String,
    /// The state's allocations counted as work and held to [`MEMORY_LIMIT`], until dropped
    /// (after the fields above).
    _accounts: allocator::Accounts,
}

/// The first line of a Lua error ("file:line: what", without the traceback); an error raised
/// by one of the API's functions gets the line of the script that called it.
fn first_line(error: &mlua::Error) -> String {
    match error {
        mlua::Error::CallbackError { cause, traceback } => {
            let what = first_line(cause);
            // "\tbot.lua:12: in main chunk": the first frame that is the script's.
            let caller = traceback
                .lines()
                .map(str::trim)
                .find(|frame| !frame.starts_with("[C]") && frame.contains(": in "))
                .and_then(|frame| frame.split(": in ").next());
            match caller {
                Some(at) if !what.starts_with(at) => format!("{at}: {what}"),
                _ => what,
            }
        }
        mlua::Error::RuntimeError(text) | mlua::Error::SyntaxError { message: text, .. } => {
            text.lines().next().unwrap_or_default().to_owned()
        }
        mlua::Error::MemoryError(_) => {
            format!(
                "not enough memory: a script may hold {} MiB",
                MEMORY_LIMIT >> 20
            )
        }
        other => other
            .to_string()
            .lines()
            .next()
            .unwrap_or_default()
            .to_owned(),
    }
}

/// The error that carries `os.exit` out of the script.
const EXIT: &str = "os.exit";

/// `os.exit(status)` ends the run, as in FCEUX, rather than the process: the host writes its
/// outputs first. The script is unwound by an error the plug-in recognises.
fn install_exit(lua: &Lua, shared: &Shared) -> mlua::Result<()> {
    let os: mlua::Table = lua.globals().get("os")?;
    let s = shared.clone();
    os.set(
        "exit",
        lua.create_function(move |_, status: Option<mlua::Value>| -> mlua::Result<()> {
            let status = match status {
                Some(mlua::Value::Integer(n)) => n,
                Some(mlua::Value::Number(n)) => n as i64,
                Some(mlua::Value::Boolean(false)) => 1,
                _ => 0,
            };
            s.lock().exit = Some(status);
            Err(mlua::Error::RuntimeError(EXIT.to_owned()))
        })?,
    )
}

impl LuaPlugin {
    /// The script in the file at `path`. A file that cannot be read is an error; a script
    /// with a syntax error is a plug-in stopped from the start, with the error's file and line.
    pub fn from_file(path: &Path, options: LuaOptions) -> Result<Self, ScriptError> {
        let source =
            jewelbot_plugin::files::read_regular(path, "Lua script", loading::MOST_SOURCE_BYTES)
                .map_err(|e| ScriptError(format!("cannot read Lua script: {e}")))?;
        Self::new(&path.display().to_string(), &source, options)
    }

    /// A script named `name` (its file, in messages) with the text `source`.
    pub fn new(name: &str, source: &[u8], options: LuaOptions) -> Result<Self, ScriptError> {
        let fail = |e: mlua::Error| ScriptError(format!("Lua for {name}: {e}"));
        let mut libraries = StdLib::TABLE | StdLib::STRING | StdLib::MATH;
        if options.os_and_io {
            libraries |= StdLib::OS | StdLib::IO | StdLib::PACKAGE;
        }
        // mlua's safe mode: no `debug`, and with `package`, no C modules.
        let lua = Lua::new_with(libraries, MluaOptions::default()).map_err(fail)?;
        let work = Work::default();
        let accounts = allocator::Accounts::install(&lua, &work).map_err(fail)?;
        if options.os_and_io {
            // Safe mode leaves a `package.loadlib` that raises an error: gone, as `dofile` is
            // without `--lua-os-io`.
            let package: mlua::Table = lua.globals().get("package").map_err(fail)?;
            package.set("loadlib", mlua::Value::Nil).map_err(fail)?;
        } else {
            for reader in ["dofile", "loadfile"] {
                lua.globals().set(reader, mlua::Value::Nil).map_err(fail)?;
            }
        }
        let shared = Shared::default();
        api::install(&lua, &shared, &work).map_err(fail)?;
        loading::install(&lua, &work, options.os_and_io).map_err(fail)?;
        charged::install(&lua, &work).map_err(fail)?;
        guard::install(&lua, &work, options.os_and_io).map_err(fail)?;
        if options.os_and_io {
            install_exit(&lua, &shared).map_err(fail)?;
        }
        // One hook for every thread: the main state's (callbacks), the script's and the
        // coroutines it makes.
        let counted = work.clone();
        lua.set_global_hook(
            HookTriggers::new().every_nth_instruction(CHECK_EVERY),
            move |_, _| {
                counted.charge(u64::from(CHECK_EVERY))?;
                counted.watch()?;
                Ok(mlua::VmState::Continue)
            },
        )
        .map_err(fail)?;
        let mut plugin = Self {
            lua,
            main: None,
            shared,
            work,
            stopped: None,
            name: name.to_owned(),
            _accounts: accounts,
        };
        let chunk = loading::file_source(source)
            .map_err(|why| mlua::Error::RuntimeError(why.to_owned()))
            .and_then(|source| {
                plugin
                    .lua
                    .load(source.as_ref())
                    .set_name(format!("@{name}"))
                    .set_mode(mlua::ChunkMode::Text)
                    .into_function()
            })
            .and_then(|main| plugin.lua.create_thread(main));
        match chunk {
            Ok(thread) => plugin.main = Some(thread),
            Err(error) => plugin.stop(&error),
        }
        Ok(plugin)
    }

    /// Why the script stopped (`None` while it runs or after it returned).
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    /// Whether the script's main chunk is still running (waiting on a frame).
    pub fn running(&self) -> bool {
        self.main
            .as_ref()
            .is_some_and(|t| t.status() == ThreadStatus::Resumable)
    }

    fn stop(&mut self, error: &mlua::Error) {
        if let Some(status) = self.shared.lock().exit {
            // Not a failure: the script asked the run to end.
            self.stopped = Some(format!("the Lua script called os.exit({status})"));
            self.main = None;
            return;
        }
        let mut what = first_line(error);
        if !what.starts_with(&self.name) {
            what = format!("{}: {what}", self.name);
        }
        let why = format!("{what} (the script stopped; the game goes on)");
        eprintln!("lua: {why}");
        self.stopped = Some(why);
        self.main = None;
        for key in [api::emu::BEFORE, api::emu::AFTER, api::gui::DRAW] {
            let _ = self.lua.set_named_registry_value(key, mlua::Value::Nil);
        }
    }

    /// Calls the function registered under `key`, if any.
    fn call_registered(&mut self, key: &str) -> mlua::Result<()> {
        let registered: Option<Function> = self.lua.named_registry_value(key)?;
        match registered {
            Some(f) => f.call(()),
            None => Ok(()),
        }
    }

    /// Runs the script until it waits for a frame (or returns).
    fn resume_main(&mut self) -> mlua::Result<()> {
        if let Some(main) = &self.main {
            if main.status() == ThreadStatus::Resumable {
                main.resume::<()>(())?;
            }
        }
        Ok(())
    }

    /// The script's work between two frames.
    /// [`LuaPlugin::between_frames`] with the console's bus and state within the script's
    /// reach, for this frame only.
    fn between_frames_with(
        &mut self,
        console: &dyn Console,
        after_a_frame: bool,
    ) -> mlua::Result<()> {
        let lua = self.lua.clone();
        // The memory hooks count towards the boundary's instructions too.
        self.work.reset();
        let result = lua.scope(|scope| {
            let peek = scope.create_function(|_, address: u16| Ok(console.peek(address)))?;
            let save = scope.create_function(|lua, ()| match console.save_state() {
                Ok(state) => lua.create_string(&state),
                Err(why) => Err(mlua::Error::RuntimeError(why)),
            })?;
            lua.set_named_registry_value(api::PEEK, peek)?;
            lua.set_named_registry_value(api::SAVE, save)?;
            if after_a_frame {
                api::memory::call_hooks(&lua, &self.shared, &self.work, console.memory_hits())?;
            }
            self.between_frames(after_a_frame)
        });
        // Gone with the frame: a call outside one says so instead of reaching a dead console.
        lua.unset_named_registry_value(api::PEEK)?;
        lua.unset_named_registry_value(api::SAVE)?;
        result
    }

    /// The script's part of a frame boundary: `emu.registerafter`'s function (unless this is
    /// power-on, after no frame), the script up to its next `emu.frameadvance()`, then the
    /// functions of `emu.registerbefore` and `gui.register`.
    fn between_frames(&mut self, after_a_frame: bool) -> mlua::Result<()> {
        self.work.reset();
        if after_a_frame {
            self.call_registered(api::emu::AFTER)?;
        }
        self.resume_main()?;
        self.call_registered(api::emu::BEFORE)?;
        self.call_registered(api::gui::DRAW)
    }
}

impl Plugin for LuaPlugin {
    fn name(&self) -> &'static str {
        "lua"
    }

    /// The cartridge, then the script's first part, up to its first `emu.frameadvance()`:
    /// as in FCEUX, what it registers is in place for the first frame.
    fn attach(&mut self, rom: &RomIdentity<'_>) -> Result<String, String> {
        {
            let mut console = self.shared.lock();
            console.rom = [rom.prg, rom.chr].concat();
        }
        if self.stopped.is_none() {
            self.work.reset();
            if let Err(error) = self.resume_main() {
                self.stop(&error);
            }
        }
        Ok(format!("Lua script {}", self.name))
    }

    fn wants_controller(&self) -> bool {
        true
    }

    fn ended(&self) -> Option<String> {
        let status = self.shared.lock().exit?;
        Some(format!("the Lua script called os.exit({status})"))
    }

    /// As C's `exit`: the low 8 bits of the script's status.
    fn exit_status(&self) -> Option<u8> {
        self.shared.lock().exit.map(|status| (status & 0xFF) as u8)
    }

    fn on_frame(&mut self, ctx: &mut FrameContext<'_>) {
        {
            let mut console = self.shared.lock();
            console.ram = *ctx.ram();
            // Writes not yet sent (those of the first part, made before any frame) stay seen.
            let pending = std::mem::take(&mut console.pokes);
            for &(address, value) in &pending {
                console.ram[usize::from(address)] = value;
            }
            console.pokes = pending;
            console.frame = ctx.frame_number();
            console.person = ctx.console().person_buttons();
            console.lagged = ctx.console().lagged();
            console.lag_count = ctx.console().lag_count();
            console.drawings.clear();
            // joypad.set holds for one frame (those of the first part are for a frame gone).
            console.buttons = Buttons::NONE;
        }
        if self.stopped.is_none() {
            let after_a_frame = ctx.frame_number() > 0;
            if let Err(error) = self.between_frames_with(ctx.console(), after_a_frame) {
                self.stop(&error);
            }
        }
        let mut console = self.shared.lock();
        if let Some(watches) = console.hooked.take_changed() {
            console.requests.push(ConsoleRequest::Watch(watches));
        }
        for (address, value) in console.pokes.drain(..) {
            ctx.poke(address, value);
        }
        for request in console.requests.drain(..) {
            ctx.request(request);
        }
        ctx.set_buttons(if self.stopped.is_some() {
            Buttons::NONE
        } else {
            console.buttons
        });
        // What was drawn is the frame's: handed over, not copied.
        let drawings = std::mem::take(&mut console.drawings);
        let mut lines: Vec<String> = console.message.iter().cloned().collect();
        drop(console);
        if let Some(why) = &self.stopped {
            lines.push(format!("lua: {why}"));
        }
        let status = ctx.status();
        status.drawings = drawings;
        status.lines = lines;
    }
}

impl Drop for LuaPlugin {
    fn drop(&mut self) {
        if self.stopped.is_none() {
            self.work.reset();
            if let Err(error) = self.call_registered(api::emu::EXIT) {
                eprintln!("lua: {} (in the exit function)", first_line(&error));
            }
        }
    }
}
