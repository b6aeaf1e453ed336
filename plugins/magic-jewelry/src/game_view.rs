//! A typed, validated view of one frame of Magic Jewelry's RAM: which of the game's states it
//! is in (`docs/magic-jewelry.md`, "States and how RAM shows them") and the board, columns and
//! counters.
//!
//! Decoding never trusts RAM. The title's logo animation and the game-over fill are screens the
//! game draws in the playfield, not boards; anything no state of the game explains makes the
//! view inconsistent, and the caller decides what to do (the AI waits for a consistent frame).

use crate::memory_map::{self as map, COLUMNS, HIDDEN_ROWS, ROWS, VISIBLE_ROWS};
use jewelbot_plugin::{Buttons, Ram};
pub use magic_jewelry_engine::rules::board::cell_char;
use magic_jewelry_engine::FallState;
pub use magic_jewelry_engine::{EMPTY, WILD};
use std::fmt;

/// The clear-animation timer's value when jewels have just matched.
pub const CLEAR_TIMER_START: u8 = 17;

/// The playfield as 15 rows of 6 cells; index 0 is row -2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Grid(pub [[u8; COLUMNS]; ROWS]);

impl Grid {
    /// Reads the playfield cells as they are in RAM (the falling column included).
    pub fn from_ram(ram: &Ram) -> Self {
        let mut grid = Self::default();
        for (index, row) in grid.0.iter_mut().enumerate() {
            for (column, cell) in row.iter_mut().enumerate() {
                *cell = map::byte(ram, map::cell_address(row_of(index), column as u8));
            }
        }
        grid
    }

    /// Cell at (row -2..=12, column 0..=5); empty outside the playfield.
    pub fn get(&self, row: i8, column: usize) -> u8 {
        usize::try_from(row + HIDDEN_ROWS as i8)
            .ok()
            .and_then(|index| self.0.get(index))
            .and_then(|cells| cells.get(column))
            .copied()
            .unwrap_or(EMPTY)
    }

    /// Sets a cell; writes outside the playfield are ignored.
    pub fn set(&mut self, row: i8, column: usize, value: u8) {
        if let Ok(index) = usize::try_from(row + HIDDEN_ROWS as i8) {
            if let Some(cell) = self.0.get_mut(index).and_then(|r| r.get_mut(column)) {
                *cell = value;
            }
        }
    }

    /// Jewels in every row, hidden ones included.
    pub fn jewels(&self) -> usize {
        self.0.iter().flatten().filter(|&&c| c != EMPTY).count()
    }

    /// Jewels in the visible rows.
    pub fn visible_jewels(&self) -> usize {
        self.0[HIDDEN_ROWS..]
            .iter()
            .flatten()
            .filter(|&&c| c != EMPTY)
            .count()
    }

    /// True when any hidden-row cell holds a jewel.
    pub fn hidden_rows_occupied(&self) -> bool {
        self.0[..HIDDEN_ROWS].iter().flatten().any(|&c| c != EMPTY)
    }

    /// One text line per row, top (row -2) first: `.` empty, `1`-`6` colours, `X` wild.
    pub fn text_lines(&self) -> Vec<String> {
        self.0
            .iter()
            .enumerate()
            .map(|(index, row)| {
                let cells: String = row.iter().map(|&c| cell_char(c)).collect();
                format!("{:>3} {cells}", row_of(index))
            })
            .collect()
    }
}

fn row_of(index: usize) -> i8 {
    index as i8 - HIDDEN_ROWS as i8
}

/// Three jewels, top to bottom.
pub type Jewels = [u8; 3];

/// The column under the player's control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FallingColumn {
    pub x: u8,
    /// Row of the bottom jewel.
    pub y: u8,
    pub jewels: Jewels,
    /// Drawn in playfield RAM (a falling wild column is erased every other 8 frames).
    pub drawn: bool,
    /// Resting on the stack or the floor ($58 set): it locks at the next expiry of its timer.
    pub landed: bool,
}

impl FallingColumn {
    pub fn is_wild(&self) -> bool {
        self.jewels == [WILD; 3]
    }
}

/// What the game is doing, as one frame of RAM tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Power-on or a reset before the title shows, or a game being set up (no fall speed yet).
    Setup,
    /// The title screen; its playfield holds the logo animation.
    Title,
    /// A column falls and takes presses.
    Falling,
    /// The frame ended halfway through drawing a new column at the spawn point (a lock and a
    /// spawn in one frame): none, one or two of its jewels are drawn.
    Spawning,
    /// Between a lock that matched nothing and the next spawn.
    BetweenColumns,
    /// Matched jewels are being removed (the clear animation).
    Clearing,
    /// A wild column has been made; it spawns once the game's checksum is done.
    WildPending,
    /// A landed wild column is being resolved.
    WildResolving,
    /// Paused by Start.
    Paused,
    /// The game is over: the playfield fills with 7s, then the game waits for Start held.
    GameOver,
    /// Continued after a game over (Select, Start and Right held): the board is empty and a
    /// logo shows until a new Start press spawns the next column, counters kept.
    Continue,
}

impl Phase {
    /// True in the states of a game in progress, where the board is a board.
    pub fn in_game(self) -> bool {
        !matches!(
            self,
            Self::Setup | Self::Title | Self::GameOver | Self::Continue
        )
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Setup => "setup",
            Self::Title => "title",
            Self::Falling => "column falling",
            Self::Spawning => "column spawning",
            Self::BetweenColumns => "between columns",
            Self::Clearing => "clearing",
            Self::WildPending => "wild column pending",
            Self::WildResolving => "wild column resolving",
            Self::Paused => "paused",
            Self::GameOver => "game over",
            Self::Continue => "continue logo",
        })
    }
}

/// Everything the plug-in reads from one frame of RAM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameView {
    pub phase: Phase,
    /// The playfield without the falling column (on the title and game-over screens, what the
    /// screen holds).
    pub board: Grid,
    /// The falling column, when one is under control.
    pub falling: Option<FallingColumn>,
    /// Colours of the current column ($5C-$5E).
    pub current: Jewels,
    pub next: Jewels,
    pub column_x: u8,
    pub column_y: u8,
    pub fall_timer: u8,
    /// Frames per row in force for the falling column ($5A).
    pub speed_in_force: u8,
    /// The level's frames per row ($5B).
    pub fall_speed: u8,
    /// Soft drop armed for this column ($65).
    pub soft_drop: bool,
    /// The clear-animation timer while [`Phase::Clearing`], else the title animation's value.
    pub animation: u8,
    pub level_index: u8,
    /// A level-up is requested ($6C): the next NMI raises the level and sets the speed.
    pub level_up: bool,
    /// Cells removed since the last wild column.
    pub removed: u8,
    pub combo: u8,
    /// Column generator state ($44/$45).
    pub generator: u16,
    pub frame_counter: u8,
    pub score: u32,
    pub jewels: u32,
    pub level: u32,
}

/// A RAM value the game cannot hold.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    #[error("cell at row {row}, column {column} holds {value} (0-7 expected)")]
    Cell { row: i8, column: usize, value: u8 },
    #[error("playfield border byte at ${address:04X} holds {value} (0 expected)")]
    Border { address: u16, value: u8 },
    #[error("{label} holds {value} (at most {max} expected)")]
    OutOfRange {
        label: &'static str,
        value: u8,
        max: u8,
    },
    #[error("{label} has a byte that is not a decimal digit")]
    NotDecimal { label: &'static str },
    #[error("{label} colour {value} is not a jewel ({allowed} expected)")]
    Colour {
        label: &'static str,
        value: u8,
        allowed: &'static str,
    },
    #[error(
        "the playfield holds wild jewels (7) outside a falling wild column and the game-over fill"
    )]
    StrayWild,
}

/// RAM that does not describe a state of the game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("inconsistent game RAM: {}", .problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
pub struct InconsistentView {
    pub problems: Vec<Problem>,
}

/// The raw bytes of one frame, before the state is decided.
struct Raw {
    grid: Grid,
    title: bool,
    continue_logo: bool,
    paused: bool,
    clearing: bool,
    x: u8,
    y: u8,
    timer: u8,
    speed_in_force: u8,
    fall_speed: u8,
    landed: bool,
    current: Jewels,
    next: Jewels,
    frame_counter: u8,
}

impl Raw {
    fn read(ram: &Ram) -> Self {
        let byte = |address| map::byte(ram, address);
        Self {
            grid: Grid::from_ram(ram),
            title: byte(map::TITLE) == map::TITLE_SHOWN,
            continue_logo: byte(map::TITLE) == map::CONTINUE_LOGO,
            paused: byte(map::PAUSE) == 0xFF,
            clearing: byte(map::CLEARING) != 0,
            x: byte(map::COLUMN_X),
            y: byte(map::COLUMN_Y),
            timer: byte(map::FALL_TIMER),
            speed_in_force: byte(map::SPEED_IN_FORCE),
            fall_speed: byte(map::FALL_SPEED),
            landed: byte(map::LANDED) != 0,
            current: jewels_at(ram, map::CURRENT_COLUMN),
            next: jewels_at(ram, map::NEXT_COLUMN),
            frame_counter: byte(map::FRAME_COUNTER),
        }
    }

    /// The state, from the bytes that tell states apart, in the order the game's own checks
    /// take precedence.
    fn phase(&self, fill: Option<usize>) -> Phase {
        if self.title {
            Phase::Title
        } else if self.fall_speed == 0 {
            Phase::Setup
        } else if fill.is_some() {
            Phase::GameOver
        } else if self.continue_logo {
            Phase::Continue
        } else if self.paused {
            Phase::Paused
        } else if self.clearing {
            Phase::Clearing
        } else if self.current == [map::WILD_LANDED, WILD, WILD] {
            Phase::WildResolving
        } else if self.current == [WILD; 3] && self.timer > self.speed_in_force {
            // The checksum after a wild column's generation: the timer ran on through the
            // clear that came before, past any speed. Its spawn may end a frame before the
            // timer is reset: the column at the spawn point, not yet drawn.
            if self.torn() {
                Phase::Spawning
            } else {
                Phase::WildPending
            }
        } else if self.column().is_some() {
            Phase::Falling
        } else if self.torn() {
            Phase::Spawning
        } else {
            Phase::BetweenColumns
        }
    }

    /// The falling column at ($56, $57), if it is there: drawn with the current colours, or a
    /// wild column in the erased half of its flashing.
    fn column(&self) -> Option<FallingColumn> {
        if usize::from(self.x) >= COLUMNS || usize::from(self.y) >= VISIBLE_ROWS {
            return None;
        }
        let cells = self.cells_at(self.x, self.y);
        let wild = self.current == [WILD; 3];
        let valid = wild || self.current.iter().all(|c| (1..=6).contains(c));
        let drawn = valid && cells == self.current;
        // Drawn in the first 8 frames of every 16, erased in the others (moves redraw it).
        let hidden = wild && cells == [EMPTY; 3] && self.frame_counter & 0x08 != 0;
        (drawn || hidden).then_some(FallingColumn {
            x: self.x,
            y: self.y,
            jewels: self.current,
            drawn,
            landed: self.landed,
        })
    }

    /// A new column at the spawn point, its timer just started, with none, one or two of its
    /// jewels drawn from the top: the frame ended while the game was drawing it. With none
    /// drawn the frame may have ended before the timer was reset too (the spawn has set the
    /// position and cleared $58, which a column that locked never has at 0).
    fn torn(&self) -> bool {
        let cells = self.cells_at(self.x, self.y);
        let drawn = cells
            .iter()
            .zip(&self.current)
            .take_while(|&(&cell, &jewel)| cell != EMPTY && cell == jewel)
            .count();
        (self.x, self.y) == (magic_jewelry_engine::SPAWN_X, 0)
            && (self.timer == 0 || drawn == 0)
            && !self.landed
            && self.current.iter().all(|c| (1..=WILD).contains(c))
            && drawn < 3
            // Row 0 may still hold the jewel the new column is drawn over.
            && cells[drawn.min(2)..2].iter().all(|&c| c == EMPTY)
    }

    /// The three cells ending at row `y` of column `x`; empty when (x, y) is outside the
    /// playfield, as RAM may say anything.
    fn cells_at(&self, x: u8, y: u8) -> Jewels {
        if usize::from(x) >= COLUMNS || usize::from(y) >= VISIBLE_ROWS {
            return [EMPTY; 3];
        }
        let y = y as i8;
        [y - 2, y - 1, y].map(|row| self.grid.get(row, usize::from(x)))
    }
}

/// The game-over fill: with a jewel left in row -1, the game writes 7 backwards from the last
/// cell of row 12, through each row's cells and its left border byte, up to row 0.
/// `Some(bytes written)` when RAM shows it.
fn game_over_fill(ram: &Ram) -> Option<usize> {
    let row_minus_one =
        (0..COLUMNS as u8).any(|x| map::byte(ram, map::cell_address(-1, x)) != EMPTY);
    if !row_minus_one {
        return None;
    }
    let mut written = 0;
    for row in (0..VISIBLE_ROWS as u16).rev() {
        let start = map::PLAYFIELD + map::PLAYFIELD_STRIDE * (row + HIDDEN_ROWS as u16);
        for offset in (0..=COLUMNS as u16).rev() {
            if map::byte(ram, start + offset) != WILD {
                return (written > 0).then_some(written);
            }
            written += 1;
        }
    }
    Some(written)
}

impl GameView {
    /// Decodes one frame of RAM. Never panics, whatever the bytes.
    pub fn decode(ram: &Ram) -> Result<Self, InconsistentView> {
        let raw = Raw::read(ram);
        let fill = game_over_fill(ram);
        let phase = raw.phase(fill);
        let mut problems = Vec::new();
        check_counters(ram, &mut problems);
        if phase.in_game() {
            check_playfield(ram, &raw, phase, &mut problems);
            check_columns(&raw, &mut problems);
        }
        if !problems.is_empty() {
            return Err(InconsistentView { problems });
        }
        let falling = (phase == Phase::Falling).then(|| raw.column()).flatten();
        let mut board = raw.grid;
        if let Some(column) = falling.filter(|c| c.drawn) {
            for row in column.y as i8 - 2..=column.y as i8 {
                board.set(row, usize::from(column.x), EMPTY);
            }
        }
        if phase == Phase::Spawning {
            for row in -2..=0 {
                board.set(row, usize::from(magic_jewelry_engine::SPAWN_X), EMPTY);
            }
        }
        let byte = |address| map::byte(ram, address);
        let counter = |address| map::decimal(ram, address, map::COUNTER_DIGITS).unwrap_or(0);
        Ok(Self {
            phase,
            board,
            falling,
            current: raw.current,
            next: raw.next,
            column_x: raw.x,
            column_y: raw.y,
            fall_timer: raw.timer,
            speed_in_force: raw.speed_in_force,
            fall_speed: raw.fall_speed,
            soft_drop: byte(map::SOFT_DROP) != 0,
            animation: byte(map::ANIMATION),
            level_index: byte(map::LEVEL_INDEX),
            level_up: byte(map::LEVEL_UP) != 0,
            removed: byte(map::REMOVED),
            combo: byte(map::COMBO),
            generator: u16::from_le_bytes([byte(map::GENERATOR), byte(map::GENERATOR + 1)]),
            frame_counter: raw.frame_counter,
            score: counter(map::SCORE),
            jewels: counter(map::JEWEL_COUNTER),
            level: counter(map::LEVEL),
        })
    }

    /// The internal level the game is at: $6D, or the one after it while a wild column's
    /// level-up waits for the next NMI ($6C), as it does on the spawn frame of the column after
    /// a wild column (that column falls at the new level's speed).
    pub fn level_in_force(&self) -> u8 {
        self.level_index.wrapping_add(u8::from(self.level_up))
    }

    /// Where the falling column stands in its fall, as the search starts from it, with `held`
    /// the buttons held during the last frame (`None` while no column falls).
    pub fn fall_state(&self, held: Buttons) -> Option<FallState> {
        let falling = self.falling?;
        Some(FallState {
            x: falling.x,
            y: falling.y as i8,
            arrangement: 0,
            timer: self.fall_timer,
            speed: self.fall_speed,
            armed: self.soft_drop,
            held,
        })
    }

    /// True when the column under control is the wild column.
    pub fn current_is_wild(&self) -> bool {
        self.current == [WILD; 3]
    }

    /// The clear-animation timer, while jewels are being removed.
    pub fn clear_timer(&self) -> Option<u8> {
        (self.phase == Phase::Clearing).then_some(self.animation)
    }
}

fn jewels_at(ram: &Ram, address: u16) -> Jewels {
    [0, 1, 2].map(|i| map::byte(ram, address + i))
}

fn check_counters(ram: &Ram, problems: &mut Vec<Problem>) {
    for (label, address) in [
        ("score", map::SCORE),
        ("jewel counter", map::JEWEL_COUNTER),
        ("level", map::LEVEL),
    ] {
        if map::decimal(ram, address, map::COUNTER_DIGITS).is_none() {
            problems.push(Problem::NotDecimal { label });
        }
    }
}

/// In a game every cell holds 0-7 and every border byte 0; 7s only where a falling wild column
/// is drawn or, while it resolves or clears, where the game blinks the removed cells.
fn check_playfield(ram: &Ram, raw: &Raw, phase: Phase, problems: &mut Vec<Problem>) {
    for (index, row) in raw.grid.0.iter().enumerate() {
        for (column, &value) in row.iter().enumerate() {
            if value > WILD {
                problems.push(Problem::Cell {
                    row: row_of(index),
                    column,
                    value,
                });
            }
        }
        let start = map::PLAYFIELD + map::PLAYFIELD_STRIDE * index as u16;
        for address in [start, start + map::PLAYFIELD_STRIDE - 1] {
            let value = map::byte(ram, address);
            if value != 0 {
                problems.push(Problem::Border { address, value });
            }
        }
    }
    let wild_drawn = match phase {
        Phase::Falling => raw
            .column()
            .filter(|c| c.drawn && c.is_wild())
            .map(|c| (c.x, c.y)),
        _ => None,
    };
    let stray = (0..VISIBLE_ROWS as i8 + HIDDEN_ROWS as i8).any(|index| {
        let row = index - HIDDEN_ROWS as i8;
        (0..COLUMNS).any(|x| {
            let inside = wild_drawn.is_some_and(|(cx, cy)| {
                usize::from(cx) == x && (cy as i8 - 2..=cy as i8).contains(&row)
            });
            raw.grid.get(row, x) == WILD && !inside
        })
    });
    let blinking = matches!(phase, Phase::Clearing | Phase::WildResolving);
    if stray && !blinking {
        problems.push(Problem::StrayWild);
    }
}

fn check_columns(raw: &Raw, problems: &mut Vec<Problem>) {
    let mut range = |label, value, max| {
        if value > max {
            problems.push(Problem::OutOfRange { label, value, max });
        }
    };
    range("column x", raw.x, COLUMNS as u8 - 1);
    range("column y", raw.y, VISIBLE_ROWS as u8 - 1);
    for value in raw.next.into_iter().filter(|v| !(1..=6).contains(v)) {
        problems.push(Problem::Colour {
            label: "next column",
            value,
            allowed: "1-6",
        });
    }
    // While a landed wild column is resolved (cleared, collapsed, chained) it reads 8,7,7.
    let current_ok = raw.current == [WILD; 3]
        || raw.current == [map::WILD_LANDED, WILD, WILD]
        || raw.current.iter().all(|c| (1..=6).contains(c));
    if !current_ok {
        for value in raw.current {
            problems.push(Problem::Colour {
                label: "current column",
                value,
                allowed: "1-6, or 7,7,7 for the wild column",
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A RAM image of a game in progress at level 0 with an empty board.
    fn playing_ram() -> Ram {
        let mut ram = [0u8; 0x800];
        ram[map::FALL_SPEED as usize] = 63;
        ram[map::SPEED_IN_FORCE as usize] = 63;
        ram[map::CURRENT_COLUMN as usize..][..3].copy_from_slice(&[2, 4, 3]);
        ram[map::NEXT_COLUMN as usize..][..3].copy_from_slice(&[1, 1, 5]);
        ram[map::ANIMATION as usize] = 7;
        ram
    }

    fn put(ram: &mut Ram, row: i8, column: u8, value: u8) {
        ram[map::cell_address(row, column) as usize] = value;
    }

    fn place_falling(ram: &mut Ram, x: u8, y: u8) {
        ram[map::COLUMN_X as usize] = x;
        ram[map::COLUMN_Y as usize] = y;
        let jewels = jewels_at(ram, map::CURRENT_COLUMN);
        for (i, jewel) in jewels.into_iter().enumerate() {
            put(ram, y as i8 - 2 + i as i8, x, jewel);
        }
    }

    #[test]
    fn falling_column_over_a_stack_is_masked_out_of_the_board() {
        let mut ram = playing_ram();
        for (row, colour) in [(10, 6), (11, 5), (12, 1)] {
            put(&mut ram, row, 2, colour);
        }
        place_falling(&mut ram, 2, 9);
        let view = GameView::decode(&ram).expect("consistent");
        assert_eq!(view.phase, Phase::Falling);
        let falling = view.falling.expect("a column");
        assert_eq!((falling.x, falling.y, falling.jewels), (2, 9, [2, 4, 3]));
        assert!(falling.drawn && !falling.landed);
        assert_eq!(view.board.visible_jewels(), 3);
        assert_eq!(view.board.get(9, 2), EMPTY);
        assert_eq!(view.board.get(10, 2), 6);
        assert_eq!(Grid::from_ram(&ram).visible_jewels(), 6);
    }

    #[test]
    fn the_title_animation_is_a_screen_not_a_corrupt_board() {
        let mut ram = [0u8; 0x800];
        ram[map::TITLE as usize] = map::TITLE_SHOWN;
        ram[map::ANIMATION as usize] = 3;
        for address in map::PLAYFIELD..map::PLAYFIELD + 120 {
            ram[address as usize] = (address % 6) as u8 + 1;
        }
        let view = GameView::decode(&ram).expect("the title is a state");
        assert_eq!(view.phase, Phase::Title);
        assert_eq!(view.falling, None);
        // The same playfield in a game is garbage.
        ram[map::TITLE as usize] = 0;
        ram[map::FALL_SPEED as usize] = 63;
        assert!(GameView::decode(&ram).is_err());
    }

    #[test]
    fn the_game_over_fill_is_recognised_from_its_first_byte() {
        let mut ram = playing_ram();
        for row in 1..=12 {
            for x in 0..6 {
                put(&mut ram, row, x, 1 + ((row as u8 + x) % 2));
            }
        }
        put(&mut ram, -1, 3, 4);
        put(&mut ram, 12, 5, WILD);
        assert_eq!(GameView::decode(&ram).map(|v| v.phase), Ok(Phase::GameOver));
        // The whole fill, left border bytes included.
        for row in 0..=12 {
            for x in 0..6 {
                put(&mut ram, row, x, WILD);
            }
            ram[(map::cell_address(row, 0) - 1) as usize] = WILD;
        }
        assert_eq!(GameView::decode(&ram).map(|v| v.phase), Ok(Phase::GameOver));
    }

    #[test]
    fn the_clear_timer_is_only_read_while_clearing() {
        let mut ram = playing_ram();
        ram[map::ANIMATION as usize] = 7;
        place_falling(&mut ram, 3, 0);
        let view = GameView::decode(&ram).expect("consistent");
        assert_eq!(view.phase, Phase::Falling);
        assert_eq!(view.clear_timer(), None);
        ram[map::CLEARING as usize] = 4;
        ram[map::ANIMATION as usize] = 12;
        let view = GameView::decode(&ram).expect("consistent");
        assert_eq!(
            (view.phase, view.clear_timer()),
            (Phase::Clearing, Some(12))
        );
    }

    #[test]
    fn wild_column_states() {
        let mut ram = playing_ram();
        ram[map::CURRENT_COLUMN as usize..][..3].copy_from_slice(&[WILD; 3]);
        put(&mut ram, 12, 0, 4);
        place_falling(&mut ram, 0, 5);
        let view = GameView::decode(&ram).expect("drawn");
        assert!(view.current_is_wild() && view.falling.is_some_and(|c| c.drawn));
        assert_eq!(view.board.visible_jewels(), 1);
        // Erased in the second half of its flashing: still falling, hidden.
        for row in 3..=5 {
            put(&mut ram, row, 0, EMPTY);
        }
        ram[map::FRAME_COUNTER as usize] = 0x08;
        let view = GameView::decode(&ram).expect("hidden");
        assert!(view.falling.is_some_and(|c| !c.drawn));
        // In the first half it would be drawn: not a falling column then.
        ram[map::FRAME_COUNTER as usize] = 0x10;
        assert_eq!(
            GameView::decode(&ram).map(|v| v.phase),
            Ok(Phase::BetweenColumns)
        );
        // Generated, waiting for the checksum: the timer ran past the speed.
        ram[map::FALL_TIMER as usize] = 90;
        assert_eq!(
            GameView::decode(&ram).map(|v| v.phase),
            Ok(Phase::WildPending)
        );
        ram[map::CURRENT_COLUMN as usize] = map::WILD_LANDED;
        ram[map::FALL_TIMER as usize] = 1;
        assert_eq!(
            GameView::decode(&ram).map(|v| v.phase),
            Ok(Phase::WildResolving)
        );
    }

    /// The score objective's first wild column (frame 2,714 of `score-fast-12k`): the frame
    /// ended after the spawn set the position and cleared $58, before the timer was reset and
    /// the column drawn.
    #[test]
    fn a_wild_spawn_caught_before_its_timer_is_reset_is_spawning() {
        let mut ram = playing_ram();
        ram[map::CURRENT_COLUMN as usize..][..3].copy_from_slice(&[WILD; 3]);
        ram[map::COLUMN_X as usize] = magic_jewelry_engine::SPAWN_X;
        ram[map::FALL_TIMER as usize] = 101;
        put(&mut ram, 0, 3, 2);
        let view = GameView::decode(&ram).expect("consistent");
        assert_eq!(view.phase, Phase::Spawning);
        assert_eq!(view.board.get(0, 3), EMPTY, "the spawn draws over (3, 0)");
        // Before the spawn, the column that locked there had landed: still pending.
        ram[map::LANDED as usize] = 27;
        assert_eq!(
            GameView::decode(&ram).map(|v| v.phase),
            Ok(Phase::WildPending)
        );
    }

    #[test]
    fn a_torn_spawn_is_not_a_game_over() {
        let mut ram = playing_ram();
        ram[map::COLUMN_X as usize] = 3;
        put(&mut ram, -2, 3, 2);
        put(&mut ram, -1, 3, 4);
        let view = GameView::decode(&ram).expect("consistent");
        assert_eq!(view.phase, Phase::Spawning);
        assert!(!view.board.hidden_rows_occupied());
    }

    #[test]
    fn a_column_row_past_127_is_outside_not_an_overflow() {
        // The torn-spawn check read the cells at ($56, $57) before checking the row: rows
        // from $80 overflowed the row arithmetic in an overflow-checked build.
        for y in [13, 0x7F, 0x80, 0x81, 0xFF] {
            let mut ram = playing_ram();
            ram[map::COLUMN_X as usize] = magic_jewelry_engine::SPAWN_X;
            ram[map::COLUMN_Y as usize] = y;
            let problems = GameView::decode(&ram).expect_err("out of range").problems;
            assert!(
                problems.iter().any(|p| matches!(
                    p,
                    Problem::OutOfRange {
                        label: "column y",
                        ..
                    }
                )),
                "{problems:?}"
            );
        }
    }

    #[test]
    fn out_of_range_values_are_reported_not_trusted() {
        let mut ram = playing_ram();
        ram[map::COLUMN_X as usize] = 9;
        put(&mut ram, 4, 1, 0x42);
        ram[map::PLAYFIELD as usize] = 1;
        ram[map::SCORE as usize + 3] = 12;
        let problems = GameView::decode(&ram).expect_err("inconsistent").problems;
        assert_eq!(problems.len(), 4, "{problems:?}");
    }

    proptest! {
        #[test]
        fn arbitrary_ram_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0x800)) {
            let mut ram = [0u8; 0x800];
            ram.copy_from_slice(&bytes);
            if let Ok(view) = GameView::decode(&ram) {
                if view.phase.in_game() {
                    prop_assert!(view.board.0.iter().flatten().all(|&c| c <= WILD));
                    prop_assert!(view.column_x < 6 && view.column_y < 13);
                }
            }
        }

        #[test]
        fn consistent_ram_decodes(
            cells in proptest::collection::vec(0u8..=6, 6 * 15),
            x in 0u8..6, y in 0u8..13, speed in 1u8..=63,
        ) {
            let mut ram = playing_ram();
            ram[map::FALL_SPEED as usize] = speed;
            ram[map::SPEED_IN_FORCE as usize] = speed;
            for (i, &cell) in cells.iter().enumerate() {
                put(&mut ram, (i / 6) as i8 - 2, (i % 6) as u8, cell);
            }
            ram[map::COLUMN_X as usize] = x;
            ram[map::COLUMN_Y as usize] = y;
            prop_assert!(GameView::decode(&ram).is_ok());
        }
    }
}
