//! The jewelbot plug-in: reads the game from RAM every frame and, with the AI on, plays it.

use crate::dumps::{self, Identification};
use crate::engine::{self, AnyEvaluator, Budget, Objective};
use crate::game_view::{cell_char, GameView, Grid, Jewels};
use crate::memory_map::{self as map, Format, FIELDS};
use crate::play::history::{History, ALL_ROLLED_OVER};
use crate::play::tracker::{PlayStats, Tracker};
use crate::play::Player;
use crate::play::PlayerSnapshot;
pub use crate::play::{AfterGameOver, Mode};
use crate::screen::{self, Geometry};
use jewelbot_plugin::{
    Buttons, Field, FrameContext, Inspection, Milestone, NumberRange, Panel, Plugin, PluginOption,
    Ram, Recording, RomIdentity, Series, Stat, StatValue, StopCondition,
};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Duration;

/// Foresight's beam search ranks boards for survival: with the score objective it would quietly
/// play to survive, so the two are refused together.
const FORESIGHT_SURVIVES: &str =
    "foresight plays to survive: it cannot be combined with the score objective";

/// The strategy the player uses unless told otherwise.
pub const DEFAULT_STRATEGY: &str = "deep";
/// The `weights` option's value for the built-in evaluation.
pub const BUILT_IN: &str = "built-in";

/// Magic Jewelry plug-in.
pub struct MagicJewelryPlugin {
    identification: Option<Identification>,
    /// Its buttons reach the console.
    in_control: bool,
    mode: Mode,
    after_game_over: AfterGameOver,
    strategy: String,
    /// Read the column generator from RAM and search the columns ahead.
    foresight: bool,
    /// What the player plays for.
    objective: Objective,
    /// The evaluation file given (`None`: the built-in evaluation) and what it holds.
    weights: Option<(PathBuf, AnyEvaluator)>,
    /// Boards a decision may score (`None`: no limit).
    work: Option<u64>,
    /// The microseconds a decision may take, when given (`Some(0)`: no limit).
    time_budget: Option<u64>,
    /// Built when a game is attached, from the settings above.
    player: Option<Player>,
    tracker: Tracker,
    /// Every column placed and the counters' rollovers, since the run began.
    history: History,
    /// Where the attached game draws its playfield.
    geometry: Geometry,
    /// The attached game's event routines, for recorders.
    routines: Vec<(String, u16)>,
}

impl Default for MagicJewelryPlugin {
    /// In control, normal mode, the default strategy and evaluation.
    fn default() -> Self {
        Self {
            identification: None,
            in_control: true,
            mode: Mode::Normal,
            after_game_over: AfterGameOver::default(),
            strategy: DEFAULT_STRATEGY.to_owned(),
            foresight: false,
            objective: Objective::Survive,
            weights: None,
            work: None,
            time_budget: None,
            player: None,
            tracker: Tracker::default(),
            history: History::default(),
            geometry: Geometry::default(),
            routines: Vec::new(),
        }
    }
}

impl MagicJewelryPlugin {
    pub const NAME: &'static str = "magic-jewelry";

    pub fn mode(&self) -> Mode {
        self.mode
    }

    pub fn tracker(&self) -> &Tracker {
        &self.tracker
    }

    /// The player, once a game is attached.
    pub fn player(&self) -> Option<&Player> {
        self.player.as_ref()
    }

    fn evaluator(&self) -> AnyEvaluator {
        self.weights
            .as_ref()
            .map_or_else(AnyEvaluator::default, |(_, e)| e.clone())
    }

    /// The limit of one decision: the work given, and the time given or, without either, the
    /// player's. A work limit alone drops the time limit, so that runs repeat exactly.
    pub fn budget(&self) -> Budget {
        let time = match (self.time_budget, self.work) {
            (Some(micros), _) => (micros > 0).then(|| Duration::from_micros(micros)),
            (None, Some(_)) => None,
            (None, None) => Budget::PLAYER.time,
        };
        Budget {
            time,
            work: self.work,
        }
    }

    /// The player for the current settings (built on first use: the learned value is decoded
    /// only when a game needs it).
    fn player_mut(&mut self) -> Result<&mut Player, String> {
        if self.player.is_none() {
            self.player = Some(self.new_player(&self.strategy)?);
        }
        self.player.as_mut().ok_or_else(|| "no player".to_owned())
    }

    /// A player with strategy `name` and the other settings.
    fn new_player(&self, name: &str) -> Result<Player, String> {
        let mut player =
            Player::with_strategy_name(name, &self.evaluator(), self.mode, self.objective)?;
        player.set_foresight(self.foresight);
        player.set_budget(self.budget());
        player.set_after_game_over(self.after_game_over);
        Ok(player)
    }

    fn show_status(&self, ctx: &mut FrameContext<'_>, view: &GameView, note: Option<String>) {
        let Some(player) = &self.player else {
            return;
        };
        let stats = self.tracker.stats();
        let work = player.stats();
        let plan = player.plan().filter(|_| self.in_control);
        let geometry = self.geometry;
        let status = ctx.status();
        status.lines = vec![
            format!(
                "AI {} {} {} | {} | after game over: {}",
                if self.in_control { "on" } else { "off" },
                player.strategy_name(),
                player.mode(),
                view.phase,
                player.after_game_over()
            ),
            format!(
                "decision {} us median, {} us max",
                work.decision_times.median().as_micros(),
                work.decision_times.max().as_micros()
            ),
            format!(
                "columns {} jewels {} game overs {}",
                stats.columns_placed, stats.jewels_cleared, stats.game_overs
            ),
        ];
        if player.foresight() {
            status.lines.push(player.foresight_status().to_string());
        }
        if let Some(why) = plan.and_then(|plan| plan.short_explanation.as_deref()) {
            status.lines.push(format!("why: {why}"));
        }
        status.marks.clear();
        if let Some(plan) = plan {
            // Runners-up first, so the target's outline is drawn over theirs.
            for other in plan.candidates.iter().skip(1) {
                let mark = geometry.column_mark_in(other.x, other.y, screen::RUNNER_UP);
                status.marks.push(mark);
            }
            if let Some(next) = plan.next {
                let mark = geometry.column_mark_in(next.x, next.y, screen::NEXT_PLAN);
                status.marks.push(mark);
            }
            status
                .marks
                .push(geometry.column_mark(plan.target_x, plan.target_y));
        }
        status.notes.extend(note);
    }
}

impl Plugin for MagicJewelryPlugin {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn attach(&mut self, rom: &RomIdentity<'_>) -> Result<String, String> {
        let identification = dumps::identify(rom.prg_chr_crc32, rom.file_sha1, rom.prg);
        self.identification = Some(identification);
        if !identification.is_playable() {
            return Err(format!(
                "{} is {} (CRC32 of PRG+CHR {:08X}); see roms-readme.md",
                rom.name,
                identification.describe(),
                rom.prg_chr_crc32
            ));
        }
        self.geometry = Geometry::of(identification);
        self.routines = identification.routines(rom.prg);
        self.player_mut()?;
        Ok(identification.describe())
    }

    fn on_frame(&mut self, ctx: &mut FrameContext<'_>) {
        let view = match GameView::decode(ctx.ram()) {
            Ok(view) => view,
            Err(inconsistent) => {
                // Garbage in RAM: trust nothing, press nothing, say why.
                self.tracker.note_inconsistent();
                if let Some(player) = &mut self.player {
                    player.forget();
                }
                ctx.set_buttons(Buttons::NONE);
                let status = ctx.status();
                status.lines = vec![inconsistent.to_string()];
                status.marks.clear();
                return;
            }
        };
        let events = self.tracker.observe(&view);
        let in_control = self.in_control;
        let buttons = match self.player_mut() {
            Ok(player) if in_control => player.on_frame(&view, events),
            _ => Buttons::NONE,
        };
        ctx.set_buttons(buttons);
        let decision = self
            .player
            .as_ref()
            .map_or(0, |p| p.last_decision().as_micros());
        self.history.observe(
            ctx.frame_number(),
            &view,
            events,
            u32::try_from(decision).unwrap_or(u32::MAX),
        );
        let note = self.player.as_mut().and_then(Player::take_explanation);
        self.show_status(ctx, &view, note);
    }

    fn on_reset(&mut self) {
        self.tracker.forget();
        self.history.forget();
        if let Some(player) = &mut self.player {
            player.forget();
        }
    }

    fn set_in_control(&mut self, in_control: bool) {
        self.in_control = in_control;
        if let Some(player) = &mut self.player {
            player.forget();
        }
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "mode" => {
                self.mode = value.parse()?;
                if let Some(player) = &mut self.player {
                    player.set_mode(self.mode);
                }
            }
            "after-game-over" => {
                self.after_game_over = value.parse()?;
                if let Some(player) = &mut self.player {
                    player.set_after_game_over(self.after_game_over);
                }
            }
            "strategy" => {
                let player = self.new_player(value)?;
                value.clone_into(&mut self.strategy);
                self.player = Some(player);
            }
            "objective" => {
                let objective: Objective = value.parse().map_err(|e| format!("{e}"))?;
                if objective == Objective::Score && self.foresight {
                    return Err(FORESIGHT_SURVIVES.to_owned());
                }
                self.objective = objective;
                let player = self.new_player(&self.strategy)?;
                self.player = Some(player);
            }
            "work" => {
                let work = parse_limit(name, value)?;
                self.work = (work > 0).then_some(work);
                self.apply_budget();
            }
            "time-budget" => {
                self.time_budget = Some(parse_limit(name, value)?);
                self.apply_budget();
            }
            "weights" => {
                self.weights = match value {
                    "" | BUILT_IN => None,
                    path => {
                        let path = PathBuf::from(path);
                        // Refused before it is opened: a FIFO or a device would block or
                        // never end.
                        engine::eval::weights::check_evaluation_file(&path).map_err(|e| {
                            format!("cannot read evaluation file {}: {e}", path.display())
                        })?;
                        let (evaluator, _) =
                            engine::load_evaluator(&path).map_err(|e| e.to_string())?;
                        Some((path, evaluator))
                    }
                };
                self.player = Some(self.new_player(&self.strategy)?);
            }
            "foresight" => {
                let foresight = match value {
                    "on" => true,
                    "off" => false,
                    other => return Err(format!("unknown foresight `{other}` (off or on)")),
                };
                if foresight && self.objective == Objective::Score {
                    return Err(FORESIGHT_SURVIVES.to_owned());
                }
                self.foresight = foresight;
                if let Some(player) = &mut self.player {
                    player.set_foresight(self.foresight);
                }
            }
            other => return Err(format!("{} has no option `{other}`", Self::NAME)),
        }
        Ok(())
    }

    fn options(&self) -> Vec<PluginOption> {
        vec![
            PluginOption::choice(
                "mode",
                "How the AI presses buttons: normal (watchable) or fast",
                &self.mode.to_string(),
                &Mode::NAMES,
            )
            .with_key('F'),
            PluginOption::choice(
                "after-game-over",
                "What the AI does when a game ends: restart (Start, a new game) or continue (the \
                 hidden continue: the board empties, score, levels and speed are kept)",
                &self.after_game_over.to_string(),
                &AfterGameOver::NAMES,
            ),
            PluginOption::text(
                "strategy",
                "Search strategy: simple, smart, deep, or deep:CANDIDATES:SAMPLES[:PER_FIRST]",
                &self.strategy,
                "NAME",
            ),
            PluginOption::choice(
                "foresight",
                "Read the column generator from RAM and plan over the columns to come (off: \
                 fair play, seeing what a person sees)",
                if self.foresight { "on" } else { "off" },
                &["off", "on"],
            ),
            PluginOption::choice(
                "objective",
                "What the AI plays for: survive (fewest jewels) or score (points, staying safe)",
                self.objective.name(),
                &Objective::NAMES,
            ),
            PluginOption::number(
                "work",
                "Boards the fair search may score in one decision (0: no limit; foresight's beam \
                 has its own); without --time-budget it drops the time limit, so that a run \
                 repeats exactly on any machine",
                &self.work.unwrap_or(0).to_string(),
                LIMIT_RANGE,
            ),
            PluginOption::number(
                "time-budget",
                "Microseconds one decision may take (0: no limit)",
                &self
                    .budget()
                    .time
                    .map_or(0, |t| t.as_micros() as u64)
                    .to_string(),
                LIMIT_RANGE,
            ),
            PluginOption::text(
                "weights",
                "Evaluation file: weights as JSON or a learned value file",
                &self
                    .weights
                    .as_ref()
                    .map_or_else(|| BUILT_IN.to_owned(), |(p, _)| p.display().to_string()),
                "FILE",
            ),
        ]
    }

    fn inspect(&self, ram: &Ram) -> Inspection {
        inspect(ram)
    }

    fn recording(&self) -> Recording {
        Recording {
            ranges: dumps::TRACE_RANGES.to_vec(),
            routines: self.routines.clone(),
        }
    }

    fn stat(&self, key: &str) -> Option<i64> {
        // The statistics runs wait on, without gathering the rest.
        let stats = self.tracker.stats();
        let counter = |f: fn(&GameView) -> u32| i64::from(self.tracker.previous().map_or(0, f));
        let count = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
        Some(match key {
            "columns_placed" => count(stats.columns_placed),
            "game_overs" => count(stats.game_overs),
            "score" => counter(|v| v.score),
            "jewels" => counter(|v| v.jewels),
            "level" => counter(|v| v.level),
            "rollover_progress" => self.history.rollover_progress(),
            _ => {
                return self.stats().into_iter().find_map(|s| match s.value {
                    StatValue::Int(v) if s.key == key => Some(v),
                    _ => None,
                })
            }
        })
    }

    fn stop_conditions(&self) -> Vec<StopCondition> {
        vec![
            StopCondition::reached(
                "rollover",
                "the score, jewels and level displays have all rolled over since the run began",
                "rollover_progress",
                ALL_ROLLED_OVER,
            ),
            StopCondition::reached("game-over", "a game over", "game_overs", 1),
            StopCondition::counter("jewels", "the jewels counter", "jewels"),
            StopCondition::counter("score", "the score", "score"),
            StopCondition::counter("level", "the displayed level", "level"),
            StopCondition::counter("columns", "columns placed", "columns_placed"),
        ]
    }

    fn series(&self) -> Vec<Series> {
        self.history.series()
    }

    fn milestones(&self) -> Vec<Milestone> {
        self.history.milestones()
    }

    fn checkpoint(&mut self) -> Option<Vec<u8>> {
        if !self.tracker.between_columns() {
            return None;
        }
        let player = match &self.player {
            Some(player) => Some(player.snapshot()?),
            None => None,
        };
        let snapshot = Snapshot {
            version: SNAPSHOT_VERSION,
            tracker: self.tracker.stats().clone(),
            player,
            history: self.history.clone(),
        };
        serde_json::to_vec(&snapshot).ok()
    }

    fn resume(&mut self, snapshot: &[u8], ram: &Ram) -> Result<(), String> {
        let snapshot: Snapshot = serde_json::from_slice(snapshot)
            .map_err(|e| format!("its snapshot does not read: {e}"))?;
        if snapshot.version != SNAPSHOT_VERSION {
            return Err(format!(
                "its snapshot has version {}, this one reads {SNAPSHOT_VERSION}",
                snapshot.version
            ));
        }
        self.tracker
            .resume(snapshot.tracker, GameView::decode(ram).ok());
        self.history = snapshot.history;
        if let (Some(player), Some(saved)) = (self.player.as_mut(), snapshot.player) {
            player.restore(saved);
        }
        Ok(())
    }

    fn stats(&self) -> Vec<Stat> {
        let stats = self.tracker.stats();
        let work = self.player.as_ref().map(Player::stats).unwrap_or_default();
        let int = |key: &str, label: &str, value: u64| {
            Stat::new(
                key,
                label,
                StatValue::Int(i64::try_from(value).unwrap_or(i64::MAX)),
            )
        };
        let last = self.tracker.previous();
        let counter = |f: fn(&GameView) -> u32| u64::from(last.map_or(0, f));
        let mut all = vec![
            int("columns_placed", "columns placed", stats.columns_placed),
            int(
                "locked_as_planned",
                "locked where planned",
                work.locked_as_planned,
            ),
            int("locked_off_plan", "locked elsewhere", work.locked_off_plan),
            int("replans", "re-plans", work.replans),
            int(
                "missed_presses",
                "frames the column was not where the presses should have put it",
                work.missed_presses,
            ),
            int("games_started", "games started", stats.games_started),
            int("game_overs", "game overs", stats.game_overs),
            int(
                "inconsistent_frames",
                "frames of RAM no state of the game explains",
                stats.inconsistent_frames,
            ),
            int(
                "jewels_cleared",
                "jewels cleared (counted)",
                stats.jewels_cleared,
            ),
            int("score", "score (8 digits)", counter(|v| v.score)),
            int("jewels", "jewels (8-digit counter)", counter(|v| v.jewels)),
            int("level", "level (8 digits)", counter(|v| v.level)),
            int("decisions", "decisions", work.decisions),
            int(
                "decision_median_us",
                "median decision (us)",
                work.decision_times.median().as_micros() as u64,
            ),
            int(
                "decision_max_us",
                "longest decision (us)",
                work.decision_times.max().as_micros() as u64,
            ),
            int(
                "foreseen",
                "decisions searched for before their column spawned",
                work.foreseen,
            ),
            int(
                "waiting_frames",
                "frames a column fell while its search ran",
                work.waiting_frames,
            ),
            int(
                "blocked_us",
                "time the emulator waited for the search (us)",
                work.blocked.as_micros() as u64,
            ),
            int(
                "search_restarts",
                "search threads started again",
                work.worker_restarts,
            ),
            int(
                "displays_rolled_over",
                "displays rolled over (score, jewels, level)",
                self.history.rolled_over() as u64,
            ),
            int(
                "rollover_progress",
                "thousandths of the way to every display rolled over",
                self.history.rollover_progress().max(0) as u64,
            ),
        ];
        for (name, frame) in self.history.rollover_frames() {
            all.push(int(
                &format!("{name}_rollover_frame"),
                &format!("frame the {name} display rolled over (0: not yet)"),
                frame.unwrap_or(0),
            ));
        }
        all
    }
}

/// Bumped whenever [`Snapshot`] changes.
const SNAPSHOT_VERSION: u32 = 1;

/// What the plug-in keeps in a checkpoint ([`Plugin::checkpoint`]): taken between columns,
/// when nothing of a column is in hand.
#[derive(Serialize, Deserialize)]
struct Snapshot {
    version: u32,
    tracker: PlayStats,
    player: Option<PlayerSnapshot>,
    history: History,
}

/// Work and time limits: whole numbers, 0 for none.
const LIMIT_RANGE: NumberRange = NumberRange {
    min: 0.0,
    max: 1e12,
    integer: true,
};

fn parse_limit(name: &str, value: &str) -> Result<u64, String> {
    let number = LIMIT_RANGE
        .check(value)
        .map_err(|e| format!("--{name}: {e}"))?;
    // Whole and within 0..=1e12, so exact as an integer.
    Ok(number as u64)
}

impl MagicJewelryPlugin {
    fn apply_budget(&mut self) {
        let budget = self.budget();
        if let Some(player) = &mut self.player {
            player.set_budget(budget);
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use jewelbot_plugin::Status;
    use proptest::prelude::*;

    fn attached() -> MagicJewelryPlugin {
        let mut prg = vec![0u8; 64];
        prg[..dumps::OPEN_CARTRIDGE_SIGNATURE.len()]
            .copy_from_slice(dumps::OPEN_CARTRIDGE_SIGNATURE);
        let mut plugin = MagicJewelryPlugin::default();
        plugin
            .set_option("strategy", "simple")
            .expect("simple exists");
        plugin
            .attach(&RomIdentity {
                name: "test",
                mapper: 0,
                prg: &prg,
                chr: &[],
                prg_chr_crc32: 1,
                file_sha1: "",
            })
            .expect("the signature is recognised");
        plugin
    }

    fn frame(plugin: &mut MagicJewelryPlugin, number: u64, ram: &Ram) -> Buttons {
        let mut pokes = Vec::new();
        let mut buttons = Buttons::NONE;
        let mut status = Status::default();
        let mut ctx = FrameContext::new(number, ram, &[], &mut pokes, &mut buttons, &mut status);
        plugin.on_frame(&mut ctx);
        assert!(pokes.is_empty(), "the player never writes the game's RAM");
        buttons
    }

    /// Frames of the real game's RAM (`traces/`), every one of the traces that together show
    /// every state of the game: controls, clears, the wild column, level changes, game overs,
    /// the continue.
    fn real_frames() -> &'static [Ram] {
        static FRAMES: std::sync::OnceLock<Vec<Ram>> = std::sync::OnceLock::new();
        FRAMES.get_or_init(|| {
            let mut frames = Vec::new();
            for name in [
                "start-and-controls",
                "wild-and-levels",
                "game-over-restart",
                "continue",
            ] {
                let trace = crate::recordings::load(name);
                let mut replay = trace.replay();
                while let Some((_, ram)) = replay.next() {
                    frames.push(*ram);
                }
            }
            frames
        })
    }

    /// Values at the edges of what the game holds, where decoders and arithmetic break.
    const EDGES: [u8; 9] = [0, 1, 6, 7, 8, 9, 10, 0x80, 0xFF];

    /// The objective is an option of its own: listed, set, refused when unknown, and the player
    /// built for it plays the real game's frames.
    #[test]
    fn the_objective_option() {
        let mut plugin = attached();
        let listed = |plugin: &MagicJewelryPlugin| {
            plugin
                .options()
                .into_iter()
                .find(|o| o.name == "objective")
                .map(|o| (o.value, o.choices))
        };
        let survive = ("survive".to_owned(), vec!["survive".into(), "score".into()]);
        assert_eq!(listed(&plugin), Some(survive));
        plugin
            .set_option("objective", "score")
            .expect("an objective");
        assert_eq!(listed(&plugin).map(|(v, _)| v).as_deref(), Some("score"));
        let error = plugin.set_option("objective", "points").unwrap_err();
        assert!(error.contains("survive or score"), "{error}");
        assert_eq!(plugin.player().map(Player::strategy_name), Some("score"));
        plugin.set_option("mode", "fast").expect("a mode");
        for (n, ram) in real_frames().iter().enumerate() {
            frame(&mut plugin, n as u64, ram);
        }
    }

    /// A combo counter frozen past the game's 9 (as `--freeze A0=FF` makes it): the predicted
    /// locks count it on, and nothing overflows.
    #[test]
    fn a_frozen_combo_past_nine_never_panics_the_plug_in() {
        let mut plugin = attached();
        plugin.set_option("mode", "fast").expect("a mode");
        plugin
            .set_option("objective", "score")
            .expect("an objective");
        // A work budget: every column waits for its decision, whatever the machine.
        plugin.set_option("work", "3000").expect("a work budget");
        let mut planned = 0;
        for (n, base) in real_frames().iter().enumerate() {
            let mut ram = *base;
            ram[map::COMBO as usize] = 0xFF;
            planned += usize::from(!frame(&mut plugin, n as u64, &ram).is_empty());
        }
        assert!(planned > 500, "{planned} frames with presses");
        let stats = plugin.player().map(Player::stats).expect("a player");
        assert_eq!(stats.worker_restarts, 0, "the search panicked");
    }

    /// The score objective and foresight are refused together, in either order.
    #[test]
    fn foresight_and_the_score_objective_are_refused_together() {
        let mut plugin = attached();
        plugin.set_option("foresight", "on").expect("foresight");
        let error = plugin.set_option("objective", "score").unwrap_err();
        assert!(error.contains("survive"), "{error}");
        assert_eq!(plugin.objective, Objective::Survive);
        plugin.set_option("foresight", "off").expect("foresight");
        plugin
            .set_option("objective", "score")
            .expect("an objective");
        let error = plugin.set_option("foresight", "on").unwrap_err();
        assert!(error.contains("survive"), "{error}");
        assert!(!plugin.foresight);
    }

    /// Every real frame with the column mixed wild and coloured, the timers and speeds at
    /// their edges, and a counter digit over 9, frame after frame through the whole plug-in:
    /// no panic (an overflow-checked build), and no press on a frame the decoder refuses.
    #[test]
    fn edge_values_in_every_real_frame_never_panic_the_plug_in() {
        const MIXES: [[u8; 3]; 6] = [
            [WILD_, 1, 2],
            [3, WILD_, WILD_],
            [map::WILD_LANDED, WILD_, 4],
            [WILD_, WILD_, map::WILD_LANDED],
            [0, WILD_, 0],
            [map::WILD_LANDED; 3],
        ];
        const WILD_: u8 = crate::engine::WILD;
        let frames = real_frames();
        let mut plugin = attached();
        plugin.set_option("mode", "fast").expect("a mode");
        for (n, base) in frames.iter().enumerate() {
            let mut ram = *base;
            let edge = EDGES[n % EDGES.len()];
            match n % 6 {
                0 => ram[map::CURRENT_COLUMN as usize..][..3]
                    .copy_from_slice(&MIXES[n / 6 % MIXES.len()]),
                1 => ram[map::FALL_TIMER as usize] = 0xFF,
                2 => {
                    ram[map::SPEED_IN_FORCE as usize] = edge;
                    ram[map::FALL_SPEED as usize] = edge;
                }
                3 => ram[(map::SCORE + (n as u16 / 6) % 8) as usize] = 10 + (n / 6 % 246) as u8,
                4 => {
                    ram[map::COLUMN_Y as usize] = edge;
                    ram[map::COLUMN_X as usize] = EDGES[(n / 6) % EDGES.len()];
                }
                _ => ram[map::NEXT_COLUMN as usize + n % 3] = edge,
            }
            let buttons = frame(&mut plugin, n as u64, &ram);
            if GameView::decode(&ram).is_err() {
                assert!(buttons.is_empty(), "frame {n}: pressed {buttons:?}");
            }
            let _ = plugin.inspect(&ram);
        }
        let _ = plugin.stats();
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        /// Runs of real frames with bytes changed, some held over the run and some on one frame,
        /// through the whole plug-in with every strategy: never a panic.
        #[test]
        fn real_frames_with_bytes_changed_never_panic_the_plug_in(
            start in any::<prop::sample::Index>(),
            count in 1usize..24,
            strategy in prop::sample::select(vec!["simple", "smart", "deep", "deep:2:2"]),
            fast in any::<bool>(),
            held in proptest::collection::vec((0u16..0x100, prop::sample::select(EDGES.to_vec())), 0..4),
            once in proptest::collection::vec(
                (0usize..24, prop_oneof![0u16..0x100, 0x380u16..0x3F8], any::<u8>()), 0..8),
        ) {
            let frames = real_frames();
            let start = start.index(frames.len());
            let mut plugin = attached();
            plugin.set_option("strategy", strategy).expect("a strategy");
            plugin.set_option("mode", if fast { "fast" } else { "normal" }).expect("a mode");
            for (k, base) in frames[start..].iter().take(count).enumerate() {
                let mut ram = *base;
                for &(address, value) in &held {
                    ram[usize::from(address)] = value;
                }
                for &(_, address, value) in once.iter().filter(|(at, _, _)| *at == k) {
                    ram[usize::from(address)] = value;
                }
                let buttons = frame(&mut plugin, k as u64, &ram);
                if GameView::decode(&ram).is_err() {
                    prop_assert!(buttons.is_empty());
                }
                let _ = plugin.inspect(&ram);
            }
            let _ = plugin.stats();
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Garbage RAM, frame after frame, never panics the plug-in: it reports inconsistent
        /// frames and presses nothing on them.
        #[test]
        fn garbage_ram_never_panics_the_plug_in(frames in proptest::collection::vec(
            proptest::collection::vec(any::<u8>(), 0x800), 1..12)
        ) {
            let mut plugin = attached();
            for (n, bytes) in frames.iter().enumerate() {
                let mut ram = [0u8; 0x800];
                ram.copy_from_slice(bytes);
                let buttons = frame(&mut plugin, n as u64, &ram);
                if GameView::decode(&ram).is_err() {
                    prop_assert!(buttons.is_empty());
                }
                let _ = plugin.inspect(&ram);
            }
            let _ = plugin.stats();
        }

        /// A game's RAM with any byte of the state changed: every state the decoder accepts is
        /// played without a panic.
        #[test]
        fn a_game_with_one_byte_changed_never_panics_the_plug_in(
            address in 0x00u16..0x100, value in any::<u8>(), x in 0u8..6, y in 0u8..13
        ) {
            let mut plugin = attached();
            let mut ram = [0u8; 0x800];
            ram[map::FALL_SPEED as usize] = 8;
            ram[map::SPEED_IN_FORCE as usize] = 8;
            ram[map::CURRENT_COLUMN as usize..][..3].copy_from_slice(&[7, 7, 7]);
            ram[map::NEXT_COLUMN as usize..][..3].copy_from_slice(&[1, 2, 3]);
            ram[map::COLUMN_X as usize] = x;
            ram[map::COLUMN_Y as usize] = y;
            for row in y as i8 - 2..=y as i8 {
                ram[map::cell_address(row, x) as usize] = 7;
            }
            frame(&mut plugin, 1, &ram);
            ram[address as usize] = value;
            frame(&mut plugin, 2, &ram);
            ram[map::FALL_TIMER as usize] = 255;
            frame(&mut plugin, 3, &ram);
        }
    }
}
