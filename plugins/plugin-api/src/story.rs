//! What a plug-in tells someone watching it play: a few figures and small charts of its recent
//! history, for a frontend's dashboard. The host asks only while such a panel is shown.

/// Figures and charts, in the order the plug-in wants them shown.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Story {
    /// Labelled values, already formatted (`points a column`, `1,397`).
    pub figures: Vec<Figure>,
    /// Recent history, one chart per quantity.
    pub charts: Vec<Chart>,
}

/// One labelled value.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Figure {
    /// A short name.
    pub label: String,
    /// The value as a watcher reads it.
    pub value: String,
}

impl Figure {
    /// A figure from its label and value.
    pub fn new(label: &str, value: impl Into<String>) -> Self {
        Self {
            label: label.to_owned(),
            value: value.into(),
        }
    }
}

/// `1234567` as `1,234,567`: counts as a watcher reads them.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A quantity over the last events (columns placed, say), oldest first.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Chart {
    /// What it shows, e.g. `jewels on the board`.
    pub label: String,
    /// One value per event, oldest first.
    pub values: Vec<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(22_789_885), "22,789,885");
    }
}
