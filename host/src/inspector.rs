//! Text views of RAM: labelled fields and decoded panels from the plug-ins, and a hex dump.

use jewelbot_plugin::{Inspection, Ram};
use std::fmt::Write;

/// The fields and panels of one plug-in's inspection as text.
pub fn render(inspection: &Inspection) -> String {
    let mut out = String::new();
    for field in &inspection.fields {
        let end = field.address + field.width.saturating_sub(1);
        let range = if field.width > 1 {
            format!("${:04X}-${end:04X}", field.address)
        } else {
            format!("${:04X}      ", field.address)
        };
        let _ = writeln!(
            out,
            "{range}  {:<15} {:<14} {}",
            field.label, field.value, field.meaning
        );
    }
    for panel in &inspection.panels {
        let _ = writeln!(out, "\n{}:", panel.title);
        for line in &panel.lines {
            let _ = writeln!(out, "  {line}");
        }
    }
    out
}

/// Lines naming the fields whose values differ between two inspections.
pub fn changes(before: &Inspection, after: &Inspection) -> Vec<String> {
    before
        .fields
        .iter()
        .zip(&after.fields)
        .filter(|(a, b)| a.value != b.value)
        .map(|(a, b)| format!("{} {} -> {}", a.label, a.value, b.value))
        .collect()
}

/// A hex dump of the 2 KiB of CPU RAM, 16 bytes a line.
pub fn hex_dump(ram: &Ram) -> String {
    let mut out = String::new();
    for (line, chunk) in ram.chunks(16).enumerate() {
        let _ = write!(out, "{:04X}:", line * 16);
        for byte in chunk {
            let _ = write!(out, " {byte:02X}");
        }
        out.push('\n');
    }
    out
}
