//! Random play keeps boards well-formed and the rules consistent.

use super::board::{Board, Column, VISIBLE_ROWS, WIDTH};
use super::placement::reachable;
use super::resolve::{lock, matches};
use super::timing::{InputModel, SpawnState};
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
        moves in proptest::collection::vec((column(), 0usize..WIDTH), 1..120)
    ) {
        let mut board = Board::empty();
        for (column, x) in moves {
            let before = board.jewels();
            let Ok(outcome) = lock(&mut board, column, x) else { continue };
            prop_assert!(board.is_well_formed(), "{board}");
            // Stable: nothing left to match.
            prop_assert_eq!(matches(&board), 0);
            let added = if column.is_wild() { 0 } else { 3 };
            prop_assert_eq!(board.jewels() + u32::from(outcome.removed), before + added);
            prop_assert_eq!(outcome.step_counts().iter().map(|&c| u32::from(c)).sum::<u32>(),
                u32::from(outcome.removed));
            let hidden = board.hidden_occupied() || board.height(3) >= VISIBLE_ROWS;
            prop_assert_eq!(outcome.game_over, hidden);
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
            let found = reachable(&board, SpawnState::spawn(speed), input);
            let mut seen = std::collections::HashSet::new();
            for p in found.as_slice() {
                prop_assert!(seen.insert((p.x, p.rotations)));
                prop_assert_eq!(p.y, board.rest_row(p.x as usize));
                prop_assert!(p.y >= 0);
            }
        }
    }
}
