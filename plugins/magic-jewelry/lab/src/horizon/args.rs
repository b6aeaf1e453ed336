//! `horizon`'s options: the real game's starts, and the reference rules' estimate.

use crate::args::Workers;
use crate::player_args::PlayerArgs;
use crate::splitting;
use crate::PLAYER;
use clap::builder::TypedValueParser;
use magic_jewelry_engine::GameGenerator;
use std::path::PathBuf;

/// The most columns one start may play by default before it is called undecided: some 14
/// times the shortest period the counters allow (143,360 columns), and about 100 MB of states.
pub const DEFAULT_MAX_COLUMNS: u64 = 2_000_000;

/// The largest `--max-columns`.
pub const MOST_MAX_COLUMNS: u64 = 100_000_000;

/// Seconds between two checkpoints of a start, by default.
pub const DEFAULT_CHECKPOINT_EVERY: u64 = 300;

/// The most columns a game counted directly may play, by default (`--game-limit`).
pub const DEFAULT_GAME_LIMIT: u64 = 100_000_000;

/// Options of `horizon`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The AI: `player` (its strategy with the learned value), `reference`, a strategy name,
    /// or NAME@FILE.
    #[arg(long, default_value = PLAYER, value_parser = crate::args::ai)]
    pub ai: String,
    /// The player's other settings. Under `--rules real` it proves (a finite game, so a cycle
    /// or a game over); under `--rules reference` (uniform, independent colours: no cycle) it
    /// estimates the mean columns to game over with its 95% interval by multilevel splitting.
    /// The proof needs a player that decides the same way every time: a work budget (by
    /// default the player's 3,000 boards a decision).
    #[command(flatten)]
    pub player: PlayerArgs,
    #[command(flatten)]
    pub splitting: SplittingArgs,
    /// The generator's state the game starts from (its first two columns are made from it;
    /// decimal or 0x hex; default: the all-zero power-on's, 0xADAD).
    #[arg(long, value_name = "S", value_parser = generator_state, conflicts_with_all = ["starts", "every_start"])]
    pub generator_state: Option<u16>,
    /// Play N starts drawn at random from the generator's cycle (by --seed).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=u64::from(GameGenerator::CYCLE)), conflicts_with = "every_start")]
    pub starts: Option<u64>,
    /// Seed of the random starts.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play every place of the generator's cycle: every game the real cartridge can deal.
    #[arg(long)]
    pub every_start: bool,
    /// The most columns a start may play before it is called undecided (real rules) [default:
    /// 2000000].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=MOST_MAX_COLUMNS))]
    pub max_columns: Option<u64>,
    /// Append each start's result to FILE as a JSON line as soon as it is decided; a later
    /// run with the same FILE and settings skips the starts it holds, so a long run resumes
    /// where it stopped.
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// Keep each start's game in progress in DIR (a file a start, written whole every
    /// --checkpoint-every seconds), so that a start of hours resumes where it stopped when the
    /// same command runs again; a decided start's file goes, and what its game teaches the
    /// other starts stays there, for a later run to share.
    #[arg(long, value_name = "DIR")]
    pub checkpoint: Option<PathBuf>,
    /// Seconds between two checkpoints of a start (real rules) [default: 300].
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub checkpoint_every: Option<u64>,
    #[command(flatten)]
    pub workers: Workers,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

impl Args {
    /// The most columns a start may play.
    pub fn max_columns(&self) -> u64 {
        self.max_columns.unwrap_or(DEFAULT_MAX_COLUMNS)
    }

    /// Seconds between two checkpoints of a start.
    pub fn checkpoint_every(&self) -> u64 {
        self.checkpoint_every.unwrap_or(DEFAULT_CHECKPOINT_EVERY)
    }

    /// The options of the real game's proof given on the command line (refused under the
    /// reference rules, which would ignore them).
    pub fn real_options_given(&self) -> Vec<&'static str> {
        let given = [
            ("--generator-state", self.generator_state.is_some()),
            ("--starts", self.starts.is_some()),
            ("--every-start", self.every_start),
            ("--max-columns", self.max_columns.is_some()),
            ("--results", self.results.is_some()),
            ("--checkpoint", self.checkpoint.is_some()),
            ("--checkpoint-every", self.checkpoint_every.is_some()),
            ("--foresight", self.player.spec.foresight),
        ];
        given
            .into_iter()
            .filter_map(|(name, given)| given.then_some(name))
            .collect()
    }
}

/// The reference rules' estimate (`--rules reference`). Each option is `None` when not given,
/// so that the real rules refuse it rather than ignore it; its default is in its help.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SplittingArgs {
    /// A weakened player: this share of its placements (0 to 1) drawn at random from those
    /// the column can reach (reference rules) [default: 0].
    #[arg(long, value_name = "Q", value_parser = share)]
    pub random_share: Option<f64>,
    /// Trials at each level of each replication (reference rules) [default: 1000].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(10..=1_000_000).map(|n: u32| n as usize))]
    pub trials: Option<usize>,
    /// Go on past --trials at a level until K trials have reached the next (reference rules;
    /// 0: every level gets --trials), up to --most-trials: for players whose last levels are
    /// rarely reached [default: 0].
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(0..=100_000).map(|n: u32| n as usize))]
    pub reach: Option<usize>,
    /// The most trials a level may take with --reach (reference rules) [default: 100000].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(10..=100_000_000).map(|n: u32| n as usize))]
    pub most_trials: Option<usize>,
    /// Independent replications, which give the interval (reference rules) [default: 10].
    #[arg(long, value_name = "R", value_parser = clap::value_parser!(u32).range(2..=10_000).map(|n: u32| n as usize))]
    pub replications: Option<usize>,
    /// Columns each replication plays to count departures from the safe set (reference
    /// rules) [default: 20000].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(100..=1_000_000_000))]
    pub direct_columns: Option<u64>,
    /// Rows between two levels of the tallest stack (reference rules) [default: 1].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=20))]
    pub level_step: Option<u32>,
    /// Also play N games to their end and count their mean life, to check the estimate
    /// against (reference rules).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(2..=1_000_000))]
    pub direct_games: Option<u64>,
    /// The most columns a game counted directly may play (reference rules) [default:
    /// 100000000].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=10_000_000_000))]
    pub game_limit: Option<u64>,
    /// Make N estimates with seeds --seed to --seed + N - 1 and, with --direct-games, say how
    /// many of their intervals hold the direct figure (reference rules) [default: 1].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000))]
    pub runs: Option<u32>,
}

impl SplittingArgs {
    /// The estimate's configuration: the options given, the defaults for the others.
    pub fn config(&self, seed: u64) -> splitting::Config {
        let default = splitting::Config::default();
        splitting::Config {
            direct_columns: self.direct_columns.unwrap_or(default.direct_columns),
            trials: self.trials.unwrap_or(default.trials),
            reach: self.reach.unwrap_or(default.reach),
            most_trials: self.most_trials.unwrap_or(default.most_trials),
            replications: self.replications.unwrap_or(default.replications),
            level_step: self.level_step.unwrap_or(default.level_step),
            seed,
            ..default
        }
    }

    /// The share of placements drawn at random.
    pub fn random_share(&self) -> f64 {
        self.random_share.unwrap_or(0.0)
    }

    /// The most columns a game counted directly may play.
    pub fn game_limit(&self) -> u64 {
        self.game_limit.unwrap_or(DEFAULT_GAME_LIMIT)
    }

    /// Estimates made.
    pub fn runs(&self) -> u32 {
        self.runs.unwrap_or(1)
    }

    /// The options given on the command line (refused under the real rules, which would
    /// ignore them).
    pub fn given(&self) -> Vec<&'static str> {
        let given = [
            ("--random-share", self.random_share.is_some()),
            ("--trials", self.trials.is_some()),
            ("--reach", self.reach.is_some()),
            ("--most-trials", self.most_trials.is_some()),
            ("--replications", self.replications.is_some()),
            ("--direct-columns", self.direct_columns.is_some()),
            ("--level-step", self.level_step.is_some()),
            ("--direct-games", self.direct_games.is_some()),
            ("--game-limit", self.game_limit.is_some()),
            ("--runs", self.runs.is_some()),
        ];
        given
            .into_iter()
            .filter_map(|(name, given)| given.then_some(name))
            .collect()
    }
}

/// `--random-share`: a number from 0 to 1.
fn share(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(q) if (0.0..=1.0).contains(&q) => Ok(q),
        _ => Err(format!("`{text}` is not a share from 0 to 1")),
    }
}

/// `--generator-state`: decimal or `0x` hex, 0 to 65535.
pub(super) fn generator_state(text: &str) -> Result<u16, String> {
    let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u16::from_str_radix(hex, 16).ok(),
        None => text.parse::<u16>().ok(),
    };
    parsed.ok_or_else(|| {
        format!("`{text}` is not a generator state from 0 to 65535 (or 0x0 to 0xFFFF)")
    })
}
