//! How the falling column moves frame by frame, and how fast the player presses buttons.
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

use serde::{Deserialize, Serialize};

/// Column index where columns spawn.
pub const SPAWN_X: u8 = 3;
/// Row of a new column's bottom jewel.
pub const SPAWN_Y: i8 = 0;
/// Frames per row at level 0.
pub const LEVEL0_FALL_SPEED: u8 = 63;

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
