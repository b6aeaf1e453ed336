//! The column sequences: the real game's generator, and the reference's uniform, independent
//! colours. Both start from a seed, so runs repeat exactly and seeds give independent runs.
//!
//! Wild columns are not made here: the game decides on one after a lock, from the cells removed
//! (see [`super::game::Game`]), without stepping the generator.

use super::board::{Column, COLOURS};
use super::rule_set::RuleSet;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const MULTIPLIER: u16 = 25173;
const INCREMENT: u16 = 13849;
/// 25173 · 35581 = 1 mod 65536.
const MULTIPLIER_INVERSE: u16 = 35581;

/// The real game's column generator: a 16-bit linear congruential generator
/// (S ← 25173·S + 13849 mod 65536, the state at $44/$45) stepped once per jewel, the colour
/// read from bits 8-10 with 0 read as 1 and 7 as 5; a column is made bottom jewel first.
///
/// The colours depend on S mod 2048 only, so every game reads the same cycle of 2,048 jewels
/// (2,048 columns) from some offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GameGenerator {
    state: u16,
}

impl GameGenerator {
    /// The state after an all-zero power-on.
    pub const POWER_ON_STATE: u16 = 0xADAD;

    /// Places in the cycle of jewels every game reads: the colours depend on the state mod
    /// 2048 only.
    pub const CYCLE: u16 = 2048;

    pub const fn new(state: u16) -> Self {
        Self { state }
    }

    /// The state as the game keeps it ($44 low, $45 high).
    pub const fn state(self) -> u16 {
        self.state
    }

    /// Where the generator is in the cycle of 2,048 jewels: two generators at the same place
    /// make the same colours for ever, whatever their upper bits.
    pub const fn cycle_position(self) -> u16 {
        self.state % Self::CYCLE
    }

    /// Steps the generator and returns the jewel colour it gives.
    #[inline]
    pub fn next_jewel(&mut self) -> u8 {
        self.state = self.state.wrapping_mul(MULTIPLIER).wrapping_add(INCREMENT);
        Self::colour(self.state)
    }

    /// The colour of the jewel made by the step that left the generator at `state`.
    pub const fn colour(state: u16) -> u8 {
        match (state >> 8) & 7 {
            0 => 1,
            7 => 5,
            v => v as u8,
        }
    }

    /// The generator one step back (the multiplier is odd, so every state has one
    /// predecessor).
    pub const fn previous(self) -> Self {
        Self {
            state: self
                .state
                .wrapping_sub(INCREMENT)
                .wrapping_mul(MULTIPLIER_INVERSE),
        }
    }

    /// The column whose top jewel the last step made (bottom, middle and top being the last
    /// three jewels): the next column shown, when the state is the game's as a column falls.
    pub const fn last_column(self) -> Column {
        let middle = self.previous();
        let bottom = middle.previous();
        Column::new(
            Self::colour(self.state),
            Self::colour(middle.state),
            Self::colour(bottom.state),
        )
    }

    /// The next column: bottom, then middle, then top.
    pub fn next_column(&mut self) -> Column {
        let bottom = self.next_jewel();
        let middle = self.next_jewel();
        let top = self.next_jewel();
        Column::new(top, middle, bottom)
    }
}

/// Seeded columns under a rule set.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum ColumnGenerator {
    /// Uniform, independent colours (the reference's conditions); boxed, being 40 times the
    /// size of the game's state.
    Uniform(Box<ChaCha8Rng>),
    /// The real game's generator.
    Game(GameGenerator),
}

impl ColumnGenerator {
    /// The sequence of `seed` under `rules`.
    pub fn new(rules: RuleSet, seed: u64) -> Self {
        match rules {
            RuleSet::Reference => Self::uniform(seed),
            RuleSet::Real => Self::game(seed),
        }
    }

    /// Uniform, independent colours.
    pub fn uniform(seed: u64) -> Self {
        Self::Uniform(Box::new(ChaCha8Rng::seed_from_u64(seed)))
    }

    /// The game's generator from a state drawn from `seed`, as the game seeds it from what RAM
    /// holds at a reset.
    pub fn game(seed: u64) -> Self {
        let state = ChaCha8Rng::seed_from_u64(seed).random::<u16>();
        Self::Game(GameGenerator::new(state))
    }

    /// The next column.
    pub fn next_column(&mut self) -> Column {
        match self {
            Self::Uniform(rng) => {
                let mut jewels = [0; 3];
                for j in &mut jewels {
                    *j = rng.random_range(1..=COLOURS);
                }
                Column(jewels)
            }
            Self::Game(generator) => generator.next_column(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_is_seeded_and_uniform() {
        let mut a = ColumnGenerator::uniform(7);
        let mut b = ColumnGenerator::uniform(7);
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
        // Pinned: the reference's sequences are the ones every earlier figure was measured on.
        assert_eq!(ColumnGenerator::uniform(1).next_column(), Column([4, 3, 6]));
    }

    /// The first columns after an all-zero power-on, as the game shows them (top, middle,
    /// bottom).
    #[test]
    fn the_game_after_power_on() {
        let mut generator = GameGenerator::new(GameGenerator::POWER_ON_STATE);
        let columns: Vec<Column> = (0..5).map(|_| generator.next_column()).collect();
        assert_eq!(
            columns,
            [
                Column::new(5, 1, 2),
                Column::new(2, 4, 3),
                Column::new(3, 2, 1),
                Column::new(4, 4, 1),
                Column::new(1, 2, 4),
            ]
        );
    }

    #[test]
    fn stepping_back_undoes_a_step() {
        assert_eq!(MULTIPLIER.wrapping_mul(MULTIPLIER_INVERSE), 1);
        let mut generator = GameGenerator::new(GameGenerator::POWER_ON_STATE);
        for _ in 0..1000 {
            let before = generator;
            let column = generator.next_column();
            assert_eq!(generator.last_column(), column);
            assert_eq!(generator.previous().previous().previous(), before);
        }
    }

    /// Red and blue twice as often as the others, and one fixed cycle of 2,048 jewels.
    #[test]
    fn the_game_odds_and_cycle() {
        let mut generator = GameGenerator::new(0x1234);
        let first: Vec<u8> = (0..2048).map(|_| generator.next_jewel()).collect();
        let mut counts = [0u32; 7];
        for &j in &first {
            counts[j as usize] += 1;
        }
        assert_eq!(counts, [0, 512, 256, 256, 256, 512, 256]);
        let again: Vec<u8> = (0..2048).map(|_| generator.next_jewel()).collect();
        assert_eq!(first, again);
    }

    #[test]
    fn seeds_start_the_game_generator_at_different_states() {
        let states: std::collections::HashSet<u16> = (0..64)
            .map(|seed| match ColumnGenerator::game(seed) {
                ColumnGenerator::Game(g) => g.state(),
                ColumnGenerator::Uniform(_) => unreachable!(),
            })
            .collect();
        assert!(states.len() > 60);
        let mut a = ColumnGenerator::new(RuleSet::Real, 5);
        let mut b = ColumnGenerator::new(RuleSet::Real, 5);
        for _ in 0..100 {
            assert_eq!(a.next_column(), b.next_column());
        }
    }
}
