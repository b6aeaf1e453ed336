//! The command line.

use clap::{Args, Parser, Subcommand, ValueEnum};
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
    /// Show the labelled RAM addresses and the decoded board at a frame.
    Ram(RamArgs),
    /// Describe a ROM file: format, mapper, sizes, hashes and which known dump it is.
    RomInfo(RomInfoArgs),
    /// Check that a ROM behaves as the AI's model of the game assumes.
    Conform(ConformArgs),
    /// Play columns without the emulator and report fill statistics.
    Sim(magic_jewelry_lab::sim::Args),
    /// Compare two strategies on the same column sequences.
    Compare(magic_jewelry_lab::compare::Args),
    /// Tune the evaluation weights.
    Train(magic_jewelry_lab::train::Args),
    /// Learn a board value by temporal-difference learning while playing.
    Learn(magic_jewelry_lab::learn::Args),
}

/// Which ROM and how the plug-in plays it.
#[derive(Debug, Args, Clone)]
pub struct GameArgs {
    /// ROM file to run (default: the built-in open cartridge). The file is never modified.
    #[arg(long, value_name = "PATH")]
    pub rom: Option<PathBuf>,
    /// Whether the AI plays.
    #[arg(long, value_enum, default_value_t = Switch::On)]
    pub ai: Switch,
    /// How the AI presses buttons: normal (watchable) or fast.
    #[arg(long, value_enum, default_value_t = ModeArg::Normal)]
    pub mode: ModeArg,
    /// Search strategy: simple, smart, deep (or deep:CANDIDATES:SAMPLES).
    #[arg(long, value_name = "NAME", default_value = "deep")]
    pub strategy: String,
    /// Evaluation file: weights as JSON or a learned value file (default: the built-in
    /// evaluation).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
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
    /// Starting size: the picture at this whole-number scale.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=8))]
    pub scale: u32,
    /// Start in fullscreen (F11 toggles).
    #[arg(long)]
    pub fullscreen: bool,
    /// Show the RAM inspector at start (I toggles).
    #[arg(long)]
    pub inspector: bool,
    /// Start muted (M toggles).
    #[arg(long)]
    pub mute: bool,
    /// Square pixels instead of the television's 8:7 pixel aspect.
    #[arg(long)]
    pub square_pixels: bool,
    /// Draw without the GPU (automatic when no GPU adapter is found).
    #[arg(long)]
    pub software: bool,
    /// Directory for save states (default: the user's data directory).
    #[arg(long, value_name = "DIR")]
    pub state_dir: Option<PathBuf>,
    /// Directory for screenshots (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub screenshot_dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Run without a window (the only way `run` works; kept explicit for scripts).
    #[arg(long)]
    pub headless: bool,
    /// Frames to run.
    #[arg(long, value_name = "N")]
    pub frames: u64,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct RamArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Frame at which to show RAM.
    #[arg(long, value_name = "N")]
    pub frame: u64,
    /// Print what changed each frame up to N.
    #[arg(long)]
    pub watch: bool,
    /// Add a hex dump of $0000-$07FF.
    #[arg(long)]
    pub hex: bool,
}

#[derive(Debug, Args)]
pub struct RomInfoArgs {
    /// ROM file to describe.
    pub path: PathBuf,
}

#[derive(Debug, Args)]
pub struct ConformArgs {
    /// ROM to check (default: the built-in open cartridge).
    #[arg(long, value_name = "PATH")]
    pub rom: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Switch {
    On,
    Off,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    Normal,
    Fast,
}
