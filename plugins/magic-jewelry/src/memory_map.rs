//! Where Magic Jewelry keeps its state in CPU RAM (`docs/magic-jewelry.md`, "RAM map"): one
//! table used by the decoder, the tracker and the inspector.
//!
//! Multi-digit counters hold one decimal digit per byte, lowest digit first.

use jewelbot_plugin::Ram;

/// Title animation colour (1-6, 7 after an automatic start); only while [`CLEARING`] is
/// non-zero is it the clear-animation timer (17 at the match, -1 every 5 frames).
pub const ANIMATION: u16 = 0x001A;
/// Buttons held this frame, one byte each: A, B, Select, Start, Up, Down, Left, Right.
pub const BUTTONS_HELD: u16 = 0x0033;
/// Buttons newly pressed this frame (A = $80 … Right = $01).
pub const NEW_PRESSES: u16 = 0x003B;
/// Auto-repeat counter of Right.
pub const REPEAT_RIGHT: u16 = 0x003D;
/// Auto-repeat counter of Left.
pub const REPEAT_LEFT: u16 = 0x003E;
/// $FF while paused, 0 while running.
pub const PAUSE: u16 = 0x003F;
/// Column generator state, low then high byte.
pub const GENERATOR: u16 = 0x0044;
/// $83 on the title screen, 0 in a game, 1 on the logo a continue shows.
pub const TITLE: u16 = 0x0046;
/// The value of [`TITLE`] on the title screen.
pub const TITLE_SHOWN: u8 = 0x83;
/// The value of [`TITLE`] on the logo after a continue, until a new Start press.
pub const CONTINUE_LOGO: u8 = 0x01;
/// Frame counter; bit 3 makes the wild column flash.
pub const FRAME_COUNTER: u16 = 0x0047;
/// Falling column x, 0-5.
pub const COLUMN_X: u16 = 0x0056;
/// Falling column y, 0-12: the row of its bottom jewel.
pub const COLUMN_Y: u16 = 0x0057;
/// 0 while the column falls; once it rests, 1 + 8·y + x (its bottom cell).
pub const LANDED: u16 = 0x0058;
/// Counts up every frame (saturating at 255); the column drops a row when it reaches
/// [`SPEED_IN_FORCE`].
pub const FALL_TIMER: u16 = 0x0059;
/// Frames per row in force for the falling column: the fall speed, or 2 with soft drop.
pub const SPEED_IN_FORCE: u16 = 0x005A;
/// The level's fall speed, frames per row (0 before the first game).
pub const FALL_SPEED: u16 = 0x005B;
/// Falling column colours, top, middle, bottom; 7,7,7 for the wild column, [`WILD_LANDED`] in
/// the first byte once it has landed.
pub const CURRENT_COLUMN: u16 = 0x005C;
/// The first byte of [`CURRENT_COLUMN`] while a landed wild column is resolved.
pub const WILD_LANDED: u8 = 8;
/// Next column colours, top, middle, bottom.
pub const NEXT_COLUMN: u16 = 0x005F;
/// Soft drop armed for this column (by the first Down press after the spawn).
pub const SOFT_DROP: u16 = 0x0065;
/// Non-zero while matched jewels are removed (the clear animation).
pub const CLEARING: u16 = 0x0066;
/// Level-up request, set when a wild column's landing is resolved.
pub const LEVEL_UP: u16 = 0x006C;
/// Internal level, 0-255: the speed table's index.
pub const LEVEL_INDEX: u16 = 0x006D;
/// Cells removed since the last wild column.
pub const REMOVED: u16 = 0x006E;
/// Score, 8 decimal digits (7 shown).
pub const SCORE: u16 = 0x0077;
/// Jewels removed, 8 decimal digits (5 shown).
pub const JEWEL_COUNTER: u16 = 0x007F;
/// Displayed level, 8 decimal digits (3 shown).
pub const LEVEL: u16 = 0x0087;
/// Digits of every counter.
pub const COUNTER_DIGITS: u16 = 8;
/// Combo counter, 0-9.
pub const COMBO: u16 = 0x00A0;
/// Playfield: 15 rows of 8 bytes `00 c0 c1 c2 c3 c4 c5 00`, rows -2 and -1 above the visible 13.
pub const PLAYFIELD: u16 = 0x0380;
/// Bytes per playfield row.
pub const PLAYFIELD_STRIDE: u16 = 8;
/// Marks of the cells matched in the current step.
pub const MATCH_MARKS: u16 = 0x0400;
/// High score, 8 digits, kept across a warm reset.
pub const HIGH_SCORE: u16 = 0x07F0;

/// Columns of the playfield.
pub const COLUMNS: usize = 6;
/// Visible rows of the playfield.
pub const VISIBLE_ROWS: usize = 13;
/// Hidden rows above the visible ones (rows -2 and -1).
pub const HIDDEN_ROWS: usize = 2;
/// All rows kept in RAM.
pub const ROWS: usize = VISIBLE_ROWS + HIDDEN_ROWS;

/// Address of cell (row, column), rows -2..=12 and columns 0..=5.
///
/// Wrapping arithmetic: a row or column read from RAM may be anything, and an address outside
/// the playfield reads as any other byte of RAM ([`byte`] wraps), never a panic.
pub const fn cell_address(row: i8, column: u8) -> u16 {
    let row_offset = (row as i16).wrapping_add(HIDDEN_ROWS as i16) as u16;
    PLAYFIELD
        .wrapping_add(PLAYFIELD_STRIDE.wrapping_mul(row_offset))
        .wrapping_add(column as u16)
        .wrapping_add(1)
}

/// How a field's bytes are meant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One byte, shown as a number.
    Byte,
    /// One decimal digit per byte, lowest digit first.
    Decimal,
    /// Jewel colours, one per byte.
    Jewels,
    /// The playfield grid.
    Playfield,
}

/// One labelled run of addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldSpec {
    pub address: u16,
    pub width: u16,
    pub label: &'static str,
    pub format: Format,
    pub meaning: &'static str,
}

/// Every known address, in address order.
pub const FIELDS: &[FieldSpec] = &[
    FieldSpec {
        address: ANIMATION,
        width: 1,
        label: "animation",
        format: Format::Byte,
        meaning: "title colour 1-6 (7 after an automatic start); the clear timer while clearing",
    },
    FieldSpec {
        address: BUTTONS_HELD,
        width: 8,
        label: "buttons held",
        format: Format::Byte,
        meaning: "A, B, Select, Start, Up, Down, Left, Right",
    },
    FieldSpec {
        address: NEW_PRESSES,
        width: 1,
        label: "new presses",
        format: Format::Byte,
        meaning: "buttons newly pressed this frame (A=$80 … Right=$01)",
    },
    FieldSpec {
        address: REPEAT_RIGHT,
        width: 1,
        label: "repeat right",
        format: Format::Byte,
        meaning: "auto-repeat counter of Right",
    },
    FieldSpec {
        address: REPEAT_LEFT,
        width: 1,
        label: "repeat left",
        format: Format::Byte,
        meaning: "auto-repeat counter of Left",
    },
    FieldSpec {
        address: PAUSE,
        width: 1,
        label: "pause",
        format: Format::Byte,
        meaning: "$FF paused, 0 running",
    },
    FieldSpec {
        address: GENERATOR,
        width: 2,
        label: "generator",
        format: Format::Byte,
        meaning: "column generator state, low then high byte",
    },
    FieldSpec {
        address: TITLE,
        width: 1,
        label: "title",
        format: Format::Byte,
        meaning: "$83 on the title screen, 0 in a game, 1 on the logo after a continue",
    },
    FieldSpec {
        address: FRAME_COUNTER,
        width: 1,
        label: "frame counter",
        format: Format::Byte,
        meaning: "bit 3 makes the wild column flash",
    },
    FieldSpec {
        address: COLUMN_X,
        width: 1,
        label: "column x",
        format: Format::Byte,
        meaning: "falling column x, 0-5",
    },
    FieldSpec {
        address: COLUMN_Y,
        width: 1,
        label: "column y",
        format: Format::Byte,
        meaning: "row of the falling column's bottom jewel, 0-12",
    },
    FieldSpec {
        address: LANDED,
        width: 1,
        label: "landed",
        format: Format::Byte,
        meaning: "0 while falling; 1 + 8y + x once the column rests",
    },
    FieldSpec {
        address: FALL_TIMER,
        width: 1,
        label: "fall timer",
        format: Format::Byte,
        meaning: "frames counted towards the next row",
    },
    FieldSpec {
        address: SPEED_IN_FORCE,
        width: 1,
        label: "speed in force",
        format: Format::Byte,
        meaning: "frames per row now: the fall speed, or 2 with soft drop",
    },
    FieldSpec {
        address: FALL_SPEED,
        width: 1,
        label: "fall speed",
        format: Format::Byte,
        meaning: "the level's frames per row (63 at level 0)",
    },
    FieldSpec {
        address: CURRENT_COLUMN,
        width: 3,
        label: "current column",
        format: Format::Jewels,
        meaning: "falling column colours, top to bottom; 8 first while a wild column resolves",
    },
    FieldSpec {
        address: NEXT_COLUMN,
        width: 3,
        label: "next column",
        format: Format::Jewels,
        meaning: "next column colours, top to bottom",
    },
    FieldSpec {
        address: SOFT_DROP,
        width: 1,
        label: "soft drop",
        format: Format::Byte,
        meaning: "armed by the first Down press after the spawn",
    },
    FieldSpec {
        address: CLEARING,
        width: 1,
        label: "clearing",
        format: Format::Byte,
        meaning: "non-zero during the clear animation",
    },
    FieldSpec {
        address: LEVEL_UP,
        width: 1,
        label: "level up",
        format: Format::Byte,
        meaning: "1 when a wild column's landing is resolved",
    },
    FieldSpec {
        address: LEVEL_INDEX,
        width: 1,
        label: "level index",
        format: Format::Byte,
        meaning: "internal level, the speed table's index",
    },
    FieldSpec {
        address: REMOVED,
        width: 1,
        label: "removed",
        format: Format::Byte,
        meaning: "cells removed since the last wild column (70 bring one)",
    },
    FieldSpec {
        address: SCORE,
        width: COUNTER_DIGITS,
        label: "score",
        format: Format::Decimal,
        meaning: "8 digits, lowest first (7 shown)",
    },
    FieldSpec {
        address: JEWEL_COUNTER,
        width: COUNTER_DIGITS,
        label: "jewels",
        format: Format::Decimal,
        meaning: "jewels removed, 8 digits, lowest first (5 shown)",
    },
    FieldSpec {
        address: LEVEL,
        width: COUNTER_DIGITS,
        label: "level",
        format: Format::Decimal,
        meaning: "displayed level, 8 digits, lowest first (3 shown)",
    },
    FieldSpec {
        address: COMBO,
        width: 1,
        label: "combo",
        format: Format::Byte,
        meaning: "combo counter 0-9 (scoring)",
    },
    FieldSpec {
        address: PLAYFIELD,
        width: PLAYFIELD_STRIDE * ROWS as u16,
        label: "playfield",
        format: Format::Playfield,
        meaning: "15 rows of 8 bytes, rows -2 and -1 hidden; 0 empty, 1-6 colours, 7 wild",
    },
    FieldSpec {
        address: MATCH_MARKS,
        width: 0x80,
        label: "match marks",
        format: Format::Byte,
        meaning: "cells matched in the current step",
    },
    FieldSpec {
        address: HIGH_SCORE,
        width: COUNTER_DIGITS,
        label: "high score",
        format: Format::Decimal,
        meaning: "8 digits, kept across a warm reset",
    },
];

/// Reads a byte of RAM (addresses wrap at the RAM size, as the console mirrors them).
pub fn byte(ram: &Ram, address: u16) -> u8 {
    ram[address as usize % ram.len()]
}

/// Reads a little-endian decimal counter; `None` when a byte is not a digit.
/// `None` too when the counter does not fit a `u32` (more than 9 digits).
pub fn decimal(ram: &Ram, address: u16, digits: u16) -> Option<u32> {
    (0..digits).rev().try_fold(0u32, |value, i| {
        let digit = byte(ram, address.wrapping_add(i));
        if digit > 9 {
            return None;
        }
        value.checked_mul(10)?.checked_add(u32::from(digit))
    })
}

/// Writes `value` as a little-endian decimal counter (for tests and scenarios), truncating
/// digits that do not fit.
pub fn decimal_bytes(value: u32, digits: u16) -> Vec<u8> {
    let mut rest = value;
    (0..digits)
        .map(|_| {
            let digit = (rest % 10) as u8;
            rest /= 10;
            digit
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_addresses_follow_the_documented_layout() {
        assert_eq!(cell_address(-2, 0), 0x0381);
        assert_eq!(cell_address(0, 3), 0x0380 + 8 * 2 + 4);
        assert_eq!(cell_address(12, 5), 0x03F6);
    }

    #[test]
    fn decimal_counters_read_lowest_digit_first() {
        let mut ram = [0u8; 0x800];
        ram[SCORE as usize..][..8].copy_from_slice(&[0, 6, 3, 0, 0, 0, 0, 0]);
        assert_eq!(decimal(&ram, SCORE, COUNTER_DIGITS), Some(360));
        ram[SCORE as usize] = 10;
        assert_eq!(decimal(&ram, SCORE, COUNTER_DIGITS), None);
        assert_eq!(decimal_bytes(1234, 4), vec![4, 3, 2, 1]);
        assert_eq!(decimal_bytes(98765, 4), vec![5, 6, 7, 8]);
    }

    #[test]
    fn any_row_column_or_width_reads_without_overflow() {
        // Rows and columns as RAM may give them, and counters wider than a u32 holds.
        for row in i8::MIN..=i8::MAX {
            for column in [0, 5, 6, 0x7F, 0xFF] {
                let _ = cell_address(row, column);
            }
        }
        let ram = [9u8; 0x800];
        assert_eq!(decimal(&ram, SCORE, 9), Some(999_999_999));
        assert_eq!(decimal(&ram, SCORE, 10), None);
        assert_eq!(decimal(&ram, u16::MAX, 4), Some(9999));
    }

    #[test]
    fn fields_are_sorted_and_do_not_overlap() {
        for pair in FIELDS.windows(2) {
            assert!(
                pair[0].address + pair[0].width <= pair[1].address,
                "{pair:?}"
            );
        }
    }
}
