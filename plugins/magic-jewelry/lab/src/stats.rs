//! What a simulation measures: the fill histogram (jewels on the board after each placement),
//! clears, chains, game overs, and what the real game adds: points, wild columns, the levels
//! reached and the columns played at each fall speed; mergeable across chunks.

use magic_jewelry::engine::{Counters, Turn};
use serde::Serialize;
use std::time::Duration;

/// Histogram bins for jewels on the board (0-90).
pub const FILL_BINS: usize = 91;
/// Histogram bins for chain lengths (the last bin collects longer ones).
pub const CHAIN_BINS: usize = 16;
/// Histogram bins for fall speeds, in frames per row (0-63).
pub const SPEED_BINS: usize = 64;
/// Decision times below this many microseconds have a bin each.
const EXACT_MICROS: u64 = 512;
/// Above them, each doubling of the time has this many bins: a time is kept to within 1/256
/// of itself, however long.
const BINS_PER_DOUBLING: u64 = 256;
/// Histogram bins for decision times: every `u64` of microseconds has one.
pub const TIME_BINS: usize = (EXACT_MICROS + (64 - 9) * BINS_PER_DOUBLING) as usize;

/// The bin of a decision time in microseconds.
fn time_bin(micros: u64) -> usize {
    if micros < EXACT_MICROS {
        return micros as usize;
    }
    let doubling = u64::from(micros.ilog2()); // 9 and up
    let within = (micros >> (doubling - 8)) - BINS_PER_DOUBLING;
    (EXACT_MICROS + (doubling - 9) * BINS_PER_DOUBLING + within) as usize
}

/// The least time in microseconds a bin holds.
fn bin_floor(bin: usize) -> u64 {
    let bin = bin as u64;
    if bin < EXACT_MICROS {
        return bin;
    }
    let doubling = 9 + (bin - EXACT_MICROS) / BINS_PER_DOUBLING;
    let within = (bin - EXACT_MICROS) % BINS_PER_DOUBLING;
    (BINS_PER_DOUBLING + within) << (doubling - 8)
}

/// What the chains came to: the figures a score player is judged by.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ChainFigures {
    /// Locks that set off at least one match.
    pub clearing_locks: u64,
    /// Match steps a clearing lock set off, on average.
    pub steps_per_clearing_lock: f64,
    /// The most steps one lock set off.
    pub longest: u8,
    /// The most points one lock scored.
    pub best_lock_points: u64,
}

impl std::fmt::Display for ChainFigures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} clearing locks, {:.3} steps each on average, longest {} steps; best lock {} points",
            self.clearing_locks, self.steps_per_clearing_lock, self.longest, self.best_lock_points
        )
    }
}

/// Totals over one or more games.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stats {
    /// Columns placed.
    pub columns: u64,
    /// Sum of the jewels on the board after each placement.
    pub jewel_sum: u64,
    pub max_jewels: u32,
    /// `fill[n]`: placements after which the board held n jewels.
    pub fill: Vec<u64>,
    /// Placements that left the board empty (other than on an empty board's wild column).
    pub clears: u64,
    /// Longest run of columns between two complete clears (within a chunk).
    pub longest_without_clear: u64,
    /// `chains[n]`: locks with n match steps (0: no match).
    pub chains: Vec<u64>,
    /// Match steps over all locks (exact, where `chains` bins the long ones together).
    pub chain_steps: u64,
    /// The most match steps one lock set off.
    pub longest_chain: u8,
    /// The most points one lock scored (its whole resolution, every step).
    pub best_lock_points: u64,
    /// Cells removed by matches (a wild column's X's included).
    pub removed: u64,
    /// Jewels gone without a match (real rules): row -2 at collapses, (3, 0) under a spawn.
    pub erased: u64,
    pub game_overs: u64,
    /// Wild columns placed.
    pub wild_columns: u64,
    /// Points scored (real rules).
    pub points: u64,
    /// Points the wild columns' locks scored (their chains included).
    pub wild_points: u64,
    /// Games played to their end (a game over, or the end of a run).
    pub games: u64,
    /// The most wild columns one game generated: the highest level the game displayed.
    pub highest_level: u64,
    /// `speed_columns[n]`: columns that fell at n frames a row.
    pub speed_columns: Vec<u64>,
    /// Time spent deciding, in nanoseconds.
    pub decision_nanos: u64,
    /// Decisions by time (one bin a microsecond below 512, then 256 bins a doubling; empty
    /// until one is timed).
    #[serde(skip)]
    pub decision_micros: Vec<u64>,
}

impl Default for Stats {
    fn default() -> Self {
        Self {
            columns: 0,
            jewel_sum: 0,
            max_jewels: 0,
            fill: vec![0; FILL_BINS],
            clears: 0,
            longest_without_clear: 0,
            chains: vec![0; CHAIN_BINS],
            chain_steps: 0,
            longest_chain: 0,
            best_lock_points: 0,
            removed: 0,
            erased: 0,
            game_overs: 0,
            wild_columns: 0,
            points: 0,
            wild_points: 0,
            games: 0,
            highest_level: 0,
            speed_columns: vec![0; SPEED_BINS],
            decision_nanos: 0,
            decision_micros: Vec::new(),
        }
    }
}

impl Stats {
    /// Records one placement's result.
    pub fn record(&mut self, jewels: u32, chains: u8, removed: u16) {
        self.columns += 1;
        self.jewel_sum += u64::from(jewels);
        self.max_jewels = self.max_jewels.max(jewels);
        self.fill[(jewels as usize).min(FILL_BINS - 1)] += 1;
        self.chains[(chains as usize).min(CHAIN_BINS - 1)] += 1;
        self.chain_steps += u64::from(chains);
        self.longest_chain = self.longest_chain.max(chains);
        self.removed += u64::from(removed);
    }

    /// Locks that set off at least one match.
    pub fn clearing_locks(&self) -> u64 {
        self.chains.iter().skip(1).sum()
    }

    /// The chain figures of these games.
    pub fn chain_figures(&self) -> ChainFigures {
        ChainFigures {
            clearing_locks: self.clearing_locks(),
            steps_per_clearing_lock: self.steps_per_clearing_lock(),
            longest: self.longest_chain,
            best_lock_points: self.best_lock_points,
        }
    }

    /// Match steps a clearing lock sets off, on average (0 when none cleared).
    pub fn steps_per_clearing_lock(&self) -> f64 {
        match self.clearing_locks() {
            0 => 0.0,
            locks => self.chain_steps as f64 / locks as f64,
        }
    }

    /// Records what one column did (the clear counts are kept by the runner).
    pub fn record_turn(&mut self, turn: &Turn, decision: Option<Duration>) {
        if let Some(elapsed) = decision {
            self.decision_nanos += elapsed.as_nanos() as u64;
            if self.decision_micros.is_empty() {
                self.decision_micros = vec![0; TIME_BINS];
            }
            let micros = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
            self.decision_micros[time_bin(micros).min(TIME_BINS - 1)] += 1;
        }
        if turn.wild {
            self.wild_columns += 1;
        }
        self.speed_columns[usize::from(turn.fall_speed).min(SPEED_BINS - 1)] += 1;
        let outcome = turn.resolution.map(|r| r.outcome);
        let (chains, removed) = outcome.map_or((0, 0), |o| (o.chains, o.removed));
        self.erased += outcome.map_or(0, |o| u64::from(o.erased));
        self.points += turn.points();
        self.best_lock_points = self.best_lock_points.max(turn.points());
        if turn.wild {
            self.wild_points += turn.points();
        }
        self.record(turn.jewels, chains, removed);
        if turn.lost {
            self.game_overs += 1;
            self.end_game(turn.displayed_level);
        }
    }

    /// Records the end of a run: the game still in progress ends here.
    pub fn record_game_end(&mut self, counters: &Counters) {
        self.end_game(counters.wild_columns);
    }

    fn end_game(&mut self, level: u64) {
        self.games += 1;
        self.highest_level = self.highest_level.max(level);
    }

    /// Points per column placed.
    pub fn points_per_column(&self) -> f64 {
        if self.columns == 0 {
            return 0.0;
        }
        self.points as f64 / self.columns as f64
    }

    /// The share of columns that fell at each speed, as (frames per row, share), fastest first.
    pub fn speed_shares(&self) -> Vec<(u8, f64)> {
        let total = self.columns.max(1) as f64;
        self.speed_columns
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(speed, &n)| (speed as u8, n as f64 / total))
            .collect()
    }

    /// Mean jewels on the board after a placement.
    pub fn mean_jewels(&self) -> f64 {
        if self.columns == 0 {
            return 0.0;
        }
        self.jewel_sum as f64 / self.columns as f64
    }

    /// Columns per complete clear (infinite without clears).
    pub fn columns_per_clear(&self) -> f64 {
        if self.clears == 0 {
            return f64::INFINITY;
        }
        self.columns as f64 / self.clears as f64
    }

    /// Mean decision time in microseconds.
    pub fn mean_decision_micros(&self) -> f64 {
        if self.columns == 0 {
            return 0.0;
        }
        self.decision_nanos as f64 / self.columns as f64 / 1000.0
    }

    /// Median decision time in microseconds, to within 1/256 of itself (0 when none was
    /// timed).
    pub fn median_decision_micros(&self) -> u64 {
        let timed: u64 = self.decision_micros.iter().sum();
        let mut seen = 0;
        for (bin, &n) in self.decision_micros.iter().enumerate() {
            seen += n;
            if 2 * seen >= timed && n > 0 {
                return bin_floor(bin);
            }
        }
        0
    }

    /// Probability of each fill level.
    pub fn fill_probability(&self) -> Vec<f64> {
        let total = self.columns.max(1) as f64;
        self.fill.iter().map(|&n| n as f64 / total).collect()
    }

    pub fn merge(&mut self, other: &Self) {
        self.columns += other.columns;
        self.jewel_sum += other.jewel_sum;
        self.max_jewels = self.max_jewels.max(other.max_jewels);
        for (a, b) in self.fill.iter_mut().zip(&other.fill) {
            *a += b;
        }
        self.clears += other.clears;
        self.longest_without_clear = self.longest_without_clear.max(other.longest_without_clear);
        for (a, b) in self.chains.iter_mut().zip(&other.chains) {
            *a += b;
        }
        self.chain_steps += other.chain_steps;
        self.longest_chain = self.longest_chain.max(other.longest_chain);
        self.best_lock_points = self.best_lock_points.max(other.best_lock_points);
        self.removed += other.removed;
        self.erased += other.erased;
        self.game_overs += other.game_overs;
        self.wild_columns += other.wild_columns;
        self.points += other.points;
        self.wild_points += other.wild_points;
        self.games += other.games;
        self.highest_level = self.highest_level.max(other.highest_level);
        for (a, b) in self.speed_columns.iter_mut().zip(&other.speed_columns) {
            *a += b;
        }
        self.decision_nanos += other.decision_nanos;
        if self.decision_micros.len() < other.decision_micros.len() {
            self.decision_micros.resize(other.decision_micros.len(), 0);
        }
        for (a, b) in self.decision_micros.iter_mut().zip(&other.decision_micros) {
            *a += b;
        }
    }
}

/// Least-squares polynomial fit of `degree` (coefficients from the constant up).
pub fn polyfit(xs: &[f64], ys: &[f64], degree: usize) -> Option<Vec<f64>> {
    let n = degree + 1;
    if xs.len() < n {
        return None;
    }
    // Normal equations, solved by Gaussian elimination with partial pivoting.
    let mut a = vec![vec![0.0; n + 1]; n];
    for (&x, &y) in xs.iter().zip(ys) {
        let mut powers = vec![1.0; 2 * n];
        for k in 1..2 * n {
            powers[k] = powers[k - 1] * x;
        }
        for r in 0..n {
            for c in 0..n {
                a[r][c] += powers[r + c];
            }
            a[r][n] += y * powers[r];
        }
    }
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        a.swap(col, pivot);
        if a[col][col].abs() < 1e-12 {
            return None;
        }
        let pivot_row = a[col].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != col {
                let f = row[col] / pivot_row[col];
                for (v, p) in row.iter_mut().zip(&pivot_row).skip(col) {
                    *v -= f * p;
                }
            }
        }
    }
    Some((0..n).map(|r| a[r][n] / a[r][r]).collect())
}

/// Evaluates polynomial coefficients (constant first) at x.
pub fn polyval(coefficients: &[f64], x: f64) -> f64 {
    coefficients.iter().rev().fold(0.0, |acc, c| acc * x + c)
}

/// The log10 fill curve's tail fit, as the reference did: a quadratic through log10 of the
/// probabilities right of the most likely fill (bins with at least `min_count` samples).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TailFit {
    pub coefficients: Vec<f64>,
    pub from: usize,
    pub to: usize,
    /// Expected columns until the board holds 54 / 78 jewels (1 / fitted probability).
    pub expected_columns_54: f64,
    pub expected_columns_78: f64,
}

pub fn tail_fit(stats: &Stats, min_count: u64) -> Option<TailFit> {
    let mode = (0..FILL_BINS).max_by_key(|&i| stats.fill[i])?;
    let p = stats.fill_probability();
    let (xs, ys): (Vec<f64>, Vec<f64>) = (mode..FILL_BINS)
        .filter(|&i| stats.fill[i] >= min_count)
        .map(|i| (i as f64, p[i].log10()))
        .unzip();
    let coefficients = polyfit(&xs, &ys, 2)?;
    let expect = |x: f64| 10f64.powf(-polyval(&coefficients, x));
    Some(TailFit {
        from: mode,
        to: xs.last().map_or(mode, |&x| x as usize),
        expected_columns_54: expect(54.0),
        expected_columns_78: expect(78.0),
        coefficients,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decision_times_are_kept_to_within_a_256th_however_long() {
        for micros in [
            0,
            1,
            511,
            512,
            513,
            1023,
            1024,
            99_999,
            150_000,
            749_893,
            u64::MAX,
        ] {
            let bin = time_bin(micros);
            assert!(bin < TIME_BINS, "{micros}");
            let floor = bin_floor(bin);
            assert!(
                floor <= micros && micros - floor <= micros / 256,
                "{micros}: {floor}"
            );
        }
        assert_eq!(time_bin(512), 512);
        assert_eq!(time_bin(1024), time_bin(1023) + 1);
        // A slow search's median is its own, not a cap's.
        let mut stats = Stats::default();
        for micros in [700_000, 750_000, 800_000] {
            let turn = Turn {
                resolution: None,
                wild: false,
                fall_speed: 8,
                jewels: 0,
                lost: false,
                displayed_level: 0,
                emptied: false,
            };
            stats.record_turn(&turn, Some(Duration::from_micros(micros)));
        }
        let median = stats.median_decision_micros();
        assert!((747_000..=750_000).contains(&median), "{median}");
    }

    #[test]
    fn records_and_merges() {
        let mut a = Stats::default();
        a.record(0, 0, 0);
        a.record(6, 1, 3);
        let mut b = Stats::default();
        b.record(95, 17, 0);
        a.merge(&b);
        assert_eq!(a.columns, 3);
        assert_eq!(a.mean_jewels(), 101.0 / 3.0);
        assert_eq!(a.max_jewels, 95);
        assert_eq!(a.fill[90], 1);
        assert_eq!(a.chains[CHAIN_BINS - 1], 1);
        assert_eq!(a.removed, 3);
        // The histogram bins 17 steps with 15; the exact figures keep them.
        assert_eq!((a.chain_steps, a.longest_chain), (18, 17));
        assert_eq!(a.clearing_locks(), 2);
        assert_eq!(a.steps_per_clearing_lock(), 9.0);
        assert_eq!(Stats::default().steps_per_clearing_lock(), 0.0);
    }

    #[test]
    fn fits_a_parabola() {
        let xs: Vec<f64> = (0..10).map(f64::from).collect();
        let ys: Vec<f64> = xs.iter().map(|x| 1.0 - 2.0 * x + 0.5 * x * x).collect();
        let c = polyfit(&xs, &ys, 2).unwrap();
        assert!(
            (c[0] - 1.0).abs() < 1e-9 && (c[1] + 2.0).abs() < 1e-9 && (c[2] - 0.5).abs() < 1e-9
        );
        assert!((polyval(&c, 3.0) - (1.0 - 6.0 + 4.5)).abs() < 1e-9);
    }

    #[test]
    fn tail_fit_of_a_geometric_tail() {
        let mut s = Stats::default();
        for (n, count) in [
            (5u32, 1_000_000u64),
            (6, 100_000),
            (7, 10_000),
            (8, 1_000),
            (9, 100),
        ] {
            for _ in 0..count {
                s.record(n, 0, 0);
            }
        }
        let fit = tail_fit(&s, 10).unwrap();
        assert_eq!((fit.from, fit.to), (5, 9));
        // One decade per jewel: 10^49 columns more at 54 than at 5.
        let at5 = s.columns as f64 / 1_000_000.0;
        assert!((fit.expected_columns_54.log10() - (49.0 + at5.log10())).abs() < 1e-6);
    }
}
