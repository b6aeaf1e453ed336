//! One game played without the emulator: the board, the column sequence, the counters, and
//! what placing each column does. The simulator, the comparison, the trainer and the learner
//! all play through [`Game::play`], so a rule lands in one place.

use super::board::{Board, Column};
use super::generator::{ColumnGenerator, GameGenerator};
use super::rule_set::RuleSet;
use super::scoring::{Counters, Resolution};

/// A game in progress under a rule set: after a game over, a new game starts from an empty
/// board (level 0, counters cleared) with the sequence going on.
#[derive(Debug, Clone)]
pub struct Game {
    rules: RuleSet,
    board: Board,
    generator: ColumnGenerator,
    current: Column,
    next: Column,
    counters: Counters,
}

/// What placing one column did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Turn {
    /// The lock and what the counters made of it; `None` when the column could not be placed
    /// at all.
    pub resolution: Option<Resolution>,
    /// The column placed was the wild column.
    pub wild: bool,
    /// Frames per row the column fell at.
    pub fall_speed: u8,
    /// Jewels on the board after the lock (before a lost board is emptied).
    pub jewels: u32,
    /// The game was lost: the board is empty again for the next game.
    pub lost: bool,
    /// The level the game displays after the lock (wild columns generated); for a lost game, the
    /// level it reached.
    pub displayed_level: u64,
    /// The board held jewels before and is empty now.
    pub emptied: bool,
}

impl Turn {
    /// Points the lock scored.
    pub fn points(&self) -> u64 {
        self.resolution.map_or(0, |r| r.points)
    }
}

impl Game {
    /// A game from an empty board with the column sequence of `seed` under `rules`.
    pub fn new(rules: RuleSet, seed: u64) -> Self {
        let mut generator = ColumnGenerator::new(rules, seed);
        let current = generator.next_column();
        let next = generator.next_column();
        Self {
            rules,
            board: Board::empty(),
            generator,
            current,
            next,
            counters: Counters::default(),
        }
    }

    /// The real game as it starts with its generator at `state` (after an all-zero power-on,
    /// [`GameGenerator::POWER_ON_STATE`]): its first two columns are made from it.
    pub fn from_generator_state(state: u16) -> Self {
        let mut generator = ColumnGenerator::Game(GameGenerator::new(state));
        let current = generator.next_column();
        let next = generator.next_column();
        Self {
            rules: RuleSet::Real,
            board: Board::empty(),
            generator,
            current,
            next,
            counters: Counters::default(),
        }
    }

    /// The real game at a spawn, from what decides its future: the board, both columns, the
    /// generator's place in its 2,048-jewel cycle and the counters. Any generator state with
    /// that place makes the same columns (the colours depend on the state mod 2048, which the
    /// generator's steps keep to themselves), so this game plays on exactly as the one the
    /// place was read from.
    pub fn at_spawn(
        board: Board,
        current: Column,
        next: Column,
        cycle_position: u16,
        counters: Counters,
    ) -> Self {
        Self {
            rules: RuleSet::Real,
            board,
            generator: ColumnGenerator::Game(GameGenerator::new(cycle_position & 0x7ff)),
            current,
            next,
            counters,
        }
    }

    /// A branch of this game: the same board, counters and known columns, the columns after
    /// them drawn from `seed`. Only under the reference rules' independent colours, where the
    /// columns to come are anyone's guess; the real game's are fixed by its generator.
    pub fn branch(&self, seed: u64) -> Option<Self> {
        match self.generator {
            ColumnGenerator::Uniform(_) => Some(Self {
                generator: ColumnGenerator::uniform(seed),
                ..self.clone()
            }),
            ColumnGenerator::Game(_) => None,
        }
    }

    /// Where the real game's generator is in its cycle of 2,048 jewels (`None` under the
    /// reference rules' independent colours).
    pub fn generator_cycle_position(&self) -> Option<u16> {
        match &self.generator {
            ColumnGenerator::Game(generator) => Some(generator.cycle_position()),
            ColumnGenerator::Uniform(_) => None,
        }
    }

    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The settled board the current column falls onto.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The column to place now.
    pub fn current(&self) -> Column {
        self.current
    }

    /// The column after it, as the game shows it (never the wild column).
    pub fn next(&self) -> Column {
        self.next
    }

    /// The column generator as it stands after making the next column: it makes the columns
    /// after it (foresight).
    pub fn generator(&self) -> &ColumnGenerator {
        &self.generator
    }

    /// The game's counters: score, jewels, level, combo, cells towards the next wild column.
    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    /// Frames per row the current column falls at.
    pub fn fall_speed(&self) -> u8 {
        self.rules.fall_speed(self.counters.level)
    }

    /// Places the current column with `placement` = (x, presses of A/B), or gives up the game
    /// with `None`, and brings on the next column: the wild column when one is due (it takes the
    /// current column's turn; the next column shown stays), otherwise the next one.
    pub fn play(&mut self, placement: Option<(u8, u8)>) -> Turn {
        let wild = self.current == Column::WILD;
        let fall_speed = self.fall_speed();
        let was_empty = self.board.is_empty();
        let resolution = placement.and_then(|(x, arrangement)| {
            self.counters
                .lock(
                    self.rules,
                    &mut self.board,
                    self.current.arranged(arrangement),
                    usize::from(x),
                )
                .ok()
        });
        let jewels = self.board.jewels();
        let lost = resolution.is_none_or(|r| r.outcome.game_over);
        let displayed_level = self.counters.wild_columns;
        if lost {
            // A new game: the setup makes two new columns.
            self.board = Board::empty();
            self.counters = Counters::default();
            self.current = self.generator.next_column();
            self.next = self.generator.next_column();
        } else if resolution.is_some_and(|r| r.wild_due) {
            self.current = Column::WILD;
        } else {
            self.current = self.next;
            self.next = self.generator.next_column();
        }
        Turn {
            resolution,
            wild,
            fall_speed,
            jewels,
            lost,
            displayed_level,
            emptied: !was_empty && self.board.is_empty(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// After an all-zero power-on the game deals (5,1,2), then (2,4,3) (docs: "Column
    /// generation").
    #[test]
    fn the_power_on_state_deals_the_real_games_first_columns() {
        let game = Game::from_generator_state(GameGenerator::POWER_ON_STATE);
        assert_eq!(
            (game.current(), game.next()),
            (Column::new(5, 1, 2), Column::new(2, 4, 3))
        );
        assert!(game.generator_cycle_position().is_some_and(|p| p < 2048));
    }

    #[test]
    fn a_lost_game_starts_a_new_one() {
        let mut game = Game::new(RuleSet::Reference, 3);
        let first = game.current();
        let second = game.next();
        let turn = game.play(Some((0, 0)));
        assert_eq!(turn.jewels, 3);
        assert!(!turn.lost && !turn.wild && !turn.emptied);
        assert_eq!(game.current(), second);
        assert_eq!(game.board().get(10, 0), first.top());
        let turn = game.play(None);
        assert!(turn.lost && turn.emptied && turn.resolution.is_none());
        assert!(game.board().is_empty());
        assert_ne!(game.current(), second);
    }

    /// The real game's sequence, the wild column taking the current column's turn after 70
    /// removed cells, and the speed rising when it lands.
    #[test]
    fn real_games_bring_wild_columns_and_speed_up() {
        let mut game = Game::new(RuleSet::Real, 11);
        let ColumnGenerator::Game(start) = ColumnGenerator::game(11) else {
            unreachable!()
        };
        let mut replay = start;
        assert_eq!(game.current(), replay.next_column());
        assert_eq!(game.next(), replay.next_column());
        assert_eq!(game.fall_speed(), 63);
        // A clearing lock with 69 cells counted brings the wild column.
        game.counters.since_wild = 69;
        game.board = Board::from_text("..1...\n..1...").unwrap();
        game.current = Column::new(2, 3, 1);
        let shown = game.next();
        let turn = game.play(Some((2, 0)));
        assert!(!turn.lost && !turn.wild);
        assert!(turn.resolution.unwrap().wild_due);
        assert_eq!(game.current(), Column::WILD);
        // The next column shown stays, and the generator did not step.
        assert_eq!(game.next(), shown);
        let turn = game.play(Some((5, 0)));
        assert!(turn.wild && turn.fall_speed == 63);
        assert_eq!(turn.resolution.unwrap().level, 1);
        assert_eq!(game.fall_speed(), 52);
        assert_eq!(game.current(), shown);
        assert_eq!(game.counters().wild_columns, 1);
        assert_eq!(game.next(), replay.next_column());
    }
}
