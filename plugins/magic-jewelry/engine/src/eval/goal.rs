//! What a search plays for: the value of a path's last board, seeing what the path's locks did
//! (a [`Tally`]: the points they scored, the game's counters after them, whether the wild
//! column comes next). Every search values its paths through a [`Goal`], so any search plays any
//! objective: a board [`Evaluator`] is the survive objective's goal (it values the board alone),
//! a [`ScoreEvaluator`] the score objective's.

use super::score::ScoreEvaluator;
use super::Evaluator;
use crate::rules::resolve::LockOutcome;
use crate::rules::{Board, Counters, RuleSet};

/// What the locks of a search path did so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// The game's counters after the path's locks.
    pub counters: Counters,
    /// Points the path's locks scored.
    pub points: u64,
    /// The next column is the wild column.
    pub wild_due: bool,
}

impl Tally {
    /// A path that has locked nothing yet, from the game's `counters`.
    pub fn start(counters: Counters) -> Self {
        Self {
            counters,
            points: 0,
            wild_due: false,
        }
    }

    /// The path after one more lock: its `outcome`, the bottom jewel's row, and whether the
    /// column was the wild column.
    #[inline]
    pub fn after(&self, rules: RuleSet, outcome: &LockOutcome, bottom_row: i8, wild: bool) -> Self {
        let mut counters = self.counters;
        let resolution = counters.count(rules, outcome, bottom_row, wild);
        Self {
            counters,
            points: self.points + resolution.points,
            wild_due: resolution.wild_due,
        }
    }
}

/// What a search values its paths with.
pub trait Goal: Send + Sync {
    /// Whether values depend on what the locks did. Searches then count every lock of a path,
    /// and follow a lock that brings the wild column with the wild column; otherwise they
    /// skip the counting, and the path is the columns shown.
    fn sees_locks(&self) -> bool;

    /// The value of a path's last `board` after locks that did `tally` (higher is better).
    fn value(&self, rules: RuleSet, board: &Board, tally: &Tally) -> f64;

    /// What holding `board` for one column on the way costs (subtracted from the value).
    fn interim(&self, board: &Board) -> f64;

    /// What values a board alone, for safety.
    fn boards(&self) -> &dyn Evaluator;
}

/// The survive objective: the board alone, whatever the locks scored.
impl<E: Evaluator + Send + Sync> Goal for E {
    #[inline]
    fn sees_locks(&self) -> bool {
        false
    }

    #[inline]
    fn value(&self, _rules: RuleSet, board: &Board, _tally: &Tally) -> f64 {
        self.score(board)
    }

    #[inline]
    fn interim(&self, board: &Board) -> f64 {
        self.interim_cost(board)
    }

    fn boards(&self) -> &dyn Evaluator {
        self
    }
}

/// The score objective: the board's safety, the points, and what the board promises.
impl<E: Evaluator + Send + Sync> Goal for ScoreEvaluator<E> {
    fn sees_locks(&self) -> bool {
        true
    }

    #[inline]
    fn value(&self, rules: RuleSet, board: &Board, tally: &Tally) -> f64 {
        self.leaf(rules, board, &tally.counters, tally.points, tally.wild_due)
    }

    #[inline]
    fn interim(&self, board: &Board) -> f64 {
        self.survival().interim_cost(board)
    }

    fn boards(&self) -> &dyn Evaluator {
        self.survival()
    }
}
