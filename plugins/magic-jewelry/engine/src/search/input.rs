//! The game's input rules, in one place (`docs/magic-jewelry.md`, "Controls"): what a frame's
//! buttons do to the falling column ([`FallState::step`]), how the player presses
//! ([`InputModel`]), and the [`Timeline`] of buttons a plan becomes, from the search's path to
//! the injector's frame-by-frame presses.
//!
//! The frame model, checked frame by frame against the real game's traces:
//! - only a *new* press acts, and only one a frame: A or B (a swap of top and bottom with Select
//!   held, else a rotation), else Right, else Left, else Down;
//! - a move is refused at the walls and when the cells beside the column are taken;
//! - Down's first new press after a spawn arms the soft drop; while it is armed and Down is
//!   held the column falls a row every 2 frames, otherwise every `speed` frames;
//! - then the fall timer counts up; when it reaches the speed in force it restarts, and the
//!   column falls a row or, resting, locks where it stands.
//!
//! Holding Left or Right repeats the move after 6-8 frames, slower than tapping, so plans only
//! tap. A move pressed on the frame a resting column locks races the game's interrupt and is
//! sometimes lost: plans never press on that frame.

use crate::rules::board::WIDTH;
use crate::rules::{Column, RuleSet, LEVEL0_FALL_SPEED, SPAWN_X, SPAWN_Y};
use jewelbot_controller::Buttons;
use serde::{Deserialize, Serialize};

/// Frames per row while the soft drop runs.
pub const SOFT_DROP_SPEED: u8 = 2;

/// The falling column as the game keeps it from frame to frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FallState {
    /// Column, 0-5.
    pub x: u8,
    /// Row of the bottom jewel, 0-12.
    pub y: i8,
    /// Arrangement of the column's jewels from the state's start ([`Column::arranged`]).
    pub arrangement: u8,
    /// Frames counted towards the next row ($59).
    pub timer: u8,
    /// The level's frames per row ($5B; 0 is read as 1).
    pub speed: u8,
    /// Soft drop armed ($65).
    pub armed: bool,
    /// Buttons held on the frame before: only buttons not held then are new presses.
    #[serde(with = "buttons_bits")]
    pub held: Buttons,
}

/// Buttons as their bits (the plug-in API has no serde).
mod buttons_bits {
    use jewelbot_controller::Buttons;
    use serde::{Deserialize, Deserializer, Serializer};

    #[allow(clippy::trivially_copy_pass_by_ref)] // serde's `with` passes a reference
    pub fn serialize<S: Serializer>(buttons: &Buttons, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u8(buttons.bits())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Buttons, D::Error> {
        u8::deserialize(deserializer).map(Buttons::from_bits)
    }
}

impl FallState {
    /// Where the columns after `current` start when `current` started at `self` under
    /// `rules`: at the same speed, or after a wild column the next level's (the fastest it can
    /// be, the level not being known).
    pub fn after(self, rules: RuleSet, current: Column) -> Self {
        let speed = if current.is_wild() {
            rules.speed_after_wild(self.speed)
        } else {
            self.speed
        };
        Self::spawn(speed)
    }

    /// A column that has just spawned, with nothing held.
    pub const fn spawn(speed: u8) -> Self {
        Self {
            x: SPAWN_X,
            y: SPAWN_Y,
            arrangement: 0,
            timer: 0,
            speed,
            armed: false,
            held: Buttons::NONE,
        }
    }

    /// Frames per row in force with `held` down: 2 while the soft drop runs.
    pub fn speed_in_force(&self, held: Buttons) -> u8 {
        if self.armed && held.contains(Buttons::DOWN) {
            SOFT_DROP_SPEED
        } else {
            self.speed.max(1)
        }
    }

    /// Runs one frame with `buttons` held over settled stacks whose rest rows are `rest` (the
    /// row a column's bottom jewel rests on in each column). Returns true when the column
    /// locked at the end of the frame.
    pub fn step(&mut self, rest: &[i8; WIDTH], buttons: Buttons) -> bool {
        let new = Buttons::from_bits(buttons.bits() & !self.held.bits());
        match Move::of_press(new, buttons) {
            Some(Move::Left) if self.x > 0 && self.y <= rest[self.x as usize - 1] => self.x -= 1,
            Some(Move::Right)
                if (self.x as usize) < WIDTH - 1 && self.y <= rest[self.x as usize + 1] =>
            {
                self.x += 1;
            }
            Some(Move::Rotate) => self.arrangement = ARRANGEMENT_AFTER[self.arrangement as usize].0,
            Some(Move::Swap) => self.arrangement = ARRANGEMENT_AFTER[self.arrangement as usize].1,
            None if new.contains(Buttons::DOWN) => self.armed = true,
            // A refused move, or nothing pressed.
            _ => {}
        }
        self.held = buttons;
        self.timer = self.timer.saturating_add(1);
        if self.timer < self.speed_in_force(buttons) {
            return false;
        }
        self.timer = 0;
        if self.y < rest[self.x as usize] {
            self.y += 1;
            false
        } else {
            true
        }
    }

    /// True when the column rests and the next frame's timer expiry locks it: the frame on
    /// which a move races the game's interrupt.
    pub fn locks_next_frame(&self, rest: &[i8; WIDTH], held: Buttons) -> bool {
        self.y >= rest[self.x as usize] && self.timer.saturating_add(1) >= self.speed_in_force(held)
    }
}

impl Default for FallState {
    fn default() -> Self {
        Self::spawn(LEVEL0_FALL_SPEED)
    }
}

/// The arrangement after a rotation and after a swap, for each arrangement.
const ARRANGEMENT_AFTER: [(u8, u8); 6] = [(1, 3), (2, 5), (0, 4), (4, 0), (5, 2), (3, 1)];

/// How the player presses buttons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputModel {
    /// Fewest frames from one press to the next: 1 plays a press every frame (different
    /// buttons on consecutive frames, the same button every other frame).
    pub tap_interval: u8,
    /// Arm the soft drop and hold Down to the lock.
    pub soft_drop: bool,
    /// Use Select+A/B, the swap of top and bottom, as well as rotations.
    pub swap: bool,
}

impl InputModel {
    /// As fast as the game takes presses, then soft drop.
    pub const FAST: Self = Self {
        tap_interval: 1,
        soft_drop: true,
        swap: false,
    };

    /// A press every `tap_interval` frames and the column left to fall at the game's speed.
    pub const fn normal(tap_interval: u8) -> Self {
        Self {
            tap_interval: if tap_interval < 1 { 1 } else { tap_interval },
            soft_drop: false,
            swap: false,
        }
    }

    /// The normal mode's default pace: a press every 10 frames.
    pub const NORMAL: Self = Self::normal(10);

    /// The same model with the swap of top and bottom in use or not.
    #[must_use]
    pub const fn with_swap(mut self, swap: bool) -> Self {
        self.swap = swap;
        self
    }

    /// The interval used (never below 1).
    pub const fn interval(&self) -> u8 {
        if self.tap_interval < 1 {
            1
        } else {
            self.tap_interval
        }
    }

    /// How many arrangements the player can reach: 3 rotations, or 6 with the swap.
    pub const fn arrangements(&self) -> u8 {
        if self.swap {
            6
        } else {
            3
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
    /// Select held with A or B: top and bottom change places.
    Swap,
}

impl Move {
    /// The move a frame makes whose new presses are `new`, with `held` held (`None`: no move;
    /// Down's new press is not a move).
    pub fn of_press(new: Buttons, held: Buttons) -> Option<Self> {
        if new.contains(Buttons::A) || new.contains(Buttons::B) {
            Some(if held.contains(Buttons::SELECT) {
                Self::Swap
            } else {
                Self::Rotate
            })
        } else if new.contains(Buttons::RIGHT) {
            Some(Self::Right)
        } else if new.contains(Buttons::LEFT) {
            Some(Self::Left)
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
            Self::Swap => (x, jewels.arranged(3)),
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

    /// The moves it makes from a start with `held` held, in order.
    pub fn moves(&self, held: Buttons) -> impl Iterator<Item = Move> + '_ {
        let mut previous = held;
        self.frames.iter().filter_map(move |&buttons| {
            let new = Buttons::from_bits(buttons.bits() & !previous.bits());
            previous = buttons;
            Move::of_press(new, buttons)
        })
    }

    /// Plays the timeline from `start` over stacks with rest rows `rest` until the column
    /// locks, at most `limit` frames: the state it locked in and the frame it locked on.
    pub fn lock(
        &self,
        start: FallState,
        rest: &[i8; WIDTH],
        limit: usize,
    ) -> Option<(FallState, usize)> {
        self.play(start, *rest, limit)
            .map(|(state, frame, _)| (state, frame))
    }

    /// [`Timeline::lock`], refusing a timeline that presses a move on a frame whose timer
    /// expiry would lock the resting column where it stands: that press races the game's
    /// interrupt and is often lost, so the column would lock as it was (the soft drop armed
    /// early can bring the lock onto a move's frame; a column that spawned resting over a full
    /// spawn column lost the real game a game this way, its move off the stack lost).
    pub fn lock_without_race(
        &self,
        start: FallState,
        rest: &[i8; WIDTH],
        limit: usize,
    ) -> Option<(FallState, usize)> {
        match self.play(start, *rest, limit)? {
            (_, _, true) => None,
            (state, frame, false) => Some((state, frame)),
        }
    }

    /// Plays to the lock: the state, the frame, and whether a move was pressed on a frame whose
    /// timer expiry would have locked the column where it rested.
    fn play(
        &self,
        start: FallState,
        rest: [i8; WIDTH],
        limit: usize,
    ) -> Option<(FallState, usize, bool)> {
        let mut state = start;
        let mut raced = false;
        (0..limit).find_map(|frame| {
            let buttons = self.buttons_at(frame);
            let new = Buttons::from_bits(buttons.bits() & !state.held.bits());
            let moved = Move::of_press(new, buttons).is_some();
            raced |= moved && state.locks_next_frame(&rest, buttons);
            state.step(&rest, buttons).then_some((state, frame, raced))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrangements_follow_rotation_and_swap() {
        let c = Column::new(1, 2, 3);
        for a in 0..6u8 {
            let (rotate, swap) = ARRANGEMENT_AFTER[a as usize];
            assert_eq!(c.arranged(rotate), c.arranged(a).cycled(), "rotate {a}");
            let [t, m, b] = c.arranged(a).0;
            assert_eq!(c.arranged(swap), Column::new(b, m, t), "swap {a}");
        }
        for r in 0..3 {
            assert_eq!(c.arranged(r), c.rotated(r));
        }
    }

    #[test]
    fn one_new_press_a_frame_in_the_game_s_order() {
        let rest = [12; WIDTH];
        let mut s = FallState::spawn(63);
        s.step(&rest, Buttons::A | Buttons::LEFT);
        assert_eq!((s.x, s.arrangement), (3, 1), "A wins over Left");
        s.step(&rest, Buttons::NONE);
        s.step(&rest, Buttons::LEFT | Buttons::DOWN);
        assert_eq!((s.x, s.armed), (2, false), "Left wins over Down");
        s.step(&rest, Buttons::LEFT);
        assert_eq!(s.x, 2, "held, not pressed again");
        s.step(&rest, Buttons::SELECT);
        s.step(&rest, Buttons::SELECT | Buttons::B);
        assert_eq!(s.arrangement, ARRANGEMENT_AFTER[1].1, "Select+B swaps");
    }

    #[test]
    fn soft_drop_needs_a_new_press_and_locks_two_frames_after_landing() {
        let mut rest = [12; WIDTH];
        rest[3] = 2;
        let mut s = FallState::spawn(63);
        s.held = Buttons::DOWN;
        // Down held through the spawn does nothing.
        for _ in 0..10 {
            assert!(!s.step(&rest, Buttons::DOWN));
        }
        assert_eq!((s.y, s.armed), (0, false));
        s.step(&rest, Buttons::NONE);
        assert!(!s.step(&rest, Buttons::DOWN));
        assert!(s.armed);
        // A row every 2 frames from the press (the press's own frame counts when the timer
        // has already run a frame or more).
        let mut frames = 1;
        while !s.step(&rest, Buttons::DOWN) {
            frames += 1;
        }
        assert_eq!((s.y, frames), (2, 4));
    }

    #[test]
    fn a_resting_column_can_slide_until_its_timer_expires() {
        let mut rest = [12; WIDTH];
        rest[3] = 0;
        let mut s = FallState::spawn(5);
        for _ in 0..3 {
            assert!(!s.step(&rest, Buttons::NONE));
        }
        assert!(!s.locks_next_frame(&rest, Buttons::NONE));
        s.step(&rest, Buttons::RIGHT);
        assert_eq!(s.x, 4);
        // Over the open column it falls at the next expiry.
        while !s.step(&rest, Buttons::NONE) {}
        assert_eq!((s.x, s.y), (4, 12));
    }
}
