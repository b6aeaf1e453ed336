//! Where Magic Jewelry keeps its state in CPU RAM: one table used by the AI and the inspector.
//!
//! Multi-digit counters hold one decimal digit per byte, lowest digit first.

use jewelbot_plugin::Ram;

/// Clear-animation timer: 17 when jewels match, counts down every 5 frames, collapse at 0.
pub const CLEAR_TIMER: u16 = 0x001A;
/// Falling column x, 0-5.
pub const COLUMN_X: u16 = 0x0056;
/// Falling column y, 0-12: the row of its bottom jewel.
pub const COLUMN_Y: u16 = 0x0057;
/// Counts up every frame; the column drops a row when it reaches the fall speed.
pub const FALL_TIMER: u16 = 0x0059;
/// Frames per row of gravity; lower is faster.
pub const FALL_SPEED: u16 = 0x005B;
/// Falling column colours, top, middle, bottom.
pub const CURRENT_COLUMN: u16 = 0x005C;
/// Next column colours, top, middle, bottom.
pub const NEXT_COLUMN: u16 = 0x005F;
/// Internal level index.
pub const LEVEL_INDEX: u16 = 0x006D;
/// Score, 8 decimal digits.
pub const SCORE: u16 = 0x0077;
pub const SCORE_DIGITS: u16 = 8;
/// Jewels removed, 6 decimal digits.
pub const JEWEL_COUNTER: u16 = 0x007F;
pub const JEWEL_COUNTER_DIGITS: u16 = 6;
/// Displayed level, 4 decimal digits.
pub const LEVEL: u16 = 0x0087;
pub const LEVEL_DIGITS: u16 = 4;
/// Playfield: 15 rows of 8 bytes `00 c0 c1 c2 c3 c4 c5 00`, the first two rows hidden.
pub const PLAYFIELD: u16 = 0x0380;
pub const PLAYFIELD_STRIDE: u16 = 8;
/// Seed of the open cartridge's column generator (two bytes, read when Start begins a game).
/// Not part of the real game's map; writing it there has no documented effect.
pub const OPEN_CARTRIDGE_SEED: u16 = 0x00F0;

/// Columns of the playfield.
pub const COLUMNS: usize = 6;
/// Visible rows of the playfield.
pub const VISIBLE_ROWS: usize = 13;
/// Hidden rows above the visible ones (rows -2 and -1).
pub const HIDDEN_ROWS: usize = 2;
/// All rows kept in RAM.
pub const ROWS: usize = VISIBLE_ROWS + HIDDEN_ROWS;

/// Address of cell (row, column), rows -2..=12 and columns 0..=5.
pub const fn cell_address(row: i8, column: u8) -> u16 {
    PLAYFIELD + PLAYFIELD_STRIDE * (row as i16 + HIDDEN_ROWS as i16) as u16 + column as u16 + 1
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
        address: CLEAR_TIMER,
        width: 1,
        label: "clear timer",
        format: Format::Byte,
        meaning: "17 when jewels match, -1 every 5 frames; collapse at 0",
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
        address: FALL_TIMER,
        width: 1,
        label: "fall timer",
        format: Format::Byte,
        meaning: "frames since the last drop",
    },
    FieldSpec {
        address: FALL_SPEED,
        width: 1,
        label: "fall speed",
        format: Format::Byte,
        meaning: "frames per row (63 at level 0)",
    },
    FieldSpec {
        address: CURRENT_COLUMN,
        width: 3,
        label: "current column",
        format: Format::Jewels,
        meaning: "falling column colours, top to bottom",
    },
    FieldSpec {
        address: NEXT_COLUMN,
        width: 3,
        label: "next column",
        format: Format::Jewels,
        meaning: "next column colours, top to bottom",
    },
    FieldSpec {
        address: LEVEL_INDEX,
        width: 1,
        label: "level index",
        format: Format::Byte,
        meaning: "internal level number",
    },
    FieldSpec {
        address: SCORE,
        width: SCORE_DIGITS,
        label: "score",
        format: Format::Decimal,
        meaning: "8 digits, lowest first (7 shown)",
    },
    FieldSpec {
        address: JEWEL_COUNTER,
        width: JEWEL_COUNTER_DIGITS,
        label: "jewels",
        format: Format::Decimal,
        meaning: "jewels removed, 6 digits, lowest first (5 shown)",
    },
    FieldSpec {
        address: LEVEL,
        width: LEVEL_DIGITS,
        label: "level",
        format: Format::Decimal,
        meaning: "displayed level, 4 digits, lowest first (3 shown)",
    },
    FieldSpec {
        address: OPEN_CARTRIDGE_SEED,
        width: 2,
        label: "seed",
        format: Format::Byte,
        meaning: "open cartridge only: column generator seed, read at Start",
    },
    FieldSpec {
        address: PLAYFIELD,
        width: PLAYFIELD_STRIDE * ROWS as u16,
        label: "playfield",
        format: Format::Playfield,
        meaning: "15 rows of 8 bytes, rows -2 and -1 hidden; 0 empty, 1-6 colours, 7 wild",
    },
];

/// Reads a byte of RAM (addresses wrap at the RAM size, as the console mirrors them).
pub fn byte(ram: &Ram, address: u16) -> u8 {
    ram[address as usize % ram.len()]
}

/// Reads a little-endian decimal counter; `None` when a byte is not a digit.
pub fn decimal(ram: &Ram, address: u16, digits: u16) -> Option<u32> {
    (0..digits).rev().try_fold(0u32, |value, i| {
        let digit = byte(ram, address + i);
        (digit <= 9).then(|| value * 10 + u32::from(digit))
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
        assert_eq!(decimal(&ram, SCORE, SCORE_DIGITS), Some(360));
        ram[SCORE as usize] = 10;
        assert_eq!(decimal(&ram, SCORE, SCORE_DIGITS), None);
        assert_eq!(decimal_bytes(1234, 4), vec![4, 3, 2, 1]);
        assert_eq!(decimal_bytes(98765, 4), vec![5, 6, 7, 8]);
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
