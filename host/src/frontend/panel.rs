//! The RAM inspector beside the picture: the plug-ins' labelled fields with live values
//! (changes lit for a moment), their decoded panels, the selected address's full description,
//! and a scrollable hex view of CPU RAM.

use super::canvas::{Canvas, Rect};
use super::changes::Changes;
use super::layout::{line_height, DETAIL_LINES};
use super::view::{Snapshot, Ui, ACCENT, DIM, HEADING, HEX_ROWS, TEXT};
use crate::font::{self, GLYPH};
use jewelbot_plugin::{Field, Inspection};

const PANEL_BACKGROUND: [u8; 4] = [26, 26, 34, 255];
const BORDER: [u8; 4] = [70, 70, 90, 255];
const CHANGED: [u8; 4] = [255, 225, 90, 255];
const FROZEN: [u8; 4] = [110, 220, 255, 255];
const SELECTED: [u8; 4] = [255, 255, 255, 255];
/// Behind a changed value, fading.
const CHANGED_GLOW: [u8; 3] = [150, 105, 0];
/// Behind the selected labelled address.
const SELECTED_LINE: [u8; 3] = [50, 60, 95];

/// Where the hex view's bytes are, to turn a click into an address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HexArea {
    /// Left edge of the first byte's first digit.
    pub x: i32,
    /// Top of the first row of bytes.
    pub y: i32,
    pub char_width: i32,
    pub line_height: i32,
    /// The first row shown (16 bytes a row) and how many are shown.
    pub first_row: usize,
    pub rows: usize,
}

impl HexArea {
    /// The address of the byte under the pixel (x, y), if there is one.
    pub fn address_at(&self, x: i32, y: i32) -> Option<u16> {
        if x < self.x || y < self.y {
            return None;
        }
        let row = ((y - self.y) / self.line_height) as usize;
        // Each byte takes three characters: its two digits and a space.
        let column = ((x - self.x) / self.char_width) as usize;
        (row < self.rows && column < 16 * 3 && column % 3 < 2)
            .then(|| ((self.first_row + row) * 16 + column / 3) as u16)
    }
}

/// A labelled address's line in the inspector, to turn a click into its address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldRow {
    pub rect: Rect,
    pub address: u16,
}

/// Where the inspector put what a click can select.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Clickable {
    pub hex: Option<HexArea>,
    pub fields: Vec<FieldRow>,
}

impl Clickable {
    /// The address a click at (x, y) selects: a labelled address's line or a hex byte.
    pub fn address_at(&self, x: i32, y: i32) -> Option<u16> {
        self.fields
            .iter()
            .find(|row| row.rect.contains(x, y))
            .map(|row| row.address)
            .or_else(|| self.hex.and_then(|hex| hex.address_at(x, y)))
    }
}

/// Lines (in halves, for the gaps between blocks) that the inspector's content takes, as
/// [`draw`] sets it: the layout keeps room for all of it.
pub fn content_lines(inspections: &[(String, Inspection)]) -> usize {
    let mut halves = 0;
    if inspections.is_empty() {
        halves += 2 + 1;
    }
    for (_, inspection) in inspections {
        halves += 2 * (1 + inspection.fields.len()) + 1;
        for panel in &inspection.panels {
            halves += 1 + 2 * (1 + panel.lines.len());
        }
    }
    halves.div_ceil(2)
}

/// The labelled address whose bytes hold `address`, with its plug-in.
fn field_at(inspections: &[(String, Inspection)], address: u16) -> Option<&Field> {
    inspections
        .iter()
        .flat_map(|(_, inspection)| &inspection.fields)
        .find(|f| (f.address..f.address.saturating_add(f.width.max(1))).contains(&address))
}

/// The labelled addresses in order, for stepping through them by key.
pub fn field_addresses(inspections: &[(String, Inspection)]) -> Vec<u16> {
    inspections
        .iter()
        .flat_map(|(_, inspection)| inspection.fields.iter().map(|f| f.address))
        .collect()
}

/// Text lines laid out top to bottom in the panel.
struct Writer<'a> {
    canvas: &'a mut Canvas,
    x: i32,
    y: i32,
    bottom: i32,
    t: usize,
    /// Characters a line holds.
    columns: usize,
}

impl Writer<'_> {
    fn char_width(&self) -> i32 {
        (GLYPH * self.t) as i32
    }

    fn line_height(&self) -> i32 {
        line_height(self.t) as i32
    }

    fn lines_left(&self) -> usize {
        ((self.bottom - self.y).max(0) / self.line_height()) as usize
    }

    fn line(&mut self, text: &str, color: [u8; 4]) {
        if self.lines_left() == 0 {
            return;
        }
        let text = font::fit(text, self.columns);
        self.canvas.text(self.x, self.y, &text, color, self.t);
        self.y += self.line_height();
    }

    /// Lights `len` characters from column `column` of the next line, in `color` with
    /// opacity `alpha`.
    fn light(&mut self, column: usize, len: usize, color: [u8; 3], alpha: u8) {
        if alpha == 0 {
            return;
        }
        let cw = self.char_width();
        let rect = Rect::new(
            self.x + column as i32 * cw - self.t as i32,
            self.y - self.t as i32,
            len as i32 * cw + 2 * self.t as i32,
            self.line_height(),
        );
        let [r, g, b] = color;
        self.canvas.fill_rect(rect, [r, g, b, alpha]);
    }

    fn gap(&mut self) {
        self.y += self.line_height() / 2;
    }
}

/// Characters of a field's line before its description: address range, label and value.
const RANGE_COLUMNS: usize = 10;
const LABEL_COLUMNS: usize = 16;
const VALUE_COLUMNS: usize = 12;
const VALUE_AT: usize = RANGE_COLUMNS + 1 + LABEL_COLUMNS + 1;

/// Draws the panel into `rect`: the plug-ins' labelled addresses and panels, the selected
/// address's full description, then the hex view from `ui.hex_row` (clamped to fit) with
/// `ui.selected` marked; returns where a click can select something.
pub fn draw(
    canvas: &mut Canvas,
    rect: Rect,
    t: usize,
    snapshot: &Snapshot,
    changes: &Changes,
    ui: &Ui,
    now_ms: u64,
) -> Clickable {
    canvas.fill_rect(rect, PANEL_BACKGROUND);
    canvas.fill_rect(Rect::new(rect.x, rect.y, t as i32, rect.height), BORDER);
    let pad = (GLYPH * t) as i32;
    let mut w = Writer {
        canvas,
        x: rect.x + pad,
        y: rect.y + pad / 2 + t as i32,
        bottom: rect.bottom() - pad / 2,
        t,
        columns: ((rect.width - 2 * pad).max(0) / pad) as usize,
    };
    let mut clickable = Clickable::default();
    w.line(&format!("RAM INSPECTOR   frame {}", snapshot.frame), ACCENT);
    w.gap();
    if snapshot.inspections.is_empty() {
        w.line("(no plug-in describes this ROM's RAM)", DIM);
        w.gap();
    }
    let selected_field = ui
        .selected
        .and_then(|address| field_at(&snapshot.inspections, address))
        .map(|f| f.address);
    for (plugin, inspection) in &snapshot.inspections {
        w.line(plugin, HEADING);
        for field in &inspection.fields {
            let end = field.address + field.width.saturating_sub(1);
            let range = if field.width > 1 {
                format!("${:04X}-{end:04X}", field.address)
            } else {
                format!("${:04X}", field.address)
            };
            let label = font::fit(&field.label, LABEL_COLUMNS);
            let value = font::fit(&field.value, VALUE_COLUMNS);
            if selected_field == Some(field.address) {
                w.light(0, w.columns, SELECTED_LINE, 255);
            }
            let heat = changes.field_heat(plugin, field.address, &field.label, now_ms);
            w.light(VALUE_AT, value.len(), CHANGED_GLOW, heat);
            if w.lines_left() > 0 {
                let row = Rect::new(w.x, w.y, w.columns as i32 * w.char_width(), w.line_height());
                clickable.fields.push(FieldRow {
                    rect: row,
                    address: field.address,
                });
            }
            let text = format!(
                "{range:<RANGE_COLUMNS$} {label:<LABEL_COLUMNS$} {value:<VALUE_COLUMNS$} {}",
                field.meaning
            );
            w.line(&text, TEXT);
            if heat > 0 {
                // Repaint the value in the highlight colour over the plain one.
                let y = w.y - w.line_height();
                let x = w.x + VALUE_AT as i32 * w.char_width();
                w.canvas.text(x, y, &value, CHANGED, t);
            }
        }
        for panel in &inspection.panels {
            w.gap();
            w.line(&format!("{}:", panel.title), HEADING);
            for line in &panel.lines {
                w.line(&format!("  {line}"), TEXT);
            }
        }
        w.gap();
    }
    draw_detail(&mut w, snapshot, ui.selected);
    clickable.hex = draw_hex(&mut w, snapshot, changes, ui.hex_row, ui.selected, now_ms);
    clickable
}

/// The selected address's full description, or how to get one: at least
/// [`DETAIL_LINES`] lines, more when the description needs them.
fn draw_detail(w: &mut Writer<'_>, snapshot: &Snapshot, selected: Option<u16>) {
    let mut lines = Vec::new();
    match selected {
        Some(address) => {
            let byte = snapshot.ram[usize::from(address) % snapshot.ram.len()];
            match field_at(&snapshot.inspections, address) {
                Some(field) => {
                    lines.push((
                        format!(
                            "${address:04X} = {byte:02X}: {} = {}",
                            field.label, field.value
                        ),
                        ACCENT,
                    ));
                    lines.extend(
                        font::wrap(&field.meaning, w.columns)
                            .into_iter()
                            .map(|l| (l, TEXT)),
                    );
                }
                None => lines.push((format!("${address:04X} = {byte:02X}: no label"), ACCENT)),
            }
            lines.push((
                "hex digits write it, Enter freezes, [ ] step, Esc".into(),
                DIM,
            ));
        }
        None => lines.push((
            "click a labelled address or a byte, or [ and ], to select it".into(),
            DIM,
        )),
    }
    let blank = DETAIL_LINES.saturating_sub(lines.len());
    for (text, color) in lines {
        w.line(&text, color);
    }
    w.y += blank as i32 * w.line_height();
}

fn draw_hex(
    w: &mut Writer<'_>,
    snapshot: &Snapshot,
    changes: &Changes,
    row: usize,
    selected: Option<u16>,
    now: u64,
) -> Option<HexArea> {
    let rows = w.lines_left().saturating_sub(3).clamp(0, HEX_ROWS);
    if rows == 0 {
        return None;
    }
    let first = row.min(HEX_ROWS - rows);
    let last = first + rows;
    w.line(
        &format!(
            "RAM ${:04X}-${:04X}   PgUp/PgDn or wheel",
            first * 16,
            last * 16 - 1
        ),
        HEADING,
    );
    w.line(&format!("{} bytes frozen", snapshot.frozen.len()), DIM);
    let header: String = (0..16).map(|i| format!(" {i:02X}")).collect();
    w.line(&format!("     {header}"), DIM);
    let area = HexArea {
        x: w.x + 6 * w.char_width(),
        y: w.y,
        char_width: w.char_width(),
        line_height: w.line_height(),
        first_row: first,
        rows,
    };
    for r in first..last {
        let bytes = &snapshot.ram[r * 16..r * 16 + 16];
        for (i, _) in bytes.iter().enumerate() {
            w.light(
                6 + 3 * i,
                2,
                CHANGED_GLOW,
                changes.byte_heat(r * 16 + i, now),
            );
        }
        let text: String = bytes.iter().map(|b| format!(" {b:02X}")).collect();
        let y = w.y;
        w.line(&format!("{:04X}:{text}", r * 16), TEXT);
        for (i, &byte) in bytes.iter().enumerate() {
            let address = (r * 16 + i) as u16;
            let x = area.x + (3 * i) as i32 * area.char_width;
            if snapshot.frozen.iter().any(|&(a, _)| a == address) {
                w.canvas.text(x, y, &format!("{byte:02X}"), FROZEN, w.t);
            }
            if selected == Some(address) {
                let t = w.t as i32;
                let rect = Rect::new(x - t, y - t, 2 * area.char_width + 2 * t, area.line_height);
                w.canvas.outline(rect, t, SELECTED);
            }
        }
    }
    Some(area)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inspection() -> Vec<(String, Inspection)> {
        let field = |address, width, label: &str| Field {
            address,
            width,
            label: label.into(),
            value: "0".into(),
            meaning: format!(
                "what {label} holds, in more words than a line of the panel has room for"
            ),
        };
        vec![(
            "test".into(),
            Inspection {
                fields: vec![field(0x56, 1, "x"), field(0x5C, 3, "colours")],
                panels: vec![jewelbot_plugin::Panel {
                    title: "board".into(),
                    lines: vec!["......".into(); 15],
                }],
            },
        )]
    }

    /// A click on a labelled address's line selects it; a byte inside a field names it.
    #[test]
    fn a_click_on_a_labelled_address_selects_it() {
        let snapshot = Snapshot {
            picture: vec![],
            ram: [0; jewelbot_plugin::RAM_SIZE],
            frame: 0,
            buttons: jewelbot_plugin::Buttons::NONE,
            frozen: vec![],
            slots: vec![],
            inspections: inspection(),
            stories: vec![],
        };
        let mut canvas = Canvas::new(600, 700);
        let clickable = draw(
            &mut canvas,
            Rect::new(0, 0, 600, 700),
            1,
            &snapshot,
            &Changes::new(),
            &Ui::default(),
            0,
        );
        let rows: Vec<u16> = clickable.fields.iter().map(|r| r.address).collect();
        assert_eq!(rows, [0x56, 0x5C]);
        for row in &clickable.fields {
            let (x, y) = (row.rect.x + 3, row.rect.y + 2);
            assert_eq!(clickable.address_at(x, y), Some(row.address));
        }
        assert!(clickable.hex.is_some(), "the hex view has room below");
        assert_eq!(
            field_at(&snapshot.inspections, 0x5E).map(|f| f.address),
            Some(0x5C)
        );
        assert_eq!(field_at(&snapshot.inspections, 0x5F), None);
        assert_eq!(field_addresses(&snapshot.inspections), [0x56, 0x5C]);
    }

    /// The plug-in's heading and two fields, a half-line gap, the panel's title and 15 lines,
    /// a last half-line gap: 1 + 2 + 1 + 15 lines and two halves.
    #[test]
    fn content_lines_count_what_draw_sets() {
        assert_eq!(content_lines(&inspection()), 20);
        assert_eq!(content_lines(&[]), 2);
    }

    #[test]
    fn a_click_on_a_byte_names_its_address() {
        let area = HexArea {
            x: 100,
            y: 50,
            char_width: 8,
            line_height: 10,
            first_row: 4,
            rows: 3,
        };
        // Row 0 is $0040; the second byte's digits start 3 characters in.
        assert_eq!(area.address_at(100, 50), Some(0x40));
        assert_eq!(area.address_at(100 + 3 * 8 + 9, 55), Some(0x41));
        assert_eq!(area.address_at(100 + 15 * 24, 50 + 25), Some(0x6F));
        // The space between bytes, beyond the rows, before the view: nothing.
        assert_eq!(area.address_at(100 + 2 * 8 + 1, 50), None);
        assert_eq!(area.address_at(100, 50 + 30), None);
        assert_eq!(area.address_at(99, 50), None);
    }
}
