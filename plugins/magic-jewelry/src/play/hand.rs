//! The column in hand: its plan, the closed loop that carries it out, and how many times it
//! was planned again.

use super::injector::Injector;
use super::plan::Plan;
use magic_jewelry_engine::FallState;

pub use super::parameters::MAX_REPLANS;

#[derive(Debug, Default)]
pub struct Hand {
    pub plan: Option<Plan>,
    pub replans: u32,
    /// The column cannot move at all: nothing to search for until the next one.
    pub stuck: bool,
    /// The column has just spawned: its state is what predictions start from.
    pub fresh: bool,
    /// A column's state on its first frame (the spawn, as the player first sees it).
    pub first_state: Option<FallState>,
    pub injector: Injector,
}

impl Hand {
    /// A new column spawned.
    pub fn spawned(&mut self) {
        self.plan = None;
        self.replans = 0;
        self.stuck = false;
        self.fresh = true;
    }

    /// Nothing more will be searched for this column.
    pub fn given_up(&self) -> bool {
        self.replans > MAX_REPLANS || self.stuck
    }

    /// Forgets the column (after a reset or a state load, or when control changes).
    pub fn forget(&mut self) {
        self.plan = None;
        self.injector.restart();
    }
}
