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
}

/// The birthday estimate for a game through `states` (as the player tells them apart): a
/// lower bound when no board came twice, `None` when no counters did either (a short game).
pub fn expected_repeat(states: impl IntoIterator<Item = SpawnState>) -> Option<ExpectedRepeat> {
    // Boards by a 64-bit hash: a game of 40,000,000 columns keeps its counts in memory.
    let hasher = RandomState::new();
    let mut boards: HashMap<u64, u64> = HashMap::new();
    let mut counters: HashMap<(u16, u32, u8, u8), u64> = HashMap::new();
    let mut n = 0u64;
    for state in states {
        *boards.entry(hasher.hash_one(state.board)).or_default() += 1;
        let counter = (
            state.cycle_position,
            state.since_wild,
            state.level,
            state.combo,
        );
        *counters.entry(counter).or_default() += 1;
        n += 1;
    }
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
    Some(ExpectedRepeat {
        column: (std::f64::consts::PI / (2.0 * same_board * same_counters)).sqrt(),
        same_board,
        same_counters,
        lower_bound,
    })
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
    use magic_jewelry::engine::{Board, Column};

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
