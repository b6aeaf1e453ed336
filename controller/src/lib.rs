//! The NES controller's eight buttons: what a plug-in presses, what the host sends the console,
//! and what a game engine's input rules speak of. A crate of its own so that an engine can name
//! buttons without the plug-in interface.

#![warn(missing_docs)]

use std::fmt;
use std::ops::{BitOr, BitOrAssign};

/// A set of controller buttons, one bit each in the order the NES shifts them out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Buttons(u8);

impl Buttons {
    /// No button.
    pub const NONE: Self = Self(0);
    /// The A button.
    pub const A: Self = Self(0x01);
    /// The B button.
    pub const B: Self = Self(0x02);
    /// Select.
    pub const SELECT: Self = Self(0x04);
    /// Start.
    pub const START: Self = Self(0x08);
    /// Up on the D-pad.
    pub const UP: Self = Self(0x10);
    /// Down on the D-pad.
    pub const DOWN: Self = Self(0x20);
    /// Left on the D-pad.
    pub const LEFT: Self = Self(0x40);
    /// Right on the D-pad.
    pub const RIGHT: Self = Self(0x80);

    /// Every button with its display name, in shift order.
    pub const ALL: [(Self, &'static str); 8] = [
        (Self::A, "A"),
        (Self::B, "B"),
        (Self::SELECT, "Select"),
        (Self::START, "Start"),
        (Self::UP, "Up"),
        (Self::DOWN, "Down"),
        (Self::LEFT, "Left"),
        (Self::RIGHT, "Right"),
    ];

    /// The buttons of a bit set (A is bit 0 … Right bit 7).
    pub const fn from_bits(bits: u8) -> Self {
        Self(bits)
    }

    /// The bit set (A is bit 0 … Right bit 7).
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// True when no button is pressed.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when every button of `other` is pressed in `self`.
    pub const fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0 && other.0 != 0
    }

    /// Presses the buttons of `other` too.
    pub fn insert(&mut self, other: Self) {
        self.0 |= other.0;
    }

    /// Releases the buttons of `other`.
    pub fn remove(&mut self, other: Self) {
        self.0 &= !other.0;
    }

    /// Presses or releases the buttons of `other`.
    pub fn set(&mut self, other: Self, pressed: bool) {
        if pressed {
            self.insert(other);
        } else {
            self.remove(other);
        }
    }
}

impl BitOr for Buttons {
    type Output = Self;
    fn bitor(self, rhs: Self) -> Self {
        Self(self.0 | rhs.0)
    }
}

impl BitOrAssign for Buttons {
    fn bitor_assign(&mut self, rhs: Self) {
        self.0 |= rhs.0;
    }
}

impl fmt::Display for Buttons {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        let mut first = true;
        for (button, name) in Self::ALL {
            if self.contains(button) {
                if !first {
                    f.write_str("+")?;
                }
                f.write_str(name)?;
                first = false;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combines_and_prints() {
        let mut b = Buttons::LEFT | Buttons::A;
        assert!(b.contains(Buttons::A));
        assert!(!b.contains(Buttons::B));
        assert_eq!(b.to_string(), "A+Left");
        b.remove(Buttons::A);
        assert_eq!(b, Buttons::LEFT);
        assert_eq!(Buttons::NONE.to_string(), "-");
        assert!(!Buttons::NONE.contains(Buttons::NONE));
    }
}
