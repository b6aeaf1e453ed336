//! A start's game so far, as a proof keeps it: the state before each column, what each did,
//! and the repeat being checked. Played by [`super::play`], learned from by [`super::known`],
//! kept by [`super::checkpoint`].

use super::state::SpawnState;
use crate::column::Step;
use serde::{Deserialize, Serialize};

/// A start's game so far: the state before each column played from `kept_from` on, what each
/// did, and the most jewels seen.
#[derive(Debug, Clone, Default)]
pub struct Progress {
    /// The column of `order`'s first state: 0, unless the game went on from a checkpoint whose
    /// column log was gone, which knows the game from its head on.
    pub kept_from: u64,
    pub order: Vec<SpawnState>,
    pub steps: Vec<Step>,
    /// From the start on, the columns not kept included.
    pub most_jewels: u32,
    /// The repeat whose period is being checked, once a state came back.
    pub repeat: Option<Repeat>,
}

/// A state seen twice: at column `first`, and again at column `again`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Repeat {
    pub first: u64,
    pub again: u64,
}

impl Progress {
    /// A game known from column `kept_from` on, the most jewels before it `most_jewels`.
    pub fn known_from(kept_from: u64, most_jewels: u32) -> Self {
        Self {
            kept_from,
            most_jewels,
            ..Self::default()
        }
    }

    /// Columns played.
    pub fn columns(&self) -> u64 {
        self.kept_from + self.order.len() as u64
    }

    /// Where column `column`'s state and step are kept.
    pub(crate) fn index(&self, column: u64) -> usize {
        (column - self.kept_from) as usize
    }
}
