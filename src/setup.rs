//! What every console command starts from: the plug-ins with the command line's settings, the
//! ROM, and a session with the controller, pokes, freezes and movie the command line asks for.

use crate::cli::{GameArgs, Setting, Switch};
use crate::plugins;
use anyhow::{anyhow, Context};
use clap::ArgMatches;
use jewelbot_commands::Place;
use jewelbot_host::outputs::Input;
use jewelbot_host::rom::RomImage;
use jewelbot_host::session::{Control, Session, SessionConfig};
use jewelbot_plugin::Plugin;
use std::path::Path;

/// How to make the plug-ins: their defaults with the options given on the command line, and
/// the plug-in the flags of a starter ask for (`--lua`, `--bot`).
pub struct Plugins {
    pub settings: Vec<Setting>,
    /// The files those options and flags name (options whose value is a `FILE`, `--lua`'s
    /// script): inputs no output may replace.
    pub files: Vec<Input>,
    /// The console command's flags (`None` for a command that is not one), where the starters
    /// find theirs.
    pub console: Option<ArgMatches>,
}

impl Plugins {
    /// Fresh plug-ins with the settings applied; a refused setting is an error naming its flag.
    /// A command builds them once, for its session.
    pub fn build(&self) -> anyhow::Result<Vec<Box<dyn Plugin>>> {
        let mut list = plugins::make_all();
        for setting in &self.settings {
            for plugin in list.iter_mut().filter(|p| p.name() == setting.plugin) {
                plugin
                    .set_option(&setting.name, &setting.value)
                    .map_err(|reason| anyhow!("{} {}: {reason}", setting.flag, setting.value))?;
            }
        }
        Ok(list)
    }

    /// [`Plugins::build`] with the plug-in a starter's flags ask for (the Lua script `--lua`
    /// names, the bot `--bot` names), which then holds the controller: before the game's
    /// plug-ins or after them, as its starter says. What the flags name that cannot be used is
    /// an error; a script that does not parse is a plug-in that says so and stops (the game
    /// goes on), as is a bot that cannot start.
    pub fn build_for(&self) -> anyhow::Result<Vec<Box<dyn Plugin>>> {
        let mut list = self.build()?;
        let Some(matches) = &self.console else {
            return Ok(list);
        };
        for starter in plugins::starters() {
            if let Some(started) = (starter.start)(matches)? {
                match starter.place {
                    Place::First => list.insert(0, started),
                    Place::Last => list.push(started),
                }
            }
        }
        Ok(list)
    }

    /// Whether a starter's flags were given: its plug-in holds the controller, with the AI on
    /// or off.
    pub fn starts_one(&self) -> bool {
        self.console.as_ref().is_some_and(|matches| {
            plugins::starters().any(|starter| {
                matches.value_source(starter.flag) == Some(clap::parser::ValueSource::CommandLine)
            })
        })
    }

    /// The files the starters' flags given name, as inputs.
    pub fn starter_files(matches: &ArgMatches) -> Vec<Input> {
        plugins::starters()
            .flat_map(|starter| (starter.files)(matches))
            .map(|(flag, path)| Input::new(flag, &path))
            .collect()
    }
}

pub fn open_rom(path: Option<&Path>) -> anyhow::Result<RomImage> {
    match path {
        Some(path) => {
            RomImage::from_path(path).with_context(|| format!("cannot use ROM {}", path.display()))
        }
        None => Ok(RomImage::from_bytes(
            jewelbot_cartridge::NAME,
            jewelbot_cartridge::ROM,
        )?),
    }
}

pub fn open_session(game: &GameArgs, plugins: &Plugins) -> anyhow::Result<Session> {
    open_session_with(
        game,
        plugins,
        plugins.build_for()?,
        SessionConfig::default(),
    )
}

/// A session of `plugins` (built once, by the caller: bad settings are refused before any ROM
/// is opened) with the frontend's audio settings, the controller with the AI or the person as
/// `--ai` says.
pub fn open_session_with(
    game: &GameArgs,
    plugins: &Plugins,
    built: Vec<Box<dyn Plugin>>,
    config: SessionConfig,
) -> anyhow::Result<Session> {
    let rom = open_rom(game.rom.as_deref())?;
    let mut session = Session::new(rom, built, config)?;
    // `--ai off` turns off the built-in AI only: a script or bot given holds the controller
    // as it does with the AI on; without one, the person does.
    let holder = plugins.starts_one();
    session.plugins_mut().set_ai(game.ai == Switch::On);
    session.set_control(if game.ai == Switch::On || holder {
        Control::Plugins
    } else {
        Control::Manual
    });
    for poke in &game.poke {
        session.schedule_poke(poke.frame, poke.address, poke.value);
    }
    for freeze in &game.freeze {
        session.freeze(freeze.address, freeze.value);
    }
    if let Some(path) = &game.movie {
        let movie = jewelbot_host::movie::file::read(path)?;
        for warning in movie.warnings() {
            eprintln!("note: {}: {warning}", path.display());
        }
        session
            .play_movie(movie)
            .with_context(|| format!("cannot play {}", path.display()))?;
    }
    Ok(session)
}

/// Loads a state or checkpoint into `session`. A checkpoint resumes with the plug-in options it
/// was taken with, for those the command line does not give; one given with another value is
/// refused, naming both. Returns the run record a checkpoint carries.
pub fn load_state(
    session: &mut Session,
    path: &Path,
    plugins: &Plugins,
) -> anyhow::Result<Option<serde_json::Value>> {
    let cannot = || format!("cannot start from {}", path.display());
    let bytes = jewelbot_host::files::read_regular(
        path,
        "save state",
        jewelbot_host::session::MAX_STATE_FILE_LEN,
    )
    .with_context(cannot)?;
    let saved = session.checkpoint_options(&bytes).with_context(cannot)?;
    for option in &saved {
        match plugins
            .settings
            .iter()
            .find(|given| given.plugin == option.plugin && given.name == option.name)
        {
            Some(given) if given.value != option.value => anyhow::bail!(
                "{flag} {given}: {path} was taken with {flag} {saved}; leave {flag} out to \
                 resume with the checkpoint's options, or start a new run",
                flag = given.flag,
                given = given.value,
                path = path.display(),
                saved = option.value
            ),
            Some(_) => {}
            None => session
                .plugins_mut()
                .set_option_of(&option.plugin, &option.name, &option.value)
                .map_err(|reason| {
                    anyhow!(
                        "{}: its --{} {} is refused: {reason}",
                        path.display(),
                        option.name,
                        option.value
                    )
                })?,
        }
    }
    let record = session.load_state(&bytes).with_context(cannot)?;
    refuse_pokes_before_the_state(session, path)?;
    Ok(record)
}

/// Refuses `--poke`s for frames the session, started from `state`, has already run: they
/// could only land late.
pub fn refuse_pokes_before_the_state(session: &Session, state: &Path) -> anyhow::Result<()> {
    let now = session.frame_number();
    if let Some((frame, address, value)) = session.pending_pokes().find(|&(f, _, _)| f <= now) {
        anyhow::bail!(
            "--poke {frame}:${address:04X}={value:02X} is for frame {frame}, but {} is at frame \
             {now}: the first frame a poke can reach is {}",
            state.display(),
            now + 1
        );
    }
    Ok(())
}

pub fn report_messages(session: &mut Session) {
    for message in session.plugins_mut().drain_messages() {
        eprintln!("note: {message}");
    }
}

/// The files a session started from `game` reads: the ROM, the movie, and the plug-ins' files
/// (a Lua script among them).
pub fn game_inputs(game: &GameArgs, plugins: &Plugins) -> Vec<Input> {
    let mut inputs: Vec<Input> = [("--rom", &game.rom), ("--movie", &game.movie)]
        .into_iter()
        .filter_map(|(flag, path)| path.as_deref().map(|p| Input::new(flag, p)))
        .collect();
    inputs.extend(plugins.files.iter().cloned());
    inputs
}
