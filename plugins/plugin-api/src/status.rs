/// An RGBA colour.
pub type Rgba = [u8; 4];

/// A colour written `#RRGGBB` (opaque) or `#RRGGBBAA`, in either case of hex digits.
pub fn hex_colour(text: &str) -> Option<Rgba> {
    let hex = text.strip_prefix('#')?;
    if !(hex.len() == 6 || hex.len() == 8) || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let byte = |at: usize| u8::from_str_radix(&hex[at..at + 2], 16).ok();
    let alpha = if hex.len() == 8 { byte(6)? } else { 255 };
    Some([byte(0)?, byte(2)?, byte(4)?, alpha])
}

/// What a plug-in wants shown over the picture; the frontend draws it, the headless host logs it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Status {
    /// Short text lines, top to bottom.
    pub lines: Vec<String>,
    /// Rectangles over the picture, in NES pixel coordinates: the window draws them crisp
    /// at its scale, over the picture, and nothing else keeps them.
    pub marks: Vec<Mark>,
    /// Drawn onto the picture itself, as an emulator's scripts draw: the window shows them and
    /// the host's screenshots and GIFs keep them. They last until the plug-in changes them.
    pub drawings: Vec<Drawing>,
    /// One-off lines of this frame for a log, such as why a decision was made. The host takes
    /// them after every frame: headless runs print them when asked (`run --explain`), and
    /// otherwise they are dropped.
    pub notes: Vec<String>,
}

impl Status {
    /// Removes every line, mark and note.
    pub fn clear(&mut self) {
        self.lines.clear();
        self.marks.clear();
        self.drawings.clear();
        self.notes.clear();
    }
}

/// An outlined rectangle over the picture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    /// Left edge.
    pub x: u16,
    /// Top edge.
    pub y: u16,
    /// Width in pixels.
    pub width: u16,
    /// Height in pixels.
    pub height: u16,
    /// Outline colour.
    pub color: Rgba,
}

/// Something drawn onto the 256x240 picture, in NES pixels (coordinates off the picture are
/// clipped). Colours are blended by their alpha.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Drawing {
    /// A rectangle from corner to corner, both included: its edge in `outline`, its inside in
    /// `fill`.
    Rect {
        /// One corner.
        from: (i32, i32),
        /// The opposite corner.
        to: (i32, i32),
        /// The inside's colour.
        fill: Rgba,
        /// The edge's colour.
        outline: Rgba,
    },
    /// A line from one end to the other, both included.
    Line {
        /// One end.
        from: (i32, i32),
        /// The other end.
        to: (i32, i32),
        /// Its colour.
        color: Rgba,
    },
    /// One pixel.
    Pixel {
        /// Where.
        at: (i32, i32),
        /// Its colour.
        color: Rgba,
    },
    /// Text in an 8x8 font, its top-left corner at `at`, on a `background` box.
    Text {
        /// The top-left corner.
        at: (i32, i32),
        /// The text.
        text: String,
        /// The letters' colour.
        color: Rgba,
        /// The box behind them.
        background: Rgba,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_colours_are_opaque_unless_they_say_otherwise() {
        assert_eq!(hex_colour("#ff8000"), Some([255, 128, 0, 255]));
        assert_eq!(hex_colour("#FF800040"), Some([255, 128, 0, 64]));
        for bad in [
            "ff8000",
            "#ff80",
            "#ff80000",
            "#+f8000",
            "#gg8000",
            "#ff8000é",
        ] {
            assert_eq!(hex_colour(bad), None, "{bad}");
        }
    }
}
