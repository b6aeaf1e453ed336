//! The decoded game, as both environments and the player see it: the same fields whether
//! they come from the engine's game or from RAM.

use magic_jewelry::game_view::GameView;
use magic_jewelry_engine::rules::board::{ROWS, WIDTH};
use magic_jewelry_engine::rules::ColumnGenerator;
use magic_jewelry_engine::{Game, InputModel, Question, RuleSet, SPAWN_X, SPAWN_Y};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Planes of the board: one for each colour 1-6, then the wild jewel (7).
pub const PLANES: usize = 7;

/// The counters' bound in the observation (`jewelbot.envs.COUNTER_HIGH`): 2^53 - 1, which a
/// float holds exactly, so that Gymnasium's spaces sample it.
pub const COUNTER_HIGH: u64 = (1 << 53) - 1;

/// The counters, in the order of the observation's `counters` array.
pub const COUNTERS: [&str; 7] = [
    "score",
    "jewels",
    "level",
    "speed",
    "combo",
    "since_wild",
    "generator",
];

/// One moment of a game, decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Observed {
    /// The settled board, row -2 first, without the falling column.
    pub grid: [[u8; WIDTH]; ROWS],
    /// The column in hand, top to bottom (7,7,7: the wild column).
    pub current: [u8; 3],
    pub next: [u8; 3],
    /// Where the column in hand is: x 0-5 and the row of its bottom jewel.
    pub x: u8,
    pub y: u8,
    pub score: u64,
    pub jewels: u64,
    /// The internal level ($6D): it sets the speed.
    pub level: u64,
    /// Frames a row at the level.
    pub speed: u64,
    pub combo: u64,
    /// Cells removed since the last wild column ($6E).
    pub since_wild: u64,
    /// The column generator's state after making the next column (0 when the colours are
    /// independent, under the reference rules).
    pub generator: u64,
}

impl Observed {
    /// The engine's game at the spawn of its column in hand.
    pub fn of_game(game: &Game) -> Self {
        Self::of_question(&Question::at_spawn(game, InputModel::FAST, true))
    }

    /// What a question at a spawn shows (its generator when it carries one, as the game
    /// holds it after making the next column).
    pub fn of_question(question: &Question) -> Self {
        let counters = question.counters;
        Self {
            grid: question.board.to_grid(),
            current: question.current.0,
            next: question.next.map_or([0; 3], |c| c.0),
            x: SPAWN_X,
            y: SPAWN_Y as u8,
            score: counters.score,
            jewels: counters.jewels,
            level: u64::from(counters.level),
            speed: u64::from(question.start.speed),
            combo: u64::from(counters.combo),
            since_wild: u64::from(counters.since_wild),
            generator: match &question.generator {
                Some(ColumnGenerator::Game(generator)) => u64::from(generator.state()),
                Some(ColumnGenerator::Uniform(_)) | None => 0,
            },
        }
    }

    /// One frame of the real game's RAM.
    pub fn of_view(view: &GameView) -> Self {
        Self {
            grid: view.board.0,
            current: view.current,
            next: view.next,
            x: view.column_x,
            y: view.column_y,
            score: u64::from(view.score),
            jewels: u64::from(view.jewels),
            level: u64::from(view.level_in_force()),
            // On the spawn frame after a wild column the level is raised by the next NMI,
            // which sets the speed the column falls at.
            speed: u64::from(if view.level_up {
                RuleSet::Real.fall_speed(view.level_in_force())
            } else {
                view.fall_speed
            }),
            combo: u64::from(view.combo),
            since_wild: u64::from(view.removed),
            generator: u64::from(view.generator),
        }
    }

    /// The observation: `board` (7, 15, 6) planes, `current` and `next` (3,), `position` (2,),
    /// all `uint8`, and `counters` (7,) `int64` in [`COUNTERS`] order.
    pub fn into_dict(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let mut planes = vec![0u8; PLANES * ROWS * WIDTH];
        for (row, cells) in self.grid.iter().enumerate() {
            for (x, &cell) in cells.iter().enumerate() {
                if (1..=PLANES as u8).contains(&cell) {
                    planes[(usize::from(cell) - 1) * ROWS * WIDTH + row * WIDTH + x] = 1;
                }
            }
        }
        let counters = [
            self.score,
            self.jewels,
            self.level,
            self.speed,
            self.combo,
            self.since_wild,
            self.generator,
        ]
        .map(|n| n.min(COUNTER_HIGH) as i64);
        let dict = PyDict::new(py);
        dict.set_item(
            "board",
            PyArray1::from_vec(py, planes).reshape([PLANES, ROWS, WIDTH])?,
        )?;
        dict.set_item("current", PyArray1::from_slice(py, &self.current))?;
        dict.set_item("next", PyArray1::from_slice(py, &self.next))?;
        dict.set_item("position", PyArray1::from_slice(py, &[self.x, self.y]))?;
        dict.set_item("counters", PyArray1::from_slice(py, &counters))?;
        Ok(dict)
    }
}

/// Reads an observation back (the environments' `dict`, or one built alike): what a player
/// is asked about. Wrong shapes or values raise `ValueError`, a missing key `KeyError`.
pub fn from_dict(observation: &Bound<'_, PyAny>) -> PyResult<Observed> {
    use pyo3::exceptions::PyValueError;
    let py = observation.py();
    let numpy = py.import("numpy")?;
    let field = |name: &str, len: usize| -> PyResult<Vec<i64>> {
        let value = observation.get_item(name)?;
        let flat: Vec<i64> = numpy
            .call_method1("asarray", (value,))?
            .call_method1("astype", ("int64",))?
            .call_method0("ravel")?
            .call_method0("tolist")?
            .extract()?;
        if flat.len() != len {
            return Err(PyValueError::new_err(format!(
                "observation[{name:?}] holds {} values, not {len}",
                flat.len()
            )));
        }
        Ok(flat)
    };
    let small = |name: &str, values: &[i64], max: i64| -> PyResult<Vec<u8>> {
        values
            .iter()
            .map(|&v| {
                u8::try_from(v)
                    .ok()
                    .filter(|&b| i64::from(b) <= max)
                    .ok_or_else(|| {
                        PyValueError::new_err(format!("observation[{name:?}] holds {v} (0-{max})"))
                    })
            })
            .collect()
    };
    let planes = small("board", &field("board", PLANES * ROWS * WIDTH)?, 1)?;
    let mut grid = [[0u8; WIDTH]; ROWS];
    for (plane, colour) in (1..=PLANES as u8).enumerate() {
        for row in 0..ROWS {
            for x in 0..WIDTH {
                if planes[plane * ROWS * WIDTH + row * WIDTH + x] == 1 {
                    if grid[row][x] != 0 {
                        return Err(PyValueError::new_err(format!(
                            "observation[\"board\"] has two colours in row {row}, column {x}"
                        )));
                    }
                    grid[row][x] = colour;
                }
            }
        }
    }
    let current = small("current", &field("current", 3)?, 7)?;
    let next = small("next", &field("next", 3)?, 7)?;
    let position = small("position", &field("position", 2)?, 255)?;
    let counters = field("counters", COUNTERS.len())?;
    let counter = |i: usize| {
        u64::try_from(counters[i]).map_err(|_| {
            PyValueError::new_err(format!(
                "observation[\"counters\"][{i}] ({}) is {}, below 0",
                COUNTERS[i], counters[i]
            ))
        })
    };
    Ok(Observed {
        grid,
        current: [current[0], current[1], current[2]],
        next: [next[0], next[1], next[2]],
        x: position[0],
        y: position[1],
        score: counter(0)?,
        jewels: counter(1)?,
        level: counter(2)?,
        speed: counter(3)?,
        combo: counter(4)?,
        since_wild: counter(5)?,
        generator: counter(6)?,
    })
}
