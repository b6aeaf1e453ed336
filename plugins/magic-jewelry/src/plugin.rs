//! The jewelbot plug-in: reads the game from RAM every frame and, with the AI on, plays it.

use crate::dumps::{self, Identification};
use crate::game_view::{cell_char, GameView, Grid, Jewels};
use crate::memory_map::{self as map, Format, FIELDS};
use crate::tracker::Tracker;
use jewelbot_plugin::{
    Field, FrameContext, Inspection, Panel, Plugin, PluginOption, Ram, RomIdentity, Stat,
    StatValue,
};
use std::fmt;

/// How the AI presses buttons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// A pace a person can follow.
    #[default]
    Normal,
    /// As fast as the game accepts input.
    Fast,
}

impl Mode {
    pub const NAMES: [&'static str; 2] = ["normal", "fast"];

    pub fn toggled(self) -> Self {
        match self {
            Self::Normal => Self::Fast,
            Self::Fast => Self::Normal,
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Normal => "normal",
            Self::Fast => "fast",
        })
    }
}

impl std::str::FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "normal" => Ok(Self::Normal),
            "fast" => Ok(Self::Fast),
            other => Err(format!("unknown mode `{other}` (normal or fast)")),
        }
    }
}

/// Magic Jewelry plug-in.
#[derive(Debug, Default)]
pub struct MagicJewelryPlugin {
    identification: Option<Identification>,
    ai_enabled: bool,
    mode: Mode,
    tracker: Tracker,
}

impl MagicJewelryPlugin {
    pub const NAME: &'static str = "magic-jewelry";

    pub fn new(ai_enabled: bool, mode: Mode) -> Self {
        Self {
            ai_enabled,
            mode,
            ..Self::default()
        }
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    pub fn tracker(&self) -> &Tracker {
        &self.tracker
    }
}

impl Plugin for MagicJewelryPlugin {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn attach(&mut self, rom: &RomIdentity<'_>) -> Result<String, String> {
        let identification = dumps::identify(rom.prg_chr_crc32, rom.file_sha1, rom.prg);
        self.identification = Some(identification);
        if identification.is_playable() {
            Ok(identification.describe())
        } else {
            Err(format!(
                "{} is {} (CRC32 of PRG+CHR {:08X}); see roms-readme.md",
                rom.name,
                identification.describe(),
                rom.prg_chr_crc32
            ))
        }
    }

    fn on_frame(&mut self, ctx: &mut FrameContext<'_>) {
        let view = match GameView::decode(ctx.ram()) {
            Ok(view) => view,
            Err(inconsistent) => {
                self.tracker.note_inconsistent();
                ctx.set_buttons(jewelbot_plugin::Buttons::NONE);
                let status = ctx.status();
                status.lines = vec![inconsistent.to_string()];
                status.marks.clear();
                return;
            }
        };
        self.tracker.observe(&view);
        let stats = self.tracker.stats();
        let status = ctx.status();
        status.lines = vec![
            format!(
                "AI {} | mode {} | {}",
                if self.ai_enabled { "on" } else { "off" },
                self.mode,
                view.phase
            ),
            format!(
                "columns {} | jewels {} | game overs {}",
                stats.columns_placed, stats.jewels_cleared, stats.game_overs
            ),
        ];
    }

    fn on_reset(&mut self) {
        self.tracker.forget();
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match (name, value) {
            ("ai", "on") => self.ai_enabled = true,
            ("ai", "off") => self.ai_enabled = false,
            ("ai", "toggle") => self.ai_enabled = !self.ai_enabled,
            ("mode", "toggle") => self.mode = self.mode.toggled(),
            ("mode", value) => self.mode = value.parse()?,
            ("ai", other) => return Err(format!("ai takes on, off or toggle, not `{other}`")),
            (other, _) => return Err(format!("{} has no option `{other}`", Self::NAME)),
        }
        Ok(())
    }

    fn options(&self) -> Vec<PluginOption> {
        vec![
            PluginOption {
                name: "ai".into(),
                value: if self.ai_enabled { "on" } else { "off" }.into(),
                choices: vec!["on".into(), "off".into(), "toggle".into()],
            },
            PluginOption {
                name: "mode".into(),
                value: self.mode.to_string(),
                choices: Mode::NAMES
                    .iter()
                    .map(|s| (*s).to_owned())
                    .chain(["toggle".to_owned()])
                    .collect(),
            },
        ]
    }

    fn inspect(&self, ram: &Ram) -> Inspection {
        inspect(ram)
    }

    fn stats(&self) -> Vec<Stat> {
        let stats = self.tracker.stats();
        let mut out = vec![
            Stat::new(
                "columns_placed",
                "columns placed",
                StatValue::Int(stats.columns_placed as i64),
            ),
            Stat::new(
                "jewels_cleared",
                "jewels cleared",
                StatValue::Int(stats.jewels_cleared as i64),
            ),
            Stat::new(
                "game_overs",
                "game overs",
                StatValue::Int(stats.game_overs as i64),
            ),
        ];
        if let Some(view) = self.tracker.previous() {
            out.push(Stat::new("score", "score", StatValue::Int(view.score.into())));
            out.push(Stat::new("level", "level", StatValue::Int(view.level.into())));
        }
        if stats.inconsistent_frames > 0 {
            out.push(Stat::new(
                "inconsistent_frames",
                "inconsistent RAM frames",
                StatValue::Int(stats.inconsistent_frames as i64),
            ));
        }
        out
    }
}

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
                    line.replace_range(at..=at, &cell_char(jewel).to_ascii_lowercase().to_string());
                }
            }
            panels.push(Panel {
                title: format!("board ({}; falling column in lower case)", view.phase),
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
                lines: inconsistent.problems.iter().map(ToString::to_string).collect(),
            });
        }
    }
    Inspection { fields, panels }
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
