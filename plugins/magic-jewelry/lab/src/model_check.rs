//! The emulator's game against the model's: what `horizon` proves is about the game the engine
//! plays from the power-on's generator state; this says whether the player in the emulator
//! plays that game. Fed the console's RAM after every frame (the host runs the console and the
//! player; this crate stays free of the emulator), it compares every spawn's state (the
//! settled board, both columns, the generator's place in its cycle, $6E, $6D and the combo
//! counter: everything that decides the rest of the game, [`SpawnState`]) with the model's,
//! column for column, and says where they part.

use crate::horizon::{play_column, SpawnState};
use jewelbot_plugin::{files, Ram, Trace};
use magic_jewelry::game_view::GameView;
use magic_jewelry::play::tracker::Tracker;
use magic_jewelry::plugin::Settings;
use magic_jewelry_engine::{Board, Column, Game, GameGenerator, InputModel, Strategy};
use serde::Serialize;
use std::io::Read;
use std::path::Path;

/// Where the emulator's game and the model's first differ.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Parting {
    /// The column (0: the first of the game) and the frame of its spawn in the emulator.
    pub column: u64,
    pub frame: u64,
    /// The parts of the state that differ.
    pub differences: Vec<&'static str>,
    pub emulator: SpawnState,
    pub model: SpawnState,
    #[serde(skip)]
    pub emulator_board: String,
    #[serde(skip)]
    pub model_board: String,
}

/// The model, played column by column as the emulator's spawns come.
pub struct ModelCheck {
    game: Game,
    strategy: Box<dyn Strategy>,
    /// Whether the player's questions carry the generator (foresight), and how it presses.
    foresight: bool,
    input: InputModel,
    tracker: Tracker,
    /// Spawns compared and found equal.
    columns: u64,
    /// Whether the emulator's game has begun (its first spawn seen).
    started: bool,
    parting: Option<Parting>,
    /// The model's last column lost its game.
    model_lost: bool,
    ending: Option<Ending>,
    /// A spawn seen whose column RAM does not show yet: the real game may end the spawn's
    /// frame before drawing the column (a spawn in the lock's own frame, or one that raced the
    /// timer), so its state is read once the column is drawn.
    pending: Option<PendingSpawn>,
    /// The frame of the last spawn seen (0 before the first).
    last_spawn: u64,
}

/// Frames without a spawn after which a game has stalled (paused, waiting at a game over, or
/// not the game at all): far more than any wait for a column takes (the power-on's automatic
/// start 1,230 frames; the first level's fall from the spawn to the floor, its rest and a
/// chain of 20 steps under 3,000).
pub const STALL_FRAMES: u64 = 10_000;

/// A spawn whose state is still to be read.
#[derive(Debug, Clone)]
struct PendingSpawn {
    frame: u64,
    /// The new column as the spawn's frame holds it ($5C-$5E), before any press turns it.
    current: Column,
    /// The spawn frame's view: the state, should the column never show.
    view: GameView,
}

/// How the games ended, at the column (counted from 0) whose lock ended one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "ended", content = "column")]
pub enum Ending {
    /// Both, at the same column: they still agree.
    Together(u64),
    /// The emulator's game ended and the model's went on.
    EmulatorOnly(u64),
    /// The model's game ended and the emulator's went on.
    ModelOnly(u64),
}

impl ModelCheck {
    /// The model of the player `settings` make (its strategy, evaluation, objective, foresight,
    /// mode and budget, which must be a work budget: a time budget makes no model), from the
    /// all-zero power-on's generator state.
    pub fn new(settings: &Settings) -> anyhow::Result<Self> {
        Self::from_generator_state(settings, GameGenerator::POWER_ON_STATE)
    }

    pub fn from_generator_state(settings: &Settings, state: u16) -> anyhow::Result<Self> {
        // The plug-in's own player, built as the plug-in builds it.
        let spec = settings.player_spec();
        let budget = spec.budget();
        if !budget.is_deterministic() {
            anyhow::bail!(
                "the model needs a player that decides the same way every time: give a work \
                 budget (--work N), not a time budget ({budget})"
            );
        }
        Ok(Self {
            game: Game::from_generator_state(state),
            strategy: spec.build(),
            foresight: spec.foresight,
            input: spec.input,
            tracker: Tracker::default(),
            columns: 0,
            started: false,
            parting: None,
            model_lost: false,
            ending: None,
            pending: None,
            last_spawn: 0,
        })
    }

    /// Spawns compared and found equal so far.
    pub fn columns(&self) -> u64 {
        self.columns
    }

    /// Where the games parted, once they have.
    pub fn parting(&self) -> Option<&Parting> {
        self.parting.as_ref()
    }

    /// How the games ended, once one has.
    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// Whether the games still agree: no parting, and no game ended alone.
    pub fn agrees(&self) -> bool {
        self.parting.is_none()
            && !matches!(
                self.ending,
                Some(Ending::EmulatorOnly(_) | Ending::ModelOnly(_))
            )
    }

    /// Whether no column has spawned for [`STALL_FRAMES`] frames up to `frame`.
    pub fn stalled(&self, frame: u64) -> bool {
        frame.saturating_sub(self.last_spawn) > STALL_FRAMES
    }

    /// Whether there is nothing more to compare.
    pub fn is_done(&self) -> bool {
        self.parting.is_some() || self.ending.is_some()
    }

    /// Takes the console's RAM after `frame`; at a spawn, compares its state with the model's
    /// and plays the model's column.
    pub fn observe(&mut self, frame: u64, ram: &Ram) {
        if self.is_done() {
            return;
        }
        let Ok(view) = GameView::decode(ram) else {
            self.tracker.note_inconsistent();
            return;
        };
        let events = self.tracker.observe(&view);
        if let Some(pending) = self.pending.take() {
            // The column shows now; or the next event came first, and the spawn's own frame
            // is all there is.
            if view.falling.is_some() {
                self.compare(pending.frame, pending.current, &view);
            } else if events.spawned || events.game_over || events.locked.is_some() {
                self.compare(pending.frame, pending.current, &pending.view);
            } else {
                self.pending = Some(pending);
            }
            if self.is_done() {
                return;
            }
        }
        // The column that ended a game is the last one compared.
        let last = self.columns.saturating_sub(1);
        if events.game_over && self.started {
            self.ending = Some(if self.model_lost {
                Ending::Together(last)
            } else {
                Ending::EmulatorOnly(last)
            });
            return;
        }
        if !events.spawned {
            return;
        }
        self.last_spawn = frame;
        if self.model_lost {
            self.ending = Some(Ending::ModelOnly(last));
            return;
        }
        self.started = true;
        let current = Column(view.current);
        if view.falling.is_some() {
            self.compare(frame, current, &view);
        } else {
            self.pending = Some(PendingSpawn {
                frame,
                current,
                view,
            });
        }
    }

    /// Compares the spawn at `frame` (its column `current`, the rest as `view` shows it) with
    /// the model's and plays the model's column.
    fn compare(&mut self, frame: u64, current: Column, view: &GameView) {
        let model = SpawnState::of(&self.game);
        let (emulator, emulator_board) = match Board::from_grid(&view.board.0) {
            Ok(board) => {
                let state = state_of(view, board, current);
                (state, board.to_string())
            }
            // Jewels over a gap: no board the model can have, so a parting in the board.
            Err(error) => {
                let text = format!("{}\n({error})", view.board.text_lines().join("\n"));
                (state_of(view, Board::empty(), current), text)
            }
        };
        if emulator != model || emulator_board != model.board.to_string() {
            let mut differences = differences(&emulator, &model);
            if differences.is_empty() {
                differences.push("board");
            }
            self.parting = Some(Parting {
                column: self.columns,
                frame,
                differences,
                emulator_board,
                model_board: model.board.to_string(),
                emulator,
                model,
            });
            return;
        }
        let (foresight, input) = (self.foresight, self.input);
        let strategy = self.strategy.as_mut();
        let played = play_column(
            &mut |question| {
                let mut question = question.clone();
                if !foresight {
                    question.generator = None;
                }
                strategy.choose(&question).map(|c| (c.x, c.arrangement))
            },
            &mut self.game,
            input,
        );
        self.columns += 1;
        self.model_lost = played.lost;
    }
}

/// Feeds a recording's frames to `check`, in order from power-on, until it has compared
/// `columns` spawns or has nothing more to compare; returns the last frame fed.
pub fn check_recording(check: &mut ModelCheck, trace: &Trace, columns: u64) -> u64 {
    let mut replay = trace.replay();
    let mut last = 0;
    while check.columns() < columns && !check.is_done() {
        let Some((frame, ram)) = replay.next() else {
            break;
        };
        last = frame.number;
        check.observe(frame.number, ram);
    }
    last
}

/// The most bytes a recording's file may hold (the 60,000-frame recordings take 2.5 MB
/// compressed, 30 MB as text).
const MOST_TRACE_BYTES: u64 = 1 << 30;

/// Reads a recording (`jewelbot record`'s format, gzip'd or not).
pub fn read_trace(path: &Path) -> anyhow::Result<Trace> {
    let bytes = files::read_regular(path, "trace", MOST_TRACE_BYTES)?;
    let mut text = String::new();
    let read = if bytes.starts_with(&[0x1F, 0x8B]) {
        flate2::read::GzDecoder::new(bytes.as_slice())
            .take(MOST_TRACE_BYTES)
            .read_to_string(&mut text)
    } else {
        bytes.as_slice().read_to_string(&mut text)
    };
    read.map_err(|e| anyhow::anyhow!("{}: not a trace: {e}", path.display()))?;
    Trace::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// The emulator's state at a spawn of `current` over `board`, as the model keeps it; the rest
/// as `view` shows it (the counters stay as they are while a column falls).
fn state_of(view: &GameView, board: Board, current: Column) -> SpawnState {
    SpawnState {
        board,
        current,
        next: Column(view.next),
        cycle_position: GameGenerator::new(view.generator).cycle_position(),
        since_wild: u32::from(view.removed),
        level: view.level_in_force(),
        combo: view.combo,
    }
}

/// The names of the parts of two states that differ.
fn differences(a: &SpawnState, b: &SpawnState) -> Vec<&'static str> {
    [
        ("board", a.board != b.board),
        ("current column", a.current != b.current),
        ("next column", a.next != b.next),
        (
            "generator's place in its cycle",
            a.cycle_position != b.cycle_position,
        ),
        (
            "cells removed since the wild column ($6E)",
            a.since_wild != b.since_wild,
        ),
        ("internal level ($6D)", a.level != b.level),
        ("combo counter ($A0)", a.combo != b.combo),
    ]
    .into_iter()
    .filter_map(|(name, differs)| differs.then_some(name))
    .collect()
}
