//! Where the player's foresight comes from: the column generator's state read from RAM ($44/$45),
//! trusted only when the last three jewels it made are the next column shown; otherwise pinned
//! from the columns seen so far (the colours depend on the state mod 2048 only, so the 2,048
//! offsets are tried and only a unique match is accepted); otherwise none, and the player plays
//! fair. A wrong plan is never made from a state that does not fit what the screen shows.

use crate::game_view::GameView;
use magic_jewelry_engine::{Column, GameGenerator};
use std::fmt;

/// Generator columns remembered for pinning: 48 jewels are far more than 2,048 offsets need.
const REMEMBERED: usize = 16;

/// What the player's foresight did at its last decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ForesightStatus {
    /// Foresight is off: fair play, by choice.
    Off,
    /// It searched this many columns ahead from the generator state in RAM.
    Checked(usize),
    /// It searched this many columns from a state pinned from the columns seen (RAM's did not
    /// make the next column shown).
    Pinned(usize),
    /// RAM's state did not make the next column shown and the columns seen did not pin one:
    /// fair play.
    Unknown,
}

impl fmt::Display for ForesightStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Off => f.write_str("fair play"),
            Self::Checked(k) => write!(f, "foresight: {k} columns"),
            Self::Pinned(k) => write!(
                f,
                "foresight: {k} columns (generator pinned from the columns seen)"
            ),
            Self::Unknown => {
                f.write_str("fair play (foresight: generator state does not match the next column)")
            }
        }
    }
}

/// The player's foresight: whether it is on, how far the search looks, and the generator it
/// trusts for the column in hand.
#[derive(Debug, Clone)]
pub struct Lookahead {
    /// Read the generator from RAM and look ahead.
    pub on: bool,
    /// Columns the search looks ahead when it is given the generator.
    pub depth: usize,
    pub status: ForesightStatus,
    /// The generator's columns seen, for pinning its state when RAM's does not fit.
    pub seen: SeenColumns,
    /// A column spawned since the last reading of the generator.
    pub spawned: bool,
    /// The generator trusted for the column in hand (after it made the next column shown).
    pub generator: Option<GameGenerator>,
}

impl Lookahead {
    /// Off, looking `depth` columns ahead once on.
    pub fn looking(depth: usize) -> Self {
        Self {
            on: false,
            depth,
            status: ForesightStatus::Off,
            seen: SeenColumns::default(),
            spawned: true,
            generator: None,
        }
    }

    pub fn set_on(&mut self, on: bool) {
        self.on = on;
        if !on {
            self.status = ForesightStatus::Off;
        }
    }

    /// A new game reseeds the generator: the columns seen no longer pin it.
    pub fn forget_columns(&mut self) {
        self.seen.clear();
    }

    pub fn forget(&mut self) {
        self.seen.clear();
        self.spawned = true;
        self.generator = None;
    }

    /// The generator after the next column shown, when foresight is on and RAM's state (or the
    /// columns seen) can be trusted; kept as the one trusted for the column in hand.
    pub fn read(
        &mut self,
        view: &GameView,
        falling: Column,
        next: Column,
    ) -> Option<GameGenerator> {
        let spawned = std::mem::take(&mut self.spawned);
        self.seen.see(falling, next, spawned);
        self.generator = if self.on {
            let reading = read(view.generator, next, &self.seen);
            self.status = match reading {
                Reading::Checked(_) => ForesightStatus::Checked(self.depth),
                Reading::Pinned(_) => ForesightStatus::Pinned(self.depth),
                Reading::Unknown => ForesightStatus::Unknown,
            };
            reading.generator()
        } else {
            None
        };
        self.generator
    }
}

/// Where the generator state for a decision came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// RAM's state, which made the next column shown.
    Checked(GameGenerator),
    /// RAM's state does not fit the next column, but the columns seen fit one offset only.
    Pinned(GameGenerator),
    /// Neither: play fair.
    Unknown,
}

impl Reading {
    /// The generator as it stands after making the next column shown, when known.
    pub fn generator(self) -> Option<GameGenerator> {
        match self {
            Self::Checked(g) | Self::Pinned(g) => Some(g),
            Self::Unknown => None,
        }
    }
}

/// The columns the generator made, as the player saw them come, oldest first; the last is the
/// next column shown.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SeenColumns {
    columns: Vec<Column>,
}

/// Whether `falling` is `made` after some presses (the player may have turned it already).
fn arranged_from(falling: Column, made: Column) -> bool {
    (0..6).any(|a| made.arranged(a) == falling)
}

impl SeenColumns {
    /// Forgets them (a new game reseeds the generator).
    pub fn clear(&mut self) {
        self.columns.clear();
    }

    pub fn as_slice(&self) -> &[Column] {
        &self.columns
    }

    /// Takes in the falling and the next column as a column spawns (`spawned`) or is decided
    /// again. The next column shown becomes the falling one unless a wild column takes the turn;
    /// anything else starts afresh.
    pub fn see(&mut self, falling: Column, next: Column, spawned: bool) {
        if !next.is_valid() || next.is_wild() {
            self.clear();
            return;
        }
        let last = self.columns.last().copied();
        if !spawned && last == Some(next) {
            // The same column decided again.
            return;
        }
        if falling.is_wild() {
            // The wild column's turn: the next column shown stays.
            if last != Some(next) {
                self.columns.clear();
                self.columns.push(next);
            }
        } else if spawned && last.is_some_and(|last| arranged_from(falling, last)) {
            self.columns.push(next);
        } else {
            self.columns.clear();
            if falling.is_valid() {
                self.columns.push(falling);
            }
            self.columns.push(next);
        }
        if self.columns.len() > REMEMBERED {
            self.columns.remove(0);
        }
    }

    /// The generator after the last column seen, when exactly one of the 2,048 offsets makes
    /// them all (the first may have been turned already: only its jewels are compared).
    pub fn pin(&self) -> Option<GameGenerator> {
        let (first, rest) = self.columns.split_first()?;
        let mut found = None;
        for offset in 0..GameGenerator::CYCLE {
            let mut generator = GameGenerator::new(offset);
            if !arranged_from(*first, generator.next_column()) {
                continue;
            }
            if rest.iter().all(|&c| generator.next_column() == c) {
                if found.is_some() {
                    return None;
                }
                found = Some(generator);
            }
        }
        found
    }
}

/// The generator for a decision: RAM's `state` if it made `next`, else one pinned from `seen`.
pub fn read(state: u16, next: Column, seen: &SeenColumns) -> Reading {
    let generator = GameGenerator::new(state);
    if next.is_valid() && !next.is_wild() && generator.last_column() == next {
        return Reading::Checked(generator);
    }
    // The columns seen must end with the next one shown, or they say nothing of it.
    if seen.as_slice().last() != Some(&next) || seen.as_slice().len() < 2 {
        return Reading::Unknown;
    }
    seen.pin().map_or(Reading::Unknown, Reading::Pinned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(state: u16, columns: usize) -> (GameGenerator, Vec<Column>) {
        let mut generator = GameGenerator::new(state);
        let made = (0..columns).map(|_| generator.next_column()).collect();
        (generator, made)
    }

    #[test]
    fn the_state_that_made_the_next_column_is_trusted() {
        let (generator, made) = game(0x1234, 2);
        let reading = read(generator.state(), made[1], &SeenColumns::default());
        assert_eq!(reading, Reading::Checked(generator));
        // One step off: it made other jewels.
        let (other, _) = game(0x1234, 0);
        assert_eq!(
            read(other.state(), made[1], &SeenColumns::default()),
            Reading::Unknown
        );
    }

    #[test]
    fn a_wrong_state_is_pinned_from_the_columns_seen() {
        let (generator, made) = game(0xBEEF, 12);
        let mut seen = SeenColumns::default();
        // Turned as the player turns the falling column; decided twice.
        for pair in made.windows(2) {
            seen.see(pair[0], pair[1], true);
            seen.see(pair[0].arranged(4), pair[1], false);
        }
        assert_eq!(seen.as_slice(), &made[..]);
        let poked = generator.state() ^ 0x0100;
        let Reading::Pinned(pinned) = read(poked, made[11], &seen) else {
            panic!("not pinned");
        };
        // The same colours from here on, whatever the high bits.
        let mut real = generator;
        let mut pinned = pinned;
        for _ in 0..200 {
            assert_eq!(pinned.next_column(), real.next_column());
        }
    }

    #[test]
    fn too_few_columns_or_a_gap_give_fair_play() {
        let (generator, made) = game(0x0F0F, 8);
        let poked = generator.state().wrapping_add(1);
        let mut seen = SeenColumns::default();
        seen.see(made[6], made[7], true);
        // Two columns: ambiguous or not, never a guess beyond a unique match.
        let reading = read(poked, made[7], &seen);
        assert!(matches!(reading, Reading::Unknown | Reading::Pinned(_)));
        if let Reading::Pinned(mut g) = reading {
            let mut real = generator;
            assert_eq!(g.next_column(), real.next_column());
        }
        // A column missed: the memory starts afresh from what it sees.
        seen.see(made[0], made[1], true);
        assert_eq!(seen.as_slice(), &made[..2]);
        // Columns that no offset makes.
        let mut impossible = SeenColumns::default();
        for _ in 0..6 {
            let last = impossible.as_slice().last().copied();
            impossible.see(
                last.unwrap_or(Column::new(1, 1, 1)),
                Column::new(1, 1, 1),
                true,
            );
        }
        assert_eq!(read(0, Column::new(1, 1, 1), &impossible), Reading::Unknown);
    }
}
