//! One game played without the emulator: the board, the column sequence, and what placing each
//! column does. The simulator, the comparison, the trainer and the learner all play through
//! [`Game::play`], so a rule lands in one place.

use super::board::{Board, Column};
use super::generator::ColumnGenerator;
use super::resolve::{lock, LockOutcome};

/// A game in progress: after a game over it goes on from an empty board.
#[derive(Debug, Clone)]
pub struct Game {
    board: Board,
    generator: ColumnGenerator,
    current: Column,
    next: Column,
    fall_speed: u8,
}

/// What placing one column did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Turn {
    /// What the lock did; `None` when the column could not be placed at all.
    pub outcome: Option<LockOutcome>,
    /// The column placed was the wild column.
    pub wild: bool,
    /// Jewels on the board after the lock (before a lost board is emptied).
    pub jewels: u32,
    /// The game was lost: the board is empty again for the next game.
    pub lost: bool,
    /// The board held jewels before and is empty now.
    pub emptied: bool,
}

impl Game {
    /// A game from an empty board with the column sequence of `seed`, a wild column after every
    /// `wild_every` jewels removed (`None`: no wild columns), columns falling a row every
    /// `fall_speed` frames.
    pub fn new(seed: u64, wild_every: Option<u32>, fall_speed: u8) -> Self {
        let mut generator = ColumnGenerator::new(seed, wild_every);
        let current = generator.next_column();
        let next = generator.next_column();
        Self {
            board: Board::empty(),
            generator,
            current,
            next,
            fall_speed,
        }
    }

    /// The settled board the current column falls onto.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The column to place now.
    pub fn current(&self) -> Column {
        self.current
    }

    /// The column after it, as the game shows it.
    pub fn next(&self) -> Column {
        self.next
    }

    /// Frames per row of gravity.
    pub fn fall_speed(&self) -> u8 {
        self.fall_speed
    }

    /// Places the current column at column `x` in arrangement `arrangement` (0-2 rotations,
    /// 3-5 a swap then rotations; `None`: it
    /// could not move, and the game is lost), resolves everything, starts a new board after a
    /// game over, and brings on the next column.
    pub fn play(&mut self, placement: Option<(u8, u8)>) -> Turn {
        let wild = self.current.is_wild();
        let was_empty = self.board.is_empty();
        let outcome = placement.and_then(|(x, arrangement)| {
            lock(
                &mut self.board,
                self.current.arranged(arrangement),
                usize::from(x),
            )
            .ok()
        });
        if let Some(outcome) = &outcome {
            self.generator.removed(u32::from(outcome.removed));
        }
        let jewels = self.board.jewels();
        let lost = outcome.is_none_or(|o| o.game_over);
        if lost {
            self.board = Board::empty();
        }
        self.current = self.next;
        self.next = self.generator.next_column();
        Turn {
            outcome,
            wild,
            jewels,
            lost,
            emptied: !was_empty && self.board.is_empty(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lost_game_goes_on_from_an_empty_board() {
        let mut game = Game::new(3, None, 63);
        let first = game.current();
        let second = game.next();
        let turn = game.play(Some((0, 0)));
        assert_eq!(turn.jewels, 3);
        assert!(!turn.lost && !turn.wild && !turn.emptied);
        assert_eq!(game.current(), second);
        assert_eq!(game.board().get(10, 0), first.top());
        let turn = game.play(None);
        assert!(turn.lost && turn.emptied && turn.outcome.is_none());
        assert!(game.board().is_empty());
    }
}
