//! Playfields written as text, for setting up scenarios and stating what they expect.

use crate::game_view::{cell_char, Grid};
use crate::memory_map::{COLUMNS, HIDDEN_ROWS};
use std::fmt;

pub use crate::game_view::Jewels;

impl Grid {
    /// Rows given bottom up to row 12: the last string is row 12, the one before row 11...
    /// `.` is empty, `1`-`6` colours, `X` wild.
    pub fn from_rows(rows: &[&str]) -> Self {
        let mut board = Self::default();
        for (i, text) in rows.iter().rev().enumerate() {
            let row = 12 - i as i8;
            for (column, ch) in text.chars().take(COLUMNS).enumerate() {
                let value = match ch {
                    '1'..='7' => ch as u8 - b'0',
                    'X' => 7,
                    _ => 0,
                };
                board.set(row, column, value);
            }
        }
        board
    }
}

impl fmt::Display for Grid {
    /// One line: the rows from the highest non-empty one down, e.g. `[..2... / ..3...]`,
    /// with hidden rows marked.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let first = self
            .0
            .iter()
            .position(|cells| cells.iter().any(|&c| c != 0));
        let Some(first) = first else {
            return f.write_str("[empty]");
        };
        let rows: Vec<String> = self.0[first..]
            .iter()
            .enumerate()
            .map(|(i, cells)| {
                let text: String = cells.iter().map(|&c| cell_char(c)).collect();
                if first + i < HIDDEN_ROWS {
                    format!("({text})")
                } else {
                    text
                }
            })
            .collect();
        write!(f, "[{}]", rows.join(" / "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory_map as map;

    #[test]
    fn rows_are_read_bottom_up() {
        let board = Grid::from_rows(&["..2...", "1X...6"]);
        assert_eq!(board.get(12, 0), 1);
        assert_eq!(board.get(12, 1), 7);
        assert_eq!(board.get(12, 5), 6);
        assert_eq!(board.get(11, 2), 2);
        assert_eq!(board.get(13, 0), 0);
        assert_eq!(board.jewels(), 4);
        assert_eq!(board.to_string(), "[..2... / 1X...6]");
        assert_eq!(Grid::default().to_string(), "[empty]");
    }

    #[test]
    fn ram_layout_matches_the_memory_map() {
        let mut ram = [0u8; 0x800];
        ram[map::cell_address(-2, 3) as usize] = 4;
        ram[map::cell_address(12, 0) as usize] = 5;
        let board = Grid::from_ram(&ram);
        assert_eq!(board.get(-2, 3), 4);
        assert_eq!(board.get(12, 0), 5);
        assert_eq!(board.to_string().matches('/').count(), 14);
        assert!(board.to_string().starts_with("[(...4..)"));
    }
}
