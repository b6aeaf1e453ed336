//! What the plug-in's inspector shows: the memory map's fields with their live values, and the
//! decoded board with the falling column marked.

use crate::game_view::{cell_char, GameView, Grid, Jewels};
use crate::memory_map::{self as map, Format, FIELDS};
use jewelbot_plugin::{Field, Inspection, Panel, Ram};

/// The memory map's fields with their live values, and the decoded board.
pub fn inspect(ram: &Ram) -> Inspection {
    let fields = FIELDS
        .iter()
        .map(|spec| Field {
            address: spec.address,
            width: spec.width,
            label: spec.label.to_owned(),
            value: format_field(ram, spec.address, spec.width, spec.format),
            meaning: spec.meaning.to_owned(),
        })
        .collect();
    let mut panels = Vec::new();
    match GameView::decode(ram) {
        Ok(view) => {
            let mut board = view.board.text_lines();
            if let Some(column) = view.falling {
                for (i, jewel) in column.jewels.into_iter().enumerate() {
                    let line = &mut board[column.y as usize + i];
                    let at = 4 + column.x as usize;
                    line.replace_range(at..=at, &falling_char(jewel).to_string());
                }
            }
            panels.push(Panel {
                title: format!("board ({}; falling column as letters a-f, x)", view.phase),
                lines: board,
            });
            panels.push(Panel {
                title: "columns".into(),
                lines: vec![
                    format!("current {}", jewels_text(view.current)),
                    format!("next    {}", jewels_text(view.next)),
                    format!(
                        "at x={} y={}, fall {}/{}",
                        view.column_x, view.column_y, view.fall_timer, view.fall_speed
                    ),
                ],
            });
        }
        Err(inconsistent) => {
            panels.push(Panel {
                title: "playfield RAM (inconsistent)".into(),
                lines: Grid::from_ram(ram).text_lines(),
            });
            panels.push(Panel {
                title: "problems".into(),
                lines: inconsistent
                    .problems
                    .iter()
                    .map(ToString::to_string)
                    .collect(),
            });
        }
    }
    Inspection { fields, panels }
}

/// The falling column's cells are shown as letters so they stand out from the settled board.
fn falling_char(jewel: u8) -> char {
    match jewel {
        1..=6 => char::from(b'a' + jewel - 1),
        7 => 'x',
        _ => '?',
    }
}

fn jewels_text(jewels: Jewels) -> String {
    jewels.iter().map(|&j| cell_char(j)).collect()
}

fn format_field(ram: &Ram, address: u16, width: u16, format: Format) -> String {
    match format {
        Format::Byte => (0..width)
            .map(|i| map::byte(ram, address + i).to_string())
            .collect::<Vec<_>>()
            .join(" "),
        Format::Decimal => map::decimal(ram, address, width)
            .map_or_else(|| "(not decimal)".to_owned(), |v| v.to_string()),
        Format::Jewels => (0..width)
            .map(|i| cell_char(map::byte(ram, address + i)))
            .collect(),
        Format::Playfield => format!("{} jewels", Grid::from_ram(ram).visible_jewels()),
    }
}
