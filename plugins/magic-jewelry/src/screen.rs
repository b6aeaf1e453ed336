//! Where the playfield is on the picture, for overlay marks: column 0 at x 53
//! (`docs/magic-jewelry.md`, "The screen"), in the real game and in the open cartridge alike.

use crate::dumps::Identification;
use jewelbot_plugin::Mark;

/// Outline colour of the AI's target.
pub const TARGET: [u8; 4] = [255, 255, 255, 255];
/// Outline colour of the placements the search ranked below the target.
pub const RUNNER_UP: [u8; 4] = [110, 110, 150, 255];
/// Outline colour of where the next column would go after the target.
pub const NEXT_PLAN: [u8; 4] = [90, 220, 120, 255];

/// The playfield's place on the 256x240 picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    /// Left edge of column 0, in NES pixels.
    pub left: u16,
    /// Top edge of row 0, in NES pixels.
    pub top: u16,
    /// Width and height of a cell.
    pub cell: u16,
}

/// Magic Jewelry's playfield: cell (row r, column c) at x = 53 + 16c, y = 16 + 16r.
pub const REAL_GAME: Geometry = Geometry {
    left: 53,
    top: 16,
    cell: 16,
};

/// The open cartridge's playfield, drawn where the real game draws its own.
pub const OPEN_CARTRIDGE: Geometry = REAL_GAME;

impl Geometry {
    /// The geometry of the game identified.
    pub fn of(identification: Identification) -> Self {
        match identification {
            Identification::OpenCartridge => OPEN_CARTRIDGE,
            _ => REAL_GAME,
        }
    }

    /// A rectangle around the three cells a column occupies with its bottom jewel at (x, y);
    /// rows above the visible playfield are clipped.
    pub fn column_mark(&self, x: u8, y: i8) -> Mark {
        self.column_mark_in(x, y, TARGET)
    }

    /// [`Geometry::column_mark`] outlined in `color`.
    pub fn column_mark_in(&self, x: u8, y: i8, color: [u8; 4]) -> Mark {
        let top_row = (y - 2).max(0) as u16;
        let rows = (y.max(0) as u16 + 1).saturating_sub(top_row);
        Mark {
            x: self.left + self.cell * u16::from(x),
            y: self.top + self.cell * top_row,
            width: self.cell,
            height: self.cell * rows.max(1),
            color,
        }
    }
}

impl Default for Geometry {
    fn default() -> Self {
        REAL_GAME
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_each_game_s_playfield() {
        let mark = REAL_GAME.column_mark(0, 12);
        assert_eq!(
            (mark.x, mark.y, mark.width, mark.height),
            (53, 16 + 160, 16, 48)
        );
        let mark = OPEN_CARTRIDGE.column_mark(5, 0);
        assert_eq!((mark.x, mark.y, mark.height), (53 + 80, 16, 16));
    }
}
