//! `jewelbot.Game`: the engine's game of Magic Jewelry, one column a step, no emulator.

use crate::observed::Observed;
use magic_jewelry_engine::rules::board::WIDTH;
use magic_jewelry_engine::rules::ColumnGenerator;
use magic_jewelry_engine::{reachable, FallState, Game, InputModel, Placements, RuleSet, Turn};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::{Mutex, PoisonError};

/// Arrangements an action can ask for: the three rotations (the game's A and B).
pub const ARRANGEMENTS: u8 = 3;
/// Actions of the placements environment: x 0-5 by arrangement 0-2, `x * 3 + arrangement`.
pub const ACTIONS: usize = WIDTH * ARRANGEMENTS as usize;

/// How the placements environment's player presses: as fast as the game takes presses.
pub const INPUT: InputModel = InputModel::FAST;

/// The placement an action names, or why it names none.
pub fn placement_of(action: &Bound<'_, PyAny>) -> PyResult<(u8, u8)> {
    if action.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err("an action is an int 0-17, not a bool"));
    }
    let Ok(index) = action.extract::<i64>() else {
        return Err(PyTypeError::new_err(format!(
            "an action is an int 0-17 (x * 3 + arrangement), not {}",
            action.get_type().name()?
        )));
    };
    match u8::try_from(index) {
        Ok(i) if usize::from(i) < ACTIONS => Ok((i / ARRANGEMENTS, i % ARRANGEMENTS)),
        _ => Err(PyValueError::new_err(format!(
            "action {index} is out of range: 0-{} (x * 3 + arrangement)",
            ACTIONS - 1
        ))),
    }
}

/// The mask of the actions `placements` reach.
pub fn mask_of(placements: &[magic_jewelry_engine::Placement]) -> [bool; ACTIONS] {
    let mut mask = [false; ACTIONS];
    for p in placements {
        if p.arrangement < ARRANGEMENTS {
            mask[usize::from(p.x * ARRANGEMENTS + p.arrangement)] = true;
        }
    }
    mask
}

/// An action's refusal when the column cannot reach it.
pub fn unreachable(x: u8, arrangement: u8, mask: &[bool; ACTIONS]) -> PyErr {
    let reachable: Vec<String> = (0..ACTIONS)
        .filter(|&i| mask[i])
        .map(|i| i.to_string())
        .collect();
    PyValueError::new_err(format!(
        "action {} (x {x}, arrangement {arrangement}) is not reachable by the column in hand; \
         reachable: {}",
        x * ARRANGEMENTS + arrangement,
        if reachable.is_empty() {
            "none".to_owned()
        } else {
            reachable.join(", ")
        }
    ))
}

/// What placing a column did, as Python sees it.
pub fn turn_dict<'py>(py: Python<'py>, turn: &Turn) -> PyResult<Bound<'py, PyDict>> {
    let outcome = turn.resolution.map(|r| r.outcome);
    let dict = PyDict::new(py);
    dict.set_item("points", turn.points())?;
    dict.set_item("removed", outcome.map_or(0, |o| o.removed))?;
    dict.set_item("chains", outcome.map_or(0, |o| o.chains))?;
    dict.set_item("wild", turn.wild)?;
    dict.set_item("jewels", turn.jewels)?;
    dict.set_item("lost", turn.lost)?;
    Ok(dict)
}

/// The rules named `name`.
pub fn rules(name: &str) -> PyResult<RuleSet> {
    name.parse::<RuleSet>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

struct Engine {
    game: Game,
    /// Where the column in hand can lock, found once per column.
    placements: Placements,
}

impl Engine {
    fn new(game: Game) -> Self {
        let placements = spawn_placements(&game);
        Self { game, placements }
    }
}

fn spawn_placements(game: &Game) -> Placements {
    reachable(game.board(), FallState::spawn(game.fall_speed()), INPUT)
}

/// A game of Magic Jewelry on the engine: the rules, the column generator, the counters, and
/// what each placement does, as the player's search and the lab play it.
///
/// ``Game(rules="real", seed=0, *, generator_state=None)``: ``rules`` is ``"real"`` (the real
/// game's generator, wild columns and scoring) or ``"reference"`` (independent colours, no
/// wild columns); ``seed`` chooses the columns dealt, as ``jewelbot sim --seed`` does for
/// one game; ``generator_state`` (real rules only) starts the real game's generator at that
/// state, as the console holds it in $44/$45 when a game starts.
///
/// Actions are ``x * 3 + arrangement`` (x 0-5, arrangement 0-2 presses of A): ``action_mask()``
/// says which the column in hand can reach from its spawn, by the same breadth-first search
/// over taps the player uses. After a game over the next game starts from an empty board.
#[pyclass(module = "jewelbot", name = "Game", frozen)]
pub struct PyGame {
    engine: Mutex<Engine>,
}

impl PyGame {
    pub fn from_game(game: Game) -> Self {
        Self {
            engine: Mutex::new(Engine::new(game)),
        }
    }

    /// The game as it stands.
    pub fn game(&self) -> Game {
        self.with(|e| e.game.clone())
    }

    fn with<R>(&self, f: impl FnOnce(&mut Engine) -> R) -> R {
        f(&mut self.engine.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (rules="real", seed=0, *, generator_state=None))]
    fn new(rules: &str, seed: u64, generator_state: Option<i64>) -> PyResult<Self> {
        let rules = self::rules(rules)?;
        let game = match generator_state {
            None => Game::new(rules, seed),
            Some(_) if rules != RuleSet::Real => {
                return Err(PyValueError::new_err(
                    "generator_state is the real game's: it needs rules=\"real\"",
                ))
            }
            Some(state) => Game::from_generator_state(u16::try_from(state).map_err(|_| {
                PyValueError::new_err(format!("generator_state {state} is not 0-65535"))
            })?),
        };
        Ok(Self::from_game(game))
    }

    /// The real game's generator state a game of ``seed`` is dealt from (what the console
    /// holds in $44/$45 as the game starts): ``Game("real", seed)`` and a console game started
    /// from this state deal the same columns.
    #[staticmethod]
    fn dealt_state(seed: u64) -> u16 {
        match ColumnGenerator::game(seed) {
            ColumnGenerator::Game(generator) => generator.state(),
            ColumnGenerator::Uniform(_) => unreachable!("the game's generator"),
        }
    }

    /// The game at the spawn of the column in hand, decoded as the environments observe it.
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.with(|e| Observed::of_game(&e.game)).into_dict(py)
    }

    /// Which of the 18 actions the column in hand can reach (all false: it cannot move, and
    /// the game is lost).
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        PyArray1::from_slice(py, &self.with(|e| mask_of(&e.placements)))
    }

    /// Places the column in hand as ``action`` and brings on the next; returns what it did:
    /// ``points``, ``removed`` (cells cleared), ``chains``, ``wild``, ``jewels`` left on the
    /// board and ``lost``. An action the column cannot reach raises ``ValueError``.
    fn play<'py>(
        &self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (x, arrangement) = placement_of(action)?;
        let turn = self.with(|e| {
            let mask = mask_of(&e.placements);
            if !mask[usize::from(x * ARRANGEMENTS + arrangement)] {
                return Err(unreachable(x, arrangement, &mask));
            }
            let turn = e.game.play(Some((x, arrangement)));
            e.placements = spawn_placements(&e.game);
            Ok(turn)
        })?;
        turn_dict(py, &turn)
    }

    /// Gives the game up (the column in hand cannot move): a new game starts.
    fn give_up<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let turn = self.with(|e| {
            let turn = e.game.play(None);
            e.placements = spawn_placements(&e.game);
            turn
        });
        turn_dict(py, &turn)
    }

    /// The rules: ``"real"`` or ``"reference"``.
    #[getter]
    fn rules(&self) -> &'static str {
        self.with(|e| e.game.rules().name())
    }

    /// The settled board as a ``(15, 6)`` ``uint8`` array of cells (0 empty, 1-6 colours,
    /// 7 wild), row -2 (hidden) first.
    #[getter]
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let grid = self.with(|e| e.game.board().to_grid());
        PyArray1::from_vec(py, grid.concat()).reshape([grid.len(), WIDTH])
    }

    /// The column in hand, top to bottom (``(7, 7, 7)``: the wild column).
    #[getter]
    fn current(&self) -> (u8, u8, u8) {
        let [a, b, c] = self.with(|e| e.game.current().0);
        (a, b, c)
    }

    /// The next column shown.
    #[getter]
    fn next(&self) -> (u8, u8, u8) {
        let [a, b, c] = self.with(|e| e.game.next().0);
        (a, b, c)
    }

    /// The counters: ``score``, ``jewels``, ``level`` (internal), ``wild_columns`` (the
    /// level shown), ``combo``, ``since_wild``.
    #[getter]
    fn counters<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let c = self.with(|e| *e.game.counters());
        let dict = PyDict::new(py);
        dict.set_item("score", c.score)?;
        dict.set_item("jewels", c.jewels)?;
        dict.set_item("level", c.level)?;
        dict.set_item("wild_columns", c.wild_columns)?;
        dict.set_item("combo", c.combo)?;
        dict.set_item("since_wild", c.since_wild)?;
        Ok(dict)
    }

    /// The real game's generator state after making the next column (``None`` under the
    /// reference rules).
    #[getter]
    fn generator_state(&self) -> Option<u16> {
        self.with(|e| match e.game.generator() {
            ColumnGenerator::Game(g) => Some(g.state()),
            ColumnGenerator::Uniform(_) => None,
        })
    }

    /// An independent copy of this game.
    fn copy(&self) -> Self {
        Self::from_game(self.game())
    }

    fn __copy__(&self) -> Self {
        self.copy()
    }

    fn __repr__(&self) -> String {
        self.with(|e| {
            format!(
                "Game(rules {}, column {}, next {}, score {})",
                e.game.rules().name(),
                e.game.current(),
                e.game.next(),
                e.game.counters().score
            )
        })
    }
}
