/// An RGBA colour.
pub type Rgba = [u8; 4];

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
