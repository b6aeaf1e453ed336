//! What a simulation measures: the fill histogram (jewels on the board after each placement),
//! clears, chains, game overs, and what the real game adds: points, wild columns, the levels
//! reached and the columns played at each fall speed; mergeable across chunks.

use magic_jewelry::stats::{Chains, DecisionTimes};
use magic_jewelry_engine::{Counters, Turn};
use serde::Serialize;
use std::time::Duration;

/// Histogram bins for jewels on the board (0-90).
pub const FILL_BINS: usize = 91;
/// Histogram bins for fall speeds, in frames per row (0-63).
pub const SPEED_BINS: usize = 64;

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
    /// What the locks set off and scored (real rules score; the reference's locks score 0).
    pub chains: Chains,
    /// Cells removed by matches (a wild column's X's included).
    pub removed: u64,
    /// Jewels gone without a match (real rules): row -2 at collapses, (3, 0) under a spawn.
    pub erased: u64,
    pub game_overs: u64,
    /// Wild columns placed.
    pub wild_columns: u64,
    /// Points the wild columns' locks scored (their chains included).
    pub wild_points: u64,
    /// Games played to their end (a game over, or the end of a run).
    pub games: u64,
    /// The most wild columns one game generated: the highest level the game displayed.
    pub highest_level: u64,
    /// `speed_columns[n]`: columns that fell at n frames a row.
    pub speed_columns: Vec<u64>,
    /// How long the decisions took.
    #[serde(skip)]
    pub decisions: DecisionTimes,
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
            chains: Chains::default(),
            removed: 0,
            erased: 0,
            game_overs: 0,
            wild_columns: 0,
            wild_points: 0,
            games: 0,
            highest_level: 0,
            speed_columns: vec![0; SPEED_BINS],
            decisions: DecisionTimes::default(),
        }
    }
}

impl Stats {
    /// Records one placement's result: the jewels it left, the match steps it set off, the
    /// cells they removed and the points they scored.
    pub fn record(&mut self, jewels: u32, steps: u8, removed: u16, points: u64) {
        self.columns += 1;
        self.jewel_sum += u64::from(jewels);
        self.max_jewels = self.max_jewels.max(jewels);
        self.fill[(jewels as usize).min(FILL_BINS - 1)] += 1;
        self.chains.record(steps, points);
        self.removed += u64::from(removed);
    }

    /// Records what one column did (the clear counts are kept by the runner).
    pub fn record_turn(&mut self, turn: &Turn, decision: Option<Duration>) {
        if let Some(elapsed) = decision {
            self.decisions.record(elapsed);
        }
        if turn.wild {
            self.wild_columns += 1;
            self.wild_points += turn.points();
        }
        self.speed_columns[usize::from(turn.fall_speed).min(SPEED_BINS - 1)] += 1;
        let outcome = turn.resolution.map(|r| r.outcome);
        let (steps, removed) = outcome.map_or((0, 0), |o| (o.chains, o.removed));
        self.erased += outcome.map_or(0, |o| u64::from(o.erased));
        self.record(turn.jewels, steps, removed, turn.points());
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
        self.chains.points as f64 / self.columns as f64
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
        self.chains.merge(&other.chains);
        self.removed += other.removed;
        self.erased += other.erased;
        self.game_overs += other.game_overs;
        self.wild_columns += other.wild_columns;
        self.wild_points += other.wild_points;
        self.games += other.games;
        self.highest_level = self.highest_level.max(other.highest_level);
        for (a, b) in self.speed_columns.iter_mut().zip(&other.speed_columns) {
            *a += b;
        }
        self.decisions.merge(&other.decisions);
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
    fn records_and_merges() {
        let mut a = Stats::default();
        a.record(0, 0, 0, 0);
        a.record(6, 1, 3, 30);
        let mut b = Stats::default();
        b.record(95, 17, 0, 100);
        a.merge(&b);
        assert_eq!(a.columns, 3);
        assert_eq!(a.mean_jewels(), 101.0 / 3.0);
        assert_eq!(a.max_jewels, 95);
        assert_eq!(a.fill[90], 1);
        assert_eq!(a.removed, 3);
        assert_eq!((a.chains.locks, a.chains.clearing_locks), (3, 2));
        assert_eq!((a.chains.steps, a.chains.longest), (18, 17));
        assert_eq!(a.points_per_column(), 130.0 / 3.0);
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
                s.record(n, 0, 0, 0);
            }
        }
        let fit = tail_fit(&s, 10).unwrap();
        assert_eq!((fit.from, fit.to), (5, 9));
        // One decade per jewel: 10^49 columns more at 54 than at 5.
        let at5 = s.columns as f64 / 1_000_000.0;
        assert!((fit.expected_columns_54.log10() - (49.0 + at5.log10())).abs() < 1e-6);
    }
}
