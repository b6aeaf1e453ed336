/// A plug-in's view of RAM for an inspector: labelled addresses and decoded panels.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Inspection {
    /// Labelled addresses, in address order.
    pub fields: Vec<Field>,
    /// Decoded views, such as the board.
    pub panels: Vec<Panel>,
}

/// One labelled address (or run of addresses) with its decoded value.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Field {
    /// The first address.
    pub address: u16,
    /// Number of bytes the field covers.
    pub width: u16,
    /// A short name.
    pub label: String,
    /// The value as the game means it (e.g. a decimal counter), already formatted.
    pub value: String,
    /// What the game keeps there.
    pub meaning: String,
}

/// A block of text lines, e.g. a decoded playfield.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Panel {
    /// The panel's heading.
    pub title: String,
    /// Its text, line by line.
    pub lines: Vec<String>,
}
