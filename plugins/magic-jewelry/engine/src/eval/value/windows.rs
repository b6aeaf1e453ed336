//! Windows: every `W x H` block of the board at every position, each indexing a table by its
//! pattern. Stacks are contiguous, so a window's occupancy is how many cells each of its
//! columns fills from the window's bottom; its pattern is that occupancy and the relabelled
//! colours of the filled cells.

use super::pattern::{rank_packed, sequences, MAX_CELLS};
use crate::rules::board::WIDTH;

/// Lowest row of the stack index (hidden rows included) a window can reach.
const ROWS: usize = 15;
/// Most occupancies of any shape: (H + 1)^W.
const MAX_OCCUPANCIES: usize = 256;

/// A window shape: `W` columns by `H` rows; windows whose bottom is at row `OWN` or above
/// share one table, the lower ones have a table each.
pub(crate) struct Shape<const W: usize, const H: usize, const OWN: usize>;

impl<const W: usize, const H: usize, const OWN: usize> Shape<W, H, OWN> {
    const OCCUPANCIES: usize = (H + 1).pow(W as u32);
    /// Horizontal positions: columns x..x+W for x in 0..POSITIONS.
    pub(crate) const POSITIONS: usize = WIDTH - W + 1;
    /// A window and its mirror image share a table.
    const CLASSES: usize = Self::POSITIONS.div_ceil(2);
    /// Lowest row of the highest window.
    pub(crate) const TOP_ROW: usize = ROWS - H;
    const OFFSETS: ([u32; MAX_OCCUPANCIES], u32) = offsets(W, H);
    /// Patterns in one table.
    pub(crate) const PATTERNS: usize = Self::OFFSETS.1 as usize;
    /// Entries in all the shape's tables.
    pub(crate) const ENTRIES: usize = Self::CLASSES * (OWN + 1) * Self::PATTERNS;
    /// Most windows on one board.
    pub(crate) const MAX_WINDOWS: usize = Self::POSITIONS * (Self::TOP_ROW + 1);
    /// Checked when a shape is used: its cells and occupancies fit the encodings.
    const FITS: () = assert!(
        W * H <= MAX_CELLS
            && Self::OCCUPANCIES <= MAX_OCCUPANCIES
            && W <= MAX_WIDTH
            && ROWS - H < MAX_POSITION_WINDOWS
    );

    /// Pushes the entry (from `base`) of every window with a jewel in it, and of every window
    /// whose bottom is below row `OWN` (their tables see the empty board too).
    #[inline(always)]
    pub(crate) fn visit(
        base: usize,
        heights: &[usize; WIDTH],
        columns: &[u64; WIDTH],
        seen: &mut PatternCache,
        mut push: impl FnMut(usize),
    ) {
        let () = Self::FITS;
        // Shapes in use differ in width (2 to 5 columns): three bits tell them apart.
        let key = (W as u64 & 7) << SHAPE_SHIFT;
        for x in 0..Self::POSITIONS {
            // A position's windows depend on its columns alone, which most boards of one
            // search share with boards scored before.
            let position = PositionKey::new(W, H, x, columns);
            if let Some(entries) = seen.position(&position) {
                for &entry in entries {
                    push(base + entry as usize);
                }
                continue;
            }
            let mut entries = [0u32; MAX_POSITION_WINDOWS];
            let mut found = 0;
            let mirror = Self::POSITIONS - 1 - x;
            let class = x.min(mirror);
            let top = (x..x + W).map(|c| heights[c]).max().unwrap_or(0);
            for y in 0..=Self::TOP_ROW {
                // Empty windows above the stacks share a table whose empty entry stays 0.
                if y >= OWN && y >= top {
                    break;
                }
                let forward = Self::read(heights, columns, y, (0..W).map(|c| x + c));
                let pattern = if x < mirror {
                    seen.pattern(forward, key, Self::rank)
                } else {
                    // The right half reads mirrored, into the tables of the left; a window in
                    // the middle is its own mirror image: the smaller reading stands.
                    let backward = Self::read(heights, columns, y, (0..W).rev().map(|c| x + c));
                    let pattern = seen.pattern(backward, key, Self::rank);
                    if x == mirror {
                        pattern.min(seen.pattern(forward, key, Self::rank))
                    } else {
                        pattern
                    }
                };
                let table = class * (OWN + 1) + y.min(OWN);
                let entry = table * Self::PATTERNS + pattern as usize;
                entries[found] = entry as u32;
                found += 1;
                push(base + entry);
            }
            seen.keep_position(position, &entries[..found]);
        }
    }

    /// The window's cells packed 4 bits each (its columns in `order`, each from the bottom),
    /// with the occupancy code above them.
    #[inline(always)]
    fn read(
        heights: &[usize; WIDTH],
        columns: &[u64; WIDTH],
        y: usize,
        order: impl Iterator<Item = usize>,
    ) -> u64 {
        let mut occupancy = 0;
        let mut packed = 0u64;
        let mut n = 0;
        let mut place = 1;
        for column in order {
            let filled = heights[column].saturating_sub(y).min(H);
            occupancy += filled * place;
            place *= H + 1;
            let cells = columns[column] >> (4 * y) & ((1u64 << (4 * filled)) - 1);
            packed |= cells << (4 * n);
            n += filled;
        }
        packed | (occupancy as u64) << OCCUPANCY_SHIFT
    }

    /// The pattern of a window read by [`Shape::read`].
    fn rank(reading: u64) -> u32 {
        let occupancy = (reading >> OCCUPANCY_SHIFT) as usize & (MAX_OCCUPANCIES - 1);
        let mut n = 0;
        let mut code = occupancy;
        for _ in 0..W {
            n += code % (H + 1);
            code /= H + 1;
        }
        Self::OFFSETS.0[occupancy] + rank_packed(reading & CELLS_MASK, n)
    }
}

/// Offsets of each occupancy (column c filling `code / (h+1)^c % (h+1)` cells) into a table.
const fn offsets(w: usize, h: usize) -> ([u32; MAX_OCCUPANCIES], u32) {
    let mut offsets = [0; MAX_OCCUPANCIES];
    let mut total = 0;
    let codes = (h + 1).pow(w as u32);
    let mut code = 0;
    while code < codes {
        offsets[code] = total;
        let mut filled = 0;
        let mut rest = code;
        let mut c = 0;
        while c < w {
            filled += rest % (h + 1);
            rest /= h + 1;
            c += 1;
        }
        total += sequences(filled);
        code += 1;
    }
    (offsets, total)
}

/// Packed cells take the low 40 bits of a reading (10 cells), the occupancy the next 8, the
/// shape 3 more in a cache key.
const OCCUPANCY_SHIFT: u32 = 40;
const SHAPE_SHIFT: u32 = OCCUPANCY_SHIFT + 8;
const CELLS_MASK: u64 = (1 << OCCUPANCY_SHIFT) - 1;

/// Widest shape a position's key holds.
const MAX_WIDTH: usize = 5;
/// Most windows one position stacks (shapes one row high: 15).
const MAX_POSITION_WINDOWS: usize = 16;

/// What a position's windows depend on: the shape, the position, and its columns' cells
/// (which say their heights too: a cell holds a colour up to its stack's height, 0 above).
#[derive(Clone, Copy, PartialEq, Eq)]
struct PositionKey {
    /// Width, height and position, 4 bits each.
    shape: u64,
    columns: [u64; MAX_WIDTH],
}

impl PositionKey {
    #[inline(always)]
    fn new(w: usize, h: usize, x: usize, columns: &[u64; WIDTH]) -> Self {
        let mut key = Self {
            shape: (w | h << 4 | x << 8) as u64,
            columns: [0; MAX_WIDTH],
        };
        key.columns[..w].copy_from_slice(&columns[x..x + w]);
        key
    }

    #[inline(always)]
    fn slot(&self) -> usize {
        let mixed = self.columns.iter().fold(self.shape, |h, &c| {
            (h ^ c).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        });
        (mixed >> (64 - POSITION_SLOTS_LOG2)) as usize
    }
}

/// One position's windows as last found: their entries (from the shape's base).
#[derive(Clone, Copy)]
struct PositionEntry {
    key: PositionKey,
    len: u8,
    entries: [u32; MAX_POSITION_WINDOWS],
}

/// Window patterns met lately, keyed by the reading and the shape: a search scores hundreds
/// of boards that share most of their windows, and ranking a window's colours is the
/// costliest part of finding its entry. Beside them, whole positions met lately: the boards
/// of one search differ from each other in a column or two, so most positions' columns
/// come back as they were.
pub(crate) struct PatternCache {
    keys: Box<[u64]>,
    patterns: Box<[u32]>,
    positions: Box<[PositionEntry]>,
}

const SLOTS_LOG2: u32 = 12;
const SLOTS: usize = 1 << SLOTS_LOG2;
const POSITION_SLOTS_LOG2: u32 = 11;

impl PatternCache {
    pub(crate) fn new() -> Self {
        // All ones is no key: packed colours are at most 6, never 15, and no shape is 15
        // wide.
        let none = PositionEntry {
            key: PositionKey {
                shape: u64::MAX,
                columns: [u64::MAX; MAX_WIDTH],
            },
            len: 0,
            entries: [0; MAX_POSITION_WINDOWS],
        };
        Self {
            keys: vec![u64::MAX; SLOTS].into_boxed_slice(),
            patterns: vec![0; SLOTS].into_boxed_slice(),
            positions: vec![none; 1 << POSITION_SLOTS_LOG2].into_boxed_slice(),
        }
    }

    /// The entries of a position's windows, when met lately.
    #[inline(always)]
    fn position(&self, key: &PositionKey) -> Option<&[u32]> {
        let entry = &self.positions[key.slot()];
        (entry.key == *key).then(|| &entry.entries[..usize::from(entry.len)])
    }

    #[inline(always)]
    fn keep_position(&mut self, key: PositionKey, entries: &[u32]) {
        let slot = &mut self.positions[key.slot()];
        slot.key = key;
        slot.len = entries.len() as u8;
        slot.entries[..entries.len()].copy_from_slice(entries);
    }

    /// The pattern of `reading` for the shape `shape_key`, ranked by `rank` when not cached.
    #[inline(always)]
    fn pattern(&mut self, reading: u64, shape_key: u64, rank: fn(u64) -> u32) -> u32 {
        let key = reading | shape_key;
        let slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SLOTS_LOG2)) as usize;
        if self.keys[slot] == key {
            return self.patterns[slot];
        }
        let pattern = rank(reading);
        self.keys[slot] = key;
        self.patterns[slot] = pattern;
        pattern
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_fit_their_encodings() {
        assert_eq!(Shape::<3, 3, 4>::PATTERNS, 41_137);
        assert_eq!(Shape::<3, 3, 4>::POSITIONS, 4);
        assert_eq!(Shape::<3, 3, 4>::ENTRIES, 2 * 5 * 41_137);
        // Other shapes, as tried: 4 x 2, 2 x 4 and 5 x 2 (ten cells, the most a pattern holds).
        assert_eq!(Shape::<4, 2, 4>::PATTERNS, 10_867);
        assert_eq!(Shape::<2, 4, 4>::PATTERNS, 6_784);
        assert_eq!(Shape::<5, 2, 4>::PATTERNS, 313_132);
        assert_eq!(Shape::<5, 2, 4>::ENTRIES, 5 * 313_132);
    }
}
