/// An RGBA colour.
pub type Rgba = [u8; 4];

/// What a plug-in wants shown over the picture; the frontend draws it, the headless host logs it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Status {
    /// Short text lines, top to bottom.
    pub lines: Vec<String>,
    /// Rectangles over the picture, in NES pixel coordinates.
    pub marks: Vec<Mark>,
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
