/// A plug-in's view of RAM for an inspector: labelled addresses and decoded panels.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Inspection {
    pub fields: Vec<Field>,
    pub panels: Vec<Panel>,
}

/// One labelled address (or run of addresses) with its decoded value.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub address: u16,
    /// Number of bytes the field covers.
    pub width: u16,
    pub label: String,
    /// The value as the game means it (e.g. a decimal counter), already formatted.
    pub value: String,
    pub meaning: String,
}

/// A block of text lines, e.g. a decoded playfield.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    pub title: String,
    pub lines: Vec<String>,
}
