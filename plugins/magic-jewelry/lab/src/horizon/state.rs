//! The state at a spawn that decides the game's future, and what of it a player cannot tell.

use magic_jewelry_engine::rules::board::{ROWS, WIDTH};
use magic_jewelry_engine::rules::scoring::MAX_COMBO;
use magic_jewelry_engine::rules::WILD_EVERY;
use magic_jewelry_engine::{Board, Column, Game, GameGenerator, Objective};
use serde::{Deserialize, Serialize};

/// The most jewels a board holds: every cell of its 15 rows, hidden ones included.
pub(super) const MOST_JEWELS: u32 = (WIDTH * ROWS) as u32;

/// Everything the game's future depends on, at a spawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SpawnState {
    #[serde(skip)]
    pub board: Board,
    pub current: Column,
    pub next: Column,
    /// The generator's place in its cycle (its state mod 2048).
    pub cycle_position: u16,
    /// Cells removed since the last wild column ($6E).
    pub since_wild: u32,
    /// The internal level ($6D).
    pub level: u8,
    /// The combo counter ($A0).
    pub combo: u8,
}

impl SpawnState {
    pub fn of(game: &Game) -> Self {
        let counters = game.counters();
        Self {
            board: *game.board(),
            current: game.current(),
            next: game.next(),
            cycle_position: game.generator_cycle_position().unwrap_or(0),
            since_wild: counters.since_wild,
            level: counters.level,
            combo: counters.combo,
        }
    }

    /// What is wrong with the state, read from a file, if anything: a board that is not a
    /// settled board (its heights against its cells), counters out of the game's range, or
    /// columns that the generator's place cannot have dealt (the next column is made by the
    /// generator's last three steps, the current one by the three before, or is the wild
    /// column). Every state of a game passes; a state that fails would make another game, or
    /// no game at all (a board whose heights disagree with its cells breaks the evaluation).
    pub fn check(&self) -> Result<(), String> {
        let heights = self.board.heights();
        if let Some(h) = heights.iter().find(|&&h| usize::from(h) > ROWS) {
            return Err(format!(
                "its board's heights {heights:?} hold {h}, where a column holds at most {ROWS}"
            ));
        }
        if !self.board.is_well_formed() {
            return Err(format!(
                "its board's heights {heights:?} disagree with its cells (a column of each \
                 height, of colours 1 to 6, and nothing above it)"
            ));
        }
        if self.cycle_position >= GameGenerator::CYCLE {
            return Err(format!(
                "cycle_position {} is no place of the generator's cycle (0 to {})",
                self.cycle_position,
                GameGenerator::CYCLE - 1
            ));
        }
        if self.since_wild >= WILD_EVERY {
            return Err(format!(
                "since_wild {} is past the {WILD_EVERY} cells that bring the wild column",
                self.since_wild
            ));
        }
        if self.combo > MAX_COMBO {
            return Err(format!(
                "combo {} is past the combo counter's {MAX_COMBO}",
                self.combo
            ));
        }
        let place = GameGenerator::new(self.cycle_position);
        let next = place.last_column();
        if self.next != next {
            return Err(format!(
                "its next column {:?} is not {:?}, the one the generator's place {} deals",
                self.next.0, next.0, self.cycle_position
            ));
        }
        let current = place.previous().previous().previous().last_column();
        if self.current != current && self.current != Column::WILD {
            return Err(format!(
                "its current column {:?} is neither {:?}, the one dealt before the next at \
                 the generator's place {}, nor the wild column",
                self.current.0, current.0, self.cycle_position
            ));
        }
        Ok(())
    }

    /// The state as far as the game's future goes, for a player blind to what `blind` says
    /// (see [`Blind`]).
    pub(super) fn key(self, blind: Blind) -> Self {
        Self {
            level: if blind.level { 0 } else { self.level },
            combo: if blind.combo { 0 } else { self.combo },
            ..self
        }
    }
}

/// FNV-1a: a hash that every run computes alike (a map's hasher is seeded at random).
pub(super) struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// What of the state a player cannot tell apart, and the game itself reads nowhere else: two
/// states that differ there alone have the same future.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Blind {
    /// The level ($6D), for every player on the fast input model. The level reaches a player
    /// only as the fall speed of its questions, the speed only through the placements a
    /// column can reach, and those are the same at every speed of the table on every board
    /// (`the_fast_input_model_reaches_the_same_placements_at_every_speed`). Foresight also
    /// tells its boards apart by their level, but every board of one decision has the
    /// level of the question plus the wild columns its path landed (wrapping at 256 as the
    /// game's does), so that another level shifts them all alike. No rule reads the level
    /// but the speed.
    pub level: bool,
    /// The combo counter ($A0). A player that does not weigh the points of locks (the survive
    /// objective, with foresight or without): only the points read the combo.
    pub combo: bool,
}

impl Blind {
    /// What the player of these settings is blind to (the same with foresight or without).
    pub fn of(objective: Objective) -> Self {
        Self {
            level: true,
            combo: objective == Objective::Survive,
        }
    }
}
