//! The chain a board holds ready: the richest resolution that one more jewel, dropped on any
//! column, sets off. Puyo Puyo bots grade a board by the chain it can fire; the score objective
//! does the same, so that a board prepared for a 3- or 4-step chain outranks one that cashed
//! three cells.
//!
//! On a settled board a match must run through the new jewel, so a drop is resolved only where
//! its colour lines up with two of its own at the landing cell: found for every landing cell at
//! once, a colour at a time, with the board's bit masks (`lines_through`), before any drop is
//! tried.

use crate::rules::board::{bit, Board, COLOURS, VISIBLE_ROWS, WIDTH};
use crate::rules::resolve::{drop_jewel, lines_through, matches};
use crate::rules::scoring::step_points;
use crate::rules::RuleSet;

/// The best chain a board holds ready.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Ready {
    /// Points it scores with the combo counter at the value asked for.
    pub points: u64,
    /// Its resolution steps (0: no jewel matches anything).
    pub steps: u8,
    /// Cells it removes.
    pub cells: u16,
    /// Column the jewel goes in.
    pub x: u8,
    /// The jewel's colour.
    pub colour: u8,
}

/// Neighbours of a landing cell that a match through it can use: below, beside, and the four
/// diagonals (rows grow downwards).
const NEIGHBOURS: [(i8, i8); 7] = [(0, 1), (-1, 0), (1, 0), (-1, 1), (1, 1), (-1, -1), (1, -1)];

/// The best chain one jewel sets off on `board`, scored with the combo counter at `combo`.
/// Columns with no room for a whole column (three jewels) below the top are skipped: the
/// trigger must be a move the game allows without losing.
pub fn ready_chain(rules: RuleSet, board: &Board, combo: u8) -> Ready {
    let mut best = Ready::default();
    let landings = (0..WIDTH)
        .filter(|&x| board.height(x) + 3 <= VISIBLE_ROWS)
        .fold(0, |cells, x| cells | bit(x, board.height(x)));
    // On a settled board (every search's) a match must run through the new jewel, so only the
    // colours that line up with two of their own there are resolved. A board with a match of
    // its own resolves that match whatever the jewel: every colour beside the landing cell is
    // tried.
    let settled = matches(board, rules) == 0;
    let lines = settled.then(|| {
        std::array::from_fn::<u128, { COLOURS as usize + 1 }, _>(|colour| {
            lines_through(board, landings, colour as u8)
        })
    });
    for x in 0..WIDTH {
        let cell = bit(x, board.height(x));
        if landings & cell == 0 {
            continue;
        }
        let colours = match &lines {
            Some(lines) => (1..=COLOURS)
                .filter(|&colour| lines[colour as usize] & cell != 0)
                .fold(0u8, |colours, colour| colours | 1 << colour),
            None => neighbour_colours(board, x),
        };
        for colour in 1..=COLOURS {
            if colours >> colour & 1 == 0 {
                continue;
            }
            match drop_chain(rules, board, x, colour, combo) {
                Some(ready) if ready.points > best.points => best = ready,
                _ => {}
            }
        }
    }
    best
}

/// The colours beside the cell a jewel dropped on column `x` lands on.
fn neighbour_colours(board: &Board, x: usize) -> u8 {
    let row = board.rest_row(x);
    let mut colours = 0u8;
    for (dx, dy) in NEIGHBOURS {
        let nx = x as i8 + dx;
        if (0..WIDTH as i8).contains(&nx) {
            let cell = board.get(row + dy, nx as usize);
            if (1..=COLOURS).contains(&cell) {
                colours |= 1 << cell;
            }
        }
    }
    colours
}

/// The chain a jewel of `colour` dropped on column `x` sets off, if it matches at all.
fn drop_chain(rules: RuleSet, board: &Board, x: usize, colour: u8, combo: u8) -> Option<Ready> {
    let mut after = *board;
    let outcome = drop_jewel(rules, &mut after, x, colour);
    if outcome.chains == 0 {
        return None;
    }
    let row = board.rest_row(x);
    let points = (1..)
        .zip(outcome.step_counts())
        .map(|(step, &cells)| step_points(step, u32::from(cells), combo, row))
        .sum();
    Some(Ready {
        points,
        steps: outcome.chains,
        cells: outcome.removed,
        x: x as u8,
        colour,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Column;
    use proptest::prelude::*;

    /// Every colour in every column with room, each dropped and resolved: what `ready_chain`
    /// must find without resolving the drops that cannot match.
    fn every_drop(rules: RuleSet, board: &Board, combo: u8) -> Ready {
        let mut best = Ready::default();
        for x in (0..WIDTH).filter(|&x| board.height(x) + 3 <= VISIBLE_ROWS) {
            for colour in 1..=COLOURS {
                match drop_chain(rules, board, x, colour, combo) {
                    Some(ready) if ready.points > best.points => best = ready,
                    _ => {}
                }
            }
        }
        best
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// On boards the game settles (random locks), skipping the colours that cannot match
        /// changes nothing.
        #[test]
        fn only_drops_that_cannot_match_are_skipped(
            moves in proptest::collection::vec(([1u8..=6, 1u8..=6, 1u8..=6], 0usize..WIDTH), 1..60),
            combo in 0u8..=9,
            real in any::<bool>(),
        ) {
            let rules = if real { RuleSet::Real } else { RuleSet::Reference };
            let mut board = Board::empty();
            for (jewels, x) in moves {
                let mut next = board;
                match rules.lock(&mut next, Column(jewels), x) {
                    Ok(outcome) if !outcome.game_over => board = next,
                    _ => continue,
                }
                prop_assert_eq!(ready_chain(rules, &board, combo), every_drop(rules, &board, combo));
            }
        }
    }

    fn ready(text: &str) -> Ready {
        ready_chain(RuleSet::Real, &Board::from_text(text).unwrap(), 0)
    }

    #[test]
    fn nothing_ready_on_an_empty_or_scattered_board() {
        assert_eq!(ready(""), Ready::default());
        assert_eq!(ready("123456"), Ready::default());
    }

    /// Two 1s side by side: a 1 beside them matches three, 300 points with the landing bonus
    /// of row 12 (0).
    #[test]
    fn a_pair_holds_a_match_ready() {
        let r = ready("11....");
        assert_eq!((r.points, r.steps, r.cells, r.colour), (300, 1, 3, 1));
        assert_eq!(r.x, 2);
    }

    /// A 1 on column 2 lands in row 10 beside two 1s and clears them; the 2 above falls
    /// onto the two 2s of column 0 and clears them: two steps of 3 cells, each with the
    /// landing bonus of row 10 (2 points).
    #[test]
    fn a_prepared_chain_is_found_with_its_steps() {
        let r = ready("2.....\n11....\n243...\n234...");
        assert_eq!((r.x, r.colour, r.steps, r.cells), (2, 1, 2, 6), "{r:?}");
        assert_eq!(r.points, 302 + 602);
    }

    /// A column without room for a whole column is no trigger, whatever it would set off:
    /// column 0 is full with a pair of 1s on top, so the 3 beside the floor's pair is best;
    /// four jewels shorter, the 1 on column 0 scores more (its landing bonus, 9).
    #[test]
    fn a_column_without_room_is_skipped() {
        let mut rows = vec!["1.....", "1....."];
        rows.extend(["2.....", "1....."].repeat(4));
        rows.extend(["2.....", "3.....", "433..."]);
        let r = ready(&rows.join("\n"));
        assert_eq!((r.x, r.colour, r.points), (3, 3, 300));
        let lower = [&rows[..2], &rows[6..]].concat();
        let r = ready(&lower.join("\n"));
        assert_eq!((r.x, r.colour, r.points), (0, 1, 309), "{r:?}");
    }
}
