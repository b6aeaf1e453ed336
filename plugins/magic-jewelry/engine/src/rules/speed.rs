//! How fast columns fall: the real game's speed table, indexed by its internal level ($6D, one
//! more for every wild column landed, wrapping from 255 to 0).

/// Frames per row at level 0.
pub const LEVEL0_FALL_SPEED: u8 = 63;

/// The speed from the 48th wild column on, where a perpetual game spends nearly all its time.
pub const TOP_FALL_SPEED: u8 = 8;

/// Frames per row for levels 0-47; from 48 on it is [`TOP_FALL_SPEED`]. The table is not
/// monotonic: the game's own values, levels 19, 23, 27 and 31 included.
const TABLE: [u8; 48] = [
    63, 52, 41, 32, 29, 25, 23, 23, // 0-7
    21, 21, 21, 20, 19, 18, 18, 18, // 8-15
    17, 17, 17, 18, 16, 16, 16, 17, // 16-23
    13, 13, 13, 16, 12, 12, 12, 13, // 24-31
    11, 11, 11, 11, 11, 11, 11, 11, // 32-39
    11, 11, 11, 11, 11, 11, 11, 11, // 40-47
];

/// Frames per row at `level`.
pub const fn fall_speed(level: u8) -> u8 {
    if (level as usize) < TABLE.len() {
        TABLE[level as usize]
    } else {
        TOP_FALL_SPEED
    }
}

/// The fastest speed that follows a level whose speed is `speed` (the level after the next
/// wild column); `speed` itself when no level has it.
pub const fn fastest_after_wild(speed: u8) -> u8 {
    let mut fastest = 0;
    let mut level = 0u8;
    loop {
        if fall_speed(level) == speed {
            let next = fall_speed(level.wrapping_add(1));
            if fastest == 0 || next < fastest {
                fastest = next;
            }
        }
        if level == u8::MAX {
            break;
        }
        level += 1;
    }
    if fastest == 0 {
        speed
    } else {
        fastest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_of_the_specification() {
        let expected: [(std::ops::RangeInclusive<u8>, u8); 21] = [
            (0..=0, 63),
            (1..=1, 52),
            (2..=2, 41),
            (3..=3, 32),
            (4..=4, 29),
            (5..=5, 25),
            (6..=7, 23),
            (8..=10, 21),
            (11..=11, 20),
            (12..=12, 19),
            (13..=15, 18),
            (16..=18, 17),
            (19..=19, 18),
            (20..=22, 16),
            (23..=23, 17),
            (24..=26, 13),
            (27..=27, 16),
            (28..=30, 12),
            (31..=31, 13),
            (32..=47, 11),
            (48..=255, 8),
        ];
        let mut covered = 0;
        for (levels, speed) in expected {
            for level in levels {
                assert_eq!(fall_speed(level), speed, "level {level}");
                covered += 1;
            }
        }
        assert_eq!(covered, 256);
    }

    #[test]
    fn after_a_wild_column() {
        assert_eq!(fastest_after_wild(63), 52);
        assert_eq!(fastest_after_wild(23), 21);
        // Levels 13-15 and 19 run at 18: level 20 runs at 16.
        assert_eq!(fastest_after_wild(18), 16);
        assert_eq!(fastest_after_wild(11), 8);
        // Level 255 runs at 8 and wraps to 63, but levels 48-254 stay at 8.
        assert_eq!(fastest_after_wild(8), 8);
        assert_eq!(fastest_after_wild(40), 40);
    }
}
