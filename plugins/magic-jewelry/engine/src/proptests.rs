//! Random play keeps boards well-formed and the rules consistent.

use super::eval::features::completion_spots;
use super::rules::board::{Board, Column, VISIBLE_ROWS, WIDTH};
use super::rules::resolve::{lock, matches};
use super::rules::RuleSet;
use super::search::input::{FallState, InputModel};
use super::search::placement::{reachable, ReachMemo};
use proptest::prelude::*;

fn column() -> impl Strategy<Value = Column> {
    prop_oneof![
        20 => [1u8..=6, 1u8..=6, 1u8..=6].prop_map(Column),
        1 => Just(Column::WILD),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_locks_keep_boards_well_formed(
        moves in proptest::collection::vec((column(), 0usize..WIDTH), 1..120),
        real in any::<bool>(),
    ) {
        let rules = if real { RuleSet::Real } else { RuleSet::Reference };
        let mut board = Board::empty();
        for (column, x) in moves {
            let before = board.jewels();
            let Ok(outcome) = rules.lock(&mut board, column, x) else { continue };
            prop_assert!(board.is_well_formed(), "{board}");
            // Stable: nothing left to match.
            prop_assert_eq!(matches(&board, rules), 0);
            // Every jewel is accounted for: the X's count as removed cells.
            prop_assert_eq!(
                board.jewels() + u32::from(outcome.removed) + u32::from(outcome.erased),
                before + 3
            );
            prop_assert_eq!(outcome.step_counts().iter().map(|&c| u32::from(c)).sum::<u32>(),
                u32::from(outcome.removed));
            let lost = match rules {
                RuleSet::Reference => board.hidden_occupied() || board.height(3) >= VISIBLE_ROWS,
                RuleSet::Real => board.heights().iter().any(|&h| usize::from(h) > VISIBLE_ROWS),
            };
            prop_assert_eq!(outcome.game_over, lost);
            if rules == RuleSet::Real && !lost {
                // The next column has room to spawn, and nothing is left in row -2.
                prop_assert!(board.height(3) < VISIBLE_ROWS);
                prop_assert!(board.heights().iter().all(|&h| usize::from(h) <= VISIBLE_ROWS));
            } else if rules == RuleSet::Reference {
                prop_assert_eq!(outcome.erased, 0);
            }
            let round = Board::from_grid(&board.to_grid());
            prop_assert_eq!(round, Ok(board));
            if outcome.game_over {
                board = Board::empty();
            }
        }
    }

    #[test]
    fn placements_rest_on_their_stacks(
        moves in proptest::collection::vec(([1u8..=6, 1u8..=6, 1u8..=6].prop_map(Column), 0usize..WIDTH), 0..40),
        speed in 1u8..=63,
        interval in 2u8..=12,
    ) {
        let mut board = Board::empty();
        for (column, x) in moves {
            if let Ok(o) = lock(&mut board, column, x) {
                if o.game_over {
                    board = Board::empty();
                }
            }
        }
        for input in [InputModel::FAST, InputModel::normal(interval)] {
            let found = reachable(&board, FallState::spawn(speed), input);
            let mut seen = std::collections::HashSet::new();
            for p in found.as_slice() {
                prop_assert!(seen.insert((p.x, p.arrangement)));
                prop_assert_eq!(p.y, board.rest_row(p.x as usize));
                prop_assert!(p.y >= 0);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// What lets searches keep placements by the stacks' heights ([`ReachMemo`]): a board
    /// recoloured cell by cell, its stacks as tall, gives the same placements.
    #[test]
    fn reach_depends_on_the_stacks_heights_alone(
        heights in [0u8..=13, 0u8..=13, 0u8..=13, 0u8..=12, 0u8..=13, 0u8..=13],
        colours in proptest::collection::vec(1u8..=6, 2 * 15 * WIDTH),
        speed in 1u8..=63,
        interval in 2u8..=12,
    ) {
        let board_coloured = |colours: &[u8]| {
            let mut grid = [[0u8; WIDTH]; 15];
            for (x, &h) in heights.iter().enumerate() {
                for row in 15 - usize::from(h)..15 {
                    grid[row][x] = colours[row * WIDTH + x];
                }
            }
            Board::from_grid(&grid).expect("stacks from the floor")
        };
        let (one, other) = (board_coloured(&colours), board_coloured(&colours[15 * WIDTH..]));
        let memo = ReachMemo::default();
        for input in [InputModel::FAST, InputModel::normal(interval)] {
            let start = FallState::spawn(speed);
            let (a, b) = (reachable(&one, start, input), reachable(&other, start, input));
            prop_assert_eq!(a.as_slice(), b.as_slice());
            prop_assert_eq!(&*memo.reachable(&one, start, input), a.as_slice());
            prop_assert_eq!(&*memo.reachable(&other, start, input), b.as_slice(), "kept");
        }
    }
}

/// Completion spots by brute force over the grid: every empty landing cell, every colour,
/// every line of three through it.
fn completions_by_grid(board: &Board) -> (u32, u32) {
    let grid = board.to_grid();
    let rows = grid.len() as i32;
    let at = |x: i32, row: i32| -> u8 {
        if (0..WIDTH as i32).contains(&x) && (0..rows).contains(&row) {
            grid[row as usize][x as usize]
        } else {
            0
        }
    };
    let (mut spots, mut colours) = (0, 0u8);
    for x in 0..WIDTH {
        let h = board.height(x);
        for i in h..(h + 3).min(VISIBLE_ROWS) {
            let row = rows - 1 - i as i32;
            for colour in 1..=6u8 {
                let completes = [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dr)| {
                    [-2, -1, 0].iter().any(|&start| {
                        (start..start + 3)
                            .filter(|&k| k != 0)
                            .all(|k| at(x as i32 + k * dx, row + k * dr) == colour)
                    })
                });
                if completes {
                    spots += 1;
                    colours |= 1 << colour;
                }
            }
        }
    }
    (spots, colours.count_ones())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn completion_spots_match_brute_force(
        moves in proptest::collection::vec(([1u8..=6, 1u8..=6, 1u8..=6], 0usize..WIDTH), 1..40)
    ) {
        let mut board = Board::empty();
        for (jewels, x) in moves {
            let mut next = board;
            if lock(&mut next, Column(jewels), x).is_ok_and(|o| !o.game_over) {
                board = next;
            }
            prop_assert_eq!(completion_spots(&board), completions_by_grid(&board), "{}", board);
        }
    }
}
