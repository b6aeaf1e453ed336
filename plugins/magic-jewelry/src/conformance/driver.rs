//! Drives a console through a scenario with nothing but the documented RAM map and the
//! controller, so the same scenarios run on Magic Jewelry and on the open cartridge.

use super::board::Jewels;
use crate::game_view::Grid;
use crate::memory_map::{self as map};
use jewelbot_plugin::{Buttons, Machine, MachineError};
use std::fmt::Debug;

/// Why a scenario could not measure what it checks, in words for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure(pub String);

impl From<MachineError> for Failure {
    fn from(error: MachineError) -> Self {
        Self(format!("the console stopped: {error}"))
    }
}

/// What a scenario measured: the expected and the observed values, and whether they agree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fact {
    pub passed: bool,
    pub expected: String,
    pub observed: String,
}

impl Fact {
    /// Compares a measurement with what the game does (tuples of values built on the spot).
    #[allow(clippy::needless_pass_by_value)]
    pub fn compare<T: PartialEq + Debug>(expected: T, observed: T) -> Self {
        Self {
            passed: expected == observed,
            expected: format!("{expected:?}"),
            observed: format!("{observed:?}"),
        }
    }
}

/// A scenario step: a value measured, or why it could not be.
pub type Check<T = Fact> = Result<T, Failure>;

/// Fails the scenario with a formatted message unless the condition holds.
macro_rules! ensure {
    ($condition:expr, $($message:tt)+) => {
        if !$condition {
            return Err($crate::conformance::driver::Failure(format!($($message)+)));
        }
    };
}
pub(crate) use ensure;

/// The clear timer ($1A while $66 is non-zero) on the first frame of a match step.
pub const CLEAR_START: u8 = 17;
/// The frame on which the title first takes Start after power-on.
pub const FIRST_START_FRAME: u64 = 7;
/// Frames from Start on the title to the first column.
pub const START_TO_SPAWN: u64 = 6;
/// Frames a column falls one row at the first level.
pub const FIRST_SPEED: u8 = 63;

/// The column under control, as RAM describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    pub x: u8,
    /// Row of the bottom jewel.
    pub y: u8,
    pub jewels: Jewels,
}

/// One match step of a resolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// Frame the step began ($66 became non-zero).
    pub start: u64,
    /// Frame the animation ended ($66 back to 0).
    pub end: u64,
    /// Jewels counted on the step's first frame.
    pub counted: u32,
    /// Jewels counted after that, during the animation (0 in the game).
    pub counted_late: u32,
    /// Score added during the step.
    pub score: u32,
    /// Score added on the step's first frame (0: it comes when the animation ends).
    pub score_early: u32,
}

/// What happened from a drop to the next column.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Resolution {
    /// The frame the column came to rest on the cells it locked in.
    pub landed: Option<u64>,
    pub steps: Vec<Step>,
    /// The frame a new column appeared, if one did.
    pub spawn: Option<u64>,
    /// Score added from the drop to the spawn.
    pub score: u32,
}

impl Resolution {
    /// Jewels counted by each match step.
    pub fn counts(&self) -> Vec<u32> {
        self.steps.iter().map(|s| s.counted).collect()
    }

    /// Score added by each match step.
    pub fn scores(&self) -> Vec<u32> {
        self.steps.iter().map(|s| s.score).collect()
    }
}

/// The difference of two 8-digit counters, modulo their range.
pub fn counter_delta(before: u32, after: u32) -> u32 {
    (after + 100_000_000 - before) % 100_000_000
}

pub struct Driver<'m> {
    machine: &'m mut dyn Machine,
    frames: u64,
}

impl<'m> Driver<'m> {
    pub fn new(machine: &'m mut dyn Machine) -> Self {
        Self { machine, frames: 0 }
    }

    /// Frames this driver has run.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// Frames since power-on.
    pub fn frame(&self) -> u64 {
        self.machine.frame_number()
    }

    pub fn byte(&self, address: u16) -> u8 {
        map::byte(self.machine.ram(), address)
    }

    pub fn poke(&mut self, address: u16, value: u8) {
        self.machine.poke(address, value);
    }

    pub fn step(&mut self, buttons: Buttons) -> Check<()> {
        self.machine.step(buttons)?;
        self.frames += 1;
        Ok(())
    }

    pub fn hold(&mut self, frames: u64, buttons: Buttons) -> Check<()> {
        (0..frames).try_for_each(|_| self.step(buttons))
    }

    pub fn idle(&mut self, frames: u64) -> Check<()> {
        self.hold(frames, Buttons::NONE)
    }

    /// Runs idle frames up to frame `frame` after power-on.
    pub fn idle_until_frame(&mut self, frame: u64) -> Check<()> {
        while self.frame() < frame {
            self.step(Buttons::NONE)?;
        }
        Ok(())
    }

    /// Power-cycles the console.
    pub fn power_cycle(&mut self) -> Check<()> {
        self.machine.power_cycle()?;
        Ok(())
    }

    /// Holds `buttons` until `done` holds, at most `limit` frames; the frame it held on.
    pub fn until(
        &mut self,
        what: &str,
        limit: u64,
        buttons: Buttons,
        done: impl Fn(&Self) -> bool,
    ) -> Check<u64> {
        for _ in 0..limit {
            self.step(buttons)?;
            if done(self) {
                return Ok(self.frame());
            }
        }
        Err(Failure(format!(
            "{what} did not happen within {limit} frames"
        )))
    }

    pub fn column(&self) -> Column {
        Column {
            x: self.byte(map::COLUMN_X),
            y: self.byte(map::COLUMN_Y),
            jewels: self.jewels_at(map::CURRENT_COLUMN),
        }
    }

    pub fn next_jewels(&self) -> Jewels {
        self.jewels_at(map::NEXT_COLUMN)
    }

    fn jewels_at(&self, address: u16) -> Jewels {
        [0, 1, 2].map(|i| self.byte(address + i))
    }

    /// The playfield as RAM holds it, falling column included.
    pub fn board(&self) -> Grid {
        Grid::from_ram(self.machine.ram())
    }

    pub fn cell(&self, row: i8, column: u8) -> u8 {
        self.byte(map::cell_address(row, column))
    }

    pub fn set_cell(&mut self, row: i8, column: u8, value: u8) {
        self.poke(map::cell_address(row, column), value);
    }

    pub fn fall_speed(&self) -> u8 {
        self.byte(map::FALL_SPEED)
    }

    pub fn clearing(&self) -> bool {
        self.byte(map::CLEARING) != 0
    }

    pub fn paused(&self) -> bool {
        self.byte(map::PAUSE) != 0
    }

    /// The column generator's state ($44 low, $45 high).
    pub fn generator(&self) -> u16 {
        u16::from_le_bytes([self.byte(map::GENERATOR), self.byte(map::GENERATOR + 1)])
    }

    pub fn on_title(&self) -> bool {
        self.byte(map::TITLE) == map::TITLE_SHOWN
    }

    fn counter(&self, label: &str, address: u16) -> Check<u32> {
        map::decimal(self.machine.ram(), address, map::COUNTER_DIGITS)
            .ok_or_else(|| Failure(format!("the {label} holds a byte that is not a digit")))
    }

    pub fn jewel_counter(&self) -> Check<u32> {
        self.counter("jewel counter", map::JEWEL_COUNTER)
    }

    pub fn score(&self) -> Check<u32> {
        self.counter("score", map::SCORE)
    }

    pub fn level(&self) -> Check<u32> {
        self.counter("level", map::LEVEL)
    }

    /// Writes an 8-digit counter, lowest digit first.
    pub fn set_counter(&mut self, address: u16, value: u32) {
        for (i, digit) in map::decimal_bytes(value, map::COUNTER_DIGITS)
            .into_iter()
            .enumerate()
        {
            self.poke(address + i as u16, digit);
        }
    }

    /// True while a column falls under control: a game, not paused, not clearing, the column's
    /// colours in 1..7 and drawn in its cells (a wild column's cells may be blank: it flashes).
    pub fn in_play(&self) -> bool {
        !self.paused() && self.placed()
    }

    /// A column placed on the board as in [`Self::in_play`], paused or not.
    pub fn placed(&self) -> bool {
        let column = self.column();
        if self.on_title()
            || self.fall_speed() == 0
            || self.clearing()
            || column.x > 5
            || column.y > 12
            || !column.jewels.iter().all(|j| (1..=7).contains(j))
        {
            return false;
        }
        let cells: Jewels = [0, 1, 2].map(|i| self.cell(column.y as i8 - 2 + i as i8, column.x));
        cells == column.jewels || (column.jewels == [7; 3] && cells == [0; 3])
    }

    /// A column under control at the spawn position.
    pub fn at_spawn(&self) -> bool {
        let column = self.column();
        column.x == 3 && column.y == 0 && self.in_play()
    }

    /// Holds `buttons` until a new column appears at the spawn position (on a frame whose
    /// previous frame showed another position or other colours); the frame it appeared.
    pub fn until_spawn(&mut self, limit: u64, buttons: Buttons) -> Check<u64> {
        let mut before = (self.column(), self.at_spawn());
        for _ in 0..limit {
            self.step(buttons)?;
            let now = (self.column(), self.at_spawn());
            if now.1 && (!before.1 || now.0 != before.0) {
                return Ok(self.frame());
            }
            before = now;
        }
        Err(Failure(format!(
            "no new column came within {limit} frames (board {})",
            self.board()
        )))
    }

    /// Power-on as the game starts: the title, Start pressed on frame 7 (the first frame that
    /// takes it), the first column 6 frames later. The frame it spawned.
    pub fn start_game(&mut self) -> Check<u64> {
        self.idle_until_frame(FIRST_START_FRAME - 1)?;
        self.step(Buttons::START)?;
        let spawn = self
            .until_spawn(3 * START_TO_SPAWN, Buttons::NONE)
            .map_err(|_| {
                Failure(format!(
                    "Start on frame {FIRST_START_FRAME} brought no column within {} frames",
                    3 * START_TO_SPAWN
                ))
            })?;
        let board = self.board_without_column();
        ensure!(
            board.jewels() == 0,
            "the new game's board is not empty: {board}"
        );
        Ok(spawn)
    }

    /// The board without the falling column's three cells.
    pub fn board_without_column(&self) -> Grid {
        let column = self.column();
        let mut board = self.board();
        if column.x <= 5 && column.y <= 12 {
            for row in column.y as i8 - 2..=column.y as i8 {
                board.set(row, column.x as usize, 0);
            }
        }
        board
    }

    /// Gives the falling column these colours (top, middle, bottom), in RAM and in its cells.
    pub fn set_current(&mut self, jewels: Jewels) {
        let column = self.column();
        for (i, &jewel) in jewels.iter().enumerate() {
            self.poke(map::CURRENT_COLUMN + i as u16, jewel);
            self.set_cell(column.y as i8 - 2 + i as i8, column.x, jewel);
        }
    }

    /// Writes every visible cell of `board` except the falling column's.
    pub fn set_board(&mut self, board: &Grid) {
        let column = self.column();
        for row in 0..=12i8 {
            for c in 0..map::COLUMNS as u8 {
                let falling = c == column.x && (column.y as i8 - 2..=column.y as i8).contains(&row);
                if !falling {
                    self.set_cell(row, c, board.get(row, c as usize));
                }
            }
        }
    }

    /// Taps Left or Right (one frame down, one up) until the column is at `x`.
    pub fn move_to(&mut self, x: u8) -> Check<()> {
        for _ in 0..12 {
            let here = self.column().x;
            if here == x {
                return Ok(());
            }
            let button = if here > x {
                Buttons::LEFT
            } else {
                Buttons::RIGHT
            };
            self.step(button)?;
            self.step(Buttons::NONE)?;
        }
        let here = self.column().x;
        ensure!(
            here == x,
            "could not move the column to x={x}; it is at x={here}"
        );
        Ok(())
    }

    /// After a frame with nothing held, presses Down (a new press) and holds it until the
    /// column has locked, then follows the resolution to the next column (or `limit` frames).
    pub fn drop_and_resolve(&mut self, limit: u64) -> Check<Resolution> {
        self.step(Buttons::NONE)?;
        self.watch(limit, true)
    }

    /// Runs idle frames until a new column spawns (or `limit` frames), recording every match
    /// step on the way.
    pub fn resolve(&mut self, limit: u64) -> Check<Resolution> {
        self.watch(limit, false)
    }

    fn watch(&mut self, limit: u64, drop: bool) -> Check<Resolution> {
        let mut result = Resolution::default();
        let mut holding = drop;
        let mut before = (self.column(), self.at_spawn());
        let first_score = self.score()?;
        // Counters when the last step started and ended (or the drop began).
        let mut jewels_at_start = self.jewel_counter()?;
        let mut score_at_end = first_score;
        let mut jewels = jewels_at_start;
        let mut score = first_score;
        let mut timer = None;
        let mut open: Option<Step> = None;
        let mut last_y = self.column().y;
        for _ in 0..limit {
            self.step(if holding {
                Buttons::DOWN
            } else {
                Buttons::NONE
            })?;
            let frame = self.frame();
            let column = self.column();
            let (now_jewels, now_score) = (self.jewel_counter()?, self.score()?);
            // $1A is the clear timer only while $66 is non-zero.
            let now_timer = self.clearing().then(|| self.byte(map::ANIMATION));
            let now = (column, self.at_spawn());
            let spawned = now.1 && (!before.1 || now.0 != before.0);
            if result.steps.is_empty() && open.is_none() && !spawned {
                if self.in_play() && column.y != last_y {
                    result.landed = Some(frame);
                }
                last_y = column.y;
            }
            if let Some(step) = open.as_mut() {
                if now_timer.is_none_or(|t| t == 0) {
                    step.end = frame;
                    step.score = counter_delta(score_at_end, now_score);
                    score_at_end = now_score;
                    result.steps.push(*step);
                    open = None;
                } else {
                    step.counted_late += counter_delta(jewels, now_jewels);
                }
            }
            if now_timer == Some(CLEAR_START) && timer != Some(CLEAR_START) {
                holding = false;
                open = Some(Step {
                    start: frame,
                    end: frame,
                    counted: counter_delta(jewels_at_start, now_jewels),
                    counted_late: 0,
                    score: 0,
                    score_early: counter_delta(score_at_end, now_score),
                });
                jewels_at_start = now_jewels;
            }
            (jewels, score, timer) = (now_jewels, now_score, now_timer);
            if spawned {
                result.spawn = Some(frame);
                break;
            }
            before = now;
        }
        if let Some(step) = open.take() {
            result.steps.push(step);
        }
        result.score = counter_delta(first_score, score);
        Ok(result)
    }
}
