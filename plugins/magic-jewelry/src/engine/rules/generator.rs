//! The column generator of the simulated game: uniform, independent colours from a seeded stream.
//!
//! With wild columns on, each time the jewels removed since the last wild column reach the
//! threshold (the game's real threshold is not documented), the next column generated is
//! wild; it is inserted, so the coloured columns keep the same sequence.

use super::board::{Column, COLOURS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Default jewels removed between two wild columns.
pub const DEFAULT_WILD_EVERY: u32 = 100;

/// Seeded columns.
#[derive(Debug, Clone)]
pub struct ColumnGenerator {
    rng: ChaCha8Rng,
    wild_every: Option<u32>,
    removed: u32,
}

impl ColumnGenerator {
    pub fn new(seed: u64, wild_every: Option<u32>) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
            wild_every: wild_every.filter(|&n| n > 0),
            removed: 0,
        }
    }

    /// Counts jewels removed towards the next wild column.
    pub fn removed(&mut self, jewels: u32) {
        self.removed = self.removed.saturating_add(jewels);
    }

    /// The next column.
    pub fn next_column(&mut self) -> Column {
        if let Some(every) = self.wild_every {
            if self.removed >= every {
                self.removed -= every;
                return Column::WILD;
            }
        }
        let mut jewels = [0; 3];
        for j in &mut jewels {
            *j = self.rng.random_range(1..=COLOURS);
        }
        Column(jewels)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_and_uniform() {
        let mut a = ColumnGenerator::new(7, None);
        let mut b = ColumnGenerator::new(7, None);
        let mut counts = [0u32; 7];
        for _ in 0..6000 {
            let c = a.next_column();
            assert_eq!(c, b.next_column());
            for j in c.0 {
                counts[j as usize] += 1;
            }
        }
        assert_eq!(counts[0], 0);
        assert!(
            counts[1..].iter().all(|&n| (2700..3300).contains(&n)),
            "{counts:?}"
        );
        // Pinned so a change of generator is noticed.
        assert_eq!(
            ColumnGenerator::new(1, None).next_column(),
            Column([4, 3, 6])
        );
    }

    #[test]
    fn wild_after_threshold_without_shifting_colours() {
        let mut plain = ColumnGenerator::new(3, None);
        let mut wild = ColumnGenerator::new(3, Some(10));
        assert_eq!(wild.next_column(), plain.next_column());
        wild.removed(12);
        assert_eq!(wild.next_column(), Column::WILD);
        assert_eq!(wild.next_column(), plain.next_column());
        wild.removed(7);
        assert_ne!(wild.next_column(), Column::WILD);
    }
}
