//! `jewelbot.Player`: the player, built from the one description of it (`PlayerSpec`).

use crate::game::{PyGame, ARRANGEMENTS};
use crate::knobs;
use crate::observed::{self, Observed};
use magic_jewelry_engine::rules::ColumnGenerator;
use magic_jewelry_engine::{
    Board, Column, Counters, Explanation, FallState, GameGenerator, PlayerSpec, Question, RuleSet,
    Strategy,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::{Mutex, PoisonError};

/// The question an observation asks: the board, both columns, the counters the player weighs,
/// the column at its spawn, and the generator when the player has foresight under the real
/// rules.
pub fn question(observed: &Observed, spec: &PlayerSpec) -> PyResult<Question> {
    let board = Board::from_grid(&observed.grid)
        .map_err(|e| PyValueError::new_err(format!("the observation's board: {e}")))?;
    let current = Column(observed.current);
    if !current.is_valid() {
        return Err(PyValueError::new_err(format!(
            "the observation's current column {:?} is not a column (colours 1-6, or 7,7,7)",
            observed.current
        )));
    }
    let next = Column(observed.next);
    let speed = u8::try_from(observed.speed)
        .ok()
        .filter(|&s| s > 0)
        .ok_or_else(|| PyValueError::new_err("the observation's speed is not 1-255"))?;
    let small = |n: u64, max: u64| n.min(max);
    let generator = (spec.foresight && spec.rules == RuleSet::Real)
        .then(|| ColumnGenerator::Game(GameGenerator::new(observed.generator as u16)));
    Ok(Question {
        counters: Counters {
            score: observed.score,
            jewels: observed.jewels,
            since_wild: small(observed.since_wild, 255) as u32,
            combo: small(observed.combo, 9) as u8,
            level: small(observed.level, 255) as u8,
            wild_columns: 0,
        },
        generator,
        ..Question::new(
            board,
            current,
            next.is_valid().then_some(next),
            FallState::spawn(speed),
            spec.input,
        )
    })
}

/// The player: where each column goes, and why.
///
/// ``Player(**knobs)`` takes the player's settings, each declared once in the engine
/// (``jewelbot.knobs()`` lists them with their defaults and help): ``strategy`` (``"deep"``,
/// ``"smart"``, ``"simple"`` or ``"deep:K:S[:M]"``), ``objective`` (``"survive"`` or
/// ``"score"``), ``rules``, ``weights``, ``foresight``, ``foresight_depth``, ``beam``,
/// ``foresight_work``, ``work``, ``time_budget``, ``tap_interval``. With no budget given a
/// decision scores at most 3,000 boards, so that the same game gives the same choices on any
/// machine. ``Player()`` is the player as it ships.
#[pyclass(module = "jewelbot", name = "Player", frozen)]
pub struct Player {
    spec: PlayerSpec,
    strategy: Mutex<Box<dyn Strategy>>,
}

#[pymethods]
impl Player {
    #[new]
    #[pyo3(signature = (**knobs))]
    fn new(knobs: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let mut spec = PlayerSpec::default();
        knobs::apply(&mut spec, knobs, "Player()", |_| true)?;
        let strategy = Mutex::new(spec.build());
        Ok(Self { spec, strategy })
    }

    /// Where the column in hand goes: ``(action, reason)``, the placements environment's
    /// action (``x * 3 + arrangement``) and why it won, in one line. ``game`` is a
    /// ``jewelbot.Game`` or an environment's observation. ``(None, reason)`` when the column
    /// cannot move. The search runs without the GIL.
    fn choose(&self, py: Python<'_>, game: &Bound<'_, PyAny>) -> PyResult<(Option<u8>, String)> {
        let question = if let Ok(game) = game.cast::<PyGame>() {
            let game = game.get().game();
            if game.rules() != self.spec.rules {
                return Err(PyValueError::new_err(format!(
                    "the player plays by the {} rules and this game by the {}: \
                     Player(rules={:?})",
                    self.spec.rules.name(),
                    game.rules().name(),
                    game.rules().name()
                )));
            }
            Question::at_spawn(&game, self.spec.input, self.spec.foresight)
        } else {
            question(&observed::from_dict(game)?, &self.spec)?
        };
        let rules = self.spec.rules;
        let decided = py.detach(|| {
            let mut strategy = self.strategy.lock().unwrap_or_else(PoisonError::into_inner);
            strategy.decide(&question)
        });
        let Some(decision) = decided else {
            return Ok((None, "the column cannot move: the game is lost".to_owned()));
        };
        let reason = Explanation::of(rules, &question.board, question.current, &decision)
            .map_or_else(|| "the only placement".to_owned(), |e| e.to_string());
        if decision.arrangement >= ARRANGEMENTS {
            return Err(PyValueError::new_err(
                "the player chose a swap, which the placements' actions do not name",
            ));
        }
        Ok((
            Some(decision.x * ARRANGEMENTS + decision.arrangement),
            reason,
        ))
    }

    /// The player's settings, as results files describe it (a JSON text).
    #[getter]
    fn description(&self) -> PyResult<String> {
        serde_json::to_string(&self.spec.description())
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The rules it plays by.
    #[getter]
    fn rules(&self) -> &'static str {
        self.spec.rules.name()
    }

    fn __repr__(&self) -> String {
        format!(
            "Player({} playing to {} under the {} rules, {})",
            self.spec.strategy,
            self.spec.objective,
            self.spec.rules.name(),
            self.spec.budget()
        )
    }
}
