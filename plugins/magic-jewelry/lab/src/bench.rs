//! `bench`: the behaviour signature. The player's own configuration plays a fixed seeded
//! sequence of the real game with no time budget, once for each objective and with foresight,
//! and reports how many boards its search scored, how full it kept the board and the points.
//! The figures depend only on the code: a change that alters play alters them, a pure
//! refactoring leaves them, so commits that change play quote them.

use super::runner::{self, GameConfig};
use super::stats::Stats;
use magic_jewelry_engine::{
    AnyEvaluator, Board, Budget, Evaluator, Objective, PlayerSpec, RuleSet,
};
use serde::Serialize;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Options of `bench`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Columns to play.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=crate::args::MAX_COLUMNS))]
    pub columns: u64,
    /// Seed of the column sequence.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print the signature as JSON.
    #[arg(long)]
    pub json: bool,
}

impl Default for Args {
    fn default() -> Self {
        Self {
            columns: 1000,
            seed: 1,
            json: false,
        }
    }
}

/// What the player plays for in one line of the signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Line {
    pub objective: Objective,
    /// Searching the columns the generator will make, with the player's foresight.
    pub foresight: bool,
}

impl Line {
    /// The signature's lines: survival (the player's default), points, points with foresight.
    pub const ALL: [Line; 3] = [
        Line {
            objective: Objective::Survive,
            foresight: false,
        },
        Line {
            objective: Objective::Score,
            foresight: false,
        },
        Line {
            objective: Objective::Score,
            foresight: true,
        },
    ];
}

/// One line of the behaviour signature.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Signature {
    /// The rules the player plays by (always the real game's).
    pub rules: RuleSet,
    pub strategy: String,
    #[serde(flatten)]
    pub line: Line,
    pub seed: u64,
    pub columns: u64,
    /// Boards the search scored over the run.
    pub boards: u64,
    pub mean_jewels: f64,
    pub max_jewels: u32,
    pub jewels_removed: u64,
    pub game_overs: u64,
    pub points: u64,
    pub wild_columns: u64,
    /// Boards scored per millisecond (the only figure that depends on the machine).
    pub boards_per_ms: f64,
}

/// An evaluator that counts the boards it scores.
#[derive(Debug, Clone)]
struct Counted {
    inner: AnyEvaluator,
    boards: Arc<AtomicU64>,
}

impl Evaluator for Counted {
    fn score(&self, board: &Board) -> f64 {
        self.boards.fetch_add(1, Ordering::Relaxed);
        self.inner.score(board)
    }

    fn interim_cost(&self, board: &Board) -> f64 {
        self.inner.interim_cost(board)
    }
}

/// Plays one line of the signature.
pub fn signature(args: &Args, line: Line) -> Signature {
    let spec = PlayerSpec {
        objective: line.objective,
        foresight: line.foresight,
        ..PlayerSpec::default().with_budget(Budget::UNLIMITED)
    };
    let boards = Arc::new(AtomicU64::new(0));
    let evaluator = Counted {
        inner: spec.evaluation.evaluator(spec.rules),
        boards: Arc::clone(&boards),
    };
    let mut strategy = spec.build_with(evaluator);
    let mut stats = Stats::default();
    let began = Instant::now();
    let config = GameConfig::of(&spec);
    runner::run(
        strategy.as_mut(),
        args.seed,
        args.columns,
        config,
        |turn, _| {
            stats.record_turn(turn, None);
        },
    );
    let millis = began.elapsed().as_secs_f64() * 1e3;
    let boards = boards.load(Ordering::Relaxed);
    Signature {
        rules: config.rules,
        strategy: spec.strategy.to_string(),
        line,
        seed: args.seed,
        columns: stats.columns,
        boards,
        mean_jewels: stats.mean_jewels(),
        max_jewels: stats.max_jewels,
        jewels_removed: stats.removed,
        game_overs: stats.game_overs,
        points: stats.chains.points,
        wild_columns: stats.wild_columns,
        boards_per_ms: boards as f64 / millis.max(1e-9),
    }
}

/// `bench`: prints the signature, a line for each objective.
pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<()> {
    if args.json {
        let lines: Vec<Signature> = Line::ALL.iter().map(|&l| signature(args, l)).collect();
        writeln!(out, "{}", serde_json::to_string_pretty(&lines)?)?;
        return Ok(());
    }
    for line in Line::ALL {
        let s = signature(args, line);
        let plays_for = match (line.objective, line.foresight) {
            (Objective::Survive, _) => "survive",
            (Objective::Score, false) => "score",
            (Objective::Score, true) => "score with foresight",
        };
        writeln!(
            out,
            "bench {plays_for}: {} with the built-in evaluation, {} rules, seed {}, {} columns: {} boards, mean {:.4} jewels (max {}), {} removed, {} wild columns, {} points, {} game overs ({:.0} boards/ms)",
            s.strategy,
            s.rules,
            s.seed,
            s.columns,
            s.boards,
            s.mean_jewels,
            s.max_jewels,
            s.jewels_removed,
            s.wild_columns,
            s.points,
            s.game_overs,
            s.boards_per_ms
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_repeats_and_counts_the_search() {
        let args = Args {
            columns: 40,
            ..Args::default()
        };
        let a = signature(&args, Line::ALL[0]);
        let b = signature(&args, Line::ALL[0]);
        assert_eq!((a.boards, a.mean_jewels), (b.boards, b.mean_jewels));
        // deep scores every second placement of every first one, then looks further.
        assert!(a.boards > 40 * 18 * 18, "{a:?}");
        assert_eq!(a.columns, 40);
    }

    /// Each line plays its own game: points are what the score objective plays for.
    #[test]
    fn every_objective_has_its_line() {
        let args = Args {
            columns: 40,
            ..Args::default()
        };
        let [survive, score, foresight] = Line::ALL.map(|line| signature(&args, line));
        assert_eq!(score.line.objective, Objective::Score);
        assert!(foresight.line.foresight);
        assert_ne!(survive.boards, score.boards);
        assert_ne!(score.boards, foresight.boards);
    }
}
