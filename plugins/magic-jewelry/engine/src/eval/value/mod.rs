//! A learned board value: an n-tuple network. Small regions of the board (3 x 3 windows at
//! every position, whole rows, the height profile, the jewel count, the colours a next column
//! could complete) each index a table by their pattern, and the value is the sum of the
//! entries they hit. Colours are relabelled in order of first appearance, so a pattern
//! stands for all its recolourings, and regions on the right read mirrored into the tables of
//! the left.
//!
//! The value of a board is the number of jewels it expects to hold over the columns to come,
//! beyond the long-run mean (lower is better); `tools::learn` trains it by temporal-difference
//! learning and [`ValueNetwork::to_bytes`] makes the compressed file the lab writes.

mod file;
mod pattern;
mod windows;

pub use file::ValueFileError;

use super::features::completion_spots;
use crate::rules::board::{Board, STRIDE, WIDTH};
use pattern::{rank, sequences};
use windows::{PatternCache, Shape};

/// 3 x 3 squares: every line of three fits in one. (Adding 4 x 2, 2 x 4 or 5 x 2 windows made
/// learning slower and play no better.)
type Squares = Shape<3, 3, 4>;

/// Rows with a table of their own; higher rows share one.
const ROW_OWN: usize = 6;
/// Stack heights above this count as this in the height profile.
const HEIGHT_CLIP: usize = 7;
/// Largest jewel count with its own entry.
const COUNT_CLIP: usize = 90;
/// Completion spots (empty cells where a jewel would complete a line, per colour) with an
/// entry of their own, for each number of colours that have one (0-6).
const SPOTS_CLIP: usize = 15;

/// Offsets of each occupancy of a row (one bit a column) into its table.
const fn row_offsets() -> ([u32; 64], u32) {
    let mut offsets = [0; 64];
    let mut total = 0;
    let mut mask = 0;
    while mask < 64 {
        offsets[mask] = total;
        total += sequences((mask as u32).count_ones() as usize);
        mask += 1;
    }
    (offsets, total)
}

const ROW_OFFSETS: [u32; 64] = row_offsets().0;
const ROW_PATTERNS: usize = row_offsets().1 as usize;
const ROW_TABLES: usize = ROW_OWN + 1;
const HEIGHT_PATTERNS: usize = (HEIGHT_CLIP + 1).pow(WIDTH as u32);
const COMPLETION_PATTERNS: usize = 7 * (SPOTS_CLIP + 1);

const SQUARES_BASE: usize = 0;
const ROW_BASE: usize = SQUARES_BASE + Squares::ENTRIES;
const HEIGHT_BASE: usize = ROW_BASE + ROW_TABLES * ROW_PATTERNS;
const COUNT_BASE: usize = HEIGHT_BASE + HEIGHT_PATTERNS;
const COMPLETION_BASE: usize = COUNT_BASE + COUNT_CLIP + 1;
/// Entries in all tables.
pub const ENTRIES: usize = COMPLETION_BASE + COMPLETION_PATTERNS;

/// Most table entries one board hits: every window and row, then one entry each for the
/// heights, the count and the completions.
pub const MAX_ACTIVE: usize = Squares::MAX_WINDOWS + 15 + 3;

/// The table entries a board hits.
#[derive(Debug, Clone, Copy)]
pub struct Active {
    indices: [u32; MAX_ACTIVE],
    len: usize,
}

impl Active {
    pub fn indices(&self) -> &[u32] {
        &self.indices[..self.len]
    }

    #[inline(always)]
    fn push(&mut self, index: usize) {
        debug_assert!(index < ENTRIES);
        self.indices[self.len] = index as u32;
        self.len += 1;
    }

    /// The entries `board` hits.
    pub fn of(board: &Board) -> Self {
        let mut active = Self {
            indices: [0; MAX_ACTIVE],
            len: 0,
        };
        let heights = board.heights.map(usize::from);
        let columns = column_nibbles(board);
        PATTERNS_SEEN.with_borrow_mut(|seen| {
            let mut push = |index| active.push(index);
            Squares::visit(SQUARES_BASE, &heights, &columns, seen, &mut push);
        });
        active.rows(&heights, &columns);
        active.push(HEIGHT_BASE + height_pattern(&heights));
        active.push(COUNT_BASE + (board.jewels() as usize).min(COUNT_CLIP));
        let (spots, colours) = completion_spots(board);
        active.push(
            COMPLETION_BASE
                + colours as usize * (SPOTS_CLIP + 1)
                + (spots as usize).min(SPOTS_CLIP),
        );
        active
    }

    #[inline(always)]
    fn rows(&mut self, heights: &[usize; WIDTH], columns: &[u64; WIDTH]) {
        let lookup = row_lookup();
        let top = heights.iter().copied().max().unwrap_or(0);
        for y in 0..top.max(ROW_OWN) {
            let mut code = 0;
            for x in (0..WIDTH).rev() {
                code = code * 7 + (columns[x] >> (4 * y) & 15) as usize;
            }
            self.push(ROW_BASE + y.min(ROW_OWN) * ROW_PATTERNS + lookup[code] as usize);
        }
    }
}

thread_local! {
    static PATTERNS_SEEN: std::cell::RefCell<PatternCache> =
        std::cell::RefCell::new(PatternCache::new());
}

/// Row codes: each cell 0-6 in base 7, column 0 lowest.
const ROW_CODES: usize = 7usize.pow(WIDTH as u32);

/// The pattern of every row code: a row and its mirror image share an entry, the smaller of
/// the two readings.
fn row_lookup() -> &'static [u16] {
    static LOOKUP: std::sync::OnceLock<Vec<u16>> = std::sync::OnceLock::new();
    LOOKUP.get_or_init(|| {
        (0..ROW_CODES)
            .map(|code| {
                let cells: Vec<u8> = (0..WIDTH)
                    .map(|x| (code / 7usize.pow(x as u32) % 7) as u8)
                    .collect();
                let reading = |cells: &[u8]| {
                    let mask = cells
                        .iter()
                        .enumerate()
                        .filter(|(_, &c)| c != 0)
                        .fold(0, |m, (x, _)| m | 1 << x);
                    let colours: Vec<u8> = cells.iter().copied().filter(|&c| c != 0).collect();
                    ROW_OFFSETS[mask] + rank(&colours)
                };
                let backward: Vec<u8> = cells.iter().rev().copied().collect();
                reading(&cells).min(reading(&backward)) as u16
            })
            .collect()
    })
}

/// Bit `i` of a byte moved to bit `4 i` of a word.
const fn spread_table() -> [u32; 256] {
    let mut table = [0; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut i = 0;
        while i < 8 {
            table[byte] |= ((byte as u32 >> i) & 1) << (4 * i);
            i += 1;
        }
        byte += 1;
    }
    table
}

const SPREAD: [u32; 256] = spread_table();

/// Sixteen bits spread to the low bit of sixteen nibbles.
#[inline(always)]
fn spread(bits: u16) -> u64 {
    u64::from(SPREAD[usize::from(bits as u8)]) | u64::from(SPREAD[usize::from(bits >> 8)]) << 32
}

/// Each column's cells from the floor up, 4 bits a cell (0 above the stack).
#[inline(always)]
fn column_nibbles(board: &Board) -> [u64; WIDTH] {
    let mut columns = [0u64; WIDTH];
    for (x, column) in columns.iter_mut().enumerate() {
        let shift = STRIDE as usize * x;
        for (b, plane) in board.planes.iter().enumerate() {
            *column |= spread((plane >> shift) as u16) << b;
        }
    }
    columns
}

/// The height profile (each height clipped), read from whichever side gives the smaller code
/// so a profile and its mirror image share an entry.
#[inline(always)]
fn height_pattern(heights: &[usize; WIDTH]) -> usize {
    let base = HEIGHT_CLIP + 1;
    let mut forward = 0;
    let mut backward = 0;
    for x in 0..WIDTH {
        forward = forward * base + heights[x].min(HEIGHT_CLIP);
        backward = backward * base + heights[WIDTH - 1 - x].min(HEIGHT_CLIP);
    }
    forward.min(backward)
}

/// The tables of an n-tuple network.
#[derive(Clone, PartialEq)]
pub struct ValueNetwork {
    weights: Vec<f32>,
}

impl std::fmt::Debug for ValueNetwork {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let used = self.weights.iter().filter(|w| **w != 0.0).count();
        write!(f, "ValueNetwork({used} of {ENTRIES} entries set)")
    }
}

impl Default for ValueNetwork {
    fn default() -> Self {
        Self::zeroed()
    }
}

impl ValueNetwork {
    /// All entries 0: every board is worth the same.
    pub fn zeroed() -> Self {
        Self {
            weights: vec![0.0; ENTRIES],
        }
    }

    /// The value of `board`: jewels it expects to hold over the columns to come, beyond the
    /// long-run mean (lower is better).
    #[inline]
    pub fn value(&self, board: &Board) -> f64 {
        self.value_of(&Active::of(board))
    }

    /// The value from the entries a board hits.
    #[inline]
    pub fn value_of(&self, active: &Active) -> f64 {
        let sum: f32 = active
            .indices()
            .iter()
            .map(|&i| self.weights[i as usize])
            .sum();
        f64::from(sum)
    }

    /// Adds `step` to every entry in `active` (a learning update).
    pub fn adjust(&mut self, active: &Active, step: f32) {
        for &i in active.indices() {
            self.weights[i as usize] += step;
        }
    }

    /// Entries that are not 0.
    pub fn entries_set(&self) -> usize {
        self.weights.iter().filter(|w| **w != 0.0).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::Column;
    use crate::rules::resolve::lock;

    fn board(text: &str) -> Board {
        Board::from_text(text).unwrap()
    }

    #[test]
    fn layout_sizes() {
        assert_eq!(ROW_PATTERNS, 877);
        assert_eq!(ENTRIES, Squares::ENTRIES + 7 * 877 + 262_144 + 91 + 112);
    }

    #[test]
    fn empty_board_hits_the_low_windows_and_rows() {
        let active = Active::of(&Board::empty());
        // Each shape's positions x 4 low rows, 6 low rows, heights, count, completions.
        let windows = 4 * Squares::POSITIONS;
        assert_eq!(active.indices().len(), windows + 6 + 3);
    }

    #[test]
    fn recoloured_and_mirrored_boards_hit_the_same_entries() {
        let sorted = |b: &Board| {
            let mut v = Active::of(b).indices().to_vec();
            v.sort_unstable();
            v
        };
        let a = board("1.....\n12.3..\n211323");
        let recoloured = board("5.....\n56.2..\n655262");
        let mirrored = board(".....1\n..3.21\n323112");
        assert_eq!(sorted(&a), sorted(&recoloured));
        assert_eq!(sorted(&a), sorted(&mirrored));
        assert_ne!(sorted(&a), sorted(&board("1.....\n12.3..\n211322")));
    }

    #[test]
    fn every_index_is_in_range_on_tall_boards() {
        let mut b = Board::empty();
        let mut colour = 0;
        'fill: for _ in 0..40 {
            for x in 0..WIDTH {
                colour = colour % 6 + 1;
                let column = Column::new(colour, colour % 6 + 1, (colour + 1) % 6 + 1);
                if lock(&mut b, column, x).is_err() {
                    break 'fill;
                }
            }
        }
        let active = Active::of(&b);
        assert!(active.indices().iter().all(|&i| (i as usize) < ENTRIES));
        assert!(active.indices().len() <= MAX_ACTIVE);
    }

    /// The entries of one window shape (`w` x `h`, own tables below row `own`), computed cell
    /// by cell the plain way.
    fn reference_windows(
        board: &Board,
        (w, h, own): (usize, usize, usize),
        base: usize,
        patterns: usize,
    ) -> Vec<u32> {
        let heights = board.heights.map(usize::from);
        let offsets = |cells: &[(usize, usize)]| {
            // Occupancy code and colours of the window read in this column order.
            let mut code = 0;
            let mut colours = Vec::new();
            for (c, &(column, y)) in cells.iter().enumerate() {
                let filled = heights[column].saturating_sub(y).min(h);
                code += filled * (h + 1).pow(c as u32);
                colours.extend((y..y + filled).map(|i| board.cell_at(column, i)));
            }
            let before: u32 = (0..code)
                .map(|k| {
                    let filled: usize = (0..w).map(|c| k / (h + 1).pow(c as u32) % (h + 1)).sum();
                    pattern::sequences(filled)
                })
                .sum();
            before + rank(&colours)
        };
        let positions = WIDTH - w + 1;
        let mut out = Vec::new();
        for x in 0..positions {
            let mirror = positions - 1 - x;
            let top = (x..x + w).map(|c| heights[c]).max().unwrap();
            for y in 0..=15 - h {
                if y >= own && y >= top {
                    break;
                }
                let forward: Vec<(usize, usize)> = (0..w).map(|c| (x + c, y)).collect();
                let backward: Vec<(usize, usize)> = forward.iter().rev().copied().collect();
                let pattern = match x.cmp(&mirror) {
                    std::cmp::Ordering::Less => offsets(&forward),
                    std::cmp::Ordering::Greater => offsets(&backward),
                    std::cmp::Ordering::Equal => offsets(&forward).min(offsets(&backward)),
                };
                let table = x.min(mirror) * (own + 1) + y.min(own);
                out.push((base + table * patterns) as u32 + pattern);
            }
        }
        out
    }

    /// The entries of a board, computed cell by cell the plain way.
    fn reference(board: &Board) -> Vec<u32> {
        let h = board.heights.map(usize::from);
        let mut out = reference_windows(board, (3, 3, 4), SQUARES_BASE, Squares::PATTERNS);
        for y in 0..15 {
            let filled: Vec<usize> = (0..WIDTH).filter(|&x| h[x] > y).collect();
            if y >= ROW_OWN && filled.is_empty() {
                break;
            }
            // (position, colour) pairs, read left to right.
            let reading = |cells: &[(usize, u8)]| {
                let mask = cells.iter().fold(0, |m, &(x, _)| m | 1 << x);
                let colours: Vec<u8> = cells.iter().map(|&(_, c)| c).collect();
                ROW_OFFSETS[mask] + rank(&colours)
            };
            let forward: Vec<(usize, u8)> =
                filled.iter().map(|&x| (x, board.cell_at(x, y))).collect();
            let mirrored: Vec<(usize, u8)> = forward
                .iter()
                .rev()
                .map(|&(x, c)| (WIDTH - 1 - x, c))
                .collect();
            let pattern = reading(&forward).min(reading(&mirrored));
            out.push((ROW_BASE + y.min(ROW_OWN) * ROW_PATTERNS) as u32 + pattern);
        }
        out.push((HEIGHT_BASE + height_pattern(&h)) as u32);
        out.push((COUNT_BASE + (board.jewels() as usize).min(COUNT_CLIP)) as u32);
        let (spots, colours) = completion_spots(board);
        out.push((COMPLETION_BASE + colours as usize * 16 + (spots as usize).min(15)) as u32);
        out
    }

    fn stacked(stacks: &[Vec<u8>]) -> Board {
        let mut b = Board::empty();
        for (x, stack) in stacks.iter().enumerate() {
            for &colour in stack {
                b.push(x, colour);
            }
        }
        b
    }

    proptest::proptest! {
        #[test]
        fn entries_match_the_plain_reading(
            stacks in proptest::collection::vec(proptest::collection::vec(1u8..=6, 0..=15), WIDTH)
        ) {
            let b = stacked(&stacks);
            let active = Active::of(&b);
            proptest::prop_assert_eq!(active.indices(), &reference(&b)[..]);
        }

        /// Boards one column apart, as a search's are: the positions they share are found
        /// again, not read, and must be what the plain reading finds.
        #[test]
        fn entries_match_the_plain_reading_on_boards_a_column_apart(
            stacks in proptest::collection::vec(proptest::collection::vec(1u8..=6, 0..=15), WIDTH),
            changes in proptest::collection::vec(
                (0..WIDTH, proptest::collection::vec(1u8..=6, 0..=15)),
                1..12,
            )
        ) {
            for (x, stack) in changes {
                let mut changed = stacks.clone();
                changed[x] = stack;
                for b in [stacked(&stacks), stacked(&changed)] {
                    let active = Active::of(&b);
                    proptest::prop_assert_eq!(active.indices(), &reference(&b)[..]);
                }
            }
        }
    }

    #[test]
    fn value_sums_the_entries_hit() {
        let mut net = ValueNetwork::zeroed();
        let b = board("11....");
        let active = Active::of(&b);
        net.adjust(&active, 0.5);
        // An entry hit twice (the empty windows at both edges share one) counts twice, and
        // was adjusted twice: the value is 0.5 times the sum of the squared hit counts.
        let mut hits = std::collections::HashMap::new();
        for &i in active.indices() {
            *hits.entry(i).or_insert(0u32) += 1;
        }
        let squares: u32 = hits.values().map(|n| n * n).sum();
        assert!(squares > active.indices().len() as u32);
        assert_eq!(net.value(&b), 0.5 * f64::from(squares));
        // A board sharing only some entries gets only those.
        let other = net.value(&board("12...."));
        assert!(other > 0.0 && other < net.value(&b));
    }
}
