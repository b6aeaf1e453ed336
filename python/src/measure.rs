//! The lab's measures from Python: `sim` itself, and a Python policy played on the same
//! column sequences into the same statistics.

use crate::game::{mask_of, placement_of, unreachable, ARRANGEMENTS};
use crate::knobs;
use crate::observed::Observed;
use magic_jewelry_engine::{Question, RuleSet};
use magic_jewelry_lab::runner::{play_with, GameConfig};
use magic_jewelry_lab::sim;
use magic_jewelry_lab::stats::Stats;
use numpy::PyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Most columns one measure plays (the lab's own bound).
const MOST_COLUMNS: u64 = magic_jewelry_lab::args::MAX_COLUMNS;

fn columns(columns: i64) -> PyResult<u64> {
    match u64::try_from(columns) {
        Ok(n) if (1..=MOST_COLUMNS).contains(&n) => Ok(n),
        _ => Err(PyValueError::new_err(format!(
            "columns is {columns}; it must be 1 to {MOST_COLUMNS}"
        ))),
    }
}

/// The games ``jewelbot sim --seed SEED --columns COLUMNS`` plays, in order: ``(game_seed,
/// columns)``. ``Game(rules, game_seed)`` (or an environment reset with
/// ``options={"game_seed": game_seed}``) deals the same columns.
#[pyfunction]
#[pyo3(signature = (seed, columns))]
pub fn sim_games(seed: u64, columns: i64) -> PyResult<Vec<(u64, u64)>> {
    Ok(sim::chunks(seed, self::columns(columns)?).collect())
}

/// ``jewelbot sim``'s report, as a dict: the player named ``ai`` (``"player"``,
/// ``"reference"``, ``"simple"``, ``"smart"``, ``"deep"``, ``"deep:K:S[:M]"``, or
/// ``NAME@FILE``) over ``columns`` columns of the sequences of ``seed``, with the player's
/// other knobs as keywords (``objective="score"``, ``rules="reference"``, ...). Runs on
/// ``threads`` threads (0: one per core) without the GIL.
#[pyfunction]
#[pyo3(signature = (ai="player", *, columns=100_000, seed=1, threads=0, **knobs))]
pub fn simulate<'py>(
    py: Python<'py>,
    ai: &str,
    columns: i64,
    seed: u64,
    threads: usize,
    knobs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut args = sim::Args {
        ai: ai.to_owned(),
        columns: self::columns(columns)?,
        json: true,
        ..sim::Args::default()
    };
    magic_jewelry_engine::player::check_name(ai).map_err(PyValueError::new_err)?;
    args.game.seed = seed;
    args.workers.threads = threads;
    args.workers.quiet = true;
    knobs::apply(
        &mut args.player.spec,
        knobs,
        "simulate()",
        magic_jewelry_engine::player::Knob::in_lab,
    )?;
    let report = py
        .detach(|| sim::simulate(&args))
        .map_err(|e| PyValueError::new_err(format!("{e:#}")))?;
    let text = serde_json::to_string(&report).map_err(|e| PyValueError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}

/// Plays `columns` columns with a Python policy, on the column sequences `jewelbot sim
/// --seed SEED --columns COLUMNS` plays, and returns the statistics `sim` reports.
///
/// ``policy(observation, mask)`` returns an action (``x * 3 + arrangement``) or ``None`` to
/// give the game up. An exception from the policy stops the run and is raised here.
#[pyfunction]
#[pyo3(signature = (policy, *, columns=10_000, seed=1, rules="real"))]
pub fn evaluate<'py>(
    py: Python<'py>,
    policy: &Bound<'py, PyAny>,
    columns: i64,
    seed: u64,
    rules: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = crate::game::rules(rules)?;
    let columns = self::columns(columns)?;
    // The questions carry the generator, which the observation shows as the game holds it.
    let config = GameConfig {
        rules,
        foresight: true,
        ..GameConfig::default()
    };
    let mut stats = Stats::default();
    let mut failure: Option<PyErr> = None;
    for (chunk_seed, chunk_columns) in sim::chunks(seed, columns) {
        let choose = |question: &Question| -> Option<(u8, u8)> {
            if failure.is_some() {
                return None;
            }
            ask(py, policy, question).unwrap_or_else(|error| {
                failure = Some(error);
                None
            })
        };
        play_with(
            choose,
            chunk_seed,
            chunk_columns,
            config,
            &mut stats,
            |_| {},
        );
        if let Some(error) = failure {
            return Err(error);
        }
    }
    report(py, &stats, rules, seed)
}

fn ask(
    py: Python<'_>,
    policy: &Bound<'_, PyAny>,
    question: &Question,
) -> PyResult<Option<(u8, u8)>> {
    py.check_signals()?;
    let mask = mask_of(&question.placements());
    let observation = Observed::of_question(question).into_dict(py)?;
    let action = policy.call1((observation, PyArray1::from_slice(py, &mask)))?;
    if action.is_none() {
        return Ok(None);
    }
    let (x, arrangement) = placement_of(&action)?;
    if !mask[usize::from(x * ARRANGEMENTS + arrangement)] {
        return Err(unreachable(x, arrangement, &mask));
    }
    Ok(Some((x, arrangement)))
}

/// The statistics `sim` reports, from `stats`.
fn report<'py>(
    py: Python<'py>,
    stats: &Stats,
    rules: RuleSet,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("rules", rules.name())?;
    dict.set_item("seed", seed)?;
    dict.set_item("columns", stats.columns)?;
    dict.set_item("games", stats.games)?;
    dict.set_item("game_overs", stats.game_overs)?;
    dict.set_item("mean_jewels", stats.mean_jewels())?;
    dict.set_item("max_jewels", stats.max_jewels)?;
    // As `sim`'s JSON report writes it: no clear, no figure.
    let per_clear = stats.columns_per_clear();
    dict.set_item(
        "columns_per_clear",
        per_clear.is_finite().then_some(per_clear),
    )?;
    dict.set_item("points_per_column", stats.points_per_column())?;
    dict.set_item("wild_columns", stats.wild_columns)?;
    dict.set_item("highest_level", stats.highest_level)?;
    dict.set_item("removed", stats.removed)?;
    Ok(dict)
}
