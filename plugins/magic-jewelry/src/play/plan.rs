//! A decision turned into the taps that carry it out.

use crate::engine::{Column, Decision};
use jewelbot_plugin::Buttons;
use std::collections::VecDeque;
use std::time::Duration;

/// One button tap and the change it must make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tap {
    Left,
    Right,
    Rotate,
}

impl Tap {
    pub fn from_button(button: Buttons) -> Option<Self> {
        if button.contains(Buttons::LEFT) {
            Some(Self::Left)
        } else if button.contains(Buttons::RIGHT) {
            Some(Self::Right)
        } else if button.contains(Buttons::A) || button.contains(Buttons::B) {
            Some(Self::Rotate)
        } else {
            None
        }
    }

    pub fn button(self) -> Buttons {
        match self {
            Self::Left => Buttons::LEFT,
            Self::Right => Buttons::RIGHT,
            Self::Rotate => Buttons::A,
        }
    }

    /// Where the column should be after this tap, from (x, jewels).
    pub fn apply(self, x: u8, jewels: Column) -> (u8, Column) {
        match self {
            Self::Left => (x.wrapping_sub(1), jewels),
            Self::Right => (x + 1, jewels),
            Self::Rotate => (x, jewels.cycled()),
        }
    }
}

/// Where the current column goes and the taps still to press.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub target_x: u8,
    pub target_jewels: Column,
    /// Row of the bottom jewel when it locks.
    pub target_y: i8,
    pub taps: VecDeque<Tap>,
    /// Held once the taps are done (Down in fast mode).
    pub finish: Buttons,
    pub decision_time: Duration,
}

impl Plan {
    pub fn new(decision: &Decision, jewels: Column) -> Self {
        Self {
            target_x: decision.x,
            target_jewels: jewels.rotated(decision.rotations),
            target_y: decision.y,
            taps: decision
                .path
                .iter()
                .filter_map(|&b| Tap::from_button(b))
                .collect(),
            finish: decision.finish,
            decision_time: decision.elapsed,
        }
    }

    pub fn is_on_target(&self, x: u8, jewels: Column) -> bool {
        x == self.target_x && jewels == self.target_jewels
    }
}
