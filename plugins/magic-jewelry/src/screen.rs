//! Where the playfield appears on screen, for overlay marks.
//!
//! Measured on the open cartridge; Magic Jewelry draws its well at the same place.

use jewelbot_plugin::Mark;

/// Left edge of column 0, in NES pixels.
pub const PLAYFIELD_LEFT: u16 = 80;
/// Top edge of row 0, in NES pixels.
pub const PLAYFIELD_TOP: u16 = 16;
/// Width and height of a jewel, in NES pixels.
pub const CELL: u16 = 16;

/// Outline colour of the AI's target.
const TARGET: [u8; 4] = [255, 255, 255, 255];

/// A rectangle around the three cells a column occupies with its bottom jewel at (x, y); rows
/// above the visible playfield are clipped.
pub fn column_mark(x: u8, y: i8) -> Mark {
    let top_row = (y - 2).max(0) as u16;
    let rows = (y as u16 + 1).saturating_sub(top_row);
    Mark {
        x: PLAYFIELD_LEFT + CELL * u16::from(x),
        y: PLAYFIELD_TOP + CELL * top_row,
        width: CELL,
        height: CELL * rows.max(1),
        color: TARGET,
    }
}
