//! A decision the player is carrying out: where the column goes and the timeline that gets it
//! there.

use magic_jewelry_engine::{Choice, Column, Decision, FallState, Timeline};
use std::time::Duration;

/// Where the current column goes and the buttons that take it there.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub target_x: u8,
    pub target_jewels: Column,
    /// Row of the bottom jewel when it locks.
    pub target_y: i8,
    /// The column's jewels when the plan was made: the timeline's arrangements count from them.
    pub jewels: Column,
    /// The column's state when the plan was made.
    pub start: FallState,
    /// The buttons, frame by frame from the decision on.
    pub timeline: Timeline,
    pub decision_time: Duration,
    /// The placements the search weighed, the chosen one first.
    pub candidates: Vec<Choice>,
    /// Where the next column would go on the board this one leaves.
    pub next: Option<Choice>,
    /// Why the choice won, in one line ([`magic_jewelry_engine::Explanation`]), and in a few words
    /// for the status panel.
    pub explanation: Option<String>,
    pub short_explanation: Option<String>,
}

impl Plan {
    pub fn new(decision: &Decision, jewels: Column, start: FallState) -> Self {
        Self {
            target_x: decision.x,
            target_jewels: jewels.arranged(decision.arrangement),
            target_y: decision.y,
            jewels,
            start,
            timeline: decision.timeline.clone(),
            decision_time: decision.elapsed,
            candidates: decision.candidates.clone(),
            next: decision.next,
            explanation: None,
            short_explanation: None,
        }
    }

    pub fn is_on_target(&self, x: u8, jewels: Column) -> bool {
        x == self.target_x && jewels == self.target_jewels
    }
}
