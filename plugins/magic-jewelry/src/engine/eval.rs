//! Scoring a board: the reference's eight metrics plus two optional ones, each normalised to
//! [0, 1] by its largest possible value on the visible 6 x 13 playfield.

use super::board::{Board, STRIDE, VISIBLE_CELLS, VISIBLE_ROWS, WIDTH};
use super::timing::SPAWN_X;
use super::weights::{Weights, FEATURE_COUNT};

/// Pair distances counted (0 to 4 cells between the two jewels).
pub const PAIR_DISTANCES: usize = 5;

/// Step of each direction in cells: (dx, di) for vertical, horizontal and both diagonals.
const STEPS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// Cells whose partner `distance` steps away in direction `dir` is inside rows 0-`rows`.
const fn partner_mask(dir: usize, distance: i32, rows: i32) -> u128 {
    let (dx, di) = STEPS[dir];
    let mut mask = 0u128;
    let mut x = 0;
    while x < WIDTH as i32 {
        let mut i = 0;
        while i < rows {
            let (tx, ti) = (x + dx * distance, i + di * distance);
            if tx >= 0 && tx < WIDTH as i32 && ti >= 0 && ti < rows {
                mask |= 1u128 << (STRIDE as i32 * x + i);
            }
            i += 1;
        }
        x += 1;
    }
    mask
}

const fn partner_masks() -> [[u128; 4]; PAIR_DISTANCES] {
    let mut masks = [[0; 4]; PAIR_DISTANCES];
    let mut k = 0;
    while k < PAIR_DISTANCES {
        let mut d = 0;
        while d < 4 {
            masks[k][d] = partner_mask(d, k as i32 + 1, 15);
            d += 1;
        }
        k += 1;
    }
    masks
}

/// Valid pair sources by distance and direction (hidden rows included).
const PARTNERS: [[u128; 4]; PAIR_DISTANCES] = partner_masks();

/// Bit shift to a partner: distance steps of each direction.
const fn shifts() -> [[u32; 4]; PAIR_DISTANCES] {
    let mut out = [[0; 4]; PAIR_DISTANCES];
    let mut k = 0;
    while k < PAIR_DISTANCES {
        let m = k as u32 + 1;
        out[k] = [m, m * STRIDE, m * (STRIDE + 1), m * (STRIDE - 1)];
        k += 1;
    }
    out
}

const SHIFTS: [[u32; 4]; PAIR_DISTANCES] = shifts();

/// Most pairs at each distance on the visible playfield.
const fn pair_maxima() -> [u32; PAIR_DISTANCES] {
    let mut out = [0; PAIR_DISTANCES];
    let mut k = 0;
    while k < PAIR_DISTANCES {
        let mut d = 0;
        while d < 4 {
            out[k] += partner_mask(d, k as i32 + 1, VISIBLE_ROWS as i32).count_ones();
            d += 1;
        }
        k += 1;
    }
    out
}

const PAIR_MAX: [u32; PAIR_DISTANCES] = pair_maxima();

/// Edge weight of a cell: 1 on the side columns, 2 in the four corners of the visible area.
const fn edge_weight(x: usize, i: usize) -> u32 {
    let side = x == 0 || x == WIDTH - 1;
    let end_row = i == 0 || i == VISIBLE_ROWS - 1;
    match (side, end_row) {
        (true, true) => 2,
        (true, false) => 1,
        _ => 0,
    }
}

/// Closeness of a cell to the spawn point (column 3, row 0): 1 there, 0 at the farthest
/// visible cell, by Manhattan distance. Hidden rows count as the spawn row.
const fn spawn_closeness(x: usize, i: usize) -> f64 {
    let row = VISIBLE_ROWS as i32 - 1 - i as i32;
    let row = if row < 0 { 0 } else { row };
    let dx = (x as i32 - SPAWN_X as i32).abs();
    let far = SPAWN_X as i32 + VISIBLE_ROWS as i32 - 1;
    1.0 - (dx + row) as f64 / far as f64
}

/// Per-column prefix sums over stack heights 0-15: stacks are contiguous, so a column's total
/// is one lookup.
struct Prefix {
    edge: [[u32; 16]; WIDTH],
    spawn: [[f64; 16]; WIDTH],
    edge_max: u32,
    spawn_max: f64,
}

const fn prefix() -> Prefix {
    let mut p = Prefix {
        edge: [[0; 16]; WIDTH],
        spawn: [[0.0; 16]; WIDTH],
        edge_max: 0,
        spawn_max: 0.0,
    };
    let mut x = 0;
    while x < WIDTH {
        let mut i = 0;
        while i < 15 {
            let e = if i < VISIBLE_ROWS {
                edge_weight(x, i)
            } else {
                0
            };
            p.edge[x][i + 1] = p.edge[x][i] + e;
            p.spawn[x][i + 1] = p.spawn[x][i] + spawn_closeness(x, i);
            if i < VISIBLE_ROWS {
                p.edge_max += e;
                p.spawn_max += spawn_closeness(x, i);
            }
            i += 1;
        }
        x += 1;
    }
    p
}

const PREFIX: Prefix = prefix();

/// Rows above which a stack counts as dangerous.
const DANGER_FROM: i32 = 7;
const DANGER_MAX: f64 = (WIDTH as i32
    * (VISIBLE_ROWS as i32 - DANGER_FROM)
    * (VISIBLE_ROWS as i32 - DANGER_FROM)) as f64;
const BUMPINESS_MAX: f64 = ((WIDTH - 1) * VISIBLE_ROWS) as f64;

/// Same-colour pair counts at each distance.
#[inline(always)]
pub(crate) fn pair_counts(board: &Board) -> [u32; PAIR_DISTANCES] {
    let [p0, p1, p2] = board.planes;
    let occ = p0 | p1 | p2;
    let mut counts = [0; PAIR_DISTANCES];
    for (k, count) in counts.iter_mut().enumerate() {
        let mut total = 0;
        for d in 0..4 {
            let s = SHIFTS[k][d];
            let same = !((p0 ^ (p0 >> s)) | (p1 ^ (p1 >> s)) | (p2 ^ (p2 >> s)));
            total += (occ & (occ >> s) & same & PARTNERS[k][d]).count_ones();
        }
        *count = total;
    }
    counts
}

/// The normalised features in [`Weights::to_vector`] order, each in [0, 1] on the visible
/// playfield (see [`SIGNS`] for which are good).
#[inline]
pub fn features(board: &Board) -> [f64; FEATURE_COUNT] {
    // Counting bits dominates; the default x86-64 target has no popcnt instruction, so use
    // it when the CPU has it.
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU supports popcnt, checked just above.
            return unsafe { features_popcnt(board) };
        }
    }
    features_portable(board)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn features_popcnt(board: &Board) -> [f64; FEATURE_COUNT] {
    features_portable(board)
}

#[inline(always)]
fn features_portable(board: &Board) -> [f64; FEATURE_COUNT] {
    let pairs = pair_counts(board);
    let mut f = [0.0; FEATURE_COUNT];
    for k in 0..PAIR_DISTANCES {
        f[k] = f64::from(pairs[k]) / f64::from(PAIR_MAX[k]);
    }
    let h = board.heights;
    let mut edge = 0;
    let mut spawn = 0.0;
    let mut danger = 0;
    let mut bumpiness = 0;
    for x in 0..WIDTH {
        let hx = h[x] as usize;
        edge += PREFIX.edge[x][hx];
        spawn += PREFIX.spawn[x][hx];
        let over = (hx as i32 - DANGER_FROM).max(0);
        danger += over * over;
        if x + 1 < WIDTH {
            bumpiness += (h[x] as i32 - h[x + 1] as i32).abs();
        }
    }
    f[5] = f64::from(board.jewels()) / (WIDTH * VISIBLE_ROWS) as f64;
    f[6] = f64::from(edge) / f64::from(PREFIX.edge_max);
    f[7] = spawn / PREFIX.spawn_max;
    f[8] = f64::from(danger) / DANGER_MAX;
    f[9] = f64::from(bumpiness) / BUMPINESS_MAX;
    f
}

/// Which features add to the score (+1) and which subtract (-1).
pub const SIGNS: [f64; FEATURE_COUNT] = [1.0, 1.0, 1.0, 1.0, 1.0, -1.0, -1.0, -1.0, -1.0, -1.0];

/// A weighted sum of the features, ready to score many boards.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Evaluator {
    coefficients: [f64; FEATURE_COUNT],
    uses_extras: bool,
    /// Interim-jewels weight per jewel.
    interim: f64,
}

impl Evaluator {
    pub fn new(weights: &Weights) -> Self {
        let w = weights.to_vector();
        let mut coefficients = [0.0; FEATURE_COUNT];
        for i in 0..FEATURE_COUNT {
            coefficients[i] = SIGNS[i] * w[i];
        }
        Self {
            coefficients,
            uses_extras: w[8..FEATURE_COUNT].iter().any(|&x| x != 0.0),
            interim: w[FEATURE_COUNT] / VISIBLE_CELLS as f64,
        }
    }

    /// What the jewels on a board the search passes through cost (subtracted from the score).
    #[inline]
    pub fn interim_cost(&self, board: &Board) -> f64 {
        self.interim * f64::from(board.jewels())
    }

    /// Higher is better.
    #[inline]
    pub fn score(&self, board: &Board) -> f64 {
        let f = features(board);
        let n = if self.uses_extras { FEATURE_COUNT } else { 8 };
        self.coefficients[..n]
            .iter()
            .zip(&f)
            .map(|(c, v)| c * v)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        Board::from_text(text).unwrap()
    }

    #[test]
    fn maxima_match_the_playfield() {
        // Distance 0: 6x12 vertical + 5x13 horizontal + 2 x 5x12 diagonal.
        assert_eq!(PAIR_MAX[0], 72 + 65 + 120);
        // Distance 4 (5 apart): 6x8 vertical + 1x13 horizontal + 2 x 1x8 diagonal.
        assert_eq!(PAIR_MAX[4], 48 + 13 + 16);
        assert_eq!(PREFIX.edge_max, 30);
    }

    #[test]
    fn pairs_in_every_direction() {
        assert_eq!(pair_counts(&board("11....")), [1, 0, 0, 0, 0]);
        assert_eq!(pair_counts(&board("1.1...")), [0, 1, 0, 0, 0]);
        assert_eq!(pair_counts(&board("1.....\n1.....")), [1, 0, 0, 0, 0]);
        assert_eq!(pair_counts(&board("1.....\n21....")), [1, 0, 0, 0, 0]);
        assert_eq!(pair_counts(&board(".1....\n12....")), [1, 0, 0, 0, 0]);
        assert_eq!(pair_counts(&board("121212")), [0, 4, 0, 2, 0]);
        assert_eq!(pair_counts(&board("1....1")), [0, 0, 0, 0, 1]);
        // No wrap from the top of one column to the floor of the next.
        let tall = "1.....\n2.....\n3.....\n4.....\n5.....\n6.....\n1.....\n2.....\n3.....\n4.....\n5.....\n6.....\n3.....\n2.....\n1.....";
        assert_eq!(pair_counts(&board(tall)), [0, 0, 0, 1, 0]);
    }

    #[test]
    fn features_are_normalised() {
        let empty = features(&Board::empty());
        assert!(empty.iter().all(|&f| f == 0.0));
        let f = features(&board("1.....\n1....2"));
        assert_eq!(f[0], 1.0 / 257.0);
        assert_eq!(f[5], 3.0 / 78.0);
        assert_eq!(f[6], 5.0 / 30.0);
        // Spawn closeness: row 12 at column 0 is 15 away, at column 5 14 away; row 11 col 0, 14.
        assert!((f[7] - (0.0 + 1.0 / 15.0 + 1.0 / 15.0) / PREFIX.spawn_max).abs() < 1e-12);
        assert_eq!(f[9], 3.0 / 65.0);
        let mut full = Board::empty();
        for x in 0..WIDTH {
            for i in 0..VISIBLE_ROWS {
                full.push(x, ((x + 2 * i) % 6 + 1) as u8);
            }
        }
        let f = features(&full);
        assert!(f.iter().all(|&v| (0.0..=1.0).contains(&v)), "{f:?}");
        assert_eq!(f[5], 1.0);
        assert_eq!(f[6], 1.0);
        assert!((f[7] - 1.0).abs() < 1e-12);
        assert_eq!(f[8], 1.0);
    }

    #[test]
    fn published_weights_prefer_pairs_and_fewer_jewels() {
        let e = Evaluator::new(&Weights::PUBLISHED);
        assert!(e.score(&board("11....")) > e.score(&board("12....")));
        assert!(e.score(&board("..1...")) > e.score(&board("..12..")));
        assert!(e.score(&board("1.....")) < e.score(&board(".1....")));
    }
}
