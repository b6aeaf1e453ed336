//! The emulator's game against the model's: what `horizon` proves is about the game the engine
//! plays from the power-on's generator state; this says whether the player in the emulator
//! plays that game. Fed the console's RAM after every frame (the host runs the console and the
//! player; this crate stays free of the emulator), it compares every spawn's state (the
//! settled board, both columns, the generator's place in its cycle, $6E, $6D and the combo
//! counter: everything that decides the rest of the game, [`SpawnState`]) with the model's,
//! column for column, and says where they part.

use crate::horizon::{play_column, SpawnState};
use jewelbot_plugin::Ram;
use magic_jewelry::engine::{
    Board, Column, Foresight, ForesightConfig, Game, GameGenerator, InputModel, RuleSet, Strategy,
};
use magic_jewelry::game_view::GameView;
use magic_jewelry::play::tracker::Tracker;
use magic_jewelry::plugin::Settings;
use serde::Serialize;

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
        let budget = settings.budget();
        if !budget.is_deterministic() {
            anyhow::bail!(
                "the model needs a player that decides the same way every time: give a work \
                 budget (--work N), not a time budget ({budget})"
            );
        }
        // As the plug-in's search makes it: the fair strategy inside foresight, which plays
        // fair when the question carries no generator.
        let fair = settings
            .strategy
            .build(settings.evaluator(), settings.objective);
        let mut strategy: Box<dyn Strategy> =
            Box::new(Foresight::new(fair, ForesightConfig::default()));
        strategy.set_budget(budget);
        strategy.set_rules(RuleSet::Real);
        Ok(Self {
            game: Game::from_generator_state(state),
            strategy,
            foresight: settings.foresight,
            input: settings.mode.input_model(),
            tracker: Tracker::default(),
            columns: 0,
            started: false,
            parting: None,
            model_lost: false,
            ending: None,
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
        if self.model_lost {
            self.ending = Some(Ending::ModelOnly(last));
            return;
        }
        self.started = true;
        let Some(emulator) = state_of(&view) else {
            return;
        };
        let model = SpawnState::of(&self.game);
        if emulator != model {
            self.parting = Some(Parting {
                column: self.columns,
                frame,
                differences: differences(&emulator, &model),
                emulator_board: emulator.board.to_string(),
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

/// The emulator's state at a spawn, as the model keeps it.
fn state_of(view: &GameView) -> Option<SpawnState> {
    let falling = view.falling?;
    Some(SpawnState {
        board: Board::from_grid(&view.board.0).ok()?,
        current: Column(falling.jewels),
        next: Column(view.next),
        cycle_position: GameGenerator::new(view.generator).cycle_position(),
        since_wild: u32::from(view.removed),
        level: view.level_in_force(),
        combo: view.combo,
    })
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
