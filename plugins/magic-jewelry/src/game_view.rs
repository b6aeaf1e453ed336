//! A typed, validated view of Magic Jewelry's RAM.
//!
//! Decoding never trusts RAM: any value outside what the game can hold makes the view
//! inconsistent, and the caller decides what to do (the AI waits for a consistent frame).

pub use crate::engine::rules::board::cell_char;
pub use crate::engine::{EMPTY, WILD};
use crate::memory_map::{self as map, COLUMNS, HIDDEN_ROWS, ROWS, VISIBLE_ROWS};
use jewelbot_plugin::Ram;
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
}

impl FallingColumn {
    pub fn is_wild(&self) -> bool {
        self.jewels == [WILD; 3]
    }
}

/// What the game is doing, as far as one frame of RAM tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// No game running (fall speed not set up yet).
    Title,
    /// Between a lock and the next spawn: no column in the playfield.
    WaitingForSpawn,
    /// A column is in the playfield under the player's control.
    Falling,
    /// Jewels matched and the clear animation runs.
    Clearing,
    /// The stack reached the hidden rows and no column is falling.
    GameOver,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Title => "title",
            Self::WaitingForSpawn => "waiting for spawn",
            Self::Falling => "column falling",
            Self::Clearing => "clearing",
            Self::GameOver => "game over",
        })
    }
}

/// Everything the plug-in reads from one frame of RAM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameView {
    /// The playfield without the falling column.
    pub board: Grid,
    /// The falling column, when it is drawn in the playfield.
    pub falling: Option<FallingColumn>,
    /// Colours of the current column (also set while it is not yet drawn).
    pub current: Jewels,
    pub next: Jewels,
    pub column_x: u8,
    pub column_y: u8,
    pub fall_timer: u8,
    pub fall_speed: u8,
    pub clear_timer: u8,
    pub level_index: u8,
    pub score: u32,
    pub jewels: u32,
    pub level: u32,
    pub phase: Phase,
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
    #[error("{label} colour {value} is not a jewel (1-7 expected)")]
    Colour { label: &'static str, value: u8 },
}

/// RAM that does not describe a state of the game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("inconsistent game RAM: {}", .problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
pub struct InconsistentView {
    pub problems: Vec<Problem>,
}

impl GameView {
    /// Decodes one frame of RAM. Never panics, whatever the bytes.
    pub fn decode(ram: &Ram) -> Result<Self, InconsistentView> {
        let mut problems = Vec::new();
        let raw = Grid::from_ram(ram);
        check_playfield(ram, &raw, &mut problems);

        let byte = |address| map::byte(ram, address);
        let column_x = byte(map::COLUMN_X);
        let column_y = byte(map::COLUMN_Y);
        let fall_speed = byte(map::FALL_SPEED);
        let current = jewels_at(ram, map::CURRENT_COLUMN);
        let next = jewels_at(ram, map::NEXT_COLUMN);
        let clear_timer = byte(map::CLEAR_TIMER);
        let title = fall_speed == 0;

        let mut range = |label, value, max| {
            if value > max {
                problems.push(Problem::OutOfRange { label, value, max });
            }
        };
        range("column x", column_x, COLUMNS as u8 - 1);
        range("column y", column_y, VISIBLE_ROWS as u8 - 1);
        range("clear timer", clear_timer, CLEAR_TIMER_START);
        if !title {
            for (label, jewels) in [("current column", current), ("next column", next)] {
                for value in jewels.into_iter().filter(|v| !(1..=WILD).contains(v)) {
                    problems.push(Problem::Colour { label, value });
                }
            }
        }
        let mut counter = |label, address, digits| {
            map::decimal(ram, address, digits).unwrap_or_else(|| {
                problems.push(Problem::NotDecimal { label });
                0
            })
        };
        let score = counter("score", map::SCORE, map::SCORE_DIGITS);
        let jewels = counter(
            "jewel counter",
            map::JEWEL_COUNTER,
            map::JEWEL_COUNTER_DIGITS,
        );
        let level = counter("level", map::LEVEL, map::LEVEL_DIGITS);
        if !problems.is_empty() {
            return Err(InconsistentView { problems });
        }

        let drawn = FallingColumn {
            x: column_x,
            y: column_y,
            jewels: current,
        };
        let falling = (!title && clear_timer == 0 && column_drawn(&raw, drawn)).then_some(drawn);
        let mut board = raw;
        if let Some(column) = falling {
            for (i, row) in (column.y as i8 - 2..=column.y as i8).enumerate() {
                debug_assert_eq!(board.get(row, column.x as usize), column.jewels[i]);
                board.set(row, column.x as usize, EMPTY);
            }
        }
        let phase = if title {
            Phase::Title
        } else if clear_timer > 0 {
            Phase::Clearing
        } else if falling.is_some() {
            Phase::Falling
        } else if board.hidden_rows_occupied() {
            Phase::GameOver
        } else {
            Phase::WaitingForSpawn
        };

        Ok(Self {
            board,
            falling,
            current,
            next,
            column_x,
            column_y,
            fall_timer: byte(map::FALL_TIMER),
            fall_speed,
            clear_timer,
            level_index: byte(map::LEVEL_INDEX),
            score,
            jewels,
            level,
            phase,
        })
    }

    /// True when the column under control is the wild column.
    pub fn current_is_wild(&self) -> bool {
        self.current == [WILD; 3]
    }

    pub fn next_is_wild(&self) -> bool {
        self.next == [WILD; 3]
    }
}

fn jewels_at(ram: &Ram, address: u16) -> Jewels {
    [0, 1, 2].map(|i| map::byte(ram, address + i))
}

/// The game draws the falling column into the playfield: it is there when the three cells
/// under (x, y-2..=y) hold the current colours.
fn column_drawn(raw: &Grid, column: FallingColumn) -> bool {
    (column.y as i8 - 2..=column.y as i8)
        .zip(column.jewels)
        .all(|(row, jewel)| raw.get(row, column.x as usize) == jewel)
}

fn check_playfield(ram: &Ram, raw: &Grid, problems: &mut Vec<Problem>) {
    for (index, row) in raw.0.iter().enumerate() {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A RAM image of a game in progress at level 0 with an empty board.
    fn playing_ram() -> Ram {
        let mut ram = [0u8; 0x800];
        ram[map::FALL_SPEED as usize] = 63;
        ram[map::CURRENT_COLUMN as usize..][..3].copy_from_slice(&[2, 4, 3]);
        ram[map::NEXT_COLUMN as usize..][..3].copy_from_slice(&[1, 1, 5]);
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
        // A stack of three jewels in column 2, rows 10-12.
        for (row, colour) in [(10, 6), (11, 5), (12, 1)] {
            put(&mut ram, row, 2, colour);
        }
        place_falling(&mut ram, 2, 9);
        let view = GameView::decode(&ram).expect("consistent");
        assert_eq!(view.phase, Phase::Falling);
        assert_eq!(
            view.falling,
            Some(FallingColumn {
                x: 2,
                y: 9,
                jewels: [2, 4, 3]
            })
        );
        assert_eq!(view.board.visible_jewels(), 3);
        assert_eq!(view.board.get(9, 2), EMPTY);
        assert_eq!(view.board.get(10, 2), 6);
        assert_eq!(Grid::from_ram(&ram).visible_jewels(), 6);
    }

    #[test]
    fn spawned_column_sits_in_the_hidden_rows() {
        let mut ram = playing_ram();
        place_falling(&mut ram, 3, 0);
        let view = GameView::decode(&ram).expect("consistent");
        assert_eq!(view.phase, Phase::Falling);
        assert!(!view.board.hidden_rows_occupied());
        assert_eq!(view.board.visible_jewels(), 0);
    }

    #[test]
    fn wild_column_is_recognised() {
        let mut ram = playing_ram();
        ram[map::CURRENT_COLUMN as usize..][..3].copy_from_slice(&[WILD; 3]);
        put(&mut ram, 12, 0, 4);
        place_falling(&mut ram, 0, 5);
        let view = GameView::decode(&ram).expect("consistent");
        assert!(view.current_is_wild());
        assert!(view.falling.is_some_and(|c| c.is_wild()));
        assert!(!view.next_is_wild());
        assert_eq!(view.board.visible_jewels(), 1);
    }

    #[test]
    fn clearing_board_reports_the_animation() {
        let mut ram = playing_ram();
        for column in 0..3 {
            put(&mut ram, 12, column, 3);
        }
        ram[map::CLEAR_TIMER as usize] = 12;
        ram[map::JEWEL_COUNTER as usize..][..6].copy_from_slice(&[3, 4, 0, 0, 0, 0]);
        let view = GameView::decode(&ram).expect("consistent");
        assert_eq!(view.phase, Phase::Clearing);
        assert_eq!(view.falling, None);
        assert_eq!(view.jewels, 43);
        assert_eq!(view.board.visible_jewels(), 3);
    }

    #[test]
    fn title_and_game_over_phases() {
        let ram = [0u8; 0x800];
        assert_eq!(GameView::decode(&ram).map(|v| v.phase), Ok(Phase::Title));
        let mut ram = playing_ram();
        put(&mut ram, -1, 3, 2);
        for row in 0..=12 {
            put(&mut ram, row, 3, 1 + (row as u8 % 2));
        }
        let view = GameView::decode(&ram).expect("consistent");
        assert_eq!(view.phase, Phase::GameOver);
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
                prop_assert!(view.board.0.iter().flatten().all(|&c| c <= WILD));
                prop_assert!(view.column_x < 6 && view.column_y < 13);
            }
        }

        #[test]
        fn consistent_ram_decodes(
            cells in proptest::collection::vec(0u8..=7, 6 * 15),
            x in 0u8..6, y in 0u8..13, speed in 1u8..=63,
        ) {
            let mut ram = playing_ram();
            ram[map::FALL_SPEED as usize] = speed;
            for (i, &cell) in cells.iter().enumerate() {
                put(&mut ram, (i / 6) as i8 - 2, (i % 6) as u8, cell);
            }
            ram[map::COLUMN_X as usize] = x;
            ram[map::COLUMN_Y as usize] = y;
            prop_assert!(GameView::decode(&ram).is_ok());
        }
    }
}
