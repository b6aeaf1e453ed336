//! Drives a console through a scenario with nothing but the documented RAM map and the
//! controller, so the same scenarios run on Magic Jewelry and on the open cartridge.

use super::board::{Board, Jewels};
use crate::memory_map::{self as map};
use jewelbot_plugin::{Buttons, Machine, MachineError};

/// Why a scenario failed, in words for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure(pub String);

impl From<MachineError> for Failure {
    fn from(error: MachineError) -> Self {
        Self(format!("the console stopped: {error}"))
    }
}

/// A scenario step: what was measured, or why it failed.
pub type Check<T = String> = Result<T, Failure>;

/// Fails the scenario with a formatted message unless the condition holds.
macro_rules! ensure {
    ($condition:expr, $($message:tt)+) => {
        if !$condition {
            return Err($crate::conformance::driver::Failure(format!($($message)+)));
        }
    };
}
pub(crate) use ensure;

/// The clear-animation timer's value when jewels have just matched.
pub const CLEAR_START: u8 = 17;

/// Frames to wait for the title screen before pressing Start.
const TITLE_FRAMES: u32 = 30;
/// Frames to wait for a column after pressing Start, and how often to press it.
const START_WAIT: u32 = 150;
const START_TRIES: u32 = 4;

/// The column under control, as RAM describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    pub x: u8,
    /// Row of the bottom jewel.
    pub y: u8,
    pub jewels: Jewels,
}

/// One match step seen while the board resolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clear {
    /// Jewel counter on the frame before the match.
    pub jewels_before: u32,
    /// Jewel counter on the frame the clear timer was set.
    pub jewels_at_match: u32,
    /// Jewel counter on the last frame of the animation.
    pub jewels_at_end: u32,
    /// Frames from the timer's start to the collapse (the timer reaching 0 or restarting).
    pub frames: u32,
}

impl Clear {
    /// Jewels counted when the match happened.
    pub fn counted(&self) -> u32 {
        self.jewels_at_match.wrapping_sub(self.jewels_before)
    }
}

/// What happened after a column locked.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Resolution {
    pub clears: Vec<Clear>,
    /// A new column came under control.
    pub spawned: bool,
    pub frames: u32,
}

impl Resolution {
    /// Jewels counted by each match step, e.g. "3, 3".
    pub fn counts(&self) -> Vec<u32> {
        self.clears.iter().map(Clear::counted).collect()
    }
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

    pub fn idle(&mut self, frames: u32) -> Check<()> {
        (0..frames).try_for_each(|_| self.step(Buttons::NONE))
    }

    /// Power-cycles the console.
    pub fn power_cycle(&mut self) -> Check<()> {
        self.machine.power_cycle()?;
        Ok(())
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
    pub fn board(&self) -> Board {
        Board::from_ram(self.machine.ram())
    }

    pub fn fall_speed(&self) -> u8 {
        self.byte(map::FALL_SPEED)
    }

    pub fn clear_timer(&self) -> u8 {
        self.byte(map::ANIMATION)
    }

    fn counter(&self, label: &str, address: u16, digits: u16) -> Check<u32> {
        map::decimal(self.machine.ram(), address, digits)
            .ok_or_else(|| Failure(format!("the {label} holds a byte that is not a digit")))
    }

    pub fn jewel_counter(&self) -> Check<u32> {
        self.counter("jewel counter", map::JEWEL_COUNTER, map::COUNTER_DIGITS)
    }

    pub fn score(&self) -> Check<u32> {
        self.counter("score", map::SCORE, map::COUNTER_DIGITS)
    }

    pub fn level(&self) -> Check<u32> {
        self.counter("level", map::LEVEL, map::COUNTER_DIGITS)
    }

    /// Writes a decimal counter, lowest digit first.
    pub fn set_counter(&mut self, address: u16, digits: u16, value: u32) {
        for (i, digit) in map::decimal_bytes(value, digits).into_iter().enumerate() {
            self.poke(address + i as u16, digit);
        }
    }

    /// True when a freshly spawned column is under control: at x=3 with its bottom jewel in
    /// row 0, drawn in the playfield, and no clear animation running.
    pub fn is_spawned(&self) -> bool {
        let column = self.column();
        let board = self.board();
        self.fall_speed() != 0
            && self.clear_timer() == 0
            && column.x == 3
            && column.y == 0
            && column.jewels.iter().all(|j| (1..=7).contains(j))
            && (0..3).all(|i| board.get(i as i8 - 2, 3) == column.jewels[i])
    }

    /// Runs idle frames until `done` holds; `None` when it did not within `limit` frames.
    pub fn wait_for(&mut self, limit: u32, done: impl Fn(&Self) -> bool) -> Check<Option<u32>> {
        for frame in 0..limit {
            if done(self) {
                return Ok(Some(frame));
            }
            self.step(Buttons::NONE)?;
        }
        Ok(done(self).then_some(limit))
    }

    /// Presses Start (again if needed) until a column spawns on an empty board.
    pub fn start_game(&mut self) -> Check<()> {
        self.idle(TITLE_FRAMES)?;
        for _ in 0..START_TRIES {
            self.step(Buttons::START)?;
            self.step(Buttons::NONE)?;
            if self.wait_for(START_WAIT, Self::is_spawned)?.is_some() {
                let board = self.board_without_column();
                ensure!(
                    board.jewels() == 0,
                    "the new game's board is not empty: {board}"
                );
                return Ok(());
            }
        }
        Err(Failure(format!(
            "no column spawned at x=3, row 0 after pressing Start {START_TRIES} times"
        )))
    }

    /// The board without the falling column's three cells.
    pub fn board_without_column(&self) -> Board {
        let column = self.column();
        let mut board = self.board();
        for row in column.y as i8 - 2..=column.y as i8 {
            board.set(row, column.x as usize, 0);
        }
        board
    }

    /// Gives the falling column these colours (top, middle, bottom), in RAM and in the cells
    /// it occupies.
    pub fn set_current(&mut self, jewels: Jewels) {
        let column = self.column();
        for (i, &jewel) in jewels.iter().enumerate() {
            self.poke(map::CURRENT_COLUMN + i as u16, jewel);
            let row = column.y as i8 - 2 + i as i8;
            self.poke(map::cell_address(row, column.x), jewel);
        }
    }

    pub fn set_next(&mut self, jewels: Jewels) {
        for (i, &jewel) in jewels.iter().enumerate() {
            self.poke(map::NEXT_COLUMN + i as u16, jewel);
        }
    }

    /// Writes every visible cell of `board` except the falling column's.
    pub fn set_board(&mut self, board: &Board) {
        let column = self.column();
        for row in 0..=12i8 {
            for c in 0..map::COLUMNS as u8 {
                let falling = c == column.x && (column.y as i8 - 2..=column.y as i8).contains(&row);
                if !falling {
                    self.poke(map::cell_address(row, c), board.get(row, c as usize));
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

    /// The row the falling column's bottom jewel would land on.
    pub fn landing_row(&self) -> u8 {
        let column = self.column();
        let board = self.board();
        (column.y + 1..=12)
            .find(|&row| board.get(row as i8, column.x as usize) != 0)
            .map_or(12, |row| row - 1)
    }

    /// Holds Down until the column lands, then waits for the next spawn (see [`Self::resolve`]).
    pub fn drop_and_resolve(&mut self, limit: u32) -> Check<Resolution> {
        self.watch(limit, true)
    }

    /// Runs idle frames until a new column spawns (or `limit` frames), recording every match
    /// step on the way.
    pub fn resolve(&mut self, limit: u32) -> Check<Resolution> {
        self.watch(limit, false)
    }

    fn watch(&mut self, limit: u32, drop: bool) -> Check<Resolution> {
        let mut result = Resolution::default();
        let start = self.column();
        let landing = self.landing_row();
        let mut holding = drop;
        let mut timer = self.clear_timer();
        let mut spawned = self.is_spawned();
        let mut jewels = self.jewel_counter()?;
        let mut open: Option<Clear> = None;
        for frame in 1..=limit {
            self.step(if holding {
                Buttons::DOWN
            } else {
                Buttons::NONE
            })?;
            let column = self.column();
            let now_timer = self.clear_timer();
            let now_jewels = self.jewel_counter()?;
            // Let go as soon as the column lands, so the next one does not drop too.
            holding &= column.y < landing && column.x == start.x && now_timer == 0;
            let restarted = now_timer == CLEAR_START && timer != CLEAR_START;
            let ended = now_timer == 0 && timer != 0;
            if restarted || ended {
                if let Some(mut clear) = open.take() {
                    clear.jewels_at_end = jewels;
                    result.clears.push(clear);
                }
            }
            if restarted {
                open = Some(Clear {
                    jewels_before: jewels,
                    jewels_at_match: now_jewels,
                    jewels_at_end: now_jewels,
                    frames: 0,
                });
            }
            if let Some(clear) = open.as_mut() {
                clear.frames += 1;
            }
            timer = now_timer;
            jewels = now_jewels;
            result.frames = frame;
            let now_spawned = self.is_spawned();
            if now_spawned && !spawned {
                result.spawned = true;
                break;
            }
            spawned = now_spawned;
        }
        if let Some(mut clear) = open.take() {
            clear.jewels_at_end = jewels;
            result.clears.push(clear);
        }
        Ok(result)
    }
}
