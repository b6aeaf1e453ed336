//! Locking a column and everything that follows: matches, collapses, chains, the wild column,
//! the spawn of the next column and game over, under either [`RuleSet`].

use super::board::{
    Board, Column, HIDDEN_MASK, ROWS, ROW_MINUS_1_MASK, ROW_MINUS_2_MASK, STRIDE, VISIBLE_MASK,
    VISIBLE_ROWS, WIDTH,
};
use super::rule_set::RuleSet;
use super::SPAWN_X;

/// Shifts between a cell and its neighbour: vertical, horizontal, both diagonals.
pub(crate) const DIRECTIONS: [u32; 4] = [1, STRIDE, STRIDE + 1, STRIDE - 1];

/// Most steps a resolution can take: a board holds at most 90 cells and every step removes at
/// least 3, so every step's count is kept.
pub const MAX_STEPS: usize = 30;

/// What a lock did to the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LockOutcome {
    /// Cells removed by matches over all steps, a wild column's X's included (the game counts
    /// them as jewels).
    pub removed: u16,
    /// Match steps: 0 when nothing matched, 2 or more for a chain reaction. A wild column's
    /// landing is its first step.
    pub chains: u8,
    /// Cells removed at each step (the first `chains` entries).
    pub steps: [u8; MAX_STEPS],
    /// Jewels gone without being matched, real rules only: row -2 at every collapse, and the
    /// jewel at (3, 0) that the next column's spawn overwrites.
    pub erased: u8,
    /// The game is lost.
    pub game_over: bool,
}

impl LockOutcome {
    /// Per-step removal counts.
    pub fn step_counts(&self) -> &[u8] {
        &self.steps[..(self.chains as usize).min(MAX_STEPS)]
    }

    #[inline]
    fn record(&mut self, count: u32) {
        if (self.chains as usize) < MAX_STEPS {
            self.steps[self.chains as usize] = count.min(255) as u8;
        }
        self.chains = self.chains.saturating_add(1);
        self.removed = self.removed.saturating_add(count as u16);
    }
}

/// Why a lock was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LockError {
    #[error("column x {0} is outside 0-5")]
    OutOfRange(usize),
    #[error("column {0} is full: no room for a column")]
    ColumnFull(usize),
    #[error("jewels must be colours 1-6 or a whole wild column")]
    InvalidColumn,
}

/// Every cell that is part of a line of 3 or more equal jewels, in all four directions. In the
/// real game the middle cell of a line must be in rows -1..12, which only rules out lines
/// across row -2 (a vertical or diagonal line's middle is never in the top row).
#[inline]
pub(crate) fn matches(board: &Board, rules: RuleSet) -> u128 {
    let [p0, p1, p2] = board.planes;
    let occ = p0 | p1 | p2;
    let mut matched = 0;
    for d in DIRECTIONS {
        // Cells equal to their neighbour at +d; the padding bit keeps lines from wrapping.
        let eq = occ & (occ >> d) & !((p0 ^ (p0 >> d)) | (p1 ^ (p1 >> d)) | (p2 ^ (p2 >> d)));
        let mut start = eq & (eq >> d);
        if d == STRIDE && rules == RuleSet::Real {
            start &= !ROW_MINUS_2_MASK;
        }
        matched |= start | (start << d) | (start << (2 * d));
    }
    matched
}

/// The cells of `cells` (empty cells in the visible rows, where the real game's exception for
/// row -2 cannot apply) where a jewel of `colour` would line up with two of its colour, so that
/// [`matches()`] finds a line through it: every cell at once.
#[inline]
pub(crate) fn lines_through(board: &Board, cells: u128, colour: u8) -> u128 {
    debug_assert!(cells & !VISIBLE_MASK == 0);
    let same = board.colour_mask(colour);
    let mut through = 0;
    for d in DIRECTIONS {
        // Two of the colour ahead, one on each side, or two behind.
        let ahead = same >> d;
        let behind = same << d;
        through |= (ahead & same >> (2 * d)) | (behind & ahead) | (behind & same << (2 * d));
    }
    through & cells
}

/// Removes `gone` and lets the stacks fall; true when a jewel fell. The real game compacts rows
/// -1..12 only: whatever is in row -2 is erased.
#[inline]
fn collapse(board: &mut Board, gone: u128, rules: RuleSet, outcome: &mut LockOutcome) -> bool {
    let gone = match rules {
        RuleSet::Reference => gone,
        RuleSet::Real => {
            let erased = board.occupancy() & ROW_MINUS_2_MASK & !gone;
            outcome.erased += erased.count_ones() as u8;
            gone | erased
        }
    };
    board.remove_and_settle(gone)
}

/// Removes matches until the board is stable, recording each step.
#[inline]
fn settle(board: &mut Board, rules: RuleSet, outcome: &mut LockOutcome) {
    loop {
        let matched = matches(board, rules);
        if matched == 0 {
            break;
        }
        outcome.record(matched.count_ones());
        // Every line of the cells left was there before, and matched with the rest, unless
        // a jewel fell into it: when none fell the board is stable.
        if !collapse(board, matched, rules, outcome) {
            break;
        }
    }
}

/// True when the next column cannot spawn (row 0 of column 3 is taken).
#[inline]
pub(crate) fn spawn_blocked(board: &Board) -> bool {
    board.heights[SPAWN_X as usize] as usize >= VISIBLE_ROWS
}

/// Locks `column` on top of the stack in column `x` and resolves everything under the real
/// game's rules (the rules the player lives by): [`RuleSet::lock`] with [`RuleSet::Real`].
pub fn lock(board: &mut Board, column: Column, x: usize) -> Result<LockOutcome, LockError> {
    RuleSet::Real.lock(board, column, x)
}

impl RuleSet {
    /// Locks `column` on top of the stack in column `x` and resolves everything. The board is
    /// left as the game shows it once the next column has spawned.
    pub fn lock(
        self,
        board: &mut Board,
        column: Column,
        x: usize,
    ) -> Result<LockOutcome, LockError> {
        if x >= WIDTH {
            return Err(LockError::OutOfRange(x));
        }
        if !column.is_valid() {
            return Err(LockError::InvalidColumn);
        }
        if board.heights[x] as usize + 3 > ROWS {
            return Err(LockError::ColumnFull(x));
        }
        Ok(lock_unchecked(self, board, column, x))
    }
}

/// [`RuleSet::lock`] for callers that already know the column fits (the search).
#[inline]
pub(crate) fn lock_unchecked(
    rules: RuleSet,
    board: &mut Board,
    column: Column,
    x: usize,
) -> LockOutcome {
    let mut outcome = LockOutcome::default();
    if column == Column::WILD {
        let h = board.heights[x] as usize;
        // On a jewel, every cell of its colour goes with the three X's in one step; on the
        // floor the X's go alone, as a line of three.
        let gone = if h > 0 {
            board.colour_mask(board.cell_at(x, h - 1))
        } else {
            0
        };
        outcome.record(gone.count_ones() + 3);
        // Whether a jewel fell or not, the X's landing is new: matches are looked for.
        collapse(board, gone, rules, &mut outcome);
    } else {
        board.push(x, column.bottom());
        board.push(x, column.middle());
        board.push(x, column.top());
    }
    settle(board, rules, &mut outcome);
    match rules {
        RuleSet::Reference => {
            outcome.game_over = board.occupancy() & HIDDEN_MASK != 0 || spawn_blocked(board);
        }
        RuleSet::Real => {
            // Row -2 is empty unless row -1 is taken too: stacks are contiguous.
            outcome.game_over = board.occupancy() & ROW_MINUS_1_MASK != 0;
            // The next column always spawns, drawn over whatever is at (3, 0).
            if !outcome.game_over && spawn_blocked(board) {
                board.pop(SPAWN_X as usize);
                outcome.erased += 1;
            }
        }
    }
    outcome
}

/// Drops one jewel of `colour` on column `x` and resolves what it sets off: a probe of the
/// chains a board holds ready, not a move of the game. The caller keeps column `x` below the
/// top.
#[inline]
pub(crate) fn drop_jewel(rules: RuleSet, board: &mut Board, x: usize, colour: u8) -> LockOutcome {
    let mut outcome = LockOutcome::default();
    board.push(x, colour);
    settle(board, rules, &mut outcome);
    outcome
}

/// True when the cell at (x, i) is inside the board (for tests of the bit layout).
#[cfg(test)]
pub(crate) fn in_board(x: usize, i: usize) -> bool {
    x < WIDTH && i < ROWS && super::board::bit(x, i) != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::EMPTY;
    use crate::rules::RuleSet;

    fn board(text: &str) -> Board {
        Board::from_text(text).unwrap()
    }

    fn locked(text: &str, column: [u8; 3], x: usize) -> (Board, LockOutcome) {
        let mut b = board(text);
        let outcome = lock(&mut b, Column(column), x).unwrap();
        assert!(b.is_well_formed(), "{b}");
        (b, outcome)
    }

    #[test]
    fn layout_is_in_board() {
        assert!(in_board(5, 14));
        assert!(!in_board(6, 0));
    }

    #[test]
    fn no_match_just_stacks() {
        let (b, o) = locked("", [1, 2, 3], 0);
        assert_eq!(o, LockOutcome::default());
        assert_eq!(b.heights(), [3, 0, 0, 0, 0, 0]);
        assert_eq!(b.get(12, 0), 3);
        assert_eq!(b.get(10, 0), 1);
    }

    #[test]
    fn vertical_match() {
        let (b, o) = locked("4.....", [1, 4, 4], 0);
        assert_eq!(o.removed, 3);
        assert_eq!(o.chains, 1);
        assert_eq!(b.heights(), [1, 0, 0, 0, 0, 0]);
        assert_eq!(b.get(12, 0), 1);
    }

    #[test]
    fn horizontal_match_with_gravity() {
        // Bottom jewels 5 at columns 1 and 2; a column ending in 5 at column 3 clears them.
        let (b, o) = locked("\n.12...\n.55...", [2, 3, 5], 3);
        assert_eq!(o.removed, 3);
        assert_eq!(o.step_counts(), &[3]);
        assert_eq!(b.to_grid()[14], [0, 1, 2, 3, 0, 0]);
        assert_eq!(b.to_grid()[13], [0, 0, 0, 2, 0, 0]);
    }

    #[test]
    fn diagonal_matches_both_ways() {
        let (_, o) = locked("\n.6....\n16....", [4, 5, 6], 2);
        assert_eq!(o.removed, 0);
        // Rising to the right: (12,0), (11,1), (10,2).
        let (b, o) = locked("\n.1....\n12....", [1, 5, 3], 2);
        assert_eq!(o.removed, 3, "{b}");
        assert_eq!(b.heights(), [0, 1, 2, 0, 0, 0]);
        // Falling to the right: (10,0), (11,1), (12,2).
        let (b, o) = locked("3.....\n43....\n12....", [5, 6, 3], 2);
        assert_eq!(o.removed, 3);
        assert_eq!(b.heights(), [2, 1, 2, 0, 0, 0]);
    }

    #[test]
    fn simultaneous_overlapping_matches_remove_once() {
        // Bottom 1 completes the floor line, middle 2 the line above: one step of 6.
        let (b, o) = locked("\n22....\n11....", [2, 2, 1], 2);
        assert_eq!(o.step_counts(), &[6], "{b}");
        assert_eq!(b.heights(), [0, 0, 1, 0, 0, 0]);
        // A vertical and a horizontal line sharing a cell: 5 cells, not 6.
        let (_, o) = locked("\n.3.3..\n.4.4..", [3, 3, 3], 2);
        assert_eq!(o.step_counts(), &[5]);
        // A line of four counts each cell once.
        let (_, o) = locked("11.1..", [2, 3, 1], 2);
        assert_eq!(o.step_counts(), &[4]);
    }

    #[test]
    fn two_step_chain() {
        // The floor 5s go first; the 3 above them drops between the floor 3s.
        let (b, o) = locked("\n..3...\n3355..", [1, 2, 5], 4);
        assert_eq!(o.step_counts(), &[3, 3], "{b}");
        assert_eq!(o.removed, 6);
        assert_eq!(b.heights(), [0, 0, 0, 0, 2, 0]);
        assert_eq!(b.get(12, 4), 2);
        assert_eq!(b.get(11, 4), 1);
    }

    #[test]
    fn wild_on_floor_vanishes_as_a_line_of_three() {
        let (b, o) = locked("1.....", [7, 7, 7], 3);
        assert_eq!((o.step_counts(), o.removed), (&[3][..], 3));
        assert_eq!(b.heights(), [1, 0, 0, 0, 0, 0]);
    }

    #[test]
    fn wild_on_jewel_removes_colour_then_chains() {
        // Landing on the 2 of column 3 removes every 2 with the three X's; the 4 of column 0
        // then drops into a floor line of 4s.
        let (b, o) = locked("4..2..\n2441..", [7, 7, 7], 3);
        assert_eq!(o.step_counts(), &[5, 3], "{b}");
        assert_eq!(b.heights(), [0, 0, 0, 1, 0, 0]);
        assert_eq!(b.get(12, 3), 1);
        assert!(!o.game_over);
    }

    /// Ten jewels alternating 1 and 2, the floor first.
    const STACK: &str =
        "1.....\n2.....\n1.....\n2.....\n1.....\n2.....\n1.....\n2.....\n1.....\n2.....";

    #[test]
    fn game_over_when_a_jewel_stays_in_row_minus_1() {
        for rules in RuleSet::ALL {
            // 11 jewels: a column locks with its top in row -1.
            let mut b = board(&format!("{STACK}\n1....."));
            let o = rules.lock(&mut b, Column([3, 4, 5]), 0).unwrap();
            assert_eq!(b.height(0), 14);
            assert!(o.game_over, "{rules}");
            // A lock that clears its own hidden jewels is not game over.
            let mut b = board(&format!("{STACK}\n3....."));
            let o = rules.lock(&mut b, Column([3, 3, 3]), 0).unwrap();
            assert_eq!(o.removed, 3, "{b}");
            assert_eq!(b.height(0), 11);
            assert!(!o.game_over, "{rules}");
        }
    }

    /// Columns 0-2 of the given heights, alternating two colours each, with `top` on the
    /// chosen columns.
    fn stacks(heights: [usize; 3], colours: [[u8; 2]; 3], tops: [Option<u8>; 3]) -> Board {
        let mut grid = [[EMPTY; WIDTH]; ROWS];
        for x in 0..3 {
            for i in 0..heights[x] {
                grid[ROWS - 1 - i][x] = colours[x][i % 2];
            }
            if let Some(top) = tops[x] {
                grid[ROWS - heights[x]][x] = top;
            }
        }
        Board::from_grid(&grid).unwrap()
    }

    #[test]
    fn every_collapse_erases_row_minus_2_in_the_real_game() {
        // Column 0 at 12 jewels; the 1s at (row 1, column 1) and (row 2, column 2) wait for a
        // 1 at (row 0, column 0). The column's top lands in row -2.
        let start = stacks(
            [12, 12, 11],
            [[2, 3], [4, 5], [5, 4]],
            [None, Some(1), Some(1)],
        );
        let mut real = start;
        let o = RuleSet::Real.lock(&mut real, Column([6, 6, 1]), 0).unwrap();
        assert_eq!((o.step_counts(), o.erased), (&[3][..], 1), "{real}");
        // The middle 6 fell to row 0; the top 6 is gone.
        assert_eq!(real.heights(), [13, 11, 10, 0, 0, 0]);
        assert_eq!(real.get(0, 0), 6);
        assert!(!o.game_over);
        // The reference keeps it, in row -1: game over.
        let mut reference = start;
        let o = RuleSet::Reference
            .lock(&mut reference, Column([6, 6, 1]), 0)
            .unwrap();
        assert_eq!((o.step_counts(), o.erased), (&[3][..], 0));
        assert_eq!(reference.heights(), [14, 11, 10, 0, 0, 0]);
        assert!(o.game_over);
    }

    #[test]
    fn no_line_across_row_minus_2_in_the_real_game() {
        // Columns 0 and 1 full to row -2 with a 1 there; a column with a 1 on top completes the
        // line in row -2 at column 2.
        let start = stacks(
            [14, 14, 12],
            [[2, 3], [4, 6], [3, 2]],
            [Some(1), Some(1), None],
        );
        let start = {
            let mut grid = start.to_grid();
            grid[0][0] = 1;
            grid[0][1] = 1;
            grid[1][0] = 3;
            grid[1][1] = 4;
            Board::from_grid(&grid).unwrap()
        };
        assert_eq!(start.heights(), [15, 15, 12, 0, 0, 0]);
        let mut real = start;
        let o = RuleSet::Real.lock(&mut real, Column([1, 5, 6]), 2).unwrap();
        assert_eq!(o.removed, 0, "{real}");
        assert!(o.game_over);
        let mut reference = start;
        let o = RuleSet::Reference
            .lock(&mut reference, Column([1, 5, 6]), 2)
            .unwrap();
        assert_eq!(o.step_counts(), &[3], "{reference}");
    }

    #[test]
    fn the_next_spawn_overwrites_row_0_of_column_3_in_the_real_game() {
        let text = STACK
            .replace("1.....", "...1..")
            .replace("2.....", "...2..");
        for rules in RuleSet::ALL {
            let mut b = board(&text);
            assert_eq!(b.height(3), 10);
            let o = rules.lock(&mut b, Column([4, 5, 6]), 3).unwrap();
            assert!(!b.hidden_occupied());
            match rules {
                // Row 0 of the spawn column taken: the reference's game is over.
                RuleSet::Reference => {
                    assert_eq!((b.height(3), o.erased), (13, 0));
                    assert!(o.game_over);
                }
                // The real game spawns the next column over the top jewel and goes on.
                RuleSet::Real => {
                    assert_eq!((b.height(3), o.erased), (12, 1));
                    assert_eq!(b.get(1, 3), 5);
                    assert!(!o.game_over);
                }
            }
        }
    }

    #[test]
    fn refuses_bad_locks() {
        let mut b = Board::empty();
        assert_eq!(
            lock(&mut b, Column([1, 2, 3]), 6),
            Err(LockError::OutOfRange(6))
        );
        assert_eq!(
            lock(&mut b, Column([1, 0, 3]), 1),
            Err(LockError::InvalidColumn)
        );
        assert_eq!(
            lock(&mut b, Column([1, 7, 3]), 1),
            Err(LockError::InvalidColumn)
        );
        assert_eq!(b.get(12, 1), EMPTY);
    }
}
