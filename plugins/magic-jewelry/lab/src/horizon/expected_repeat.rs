//! When an undecided game's first repeat may come: a birthday estimate from the states it went
//! through.
//!
//! A deterministic game on a finite set of states walks a map. Were the map random, two spawns
//! would hold the same state with the chance `q` that two states drawn from the game's own mix
//! are equal, and the first state seen twice would come after some `sqrt(pi / (2 q))` columns
//! (the birthday problem). A game that has not repeated cannot count `q` itself, so it is taken
//! as the product of two chances it can count over its pairs of spawns: that they hold the same
//! board, and that they hold the same counters (the generator's place, the cells since the wild
//! column, and the level and the combo counter where the player reads them). The product
//! assumes the board says nothing about the counters; the figure is an order of magnitude, to
//! say how many columns a proof may need, never a proof. A game none of whose boards came twice
//! gets a bound instead: the chance of the same board taken at the most its count allows.
//!
//! The boards a player builds hang on the columns it was dealt, so the product undercounts how
//! often a board comes back with the same columns. [`NearMisses`] counts that instead: the
//! times the game came back to the same board, with the same columns dealt (the generator's
//! place, the current and next columns), but other counters. A steady game meets such a near
//! miss ever more often, as the square of its columns, and each is a repeat with the chance
//! that the other counters agree.

use super::SpawnState;
use serde::Serialize;
use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::BuildHasher;

/// The first repeat a game's states point to.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ExpectedRepeat {
    /// The column the first state seen twice is expected at.
    pub column: f64,
    /// The chance that two of the game's spawns hold the same board.
    pub same_board: f64,
    /// The chance that they hold the same counters.
    pub same_counters: f64,
    /// No board came twice: `same_board` is the most the chance can be (95%: three equal
    /// pairs among all there were), and `column` the soonest the estimate can put a repeat.
    pub lower_bound: bool,
    /// The estimate from the game's near misses.
    pub near_misses: NearMisses,
}

/// The first repeat as the near misses put it: the same board with the same columns dealt,
/// other counters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct NearMisses {
    /// Near misses: two spawns with the same board, generator place and columns, and other
    /// counters; a run of them, column after column at the same distance, counts once.
    pub count: u64,
    /// The chance that two spawns hold the same counters but the generator's place: the cells
    /// since the wild column, and the level and the combo counter where the player reads them.
    pub same_rest: f64,
    /// The column the first repeat is expected at: with `m` near misses in `n` columns, there
    /// are `m (N / n)^2` by column `N`, each a repeat with chance `same_rest`, and the first of
    /// those comes after `n sqrt(pi / (4 m same_rest))` columns on average.
    pub column: f64,
    /// No near miss yet: `count` is taken as 3 (95%), and `column` is the soonest.
    pub lower_bound: bool,
}

/// The birthday estimate for a game through `states` (as the player tells them apart): a
/// lower bound when no board came twice, `None` when no counters did either (a short game).
pub fn expected_repeat(states: impl IntoIterator<Item = SpawnState>) -> Option<ExpectedRepeat> {
    // Boards by a 64-bit hash: a game of 40,000,000 columns keeps its counts in memory.
    let hasher = RandomState::new();
    let mut boards: HashMap<u64, u64> = HashMap::new();
    let mut counters: HashMap<(u16, Rest), u64> = HashMap::new();
    let mut rests: HashMap<Rest, u64> = HashMap::new();
    // Each spawn's board and columns dealt, by a 64-bit hash, and its other counters.
    let mut dealt: Vec<(u64, u32)> = Vec::new();
    let mut rest_of: Vec<Rest> = Vec::new();
    for state in states {
        *boards.entry(hasher.hash_one(state.board)).or_default() += 1;
        let rest = (state.since_wild, state.level, state.combo);
        *counters.entry((state.cycle_position, rest)).or_default() += 1;
        *rests.entry(rest).or_default() += 1;
        let columns = (state.board, state.current, state.next, state.cycle_position);
        dealt.push((hasher.hash_one(columns), rest_of.len() as u32));
        rest_of.push(rest);
    }
    let n = rest_of.len() as u64;
    let same_counters = share_of_equal_pairs(counters.values(), n);
    if same_counters == 0.0 {
        return None;
    }
    let counted = share_of_equal_pairs(boards.values(), n);
    let lower_bound = counted == 0.0;
    let same_board = if lower_bound {
        3.0 / (n as f64 * (n as f64 - 1.0) / 2.0)
    } else {
        counted
    };
    let same_rest = share_of_equal_pairs(rests.values(), n);
    let count = near_misses(dealt, &rest_of);
    let taken = if count == 0 { 3 } else { count };
    Some(ExpectedRepeat {
        column: (std::f64::consts::PI / (2.0 * same_board * same_counters)).sqrt(),
        same_board,
        same_counters,
        lower_bound,
        near_misses: NearMisses {
            count,
            same_rest,
            column: n as f64 * (std::f64::consts::PI / (4.0 * taken as f64 * same_rest)).sqrt(),
            lower_bound: count == 0,
        },
    })
}

/// The cells since the wild column, the level and the combo counter.
type Rest = (u32, u8, u8);

/// The near misses among spawns given as (hash of the board and columns dealt, column), with
/// each column's other counters: pairs of the same hash and other counters, a run of them at
/// the same distance counted once.
fn near_misses(mut dealt: Vec<(u64, u32)>, rest_of: &[Rest]) -> u64 {
    dealt.sort_unstable();
    // (distance, first column) of every pair.
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for same in dealt.chunk_by(|a, b| a.0 == b.0) {
        for (i, &(_, first)) in same.iter().enumerate() {
            for &(_, again) in &same[i + 1..] {
                if rest_of[first as usize] != rest_of[again as usize] {
                    pairs.push((again - first, first));
                }
            }
        }
    }
    pairs.sort_unstable();
    let runs_on = pairs
        .windows(2)
        .filter(|p| p[0].0 == p[1].0 && p[0].1 + 1 == p[1].1)
        .count();
    (pairs.len() - runs_on) as u64
}

/// The share of the `n (n - 1) / 2` pairs of `n` draws that are equal, from how often each
/// value was drawn.
fn share_of_equal_pairs<'a>(counts: impl Iterator<Item = &'a u64>, n: u64) -> f64 {
    if n < 2 {
        return 0.0;
    }
    let equal: f64 = counts.map(|&c| c as f64 * (c as f64 - 1.0)).sum();
    equal / (n as f64 * (n as f64 - 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use magic_jewelry_engine::{Board, Column};

    fn state(board: &str, cycle_position: u16) -> SpawnState {
        SpawnState {
            board: Board::from_text(board).expect("board"),
            current: Column::new(1, 2, 3),
            next: Column::new(4, 5, 6),
            cycle_position,
            since_wild: 0,
            level: 0,
            combo: 0,
        }
    }

    /// Six spawns, three on each of two boards and two on each of three counters: 6 of the 15
    /// pairs share a board, 3 share the counters.
    #[test]
    fn the_chances_are_counted_over_the_pairs_of_spawns() {
        let states = [
            state("1", 0),
            state("2", 1),
            state("1", 2),
            state("2", 0),
            state("1", 1),
            state("2", 2),
        ];
        let repeat = expected_repeat(states).expect("boards came twice");
        assert!(!repeat.lower_bound);
        assert_eq!(repeat.same_board, 6.0 / 15.0);
        assert_eq!(repeat.same_counters, 3.0 / 15.0);
        let q = 6.0 / 15.0 * 3.0 / 15.0;
        assert!((repeat.column - (std::f64::consts::PI / (2.0 * q)).sqrt()).abs() < 1e-9);
    }

    /// Boards 1, 2, 1, 2, 3, 1 on generator places 0, 1, 0, 1, 1, 0, with 0, 0, 5, 5, 0, 9
    /// cells since the wild column: the 1s and 2s at columns 0 to 3 are one run of near misses
    /// two columns apart, columns 0 and 5 another, 2 and 5 a third. Four of the fifteen pairs
    /// of spawns hold the same cells since the wild column.
    #[test]
    fn a_run_of_near_misses_counts_once() {
        let at = |board, cycle_position, since_wild| SpawnState {
            since_wild,
            ..state(board, cycle_position)
        };
        let states = [
            at("1", 0, 0),
            at("2", 1, 0),
            at("1", 0, 5),
            at("2", 1, 5),
            at("3", 1, 0),
            at("1", 0, 9),
        ];
        let near = expected_repeat(states)
            .expect("counters came twice")
            .near_misses;
        assert_eq!((near.count, near.same_rest), (3, 4.0 / 15.0), "{near:?}");
        assert!(!near.lower_bound);
        let column = 6.0 * (std::f64::consts::PI / (4.0 * 3.0 * 4.0 / 15.0)).sqrt();
        assert!((near.column - column).abs() < 1e-9, "{near:?}");
        // The same columns dealt with the same counters is a repeat, no near miss; another
        // next column deals other columns.
        let other_next = SpawnState {
            next: Column::new(6, 5, 4),
            ..at("1", 0, 9)
        };
        let near = expected_repeat([at("1", 0, 0), at("1", 0, 0), other_next])
            .expect("counters came twice")
            .near_misses;
        assert_eq!(near.count, 0);
        assert!(near.lower_bound);
    }

    /// No board twice among three spawns: at most 3 equal pairs of the 3, a repeat no sooner
    /// than sqrt(pi / 2) columns with the counters all equal. No counters twice: no estimate.
    #[test]
    fn a_game_of_distinct_boards_bounds_the_estimate() {
        let states = [state("1", 0), state("2", 0), state("3", 0)];
        let repeat = expected_repeat(states).expect("counters came twice");
        assert!(repeat.lower_bound);
        assert_eq!((repeat.same_board, repeat.same_counters), (1.0, 1.0));
        assert_eq!(repeat.column, (std::f64::consts::PI / 2.0).sqrt());
        assert_eq!(expected_repeat([state("1", 0), state("1", 1)]), None);
        assert_eq!(expected_repeat([]), None);
    }
}
