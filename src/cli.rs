//! The command line.

use crate::plugins;
use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgGroup, ArgMatches, Args, CommandFactory, Parser, Subcommand, ValueEnum};
use jewelbot_plugin::PluginOption;
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "jewelbot",
    version,
    about = "NES emulator host whose AI plug-in plays Magic Jewelry (Columns) perpetually",
    long_about = "NES emulator host whose AI plug-in plays Magic Jewelry (Columns) perpetually.\n\n\
                  Without a subcommand it plays: the ROM given with --rom, or the built-in open \
                  cartridge."
)]
pub struct Cli {
    #[command(flatten)]
    pub play: PlayArgs,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a number of frames and print a summary of the play.
    Run(RunArgs),
    /// Play in real time, as the window does, shown on a web page (docs/web.md): the picture,
    /// the status, the dashboard and the RAM inspector, with the controls for whoever opens
    /// the URL with its token.
    Serve(ServeArgs),
    /// Show the labelled RAM addresses and the decoded board at a frame.
    Ram(RamArgs),
    /// Record a RAM trace from power-on, driven by a script or by the AI (docs/traces.md).
    Record(RecordArgs),
    /// Describe a ROM file: format, mapper, sizes, hashes and which known dump it is.
    RomInfo(RomInfoArgs),
}

/// Which ROM, and whether the plug-ins hold the controller. The plug-ins' own settings are
/// added to the same commands from what they declare ([`command`]).
#[derive(Debug, Args, Clone)]
pub struct GameArgs {
    /// ROM file to run (default: the built-in open cartridge). The file is never modified.
    #[arg(long, value_name = "PATH")]
    pub rom: Option<PathBuf>,
    /// Whether the built-in AI plays. Off, a script or bot given here (--lua, --bot) still
    /// holds the controller; without one, the person does.
    #[arg(long, value_enum, default_value_t = Switch::On)]
    pub ai: Switch,
    /// Write RAM just before a frame: FRAME:ADDR=VALUE (address in hex, e.g. 300:$6E=69);
    /// repeatable.
    #[arg(long, value_name = "FRAME:ADDR=VALUE", value_parser = jewelbot_host::ram_edit::parse_poke)]
    pub poke: Vec<jewelbot_host::ram_edit::Poke>,
    /// Hold a RAM byte at a value around every frame: ADDR=VALUE; repeatable.
    #[arg(long, value_name = "ADDR=VALUE", value_parser = jewelbot_host::ram_edit::parse_freeze)]
    pub freeze: Vec<jewelbot_host::ram_edit::Freeze>,
    /// Play an fm2 movie from power-on (jewelbot's or FCEUX's): the console powers on as its
    /// header says, and its buttons drive controller 1 for its frames in place of the AI's
    /// (or the person's); after its last frame the controller is theirs again. A movie of
    /// another ROM is refused.
    #[arg(long, value_name = "FILE")]
    pub movie: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub window: WindowArgs,
}

/// How the window looks and where it writes files (keys: docs/keys.md).
#[derive(Debug, Args, Clone)]
pub struct WindowArgs {
    /// The largest whole-number scale the picture opens at (default: the largest at which the
    /// window, with the parts shown, fits the screen).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=8))]
    pub scale: Option<u32>,
    /// Start in fullscreen (F11 toggles).
    #[arg(long)]
    pub fullscreen: bool,
    /// Show the RAM inspector at start (I toggles).
    #[arg(long)]
    pub inspector: bool,
    /// Measure what the window's parts cost the emulator: unthrottled, every part shown and
    /// every part hidden in turn, a second each, for SECONDS; print the frames a second of
    /// each (medians) and their ratio, then close.
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u32).range(4..=3600))]
    pub fps_trial: Option<u32>,
    /// Start muted (M toggles).
    #[arg(long)]
    pub mute: bool,
    /// Square pixels instead of the television's 8:7 pixel aspect.
    #[arg(long)]
    pub square_pixels: bool,
    /// Draw without the GPU (automatic when no GPU adapter is found).
    #[arg(long)]
    pub software: bool,
    #[command(flatten)]
    pub files: PlayFiles,
}

/// Where a game played by a person (in the window or on the web page) writes: its state slots,
/// screenshots and GIFs, and the movie and GIF of the whole game.
#[derive(Debug, Args, Clone)]
pub struct PlayFiles {
    /// Directory for save states (default: the user's data directory).
    #[arg(long, value_name = "DIR")]
    pub state_dir: Option<PathBuf>,
    /// Directory for screenshots and the GIFs Ctrl+F12 records (default: the current
    /// directory).
    #[arg(long, value_name = "DIR")]
    pub screenshot_dir: Option<PathBuf>,
    /// Record controller 1 from power-on to an fm2 movie FILE, written when the game ends.
    #[arg(long, value_name = "FILE")]
    pub record_movie: Option<PathBuf>,
    /// Record an animated GIF of the game to FILE from the start until the game ends (Ctrl+F12
    /// stops it, or starts one in the screenshot directory).
    #[arg(long, value_name = "FILE")]
    pub gif: Option<PathBuf>,
    /// Replace the files of --record-movie and --gif if they exist.
    #[arg(long)]
    pub force: bool,
}

impl PlayFiles {
    /// The files the whole game writes, to check before it starts.
    pub fn outputs(&self) -> Vec<jewelbot_host::outputs::Output> {
        [("--record-movie", &self.record_movie), ("--gif", &self.gif)]
            .into_iter()
            .filter_map(|(flag, path)| {
                path.as_deref()
                    .map(|p| jewelbot_host::outputs::Output::file(flag, p))
            })
            .collect()
    }

    /// Where the state slots, screenshots and GIFs go.
    pub fn places(&self) -> jewelbot_host::frontend::controls::Places {
        jewelbot_host::frontend::controls::Places {
            state_dir: self.state_dir.clone(),
            screenshot_dir: self.screenshot_dir.clone(),
        }
    }
}

/// The web page's server: where it listens and who may reach it.
#[derive(Debug, Args, Clone)]
pub struct WebArgs {
    /// The address to listen on: 127.0.0.1 (this machine only) unless told otherwise; 0.0.0.0
    /// serves every interface, over plain HTTP.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1", value_parser = jewelbot_web::address::parse_bind)]
    pub bind: std::net::IpAddr,
    /// The port (0 picks a free one; the URL says which).
    #[arg(long, value_name = "PORT", default_value_t = jewelbot_web::address::DEFAULT_PORT)]
    pub port: u16,
    /// Give the controls to every viewer, without the token (on a loopback address only).
    #[arg(long)]
    pub open_controls: bool,
    #[command(flatten)]
    pub viewers: ViewerArgs,
}

/// Who may watch.
#[derive(Debug, Args, Clone)]
pub struct ViewerArgs {
    /// The most viewers at once; more are turned away with a message.
    #[arg(long, value_name = "N", default_value_t = jewelbot_web::server::DEFAULT_MAX_VIEWERS, value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub max_viewers: u16,
    /// A host name the page may be reached by, besides localhost and IP addresses (requests
    /// naming any other host are refused); repeatable.
    #[arg(long, value_name = "NAME")]
    pub allow_host: Vec<String>,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub web: WebArgs,
    #[command(flatten)]
    pub files: PlayFiles,
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("outputs").multiple(true).args(["save_state", "record_movie", "gif", "checkpoint", "report", "ram_log"])))]
pub struct RunArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Run without a window (the only way `run` works; kept explicit for scripts).
    #[arg(long)]
    pub headless: bool,
    /// Frames to run: the run's length, or with --until the most it may run (at most
    /// 1,000,000,000, some 200 days of play).
    #[arg(long, value_name = "N", required_unless_present = "until", value_parser = clap::value_parser!(u64).range(1..=MAX_RUN_FRAMES))]
    pub frames: Option<u64>,
    /// Stop at the first frame where CONDITION holds: `rollover` (the score, jewels and level
    /// displays have all rolled over since the run began), `game-over`, `jewels>=N`,
    /// `score>=N`, `level>=N` (the counters with their wraps past 8 digits counted, so any N
    /// can be reached), `columns>=N` (the conditions the plug-in offers); repeatable, the
    /// first that holds ends the run.
    #[arg(long, value_name = "CONDITION")]
    pub until: Vec<String>,
    /// A save state to start from (made by the window's F5 with the same ROM), or a
    /// checkpoint to resume a run from; it is checked and tried before it is used.
    #[arg(long, value_name = "FILE", conflicts_with = "movie")]
    pub state: Option<PathBuf>,
    /// Write the state at the end of the run to FILE.
    #[arg(long, value_name = "FILE")]
    pub save_state: Option<PathBuf>,
    /// Write a checkpoint to FILE every --checkpoint-every frames (each replaces the last only
    /// once whole): the console, the AI's own state and the movie being recorded, so that
    /// `--state FILE` resumes the run as if it had not stopped. FILE may be the --state the
    /// run resumed from.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Frames between checkpoints.
    #[arg(long, value_name = "N", requires = "checkpoint", default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub checkpoint_every: u64,
    /// Record controller 1 from power-on (the buttons applied every frame, whoever pressed
    /// them) to an fm2 movie FILE; resumed from a checkpoint, the movie it carries goes on.
    #[arg(long, value_name = "FILE")]
    pub record_movie: Option<PathBuf>,
    /// Write an animated GIF of the run to FILE: a picture every --gif-every frames, shown at
    /// 30 pictures a second.
    #[arg(long, value_name = "FILE")]
    pub gif: Option<PathBuf>,
    /// Frames between the GIF's pictures: 2 shows the game in real time, 1000 a marathon as a
    /// time-lapse.
    #[arg(long, value_name = "N", requires = "gif", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub gif_every: u64,
    /// Write all 2 KiB of RAM every --ram-log-every frames to FILE, each as `FRAME `, the
    /// bytes and a newline: the format `tests/fceux/dump_ram.lua` writes from FCEUX, for
    /// comparing a long game in both emulators.
    #[arg(long, value_name = "FILE")]
    pub ram_log: Option<PathBuf>,
    /// Frames between two records of --ram-log.
    #[arg(long, value_name = "N", requires = "ram_log", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub ram_log_every: u64,
    /// Write the summary as JSON and plots of the run as PNG (jewels on the board, level, fall
    /// speed, points and decision time per column, rollovers marked) into DIR.
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// Replace the files of --save-state, --record-movie, --gif, --checkpoint, --ram-log and
    /// --report if they exist.
    #[arg(long, requires = "outputs")]
    pub force: bool,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Pace the run as the window does: the plug-ins keep up by time (the player's time
    /// budget), and a frame one takes longer than MS milliseconds over has its buttons released
    /// (the window's limit is 500). Without it the run waits for the plug-ins (lockstep), so that
    /// the same run plays the same game on any machine, however loaded.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub stall_limit: Option<u64>,
    /// Print the plug-ins' notes with their frames: for the Magic Jewelry plug-in, why each
    /// placement won over the runner-up (in the JSON summary: `notes`).
    #[arg(long)]
    pub explain: bool,
    /// Show the run on a web page at PORT or ADDR:PORT (127.0.0.1 unless an address is given; port
    /// 0 picks a free one), watched only: nothing on the page can change the run's game.
    #[arg(long, value_name = "[ADDR:]PORT", value_parser = jewelbot_web::address::parse_listen)]
    pub serve: Option<std::net::SocketAddr>,
    #[command(flatten)]
    pub viewers: ViewerArgs,
}

#[derive(Debug, Args)]
pub struct RamArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Start from a save state or checkpoint instead of power-on (N counts from power-on,
    /// so it is at least the state's frame).
    #[arg(long, value_name = "FILE", conflicts_with = "movie")]
    pub state: Option<PathBuf>,
    /// Frame at which to show RAM (at most 10,000,000).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(..=jewelbot_host::record::MAX_FRAMES))]
    pub frame: u64,
    /// Print what changed each frame up to N.
    #[arg(long)]
    pub watch: bool,
    /// Add a hex dump of $0000-$07FF.
    #[arg(long)]
    pub hex: bool,
}

#[derive(Debug, Args)]
pub struct RecordArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The trace to write (gzip'd when the name ends in .gz).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Replace FILE if it exists.
    #[arg(long)]
    pub force: bool,
    /// An input script to follow (hold, until, poke, note); without it the AI plays.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["frames", "movie"])]
    pub script: Option<PathBuf>,
    /// Frames to record without --script: the AI's play, or the movie's (all of its frames
    /// when --movie is given without --frames); at most 10,000,000, as a script's recording.
    #[arg(long, value_name = "N", required_unless_present_any = ["script", "movie"], value_parser = clap::value_parser!(u64).range(1..=jewelbot_host::record::MAX_FRAMES))]
    pub frames: Option<u64>,
    /// Record this RAM instead of the ranges the plug-in names (`0000-07FF` for all of it):
    /// inclusive hex ranges, comma-separated.
    #[arg(long, value_name = "LO-HI,...", value_parser = jewelbot_host::record::parse_ranges)]
    pub ranges: Option<jewelbot_host::record::Ranges>,
    /// Also record controller 1 to an fm2 movie FILE, as `run --record-movie` does.
    #[arg(long, value_name = "FILE")]
    pub record_movie: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct RomInfoArgs {
    /// ROM file to describe.
    pub path: PathBuf,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Switch {
    On,
    Off,
}

/// The longest run: a bound on a count a user types, far past any marathon (3.3 million frames).
const MAX_RUN_FRAMES: u64 = 1_000_000_000;

/// Subcommands that run a ROM with the plug-ins, and so take their options and the flags that
/// start one (the top-level command, which plays in a window, takes them too).
pub const CONSOLE_COMMANDS: [&str; 4] = ["run", "serve", "ram", "record"];

/// The id of the group of the flags that start a plug-in: at most one starts.
const STARTS: &str = "starts-a-plug-in";

/// A plug-in's option as the command line offers it.
#[derive(Debug, Clone)]
pub struct OfferedOption {
    /// The plug-in that declares it.
    pub plugin: String,
    pub option: PluginOption,
    /// Declared by another plug-in too: its flag is `--PLUGIN.NAME`.
    pub shared: bool,
}

impl OfferedOption {
    /// Every option of `plugins` (name, options), each marked shared where two plug-ins
    /// declare the same name.
    pub fn list(plugins: &[(String, Vec<PluginOption>)]) -> Vec<Self> {
        let all = || plugins.iter().flat_map(|(_, options)| options);
        plugins
            .iter()
            .flat_map(|(plugin, options)| {
                options.iter().map(move |option| Self {
                    plugin: plugin.clone(),
                    option: option.clone(),
                    shared: all().filter(|o| o.name == option.name).count() > 1,
                })
            })
            .collect()
    }

    fn id(&self) -> String {
        format!("plugin-option-{}.{}", self.plugin, self.option.name)
    }

    /// The flag's name on `command`: the option's own, or `PLUGIN.NAME` where another plug-in
    /// declares it too or the host has a flag of that name.
    fn flag_on(&self, command: &clap::Command) -> String {
        let taken = command
            .get_arguments()
            .any(|a| a.get_long() == Some(self.option.name.as_str()));
        if self.shared || taken {
            format!("{}.{}", self.plugin, self.option.name)
        } else {
            self.option.name.clone()
        }
    }
}

/// One plug-in option given on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    pub plugin: String,
    pub name: String,
    pub value: String,
    /// How it was given (`--mode`, `--magic-jewelry.mode`), for messages.
    pub flag: String,
}

/// The command line: the host's own arguments, the flags that start a plug-in and the commands
/// the plug-ins bring ([`plugins::OFFERED`]), and a `--NAME VALUE` flag for every option the
/// plug-ins declare, on the commands that run them.
pub fn command(options: &[OfferedOption]) -> clap::Command {
    let mut command = add_plugin_args(without_plugin_options(), options);
    for name in with_plugin_options() {
        command = command.mut_subcommand(name, |sub| add_plugin_args(sub, options));
    }
    command
}

/// The command line but the plug-ins' options: the host's flags, the flags that start a plug-in
/// on the console commands, and the plug-ins' commands.
fn without_plugin_options() -> clap::Command {
    let mut command = with_starters(Cli::command());
    for name in CONSOLE_COMMANDS {
        command = command.mut_subcommand(name, with_starters);
    }
    for plugin_command in plugins::commands() {
        command = command.subcommand(plugin_command.command());
    }
    command
}

/// `command` with the flags of every plug-in's starter, at most one starter given.
fn with_starters(command: clap::Command) -> clap::Command {
    let mut group = ArgGroup::new(STARTS).multiple(false);
    let mut command = command;
    for starter in plugins::starters() {
        command = command.args((starter.flags)());
        group = group.arg(starter.flag);
    }
    command.group(group)
}

/// The subcommands that take the plug-ins' options: the console commands, and the plug-ins'
/// commands that run the console with them.
fn with_plugin_options() -> Vec<String> {
    let mut names: Vec<String> = CONSOLE_COMMANDS.map(str::to_owned).into();
    names.extend(
        plugins::commands()
            .iter()
            .filter(|c| c.takes_plugin_options())
            .map(|c| c.command().get_name().to_owned()),
    );
    names
}

fn add_plugin_args(command: clap::Command, options: &[OfferedOption]) -> clap::Command {
    options.iter().fold(command, |command, offered| {
        let option = &offered.option;
        if option.name.is_empty() {
            return command;
        }
        let mut arg = Arg::new(offered.id())
            .long(offered.flag_on(&command))
            .value_name(option.value_name.clone())
            .help(format!("{} [default: {}]", option.help, option.value))
            .help_heading(format!("Plug-in options ({})", offered.plugin));
        if !option.choices.is_empty() {
            arg = arg.value_parser(PossibleValuesParser::new(option.choices.clone()));
        } else if option.range.is_some() {
            // A numeric option: NaN, infinities and values out of range are refused here,
            // while the command line is parsed.
            let checked = option.clone();
            arg = arg
                .value_parser(move |value: &str| checked.check(value).map(|()| value.to_owned()));
        }
        command.arg(arg)
    })
}

/// The plug-in options given on the command line, in declaration order.
pub fn plugin_settings(matches: &ArgMatches, options: &[OfferedOption]) -> Vec<Setting> {
    let (matches, command) = match matches.subcommand() {
        Some((name, sub)) if with_plugin_options().iter().any(|n| n == name) => {
            (sub, host_command(Some(name)))
        }
        Some(_) => return Vec::new(),
        None => (matches, host_command(None)),
    };
    options
        .iter()
        .filter_map(|offered| {
            matches
                .try_get_one::<String>(&offered.id())
                .ok()
                .flatten()
                .map(|value| Setting {
                    plugin: offered.plugin.clone(),
                    name: offered.option.name.clone(),
                    value: value.clone(),
                    flag: format!("--{}", offered.flag_on(&command)),
                })
        })
        .collect()
}

/// The host's own flags of the top-level command or of subcommand `name`: those a plug-in's
/// option must step aside from.
fn host_command(name: Option<&str>) -> clap::Command {
    let top = without_plugin_options();
    match name {
        Some(name) => top.find_subcommand(name).cloned().unwrap_or(top),
        None => top,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jewelbot_plugin::NumberRange;

    fn options() -> Vec<OfferedOption> {
        OfferedOption::list(&[("bot".to_owned(), bot_options())])
    }

    fn bot_options() -> Vec<PluginOption> {
        vec![
            PluginOption::number(
                "pace",
                "frames between presses",
                "2",
                NumberRange {
                    min: 1.0,
                    max: 60.0,
                    integer: true,
                },
            ),
            PluginOption::choice("mode", "how", "normal", &["normal", "fast"]),
        ]
    }

    #[test]
    fn plugin_numbers_are_checked_while_parsing() {
        let options = options();
        for bad in ["NaN", "inf", "-inf", "0", "61", "2.5"] {
            let parsed = command(&options)
                .try_get_matches_from(["jewelbot", "run", "--frames", "1", "--pace", bad]);
            assert!(parsed.is_err(), "--pace {bad} accepted");
        }
        let matches = command(&options)
            .try_get_matches_from(["jewelbot", "run", "--frames", "1", "--pace", "3"])
            .expect("in range");
        assert_eq!(
            plugin_settings(&matches, &options),
            vec![Setting {
                plugin: "bot".to_owned(),
                name: "pace".to_owned(),
                value: "3".to_owned(),
                flag: "--pace".to_owned(),
            }]
        );
        assert!(command(&options)
            .try_get_matches_from(["jewelbot", "run", "--frames", "1", "--mode", "warp"])
            .is_err());
    }

    #[test]
    fn options_two_plugins_share_take_the_plugins_names() {
        // `mode` is declared by both, `pace` by one; `frames` is a flag of `run`'s own.
        let options = OfferedOption::list(&[
            ("bot".to_owned(), bot_options()),
            (
                "other".to_owned(),
                vec![
                    PluginOption::choice("mode", "how", "a", &["a", "b"]),
                    PluginOption::text("frames", "which", "x", "TEXT"),
                ],
            ),
        ]);
        let args = [
            "jewelbot",
            "run",
            "--frames",
            "1",
            "--pace",
            "3",
            "--bot.mode",
            "fast",
            "--other.mode",
            "b",
            "--other.frames",
            "y",
        ];
        let matches = command(&options)
            .try_get_matches_from(args)
            .expect("namespaced flags parse");
        let given: Vec<(String, String, String, String)> = plugin_settings(&matches, &options)
            .into_iter()
            .map(|s| (s.plugin, s.name, s.value, s.flag))
            .collect();
        let expected = [
            ("bot", "pace", "3", "--pace"),
            ("bot", "mode", "fast", "--bot.mode"),
            ("other", "mode", "b", "--other.mode"),
            ("other", "frames", "y", "--other.frames"),
        ]
        .map(|(p, n, v, f)| (p.to_owned(), n.to_owned(), v.to_owned(), f.to_owned()));
        assert_eq!(given, expected);
        // The shared name alone is no flag: it would be ambiguous.
        assert!(command(&options)
            .try_get_matches_from(["jewelbot", "run", "--frames", "1", "--mode", "fast"])
            .is_err());
    }

    #[test]
    fn host_numbers_are_checked_while_parsing() {
        for bad in [
            vec!["jewelbot", "run", "--frames", "0"],
            vec!["jewelbot", "run", "--frames", "NaN"],
            vec!["jewelbot", "--scale", "0"],
            vec!["jewelbot", "record", "--out", "x", "--frames", "0"],
            vec!["jewelbot", "run", "--frames", "1", "--force"],
        ] {
            assert!(command(&[]).try_get_matches_from(&bad).is_err(), "{bad:?}");
        }
    }
}
