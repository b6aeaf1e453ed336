//! The jewelbot plug-in: reads the game from RAM every frame and, with the AI on, plays it.

use crate::dumps::{self, Identification};
use crate::engine::{self, AnyEvaluator};
use crate::game_view::{cell_char, GameView, Grid, Jewels};
use crate::memory_map::{self as map, Format, FIELDS};
use crate::play::tracker::Tracker;
pub use crate::play::Mode;
use crate::play::Player;
use crate::screen;
use jewelbot_plugin::{
    Buttons, Field, FrameContext, Inspection, Panel, Plugin, PluginOption, Ram, RomIdentity, Stat,
    StatValue,
};

/// Magic Jewelry plug-in.
pub struct MagicJewelryPlugin {
    identification: Option<Identification>,
    ai_enabled: bool,
    player: Player,
    evaluation: AnyEvaluator,
    tracker: Tracker,
}

impl MagicJewelryPlugin {
    pub const NAME: &'static str = "magic-jewelry";

    /// A plug-in whose AI uses `strategy` (see [`engine::STRATEGY_NAMES`]) scoring boards
    /// with `evaluation`.
    pub fn new(
        ai_enabled: bool,
        mode: Mode,
        strategy: &str,
        evaluation: AnyEvaluator,
    ) -> Result<Self, String> {
        let player = Player::with_strategy_name(strategy, &evaluation, mode)?;
        Ok(Self {
            identification: None,
            ai_enabled,
            player,
            evaluation,
            tracker: Tracker::default(),
        })
    }

    pub fn mode(&self) -> Mode {
        self.player.mode()
    }

    pub fn tracker(&self) -> &Tracker {
        &self.tracker
    }

    pub fn player(&self) -> &Player {
        &self.player
    }

    fn show_status(&self, ctx: &mut FrameContext<'_>, view: &GameView) {
        let stats = self.tracker.stats();
        let player = self.player.stats();
        let mean_us = if player.decisions > 0 {
            player.decision_time.as_secs_f64() * 1e6 / player.decisions as f64
        } else {
            0.0
        };
        let plan = self.player.plan().filter(|_| self.ai_enabled);
        let status = ctx.status();
        status.lines = vec![
            format!(
                "AI {} {} {} | {}",
                if self.ai_enabled { "on" } else { "off" },
                self.player.strategy_name(),
                self.player.mode(),
                view.phase
            ),
            format!(
                "decision {:.0} us mean, {} us max",
                mean_us,
                player.max_decision_time.as_micros()
            ),
            format!(
                "columns {} jewels {} game overs {}",
                stats.columns_placed, stats.jewels_cleared, stats.game_overs
            ),
        ];
        status.marks = plan
            .map(|plan| screen::column_mark(plan.target_x, plan.target_y))
            .into_iter()
            .collect();
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
                // Garbage in RAM: trust nothing, press nothing, say why.
                self.tracker.note_inconsistent();
                self.player.forget();
                ctx.set_buttons(Buttons::NONE);
                let status = ctx.status();
                status.lines = vec![inconsistent.to_string()];
                status.marks.clear();
                return;
            }
        };
        let events = self.tracker.observe(&view);
        let buttons = if self.ai_enabled {
            self.player.on_frame(&view, events)
        } else {
            Buttons::NONE
        };
        ctx.set_buttons(buttons);
        self.show_status(ctx, &view);
    }

    fn on_reset(&mut self) {
        self.tracker.forget();
        self.player.forget();
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match (name, value) {
            ("ai", "on") => self.ai_enabled = true,
            ("ai", "off") => self.ai_enabled = false,
            ("ai", "toggle") => self.ai_enabled = !self.ai_enabled,
            ("mode", "toggle") => self.player.set_mode(self.player.mode().toggled()),
            ("mode", value) => self.player.set_mode(value.parse()?),
            ("strategy", name) => {
                let mode = self.player.mode();
                self.player = Player::with_strategy_name(name, &self.evaluation, mode)?;
            }
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
                value: self.player.mode().to_string(),
                choices: Mode::NAMES
                    .iter()
                    .map(|s| (*s).to_owned())
                    .chain(["toggle".to_owned()])
                    .collect(),
            },
            PluginOption {
                name: "strategy".into(),
                value: self.player.strategy_name().into(),
                choices: engine::STRATEGY_NAMES
                    .iter()
                    .map(|s| (*s).to_owned())
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
        let player = self.player.stats();
        out.push(Stat::new(
            "decisions",
            "decisions",
            StatValue::Int(player.decisions as i64),
        ));
        if player.decisions > 0 {
            out.push(Stat::new(
                "mean_decision_us",
                "mean decision time (us)",
                StatValue::Float(
                    player.decision_time.as_secs_f64() * 1e6 / player.decisions as f64,
                ),
            ));
        }
        out.push(Stat::new(
            "replans",
            "re-plans",
            StatValue::Int(player.replans as i64),
        ));
        out.push(Stat::new(
            "missed_presses",
            "presses that did not take effect",
            StatValue::Int(player.missed_presses as i64),
        ));
        if let Some(view) = self.tracker.previous() {
            out.push(Stat::new(
                "score",
                "score",
                StatValue::Int(view.score.into()),
            ));
            out.push(Stat::new(
                "level",
                "level",
                StatValue::Int(view.level.into()),
            ));
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
