//! The game's input rules, in one place: what a press does to the falling column ([`Move`]),
//! how fast the player presses ([`InputModel`]), and the [`Timeline`] of buttons a plan becomes,
//! from the search's path to the injector's frame-by-frame presses.
//!
//! The frame model (from the documented observations):
//! - each frame, a newly pressed Left/Right moves the column if the cells are free, and a
//!   newly pressed A/B cycles its jewels; then the fall timer counts up, and when it reaches
//!   the fall speed it restarts and the column either falls a row or, if it cannot, locks;
//! - so after landing the column waits one more fall period (it can still slide), then locks;
//! - Down held drops a row every 2 frames and locks on landing.
//!
//! The player is modelled by taps only: one button pressed for a frame, then released until
//! the next tap interval. Holding a direction repeats after 6 then every 8 frames, slower than
//! tapping every 2 frames, so taps reach everything holds reach. One button per tap: the search
//! never relies on two buttons changing in the same frame.

use crate::engine::rules::{Column, LEVEL0_FALL_SPEED, SPAWN_X, SPAWN_Y};
use jewelbot_plugin::Buttons;
use serde::{Deserialize, Serialize};

/// Where the falling column is and how its fall timer stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpawnState {
    /// Column, 0-5.
    pub x: u8,
    /// Row of the bottom jewel, 0-12.
    pub y: i8,
    /// Frames counted towards the next fall.
    pub fall_timer: u8,
    /// Frames per row (1 or more; 0 is read as 1).
    pub fall_speed: u8,
}

impl SpawnState {
    /// A column that has just spawned.
    pub const fn spawn(fall_speed: u8) -> Self {
        Self {
            x: SPAWN_X,
            y: SPAWN_Y,
            fall_timer: 0,
            fall_speed,
        }
    }

    /// The fall speed the simulation uses (never 0).
    pub const fn speed(&self) -> u8 {
        if self.fall_speed == 0 {
            1
        } else {
            self.fall_speed
        }
    }
}

impl Default for SpawnState {
    fn default() -> Self {
        Self::spawn(LEVEL0_FALL_SPEED)
    }
}

/// How the player presses buttons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputModel {
    /// Frames from one tap to the next (2 at best: pressed one frame, released one).
    pub tap_interval: u8,
    /// Hold Down once the column is in place, to lock it sooner.
    pub soft_drop: bool,
}

impl InputModel {
    /// Taps every 2 frames, then soft drop.
    pub const FAST: Self = Self {
        tap_interval: 2,
        soft_drop: true,
    };

    /// A tap every `tap_interval` frames (at least 2) and no soft drop.
    pub const fn normal(tap_interval: u8) -> Self {
        Self {
            tap_interval: if tap_interval < 2 { 2 } else { tap_interval },
            soft_drop: false,
        }
    }

    /// The normal mode's default pace: a tap every 10 frames.
    pub const NORMAL: Self = Self::normal(10);

    /// The interval used (never below 2).
    pub const fn interval(&self) -> u8 {
        if self.tap_interval < 2 {
            2
        } else {
            self.tap_interval
        }
    }
}

impl Default for InputModel {
    fn default() -> Self {
        Self::FAST
    }
}

/// One press and what it does to the falling column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// One column to the left.
    Left,
    /// One column to the right.
    Right,
    /// A or B: the bottom jewel moves to the top.
    Rotate,
}

impl Move {
    /// The button the player presses for it.
    pub const fn button(self) -> Buttons {
        match self {
            Self::Left => Buttons::LEFT,
            Self::Right => Buttons::RIGHT,
            Self::Rotate => Buttons::A,
        }
    }

    /// The move a frame holding `buttons` makes when they are newly pressed (`None`: nothing
    /// the column does).
    pub fn of_press(buttons: Buttons) -> Option<Self> {
        if buttons.contains(Buttons::LEFT) {
            Some(Self::Left)
        } else if buttons.contains(Buttons::RIGHT) {
            Some(Self::Right)
        } else if buttons.contains(Buttons::A) || buttons.contains(Buttons::B) {
            Some(Self::Rotate)
        } else {
            None
        }
    }

    /// Where the column is after the move, from column `x` with `jewels`.
    pub fn apply(self, x: u8, jewels: Column) -> (u8, Column) {
        match self {
            Self::Left => (x.wrapping_sub(1), jewels),
            Self::Right => (x + 1, jewels),
            Self::Rotate => (x, jewels.cycled()),
        }
    }
}

/// A plan as buttons: what to hold on each frame from the decision on, then [`Timeline::finish`]
/// until the column locks. The search builds it, the simulator replays it and the player's
/// injector presses it frame by frame, checking each [`Move`] in RAM.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Timeline {
    /// Buttons held on each frame, the first on the frame after the decision.
    pub frames: Vec<Buttons>,
    /// Held once the frames are done (Down in fast mode), until the column locks.
    pub finish: Buttons,
}

impl Timeline {
    /// The buttons held on `frame` (0 is the first), the finish after the last.
    pub fn buttons_at(&self, frame: usize) -> Buttons {
        self.frames.get(frame).copied().unwrap_or(self.finish)
    }

    /// The moves it makes, in order.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.frames.iter().filter_map(|&b| Move::of_press(b))
    }
}
