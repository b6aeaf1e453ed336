//! What knowing one more column would be worth: `smart` with the learned value (current and
//! next column known) against the same search with the column after next known too, on the
//! same seeded sequences, under the reference's conditions. No player can know that column;
//! the gap bounds what a look-ahead over it could recover.
//!
//!     cargo run --release -p magic-jewelry --example third_column -- --seeds 8 --columns 5000

use anyhow::Context;
use clap::Parser;
use magic_jewelry_engine::ColumnGenerator;
use magic_jewelry_engine::{
    for_each_result, reachable, Board, Column, FallState, Greedy, InputModel, Question, RuleSet,
    Strategy, ValueNetwork, LEVEL0_FALL_SPEED,
};

/// The conditions the experiment was measured under.
const RULES: RuleSet = RuleSet::Reference;
use rayon::prelude::*;

#[derive(Parser)]
struct Cli {
    /// Sequences played by each search.
    #[arg(long, default_value_t = 8)]
    seeds: u64,
    /// Columns in each sequence.
    #[arg(long, default_value_t = 5000)]
    columns: usize,
    /// Seed of the first sequence.
    #[arg(long, default_value_t = 1000)]
    seed: u64,
}

/// `smart`'s choice, knowing `current` and `next`: the placement's x and rotations.
fn smart(net: &ValueNetwork, board: &Board, current: Column, next: Column) -> Option<(u8, u8)> {
    let start = FallState::spawn(LEVEL0_FALL_SPEED);
    let mut search = Greedy::smart(net).with_rules(RULES);
    let choice = search.choose(&Question::new(
        *board,
        current,
        Some(next),
        start,
        InputModel::FAST,
    ))?;
    Some((choice.x, choice.arrangement))
}

/// The placement of `columns[0]` whose board, with `smart`'s best answer to the other two,
/// scores best.
fn clairvoyant(net: &ValueNetwork, board: &Board, columns: [Column; 3]) -> Option<(u8, u8)> {
    let start = FallState::spawn(LEVEL0_FALL_SPEED);
    let placements = reachable(board, start, InputModel::FAST);
    let mut search = Greedy::smart(net).with_rules(RULES);
    let mut best: Option<(f64, u8, u8)> = None;
    for_each_result(
        RULES,
        board,
        columns[0],
        &placements,
        |p, after, outcome| {
            if outcome.game_over {
                return;
            }
            let next = Some(columns[2]);
            let question = Question::new(*after, columns[1], next, start, InputModel::FAST);
            let Some(answer) = search.choose(&question) else {
                return;
            };
            let score = answer.score - f64::from(after.jewels());
            if best.is_none_or(|b| score > b.0) {
                best = Some((score, p.x, p.arrangement));
            }
        },
    );
    best.map(|(_, x, arrangement)| (x, arrangement))
}

/// Mean jewels on the board after each placement over one sequence, with or without the
/// column after next known (`None`: game over).
fn play(net: &ValueNetwork, seed: u64, columns: usize, third_known: bool) -> Option<f64> {
    let mut generator = ColumnGenerator::uniform(seed);
    let mut queue: [Column; 3] = std::array::from_fn(|_| generator.next_column());
    let mut board = Board::empty();
    let mut total = 0u64;
    for _ in 0..columns {
        let (x, arrangement) = if third_known {
            clairvoyant(net, &board, queue)?
        } else {
            smart(net, &board, queue[0], queue[1])?
        };
        let outcome = RULES
            .lock(&mut board, queue[0].arranged(arrangement), x as usize)
            .ok()?;
        if outcome.game_over {
            return None;
        }
        total += u64::from(board.jewels());
        queue = [queue[1], queue[2], generator.next_column()];
    }
    Some(total as f64 / columns as f64)
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let net = ValueNetwork::trained_for(RULES);
    for (known, third_known) in [(2, false), (3, true)] {
        let means: Vec<f64> = (0..cli.seeds)
            .into_par_iter()
            .map(|s| play(&net, cli.seed + s, cli.columns, third_known))
            .collect::<Option<_>>()
            .with_context(|| format!("a game over with {known} columns known"))?;
        let mean = means.iter().sum::<f64>() / means.len() as f64;
        println!(
            "{known} columns known: mean {mean:.3} jewels over {} sequences",
            means.len()
        );
    }
    Ok(())
}
