//! Scoring a board: the reference's eight metrics plus optional ones, each normalised to
//! [0, 1] by its largest possible value on the visible 6 x 13 playfield.

use super::weights::{Weights, FEATURE_COUNT};
use crate::rules::board::{
    Board, CELLS_MASK, COLOURS, STRIDE, VISIBLE_CELLS, VISIBLE_MASK, VISIBLE_ROWS, WIDTH,
};
use crate::rules::{RuleSet, SPAWN_X};

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

/// Cells `distance` steps back along `dir` from a valid pair source: the cells whose partner
/// `distance` steps the other way is on the grid.
const fn back_masks() -> [[u128; 4]; 2] {
    let mut masks = [[0; 4]; 2];
    let mut k = 0;
    while k < 2 {
        let mut d = 0;
        while d < 4 {
            masks[k][d] = PARTNERS[k][d] << SHIFTS[k][d];
            d += 1;
        }
        k += 1;
    }
    masks
}

const BACKS: [[u128; 4]; 2] = back_masks();

/// The cells a column dropped at `x` onto a stack of `height` jewels fills (visible ones).
const fn landing_table() -> [[u128; 16]; WIDTH] {
    let mut table = [[0; 16]; WIDTH];
    let mut x = 0;
    while x < WIDTH {
        let mut h = 0;
        while h < 16 {
            let mut r = 0;
            while r < 3 {
                if h + r < VISIBLE_ROWS {
                    table[x][h] |= 1u128 << (STRIDE as usize * x + h + r);
                }
                r += 1;
            }
            h += 1;
        }
        x += 1;
    }
    table
}

const LANDING: [[u128; 16]; WIDTH] = landing_table();

/// Completion spots counted at most (three landing cells in each column, one colour each
/// counted twice as a generous bound: a cell rarely completes more than two colours).
const COMPLETIONS_MAX: f64 = (3 * WIDTH * 2) as f64;

/// Completion spots in the landing cells, counted per colour, and how many colours have one.
///
/// A spot is an empty landing cell `q` and a colour such that a jewel of that colour at `q`
/// lines up three with two jewels already there: `q+d, q+2d`, `q-d, q+d` or `q-2d, q-d`
/// along some direction `d`. Same-colour pairs are found for all colours at once, as in
/// [`pair_sources`]; the few spots they give are then looked at one by one.
#[inline]
pub(crate) fn completion_spots(board: &Board) -> (u32, u32) {
    let (spots, colours) = completions_from(board, &pair_sources(board));
    (spots, colours.count_ones())
}

/// Completion spots and the colours that have one (bit `c` for colour `c`), from the board's
/// [`pair_sources`].
#[inline(always)]
fn completions_from(board: &Board, sources: &PairSources) -> (u32, u8) {
    let mut landing = 0;
    for x in 0..WIDTH {
        landing |= LANDING[x][board.heights[x] as usize];
    }
    let [p0, p1, p2] = board.planes;
    // Colours completable at each landing cell, one bit per colour.
    let mut found = [0u8; WIDTH * STRIDE as usize];
    let mut spots = 0;
    let mut colours = 0u8;
    for d in 0..4 {
        let (s1, s2) = (SHIFTS[0][d], SHIFTS[1][d]);
        let (adjacent, gapped) = (sources[0][d], sources[1][d]);
        // (spots, distance from the spot back to its pair source, pair source ahead?)
        let patterns = [
            (((adjacent & BACKS[0][d]) >> s1) & landing, s1, true),
            (((adjacent & PARTNERS[1][d]) << s2) & landing, s2, false),
            ((gapped << s1) & landing, s1, false),
        ];
        for (mut cells, offset, ahead) in patterns {
            while cells != 0 {
                let q = cells.trailing_zeros();
                cells &= cells - 1;
                let p = if ahead { q + offset } else { q - offset };
                let colour = (p0 >> p & 1) | (p1 >> p & 1) << 1 | (p2 >> p & 1) << 2;
                let bit = 1u8 << colour;
                let slot = &mut found[q as usize];
                if *slot & bit == 0 {
                    *slot |= bit;
                    spots += 1;
                    colours |= bit;
                }
            }
        }
    }
    (spots, colours)
}

/// Jewels with no jewel of their colour one or two steps away in any of the 8 directions:
/// they are in no pair a line could grow from.
#[inline(always)]
fn unpaired(board: &Board, sources: &PairSources) -> u32 {
    let mut paired = 0;
    for (k, by_direction) in sources.iter().take(2).enumerate() {
        for (d, &source) in by_direction.iter().enumerate() {
            paired |= source | (source << SHIFTS[k][d]);
        }
    }
    (board.occupancy() & !paired & VISIBLE_MASK).count_ones()
}

/// Jewels with no empty cell one or two steps away in any of the 8 directions.
#[inline(always)]
pub(crate) fn buried(board: &Board) -> u32 {
    let occupied = board.occupancy();
    let empty = !occupied & CELLS_MASK;
    let mut near = 0;
    for d in 0..4 {
        for k in 0..2 {
            let s = SHIFTS[k][d];
            near |= ((empty >> s) & PARTNERS[k][d]) | ((empty << s) & BACKS[k][d]);
        }
    }
    (occupied & !near).count_ones()
}

/// The chance of each jewel colour in a new column (index 1-6), by rule set.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ColourOdds([f64; COLOURS as usize + 1]);

impl ColourOdds {
    pub fn of(rules: RuleSet) -> Self {
        let mut odds = [0.0; COLOURS as usize + 1];
        for colour in 1..=COLOURS {
            odds[colour as usize] = rules.colour_odds(colour);
        }
        Self(odds)
    }

    /// The chance that a new column holds at least one jewel of the colours in `colours` (bit
    /// `c` for colour `c`).
    fn any_of(&self, colours: u8) -> f64 {
        let hit: f64 = (1..=COLOURS)
            .filter(|&c| colours >> c & 1 == 1)
            .map(|c| self.0[c as usize])
            .sum();
        let miss = (1.0 - hit).max(0.0);
        1.0 - miss * miss * miss
    }
}

/// Same-colour pairs by distance and direction: bit `p` of `[k][d]` is set when cell `p` and
/// the cell `k + 1` steps from it along direction `d` hold one colour.
pub(crate) type PairSources = [[u128; 4]; PAIR_DISTANCES];

#[inline(always)]
pub(crate) fn pair_sources(board: &Board) -> PairSources {
    let [p0, p1, p2] = board.planes;
    let occ = p0 | p1 | p2;
    let mut sources = [[0; 4]; PAIR_DISTANCES];
    for (k, by_direction) in sources.iter_mut().enumerate() {
        for (d, source) in by_direction.iter_mut().enumerate() {
            let s = SHIFTS[k][d];
            let same = !((p0 ^ (p0 >> s)) | (p1 ^ (p1 >> s)) | (p2 ^ (p2 >> s)));
            *source = occ & (occ >> s) & same & PARTNERS[k][d];
        }
    }
    sources
}

/// Same-colour pair counts at each distance.
#[cfg(test)]
pub(crate) fn pair_counts(board: &Board) -> [u32; PAIR_DISTANCES] {
    count_pairs(&pair_sources(board))
}

#[inline(always)]
fn count_pairs(sources: &PairSources) -> [u32; PAIR_DISTANCES] {
    sources.map(|by_direction| by_direction.iter().map(|s| s.count_ones()).sum())
}

/// The normalised features in [`Weights::to_vector`] order, each in [0, 1] on the visible
/// playfield (see [`SIGNS`] for which are good), with the colour odds of `rules`.
#[inline]
pub fn features(board: &Board, rules: RuleSet) -> [f64; FEATURE_COUNT] {
    features_up_to(board, FEATURE_COUNT, &ColourOdds::of(rules))
}

/// The first `n` features (the rest 0), sparing the cost of the ones whose weight is 0.
#[inline]
fn features_up_to(board: &Board, n: usize, odds: &ColourOdds) -> [f64; FEATURE_COUNT] {
    // Counting bits dominates; the default x86-64 target has no popcnt instruction, so use
    // it when the CPU has it.
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU supports popcnt, checked just above.
            #[allow(unsafe_code)]
            return unsafe { features_popcnt(board, n, odds) };
        }
    }
    features_portable(board, n, odds)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn features_popcnt(board: &Board, n: usize, odds: &ColourOdds) -> [f64; FEATURE_COUNT] {
    features_portable(board, n, odds)
}

#[inline(always)]
fn features_portable(board: &Board, n: usize, odds: &ColourOdds) -> [f64; FEATURE_COUNT] {
    let sources = pair_sources(board);
    let pairs = count_pairs(&sources);
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
            bumpiness += (i32::from(h[x]) - i32::from(h[x + 1])).abs();
        }
    }
    f[5] = f64::from(board.jewels()) / (WIDTH * VISIBLE_ROWS) as f64;
    f[6] = f64::from(edge) / f64::from(PREFIX.edge_max);
    f[7] = spawn / PREFIX.spawn_max;
    f[8] = f64::from(danger) / DANGER_MAX;
    f[9] = f64::from(bumpiness) / BUMPINESS_MAX;
    if n > COMPLETION_FEATURES {
        let (spots, colours) = completions_from(board, &sources);
        f[10] = (f64::from(spots) / COMPLETIONS_MAX).min(1.0);
        f[11] = odds.any_of(colours);
        f[12] = f64::from(buried(board)) / VISIBLE_CELLS as f64;
        f[13] = f64::from(unpaired(board, &sources)) / VISIBLE_CELLS as f64;
    }
    f
}

/// Index of the first completion feature: boards are scored without them when their weights
/// are 0.
const COMPLETION_FEATURES: usize = 10;

/// Which features add to the score (+1) and which subtract (-1).
pub const SIGNS: [f64; FEATURE_COUNT] = [
    1.0, 1.0, 1.0, 1.0, 1.0, -1.0, -1.0, -1.0, -1.0, -1.0, 1.0, 1.0, -1.0, -1.0,
];

/// A weighted sum of the features, ready to score many boards.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WeightedFeatures {
    coefficients: [f64; FEATURE_COUNT],
    /// Features with a nonzero weight are all among the first `used`.
    used: usize,
    /// Interim-jewels weight per jewel.
    interim: f64,
    /// The colour odds `clear_chance` weighs the colours with.
    odds: ColourOdds,
}

impl WeightedFeatures {
    /// The weights under the real game's colour odds.
    pub fn new(weights: &Weights) -> Self {
        Self::for_rules(weights, RuleSet::Real)
    }

    /// The weights under the colour odds of `rules`.
    pub fn for_rules(weights: &Weights, rules: RuleSet) -> Self {
        let w = weights.to_vector();
        let mut coefficients = [0.0; FEATURE_COUNT];
        for i in 0..FEATURE_COUNT {
            coefficients[i] = SIGNS[i] * w[i];
        }
        Self {
            coefficients,
            used: (0..FEATURE_COUNT)
                .rfind(|&i| w[i] != 0.0)
                .map_or(0, |i| i + 1),
            interim: w[FEATURE_COUNT] / VISIBLE_CELLS as f64,
            odds: ColourOdds::of(rules),
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
        let n = self.used;
        let f = features_up_to(board, n, &self.odds);
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
        let empty = features(&Board::empty(), RuleSet::Reference);
        assert!(empty.iter().all(|&f| f == 0.0));
        let f = features(&board("1.....\n1....2"), RuleSet::Reference);
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
        let f = features(&full, RuleSet::Reference);
        assert!(f.iter().all(|&v| (0.0..=1.0).contains(&v)), "{f:?}");
        assert_eq!(f[5], 1.0);
        assert_eq!(f[6], 1.0);
        assert!((f[7] - 1.0).abs() < 1e-12);
        assert_eq!(f[8], 1.0);
    }

    #[test]
    fn the_clear_chance_weighs_colours_by_the_rules() {
        // Two 1s on the floor: a column with a 1 clears them.
        let ones = board("11....");
        let twos = board("22....");
        let uniform = 1.0 - (5.0f64 / 6.0).powi(3);
        for b in [&ones, &twos] {
            assert!((features(b, RuleSet::Reference)[11] - uniform).abs() < 1e-12);
        }
        assert!((features(&ones, RuleSet::Real)[11] - (1.0 - 0.75f64.powi(3))).abs() < 1e-12);
        assert!((features(&twos, RuleSet::Real)[11] - (1.0 - 0.875f64.powi(3))).abs() < 1e-12);
        // Both: 3/8 of the jewels complete a line.
        let both = board("11.22.");
        assert!((features(&both, RuleSet::Real)[11] - (1.0 - 0.625f64.powi(3))).abs() < 1e-12);
    }

    #[test]
    fn published_weights_prefer_pairs_and_fewer_jewels() {
        let e = WeightedFeatures::new(&Weights::PUBLISHED);
        assert!(e.score(&board("11....")) > e.score(&board("12....")));
        assert!(e.score(&board("..1...")) > e.score(&board("..12..")));
        assert!(e.score(&board("1.....")) < e.score(&board(".1....")));
    }
}

#[cfg(test)]
mod completion_tests {
    use super::*;

    fn spots(text: &str) -> (u32, u32) {
        super::completion_spots(&Board::from_text(text).unwrap())
    }

    #[test]
    fn completion_spots() {
        assert_eq!(spots("11...."), (1, 1));
        assert_eq!(spots("1.1..."), (1, 1));
        assert_eq!(spots("1....."), (0, 0));
        assert_eq!(spots("1.....\n1....."), (1, 1));
        // The 2s on the diagonal point at the third landing cell of column 2.
        assert_eq!(spots(".1....\n12....\n21...."), (1, 1));
        assert_eq!(spots(".1....\n13....\n21...."), (0, 0));
        let wall = Board::from_text("1.....\n2.....\n3.....\n4.....\n5.....\n6.....\n1.....\n2.....\n3.....\n4.....\n5.....\n6.....").unwrap();
        // Twelve jewels against the wall: all touch the empty column beside them.
        assert_eq!(buried(&wall), 0);
        let full_bottom = Board::from_text("123456\n234561\n345612\n456123").unwrap();
        // Four full rows: the two lowest are more than two steps from any empty cell.
        assert_eq!(buried(&full_bottom), 12);
        let unpaired_of = |text: &str| {
            let board = Board::from_text(text).unwrap();
            unpaired(&board, &pair_sources(&board))
        };
        // 1s two apart pair up; the 2 and 3 have no partner; 4s three apart are too far.
        assert_eq!(unpaired_of("1.1..."), 0);
        assert_eq!(unpaired_of("123..."), 3);
        assert_eq!(unpaired_of("1.1.2."), 1);
        assert_eq!(unpaired_of("1.2.1."), 3);
        assert_eq!(unpaired_of("4..4.."), 2);
        // Two colours at one cell and one more at the right; no wrap across columns.
        assert_eq!(spots("11.22."), (3, 2));
        assert_eq!(spots("1.....\n1.....\n1.....\n1.....\n1.....\n1.....\n1.....\n1.....\n1.....\n1.....\n1.....\n1.....\n1.....\n2.....\n3....."), (0, 0));
    }
}
