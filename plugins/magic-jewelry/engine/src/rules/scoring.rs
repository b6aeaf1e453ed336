//! The game's counters and what a lock adds to them: points by the scoring formula, the combo
//! counter, the cells counted towards the next wild column, and the level.

use super::board::{Board, Column};
use super::resolve::{LockError, LockOutcome};
use super::rule_set::{RuleSet, WILD_EVERY};

/// Highest value of the combo counter ($A0).
pub const MAX_COMBO: u8 = 9;

/// Points for step `step` (1, 2, …) of a resolution that removes `cells` cells:
/// `b + V · 2^(step−1) · (n + (n−3)(n−2)/2)`, with `V = 100 + 10 · combo` (the counter before
/// the lock) and a bonus `b = min(max(12 − y, 0), 9)` for the locked column's bottom row `y`.
pub fn step_points(step: u32, cells: u32, combo: u8, bottom_row: i8) -> u64 {
    let n = u64::from(cells);
    let bonus = (12 - i64::from(bottom_row)).clamp(0, 9) as u64;
    let value = 100 + 10 * u64::from(combo);
    let shape = n + n.saturating_sub(3) * n.saturating_sub(2) / 2;
    bonus + (value << (step.max(1) - 1).min(32)) * shape
}

/// The counters a game keeps in RAM, as totals (the game's decimal counters roll over at 8
/// digits; these do not).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Counters {
    /// Points scored.
    pub score: u64,
    /// Cells removed by matches, X's included (the jewels counter, $7F).
    pub jewels: u64,
    /// Cells removed since the last wild column ($6E).
    pub since_wild: u32,
    /// The combo counter ($A0), 0-9.
    pub combo: u8,
    /// The internal level ($6D): wild columns landed, wrapping from 255 to 0. It sets the speed.
    pub level: u8,
    /// Wild columns generated (the displayed level, $87).
    pub wild_columns: u64,
}

/// What one lock did, with what the game's counters made of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resolution {
    /// What happened on the board.
    pub outcome: LockOutcome,
    /// Row of the locked column's bottom jewel.
    pub bottom_row: i8,
    /// Points the game adds for this lock.
    pub points: u64,
    /// The next column is the wild column.
    pub wild_due: bool,
    /// The level after the lock (it rises when a wild column lands).
    pub level: u8,
}

impl Counters {
    /// Counts a resolved lock: `wild` when the locked column was the wild column, `bottom_row`
    /// the row its bottom jewel locked in.
    pub fn count(
        &mut self,
        rules: RuleSet,
        outcome: &LockOutcome,
        bottom_row: i8,
        wild: bool,
    ) -> Resolution {
        let removed = u32::from(outcome.removed);
        let points = if rules.scores() {
            (1..)
                .zip(outcome.step_counts())
                .map(|(step, &cells)| step_points(step, u32::from(cells), self.combo, bottom_row))
                .sum()
        } else {
            0
        };
        self.score += points;
        self.jewels += u64::from(removed);
        self.combo = if outcome.chains > 0 {
            self.combo.saturating_add(1).min(MAX_COMBO)
        } else {
            self.combo.saturating_sub(2)
        };
        if wild {
            self.level = self.level.wrapping_add(1);
        }
        let mut wild_due = false;
        if rules.has_wild_columns() {
            self.since_wild += removed;
            if self.since_wild >= WILD_EVERY {
                self.since_wild -= WILD_EVERY;
                self.wild_columns += 1;
                wild_due = true;
            }
        }
        Resolution {
            outcome: *outcome,
            bottom_row,
            points,
            wild_due,
            level: self.level,
        }
    }

    /// Locks `column` in column `x` under `rules` and counts it: the board as the next column
    /// spawns, and what the game made of the lock.
    pub fn lock(
        &mut self,
        rules: RuleSet,
        board: &mut Board,
        column: Column,
        x: usize,
    ) -> Result<Resolution, LockError> {
        let bottom_row = if x < board.heights.len() {
            board.rest_row(x)
        } else {
            0
        };
        let outcome = rules.lock(board, column, x)?;
        Ok(self.count(rules, &outcome, bottom_row, column == Column::WILD))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checks of the specification: a match of three on the floor, with the combo counter
    /// climbing over consecutive clearing locks.
    #[test]
    fn consecutive_floor_clears_score_300_330_and_up() {
        let mut counters = Counters::default();
        let mut scored = Vec::new();
        for _ in 0..12 {
            let mut board = Board::from_text("44....").unwrap();
            let r = counters
                .lock(RuleSet::Real, &mut board, Column::new(1, 2, 4), 2)
                .unwrap();
            assert_eq!((r.outcome.step_counts(), r.bottom_row), (&[3][..], 12));
            scored.push(r.points);
        }
        assert_eq!(
            scored,
            [300, 330, 360, 390, 420, 450, 480, 510, 540, 570, 570, 570]
        );
        assert_eq!(counters.score, scored.iter().sum::<u64>());
        assert_eq!(counters.combo, MAX_COMBO);
        // A lock without a match takes 2 off the counter, to no less than 0.
        let mut board = Board::empty();
        let r = counters
            .lock(RuleSet::Real, &mut board, Column::new(1, 2, 3), 0)
            .unwrap();
        assert_eq!((r.points, counters.combo), (0, 7));
        for _ in 0..4 {
            counters
                .lock(RuleSet::Real, &mut board, Column::new(4, 5, 6), 5)
                .ok();
        }
        assert_eq!(counters.combo, 0);
    }

    /// A combo read from poked RAM can be anything: a clearing lock brings it back to 9.
    #[test]
    fn a_combo_past_the_game_s_range_does_not_overflow() {
        let mut counters = Counters {
            combo: u8::MAX,
            ..Counters::default()
        };
        let mut board = Board::from_text("44....").unwrap();
        let r = counters
            .lock(RuleSet::Real, &mut board, Column::new(1, 2, 4), 2)
            .unwrap();
        assert_eq!(r.points, 3 * (100 + 10 * u64::from(u8::MAX)));
        assert_eq!(counters.combo, MAX_COMBO);
    }

    #[test]
    fn bigger_matches_and_chains() {
        let points = |text: &str, column: [u8; 3], x: usize| {
            let mut board = Board::from_text(text).unwrap();
            let mut counters = Counters::default();
            let r = counters
                .lock(RuleSet::Real, &mut board, Column(column), x)
                .unwrap();
            (r.outcome.step_counts().to_vec(), r.points)
        };
        assert_eq!(points("44.4..", [1, 2, 4], 2), (vec![4], 500));
        assert_eq!(points("44.44.", [1, 2, 4], 2), (vec![5], 800));
        assert_eq!(points("\n22....\n11....", [2, 2, 1], 2), (vec![6], 1200));
        assert_eq!(points("\n..3...\n3355..", [1, 2, 5], 4), (vec![3, 3], 900));
        // The bottom jewel in row 3: a bonus of 9 (12 − 3), the combo counter at 0.
        let tall = "4.....\n1.....\n2.....\n1.....\n2.....\n1.....\n2.....\n1.....\n2.....";
        let mut board = Board::from_text(tall).unwrap();
        let mut counters = Counters::default();
        let r = counters
            .lock(RuleSet::Real, &mut board, Column::new(3, 4, 4), 0)
            .unwrap();
        assert_eq!((r.bottom_row, r.outcome.step_counts()), (3, &[3][..]));
        assert_eq!(r.points, 309);
        // And with the counter at 9: 579.
        let mut board = Board::from_text(tall).unwrap();
        let mut counters = Counters {
            combo: 9,
            ..Counters::default()
        };
        let r = counters
            .lock(RuleSet::Real, &mut board, Column::new(3, 4, 4), 0)
            .unwrap();
        assert_eq!(r.points, 579);
    }

    #[test]
    fn the_formula() {
        assert_eq!(step_points(1, 3, 0, 12), 300);
        assert_eq!(step_points(2, 3, 0, 12), 600);
        assert_eq!(step_points(1, 7, 9, 11), 1 + 190 * 17);
        // The bonus stays within 0-9.
        assert_eq!(step_points(1, 3, 0, -1), 309);
        assert_eq!(step_points(1, 3, 0, 13), 300);
    }

    #[test]
    fn wild_columns_come_every_70_cells_and_raise_the_level() {
        let mut counters = Counters {
            since_wild: 68,
            ..Counters::default()
        };
        let mut board = Board::from_text("44....").unwrap();
        let r = counters
            .lock(RuleSet::Real, &mut board, Column::new(1, 2, 4), 2)
            .unwrap();
        assert!(r.wild_due);
        assert_eq!((counters.since_wild, counters.wild_columns), (1, 1));
        assert_eq!(r.level, 0);
        // The wild column on the floor: three X's, one step, and the level rises.
        let mut board = Board::empty();
        let r = counters
            .lock(RuleSet::Real, &mut board, Column::WILD, 4)
            .unwrap();
        assert_eq!(r.outcome.step_counts(), &[3]);
        assert_eq!((r.level, counters.since_wild, r.wild_due), (1, 4, false));
        assert_eq!(r.points, 330);
        // The reference's game counts jewels and nothing else.
        let mut counters = Counters {
            since_wild: 68,
            ..Counters::default()
        };
        let mut board = Board::from_text("44....").unwrap();
        let r = counters
            .lock(RuleSet::Reference, &mut board, Column::new(1, 2, 4), 2)
            .unwrap();
        assert_eq!((r.points, r.wild_due, counters.jewels), (0, false, 3));
    }
}
