//! What a strategy is asked for one decision: the whole question, in one value, so that every
//! strategy takes the same thing and a decision can be asked ahead, kept and checked.

use super::input::{FallState, InputModel};
use super::placement::{reachable, Placements};
use crate::rules::board::{Board, Column};
use crate::rules::{ColumnGenerator, Counters, Game, RuleSet};
use serde::{Deserialize, Serialize};

/// Where to put `current` on `board`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Question {
    pub board: Board,
    /// The column to place, as it stands at `start`.
    pub current: Column,
    /// The next column, when it is shown.
    pub next: Option<Column>,
    /// The column's fall state the search starts from.
    pub start: FallState,
    pub input: InputModel,
    /// The game's counters as the column falls: the combo, the cells towards the next wild
    /// column, the level (the score objective weighs them).
    pub counters: Counters,
    /// When the columns to come are known (foresight): the generator as it stands after making
    /// the next column, so that it makes the ones after it, in order. Wild columns are not in
    /// it: they come from the counters.
    pub generator: Option<ColumnGenerator>,
}

impl Question {
    /// A question with nothing known beyond the board and the two columns shown.
    pub fn new(
        board: Board,
        current: Column,
        next: Option<Column>,
        start: FallState,
        input: InputModel,
    ) -> Self {
        Self {
            board,
            current,
            next,
            start,
            input,
            counters: Counters::default(),
            generator: None,
        }
    }

    /// What a strategy is asked about `game`'s column in hand as it spawns: the board, both
    /// columns and the counters, and the column generator when `foresight` lets it see ahead.
    pub fn at_spawn(game: &Game, input: InputModel, foresight: bool) -> Self {
        Self {
            counters: *game.counters(),
            generator: foresight.then(|| game.generator().clone()),
            ..Self::new(
                *game.board(),
                game.current(),
                Some(game.next()),
                FallState::spawn(game.fall_speed()),
                input,
            )
        }
    }

    /// Every placement the current column can reach from where it starts.
    pub fn placements(&self) -> Placements {
        reachable(&self.board, self.start, self.input)
    }

    /// Where the columns after the current one start under `rules`: at the same speed, or
    /// after a wild column the next level's.
    pub fn next_spawn(&self, rules: RuleSet) -> FallState {
        self.start.after(rules, self.current)
    }

    /// A decision made for `self` is good for `other`: the same board, columns, pace and
    /// speed, the counters strategies weigh (cells towards the wild column, combo) and the
    /// known columns (a generator pinned from the columns seen is only known modulo the cycle
    /// of colours). Where the column is in its fall is handled by rebuilding the timeline; the
    /// level is not compared, the speed it sets is.
    pub fn answers(&self, other: &Self) -> bool {
        self.board == other.board
            && self.current == other.current
            && self.next == other.next
            && self.input == other.input
            && self.start.speed == other.start.speed
            && self.counters.since_wild == other.counters.since_wild
            && self.counters.combo == other.counters.combo
            && same_columns_ahead(self.generator.as_ref(), other.generator.as_ref())
    }
}

/// Two generators make the same columns from now on.
fn same_columns_ahead(a: Option<&ColumnGenerator>, b: Option<&ColumnGenerator>) -> bool {
    match (a, b) {
        (Some(ColumnGenerator::Game(a)), Some(ColumnGenerator::Game(b))) => {
            a.cycle_position() == b.cycle_position()
        }
        (a, b) => a == b,
    }
}
