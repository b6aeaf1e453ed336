//! Dense indices for small board regions, with colours relabelled in order of first
//! appearance: only which jewels share a colour matters, so `1 2 1` and `5 3 5` are one
//! pattern and the six colours need no separate training.
//!
//! A relabelled colour sequence is a restricted growth string (each label at most one more
//! than the largest before it, here at most 6 labels); it is ranked by counting the strings
//! that come before it in lexicographic order.

use crate::rules::board::COLOURS;

/// Longest colour sequence ranked (a full 5 x 2 window).
pub(crate) const MAX_CELLS: usize = 10;
const LABELS: usize = COLOURS as usize;

/// `EXTEND[r][m]`: restricted growth strings that extend a prefix whose largest label is `m`
/// by `r` more labels.
const fn extensions() -> [[u32; LABELS + 1]; MAX_CELLS + 1] {
    let mut table = [[0; LABELS + 1]; MAX_CELLS + 1];
    let mut m = 0;
    while m <= LABELS {
        table[0][m] = 1;
        m += 1;
    }
    let mut r = 1;
    while r <= MAX_CELLS {
        let mut m = 0;
        while m <= LABELS {
            // Reuse one of the m labels, or open label m + 1 while there is one left.
            table[r][m] = m as u32 * table[r - 1][m];
            if m < LABELS {
                table[r][m] += table[r - 1][m + 1];
            }
            m += 1;
        }
        r += 1;
    }
    table
}

const EXTEND: [[u32; LABELS + 1]; MAX_CELLS + 1] = extensions();

/// Distinct relabelled sequences of `n` colours.
pub(crate) const fn sequences(n: usize) -> u32 {
    EXTEND[n][0]
}

/// `EXTEND` flattened with 8 slots a row, padded so that any 4-bit row and 3-bit label
/// index is in range (the compiler then drops the bounds checks).
const fn flat_extensions() -> [u32; 16 * 8] {
    let mut flat = [0; 16 * 8];
    let mut r = 0;
    while r <= MAX_CELLS {
        let mut m = 0;
        while m <= LABELS {
            flat[r * 8 + m] = EXTEND[r][m];
            m += 1;
        }
        r += 1;
    }
    flat
}

const FLAT_EXTEND: [u32; 16 * 8] = flat_extensions();

/// The rank of the relabelled colours packed 4 bits each in `cells` (first colour in the low
/// bits), `n` of them, each 1-6, among the [`sequences`] of length `n`.
#[inline(always)]
pub(crate) fn rank_packed(mut cells: u64, n: usize) -> u32 {
    debug_assert!(n <= MAX_CELLS);
    // The label of each colour, 4 bits a colour (0: not seen yet).
    let mut label_of = 0u32;
    let mut largest = 0u32;
    let mut rank = 0;
    for i in 0..n {
        let shift = 4 * (cells & 7) as u32;
        cells >>= 4;
        let mut label = label_of >> shift & 15;
        if label == 0 {
            label = largest + 1;
            label_of |= label << shift;
        }
        // Each smaller label at this position keeps the largest label so far (a new label's
        // smaller choices are exactly the existing ones) and starts a block of strings that
        // come before this one.
        rank += (label - 1) * FLAT_EXTEND[((n - i - 1) & 15) * 8 + (largest & 7) as usize];
        largest = largest.max(label);
    }
    rank
}

/// Packs colours 4 bits each, the first in the low bits.
pub(crate) fn pack(colours: &[u8]) -> u64 {
    colours
        .iter()
        .rev()
        .fold(0, |packed, &c| packed << 4 | u64::from(c))
}

/// [`rank_packed`] of a slice of colours.
pub(crate) fn rank(colours: &[u8]) -> u32 {
    rank_packed(pack(colours), colours.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn counts_are_bell_numbers_capped_at_six_labels() {
        // Bell numbers 1, 1, 2, 5, 15, 52, 203; then minus the partitions with 7+ blocks.
        let expected = [
            1,
            1,
            2,
            5,
            15,
            52,
            203,
            877 - 1,
            4140 - 28 - 1,
            21147 - 462 - 36 - 1,
        ];
        for (n, &count) in expected.iter().enumerate() {
            assert_eq!(sequences(n), count, "length {n}");
        }
    }

    /// Relabels cell by cell, as the definition reads.
    fn plain_rank(colours: &[u8]) -> u32 {
        let mut label_of = [0u32; 8];
        let mut largest = 0;
        let mut rank = 0;
        for (i, &colour) in colours.iter().enumerate() {
            if label_of[colour as usize] == 0 {
                label_of[colour as usize] = largest + 1;
            }
            let label = label_of[colour as usize];
            rank += (label - 1) * EXTEND[colours.len() - i - 1][largest as usize];
            largest = largest.max(label);
        }
        rank
    }

    #[test]
    fn relabelled_colours_share_a_rank() {
        assert_eq!(rank(&[1, 2, 1]), rank(&[5, 3, 5]));
        assert_ne!(rank(&[1, 2, 1]), rank(&[1, 1, 2]));
        assert_eq!(rank(&[]), 0);
        assert_eq!(rank(&[4]), 0);
        assert_eq!(rank(&[6, 6, 6]), 0);
        assert_eq!(rank(&[1, 2, 3]), sequences(3) - 1);
    }

    /// Every sequence of length `n` over 6 colours, relabelled, hits each rank below
    /// `sequences(n)` and nothing else.
    fn ranks_are_dense(n: usize) {
        let mut seen = HashSet::new();
        let total = 6usize.pow(n as u32);
        for code in 0..total {
            let mut colours = [0u8; MAX_CELLS];
            let mut c = code;
            for colour in colours.iter_mut().take(n) {
                *colour = (c % 6) as u8 + 1;
                c /= 6;
            }
            let r = rank(&colours[..n]);
            assert!(r < sequences(n), "rank {r} of {:?}", &colours[..n]);
            assert_eq!(r, plain_rank(&colours[..n]), "{:?}", &colours[..n]);
            seen.insert(r);
        }
        assert_eq!(seen.len(), sequences(n) as usize);
    }

    #[test]
    fn ranks_are_dense_and_in_range() {
        for n in 0..=7 {
            ranks_are_dense(n);
        }
    }

    #[test]
    fn long_sequences_rank_as_the_definition_reads() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        for _ in 0..200_000 {
            let n = rng.random_range(8..=MAX_CELLS);
            // Few colours make long runs of repeats, many make new labels: mix both.
            let colours_used = rng.random_range(1..=6u8);
            let colours: Vec<u8> = (0..n).map(|_| rng.random_range(1..=colours_used)).collect();
            let r = rank(&colours);
            assert!(r < sequences(n));
            assert_eq!(r, plain_rank(&colours), "{colours:?}");
        }
    }
}
