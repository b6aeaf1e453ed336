//! Locking a column and everything that follows: matches, gravity, chains, wild columns and
//! game over.

use super::board::{Board, Column, HIDDEN_MASK, ROWS, STRIDE, WIDTH};

/// Shifts between a cell and its neighbour: vertical, horizontal, both diagonals.
pub(crate) const DIRECTIONS: [u32; 4] = [1, STRIDE, STRIDE + 1, STRIDE - 1];

/// Longest chain whose per-step counts are kept (longer chains still count in `chains`).
pub const MAX_STEPS: usize = 16;

/// What a lock did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LockOutcome {
    /// Jewels removed from the board, over all chain steps (a wild column's X's not counted).
    pub removed: u16,
    /// Match steps: 0 when nothing matched, 2 or more for a chain reaction. A wild column that
    /// removed a colour counts that as its first step.
    pub chains: u8,
    /// Jewels removed at each step (first `min(chains, MAX_STEPS)` entries).
    pub steps: [u8; MAX_STEPS],
    /// A jewel stayed in a hidden row or the next column cannot spawn.
    pub game_over: bool,
}

impl LockOutcome {
    /// Per-step removal counts.
    pub fn step_counts(&self) -> &[u8] {
        &self.steps[..(self.chains as usize).min(MAX_STEPS)]
    }

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

/// Every cell that is part of a line of 3 or more equal jewels, in all four directions.
#[inline]
pub(crate) fn matches(board: &Board) -> u128 {
    let [p0, p1, p2] = board.planes;
    let occ = p0 | p1 | p2;
    let mut matched = 0;
    for d in DIRECTIONS {
        // Cells equal to their neighbour at +d; the padding bit keeps lines from wrapping.
        let eq = occ & (occ >> d) & !((p0 ^ (p0 >> d)) | (p1 ^ (p1 >> d)) | (p2 ^ (p2 >> d)));
        let start = eq & (eq >> d);
        matched |= start | (start << d) | (start << (2 * d));
    }
    matched
}

/// Removes matches until the board is stable, recording each step.
#[inline]
fn settle(board: &mut Board, outcome: &mut LockOutcome) {
    loop {
        let matched = matches(board);
        if matched == 0 {
            break;
        }
        outcome.record(matched.count_ones());
        board.remove_and_settle(matched);
    }
}

/// True when the next column cannot spawn (row 0 of column 3 is taken).
#[inline]
pub(crate) fn spawn_blocked(board: &Board) -> bool {
    board.heights[super::SPAWN_X as usize] as usize >= super::board::VISIBLE_ROWS
}

/// Locks `column` on top of the stack in column `x` and resolves everything. The board is
/// left as the game would show it when the next column spawns.
pub fn lock(board: &mut Board, column: Column, x: usize) -> Result<LockOutcome, LockError> {
    if x >= WIDTH {
        return Err(LockError::OutOfRange(x));
    }
    if !column.is_valid() {
        return Err(LockError::InvalidColumn);
    }
    if board.heights[x] as usize + 3 > ROWS {
        return Err(LockError::ColumnFull(x));
    }
    Ok(lock_unchecked(board, column, x))
}

/// [`lock`] for callers that already know the column fits (the search).
#[inline]
pub(crate) fn lock_unchecked(board: &mut Board, column: Column, x: usize) -> LockOutcome {
    let mut outcome = LockOutcome::default();
    if column == Column::WILD {
        let h = board.heights[x] as usize;
        if h > 0 {
            // Landing on a jewel: that colour vanishes everywhere, the X's with it.
            let colour = board.cell_at(x, h - 1);
            let gone = board.colour_mask(colour);
            outcome.record(gone.count_ones());
            board.remove_and_settle(gone);
            settle(board, &mut outcome);
        }
    } else {
        board.push(x, column.bottom());
        board.push(x, column.middle());
        board.push(x, column.top());
        settle(board, &mut outcome);
    }
    outcome.game_over = board.occupancy() & HIDDEN_MASK != 0 || spawn_blocked(board);
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
    use crate::engine::rules::board::EMPTY;

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
    fn wild_on_floor_vanishes() {
        let (b, o) = locked("1.....", [7, 7, 7], 3);
        assert_eq!(o, LockOutcome::default());
        assert_eq!(b.heights(), [1, 0, 0, 0, 0, 0]);
    }

    #[test]
    fn wild_on_jewel_removes_colour_then_chains() {
        // Landing on the 2 of column 3 removes every 2; the 4 of column 0 then drops into a
        // floor line of 4s.
        let (b, o) = locked("4..2..\n2441..", [7, 7, 7], 3);
        assert_eq!(o.step_counts(), &[2, 3], "{b}");
        assert_eq!(b.heights(), [0, 0, 0, 1, 0, 0]);
        assert_eq!(b.get(12, 3), 1);
        assert!(!o.game_over);
    }

    #[test]
    fn game_over_when_jewel_stays_hidden() {
        let stack =
            "1.....\n2.....\n1.....\n2.....\n1.....\n2.....\n1.....\n2.....\n1.....\n2.....";
        // 11 jewels: a column locks with its top in row -1.
        let (b, o) = locked(&format!("{stack}\n1....."), [3, 4, 5], 0);
        assert_eq!(b.height(0), 14);
        assert!(o.game_over);
        // A lock that clears its own hidden jewels is not game over.
        let (b, o) = locked(&format!("{stack}\n3....."), [3, 3, 3], 0);
        assert_eq!(o.removed, 3, "{b}");
        assert_eq!(b.height(0), 11);
        assert!(!o.game_over);
    }

    #[test]
    fn spawn_blocked_is_game_over() {
        let text = "1.....\n2.....\n1.....\n2.....\n1.....\n2.....\n1.....\n2.....\n1.....\n2.....";
        let mut b = board(&text.replace("1.....", "...1..").replace("2.....", "...2.."));
        assert_eq!(b.height(3), 10);
        let o = lock(&mut b, Column([4, 5, 6]), 3).unwrap();
        assert_eq!(b.height(3), 13);
        assert!(!b.hidden_occupied());
        assert!(o.game_over);
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
