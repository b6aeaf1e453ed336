//! The settled playfield and the falling column's jewels.
//!
//! Cells live in three bit-planes (one bit of the cell value each) over a 6 x 16 bit layout:
//! bit `16 * x + i` is column `x`, stack index `i` counted from the floor (`i = 0` is row 12,
//! `i = 14` is hidden row -2, `i = 15` is always-empty padding). Same-colour tests for a whole
//! board then take a handful of word operations, and a copy is 56 bytes.

use std::fmt;

/// Columns of the playfield.
pub const WIDTH: usize = 6;
/// Visible rows (0 top to 12 floor).
pub const VISIBLE_ROWS: usize = 13;
/// Hidden rows above the visible ones (rows -2 and -1).
pub const HIDDEN_ROWS: usize = 2;
/// All rows, hidden included: the grid the game keeps in RAM.
pub const ROWS: usize = VISIBLE_ROWS + HIDDEN_ROWS;
/// Visible cells.
pub const VISIBLE_CELLS: usize = WIDTH * VISIBLE_ROWS;

/// Empty cell.
pub const EMPTY: u8 = 0;
/// Number of jewel colours (1-6).
pub const COLOURS: u8 = 6;
/// The wild jewel (X).
pub const WILD: u8 = 7;

/// Bits per column in the planes (15 cells and one padding bit).
pub(crate) const STRIDE: u32 = 16;
/// Every real cell (15 per column).
pub(crate) const CELLS_MASK: u128 = repeat_columns(0x7FFF);
/// Cells in the visible rows.
pub(crate) const VISIBLE_MASK: u128 = repeat_columns(0x1FFF);
/// Cells in the hidden rows.
pub(crate) const HIDDEN_MASK: u128 = repeat_columns(0x6000);
/// Cells in hidden row -1.
pub(crate) const ROW_MINUS_1_MASK: u128 = repeat_columns(0x2000);
/// Cells in hidden row -2, the top row: the real game's collapse erases it.
pub(crate) const ROW_MINUS_2_MASK: u128 = repeat_columns(0x4000);

const fn repeat_columns(column_bits: u128) -> u128 {
    let mut mask = 0;
    let mut x = 0;
    while x < WIDTH {
        mask |= column_bits << (STRIDE as usize * x);
        x += 1;
    }
    mask
}

/// Bit of column `x`, stack index `i`.
#[inline]
pub(crate) const fn bit(x: usize, i: usize) -> u128 {
    1 << (STRIDE as usize * x + i)
}

/// Stack index of a row (-2..=12).
#[inline]
pub const fn index_of_row(row: i8) -> usize {
    (VISIBLE_ROWS as i8 - 1 - row) as usize
}

/// Row (-2..=12) of a stack index.
#[inline]
pub const fn row_of_index(index: usize) -> i8 {
    VISIBLE_ROWS as i8 - 1 - index as i8
}

/// Why a grid is not a settled board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    #[error("cell (row {row}, column {column}) holds {value}, not a jewel colour 1-6")]
    InvalidCell { row: i8, column: usize, value: u8 },
    #[error("column {column} has a hole at row {row}: jewels must rest on the floor")]
    Floating { row: i8, column: usize },
}

/// Arrangements of a column's three jewels, as permutations of the positions of the one it
/// started in (top, middle, bottom): 0-2 are 0-2 rotations (A or B: the bottom jewel to the
/// top), 3-5 a swap of top and bottom (Select with A or B) then 0-2 rotations.
pub const ARRANGEMENTS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [2, 0, 1],
    [1, 2, 0],
    [2, 1, 0],
    [0, 2, 1],
    [1, 0, 2],
];

/// Three jewels, top to bottom.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub struct Column(pub [u8; 3]);

impl Column {
    /// The wild column (three X's).
    pub const WILD: Self = Self([WILD; 3]);

    pub const fn new(top: u8, middle: u8, bottom: u8) -> Self {
        Self([top, middle, bottom])
    }

    pub const fn top(self) -> u8 {
        self.0[0]
    }

    pub const fn middle(self) -> u8 {
        self.0[1]
    }

    pub const fn bottom(self) -> u8 {
        self.0[2]
    }

    /// One press of A or B: the bottom jewel moves to the top.
    pub const fn cycled(self) -> Self {
        let [t, m, b] = self.0;
        Self([b, t, m])
    }

    /// The jewels after `presses` presses of A or B.
    pub const fn rotated(self, presses: u8) -> Self {
        match presses % 3 {
            0 => self,
            1 => self.cycled(),
            _ => self.cycled().cycled(),
        }
    }

    pub fn is_wild(self) -> bool {
        self.0.contains(&WILD)
    }

    /// True when every jewel is a colour 1-6 or the column is all wild.
    pub fn is_valid(self) -> bool {
        self == Self::WILD || self.0.iter().all(|&c| (1..=COLOURS).contains(&c))
    }

    /// The column in arrangement `arrangement` (0-5; see [`ARRANGEMENTS`]): 0-2 are rotations,
    /// 3-5 a swap of top and bottom then rotations.
    pub fn arranged(self, arrangement: u8) -> Self {
        let p = ARRANGEMENTS[arrangement as usize % ARRANGEMENTS.len()];
        Self([self.0[p[0]], self.0[p[1]], self.0[p[2]]])
    }

    /// Which of the first `count` arrangements (3 or 6) give distinct columns (bit a set for
    /// arrangement a): a column with repeated colours needs fewer, so the search skips the
    /// duplicates.
    pub fn distinct_arrangements(self, count: u8) -> u8 {
        let mut mask = 0u8;
        for a in 0..count.min(6) {
            let column = self.arranged(a);
            if (0..a).all(|b| mask >> b & 1 == 0 || self.arranged(b) != column) {
                mask |= 1 << a;
            }
        }
        mask
    }

    /// Which of the 3 rotations give distinct arrangements (bit r set for rotation r): a
    /// single-colour column needs only one, so the search skips the duplicates.
    pub fn distinct_rotations(self) -> u8 {
        let r1 = self.cycled();
        let r2 = r1.cycled();
        let mut mask = 1;
        if r1 != self {
            mask |= 2;
        }
        if r2 != self && r2 != r1 {
            mask |= 4;
        }
        mask
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &c in &self.0 {
            write!(f, "{}", cell_char(c))?;
        }
        Ok(())
    }
}

/// The character the text views use for a cell value.
pub fn cell_char(cell: u8) -> char {
    match cell {
        EMPTY => '.',
        WILD => 'X',
        1..=6 => char::from(b'0' + cell),
        _ => '?',
    }
}

/// A settled playfield: every column a contiguous stack of colours 1-6 from the floor.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct Board {
    pub(crate) planes: [u128; 3],
    pub(crate) heights: [u8; WIDTH],
}

impl Board {
    /// The empty playfield.
    pub const fn empty() -> Self {
        Self {
            planes: [0; 3],
            heights: [0; WIDTH],
        }
    }

    /// Builds a board from the 15 x 6 grid as kept in RAM (index 0 is row -2).
    pub fn from_grid(grid: &[[u8; WIDTH]; ROWS]) -> Result<Self, GridError> {
        let mut board = Self::empty();
        for x in 0..WIDTH {
            let mut seen_empty_below = false;
            // From the floor up.
            for (i, line) in grid.iter().rev().enumerate() {
                let row = row_of_index(i);
                let value = line[x];
                if value == EMPTY {
                    seen_empty_below = true;
                    continue;
                }
                if value > COLOURS {
                    return Err(GridError::InvalidCell {
                        row,
                        column: x,
                        value,
                    });
                }
                if seen_empty_below {
                    return Err(GridError::Floating { row, column: x });
                }
                board.push(x, value);
            }
        }
        Ok(board)
    }

    /// The grid form (index 0 is row -2).
    pub fn to_grid(&self) -> [[u8; WIDTH]; ROWS] {
        let mut grid = [[EMPTY; WIDTH]; ROWS];
        for (r, line) in grid.iter_mut().enumerate() {
            for (x, cell) in line.iter_mut().enumerate() {
                *cell = self.cell_at(x, ROWS - 1 - r);
            }
        }
        grid
    }

    /// Parses rows of `.`/`1`-`6` text, top row first, bottom-aligned on the floor (tests and
    /// benches). Up to 15 lines of 6 characters.
    pub fn from_text(text: &str) -> Result<Self, GridError> {
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let mut grid = [[EMPTY; WIDTH]; ROWS];
        let first = ROWS.saturating_sub(lines.len());
        for (r, line) in lines.iter().rev().take(ROWS).rev().enumerate() {
            for (x, ch) in line.chars().take(WIDTH).enumerate() {
                grid[first + r][x] = match ch {
                    '1'..='6' => ch as u8 - b'0',
                    'X' | 'x' => WILD,
                    _ => EMPTY,
                };
            }
        }
        Self::from_grid(&grid)
    }

    /// Cell at (row -2..=12, column 0..=5); `EMPTY` outside.
    pub fn get(&self, row: i8, x: usize) -> u8 {
        if !(-(HIDDEN_ROWS as i8)..VISIBLE_ROWS as i8).contains(&row) || x >= WIDTH {
            return EMPTY;
        }
        self.cell_at(x, index_of_row(row))
    }

    #[inline]
    pub(crate) fn cell_at(&self, x: usize, i: usize) -> u8 {
        let shift = STRIDE as usize * x + i;
        let mut value = 0;
        for (b, plane) in self.planes.iter().enumerate() {
            value |= (((plane >> shift) & 1) as u8) << b;
        }
        value
    }

    /// Jewels stacked in column `x`.
    #[inline]
    pub fn height(&self, x: usize) -> usize {
        self.heights[x] as usize
    }

    pub fn heights(&self) -> [u8; WIDTH] {
        self.heights
    }

    /// The row a column's bottom jewel rests on when dropped in column `x` (-1 or less when the
    /// visible part of the column is full).
    #[inline]
    pub fn rest_row(&self, x: usize) -> i8 {
        VISIBLE_ROWS as i8 - 1 - self.heights[x] as i8
    }

    /// All jewels, hidden rows included.
    #[inline]
    pub fn jewels(&self) -> u32 {
        self.heights.iter().map(|&h| u32::from(h)).sum()
    }

    /// Jewels in the visible rows.
    pub fn visible_jewels(&self) -> u32 {
        (self.occupancy() & VISIBLE_MASK).count_ones()
    }

    /// True when a jewel sits in a hidden row.
    #[inline]
    pub fn hidden_occupied(&self) -> bool {
        self.occupancy() & HIDDEN_MASK != 0
    }

    pub fn is_empty(&self) -> bool {
        self.heights == [0; WIDTH]
    }

    #[inline]
    pub(crate) fn occupancy(&self) -> u128 {
        self.planes[0] | self.planes[1] | self.planes[2]
    }

    /// Cells holding colour `colour`.
    #[inline]
    pub(crate) fn colour_mask(&self, colour: u8) -> u128 {
        let mut mask = CELLS_MASK;
        for (b, plane) in self.planes.iter().enumerate() {
            mask &= if colour >> b & 1 == 1 {
                *plane
            } else {
                !*plane
            };
        }
        mask
    }

    /// Puts a jewel on top of column `x`; the caller keeps the height below 15.
    #[inline]
    pub(crate) fn push(&mut self, x: usize, value: u8) {
        let i = self.heights[x] as usize;
        debug_assert!(i < ROWS);
        let cell = bit(x, i);
        for (b, plane) in self.planes.iter_mut().enumerate() {
            if value >> b & 1 == 1 {
                *plane |= cell;
            }
        }
        self.heights[x] += 1;
    }

    /// Takes the top jewel off column `x` (the real game's spawn overwrites it).
    #[inline]
    pub(crate) fn pop(&mut self, x: usize) {
        if let Some(top) = self.heights[x].checked_sub(1) {
            let keep = !bit(x, top as usize);
            for plane in &mut self.planes {
                *plane &= keep;
            }
            self.heights[x] = top;
        }
    }

    /// Removes the cells of `removed` and lets everything above them fall; true when a jewel
    /// fell (when none did, no cell has a new neighbour).
    pub(crate) fn remove_and_settle(&mut self, removed: u128) -> bool {
        // Column by column, 16 bits each: a u128 shifted by a variable amount costs several
        // instructions, an array element one.
        let removed = columns_of(removed);
        let occupancy = columns_of(self.occupancy());
        let mut planes = self.planes.map(columns_of);
        let mut fell = false;
        for x in 0..WIDTH {
            let gone = removed[x];
            if gone == 0 {
                continue;
            }
            let stays = occupancy[x] & !gone;
            if stays >> gone.trailing_zeros() == 0 {
                // Only the tops went: nothing falls.
                for plane in &mut planes {
                    plane[x] &= !gone;
                }
            } else {
                fell = true;
                let [p0, p1, p2] = planes.map(|plane| u64::from(plane[x] & !gone));
                let lanes = compact(p0 | p1 << 16 | p2 << 32, gone);
                for (k, plane) in planes.iter_mut().enumerate() {
                    plane[x] = (lanes >> (16 * k)) as u16;
                }
            }
            self.heights[x] -= gone.count_ones() as u8;
        }
        self.planes = planes.map(from_columns);
        fell
    }

    /// True when every column is a contiguous stack of valid colours matching its height.
    pub fn is_well_formed(&self) -> bool {
        let occ = self.occupancy();
        if occ & !CELLS_MASK != 0 || self.planes.iter().any(|p| p & !CELLS_MASK != 0) {
            return false;
        }
        (0..WIDTH).all(|x| {
            let h = u32::from(self.heights[x]);
            let column = ((occ >> (STRIDE as usize * x)) & 0xFFFF) as u32;
            h <= ROWS as u32
                && column == (1u32 << h) - 1
                && (0..h as usize).all(|i| (1..=COLOURS).contains(&self.cell_at(x, i)))
        })
    }
}

/// A board-wide mask's columns, 16 bits each (the last two are padding).
#[inline(always)]
fn columns_of(mask: u128) -> [u16; 8] {
    let bytes = mask.to_le_bytes();
    std::array::from_fn(|i| u16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]))
}

/// [`columns_of`] undone.
#[inline(always)]
fn from_columns(columns: [u16; 8]) -> u128 {
    let mut bytes = [0u8; 16];
    for (pair, column) in bytes.chunks_exact_mut(2).zip(columns) {
        pair.copy_from_slice(&column.to_le_bytes());
    }
    u128::from_le_bytes(bytes)
}

/// Bit 0 of each of the three 16-bit lanes that hold one column's planes side by side.
const LANES: u64 = 0x0001_0001_0001;

/// Closes the gaps left by `gone` in a column's three planes, 16 bits a lane (the cells above
/// each gap move down by its size): a run of gaps at a time, the highest first, so that the
/// positions of the lower ones stay valid.
#[inline]
fn compact(mut lanes: u64, gone: u16) -> u64 {
    let mut gaps = u32::from(gone);
    while gaps != 0 {
        let top = gaps.ilog2();
        // The run of gaps that ends at `top` starts above the highest cell below it that stays.
        let stays_below = !gaps & ((1 << top) - 1);
        let bottom = if stays_below == 0 {
            0
        } else {
            stays_below.ilog2() + 1
        };
        let size = top + 1 - bottom;
        let below = u64::from((1u16 << bottom) - 1) * LANES;
        // Shifted down, a lane must not take the bits of the lane above it.
        let fits = u64::from(0x7FFFu16 >> size) * LANES;
        lanes = (lanes & below) | ((lanes >> size) & fits & !below);
        gaps &= (1 << bottom) - 1;
    }
    lanes
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Board {
    /// Rows -2 to 12, one line each.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for i in (0..ROWS).rev() {
            for x in 0..WIDTH {
                write!(f, "{}", cell_char(self.cell_at(x, i)))?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Removing cells closes every gap, column by column, as a plain filter of each stack
        /// would; and says whether a jewel fell.
        #[test]
        fn removed_cells_close_up_as_the_stacks_filtered(
            stacks in proptest::collection::vec(
                proptest::collection::vec((1u8..=COLOURS, any::<bool>()), 0..=ROWS),
                WIDTH,
            ),
        ) {
            let (mut board, mut expected) = (Board::empty(), Board::empty());
            let mut removed = 0u128;
            let mut fell = false;
            for (x, stack) in stacks.iter().enumerate() {
                let mut gone_below = false;
                for (i, &(colour, gone)) in stack.iter().enumerate() {
                    board.push(x, colour);
                    if gone {
                        removed |= bit(x, i);
                        gone_below = true;
                    } else {
                        expected.push(x, colour);
                        fell |= gone_below;
                    }
                }
            }
            prop_assert_eq!(board.remove_and_settle(removed), fell);
            prop_assert_eq!(board, expected);
        }
    }

    #[test]
    fn grid_round_trip() {
        let mut grid = [[EMPTY; WIDTH]; ROWS];
        grid[14] = [1, 2, 3, 4, 5, 6];
        grid[13] = [6, 0, 0, 0, 0, 1];
        grid[0] = [0, 0, 0, 0, 0, 0];
        let board = Board::from_grid(&grid).unwrap();
        assert_eq!(board.to_grid(), grid);
        assert_eq!(board.heights(), [2, 1, 1, 1, 1, 2]);
        assert_eq!(board.get(12, 0), 1);
        assert_eq!(board.get(11, 5), 1);
        assert_eq!(board.get(11, 1), EMPTY);
        assert_eq!(board.jewels(), 8);
        assert!(board.is_well_formed());
    }

    #[test]
    fn grid_rejects_holes_and_bad_values() {
        let mut grid = [[EMPTY; WIDTH]; ROWS];
        grid[13][2] = 3;
        assert_eq!(
            Board::from_grid(&grid),
            Err(GridError::Floating { row: 11, column: 2 })
        );
        let mut grid = [[EMPTY; WIDTH]; ROWS];
        grid[14][4] = WILD;
        assert!(matches!(
            Board::from_grid(&grid),
            Err(GridError::InvalidCell { value: 7, .. })
        ));
    }

    #[test]
    fn column_cycles_bottom_to_top() {
        let c = Column::new(2, 4, 3);
        assert_eq!(c.cycled(), Column::new(3, 2, 4));
        assert_eq!(c.rotated(3), c);
        assert_eq!(c.distinct_rotations(), 0b111);
        assert_eq!(Column::new(1, 1, 1).distinct_rotations(), 0b001);
        assert_eq!(Column::new(1, 2, 1).distinct_rotations(), 0b111);
        assert_eq!(c.distinct_arrangements(6), 0b11_1111);
        assert_eq!(Column::new(1, 2, 1).distinct_arrangements(6), 0b00_0111);
        assert_eq!(Column::new(1, 1, 1).distinct_arrangements(6), 0b00_0001);
        assert_eq!(c.arranged(3), Column::new(3, 4, 2));
    }

    #[test]
    fn compact_closes_gaps() {
        assert_eq!(compact(0b1011_0111 & !0b0010_0100, 0b0010_0100), 0b10_1011);
        assert_eq!(compact(0b1000, 0b0111), 0b1);
    }

    #[test]
    fn text_is_bottom_aligned() {
        let board = Board::from_text("1.....\n23....").unwrap();
        assert_eq!(board.get(12, 0), 2);
        assert_eq!(board.get(11, 0), 1);
        assert_eq!(board.get(12, 1), 3);
        assert_eq!(board.heights(), [2, 1, 0, 0, 0, 0]);
    }
}
