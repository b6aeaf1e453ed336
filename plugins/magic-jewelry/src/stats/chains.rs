//! The chains of a game's locks and the points they scored, lock by lock.

use serde::{Deserialize, Serialize};

/// Bins of [`Chains::histogram`]: 1 to 15 steps, then 16 or more.
pub const CHAIN_BINS: usize = 16;

/// What the locks of a game (or of many) set off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Chains {
    /// Locks counted, clearing or not.
    pub locks: u64,
    /// Locks that matched something.
    pub clearing_locks: u64,
    /// Match steps of all of them (exact, where the histogram bins the long ones together).
    pub steps: u64,
    /// Clearing locks by their steps: index 0 for 1 step, the last for that many or more.
    pub histogram: [u64; CHAIN_BINS],
    /// The longest chain, and the points of the lock that set it off (the first of its length).
    pub longest: u8,
    pub longest_points: u64,
    /// The most points one lock scored (its whole resolution, every step).
    pub best_points: u64,
    /// Points of every lock together.
    pub points: u64,
}

impl Chains {
    /// One lock that set off `steps` match steps (0: it matched nothing) and scored `points`.
    pub fn record(&mut self, steps: u8, points: u64) {
        self.locks += 1;
        self.points += points;
        self.best_points = self.best_points.max(points);
        if steps == 0 {
            return;
        }
        self.clearing_locks += 1;
        self.steps += u64::from(steps);
        self.histogram[usize::from(steps).min(CHAIN_BINS) - 1] += 1;
        if steps > self.longest {
            self.longest = steps;
            self.longest_points = points;
        }
    }

    /// Mean steps of a clearing lock (0 with none).
    pub fn steps_per_clearing_lock(&self) -> f64 {
        match self.clearing_locks {
            0 => 0.0,
            locks => self.steps as f64 / locks as f64,
        }
    }

    /// Locks by their steps, from 0 (no match) on: `(steps, locks)` for each bin with any,
    /// the last bin standing for that many steps or more.
    pub fn by_steps(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        let unmatched = self.locks - self.clearing_locks;
        std::iter::once((0, unmatched))
            .chain(self.histogram.iter().enumerate().map(|(i, &n)| (i + 1, n)))
            .filter(|&(_, n)| n > 0)
    }

    /// Adds the locks of `other` (played after these: its longest chain counts only when
    /// longer).
    pub fn merge(&mut self, other: &Self) {
        self.locks += other.locks;
        self.clearing_locks += other.clearing_locks;
        self.steps += other.steps;
        for (a, b) in self.histogram.iter_mut().zip(&other.histogram) {
            *a += b;
        }
        if other.longest > self.longest {
            self.longest = other.longest;
            self.longest_points = other.longest_points;
        }
        self.best_points = self.best_points.max(other.best_points);
        self.points += other.points;
    }
}

impl std::fmt::Display for Chains {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} clearing locks, {:.3} steps each on average, longest {} steps; best lock {} points",
            self.clearing_locks,
            self.steps_per_clearing_lock(),
            self.longest,
            self.best_points
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_and_merges() {
        let mut a = Chains::default();
        a.record(0, 0);
        a.record(1, 30);
        let mut b = Chains::default();
        b.record(17, 5_000);
        b.record(2, 9_000);
        a.merge(&b);
        assert_eq!((a.locks, a.clearing_locks, a.points), (4, 3, 14_030));
        // The histogram bins 17 steps with 16; the exact figures keep them.
        assert_eq!(a.histogram[CHAIN_BINS - 1], 1);
        assert_eq!((a.steps, a.longest, a.longest_points), (20, 17, 5_000));
        assert_eq!(a.best_points, 9_000);
        assert_eq!(a.steps_per_clearing_lock(), 20.0 / 3.0);
        assert_eq!(
            a.by_steps().collect::<Vec<_>>(),
            [(0, 1), (1, 1), (2, 1), (16, 1)]
        );
        assert_eq!(Chains::default().steps_per_clearing_lock(), 0.0);
    }
}
