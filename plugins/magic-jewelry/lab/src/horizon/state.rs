//! The state at a spawn that decides the game's future, and what of it a player cannot tell.

use magic_jewelry::engine::{Board, Column, Game, Objective};
use serde::{Deserialize, Serialize};

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
