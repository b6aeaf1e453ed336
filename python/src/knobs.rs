//! The player's settings as Python keyword arguments, made from the engine's one table of
//! knobs (`KNOBS`): `foresight_depth=3` is the knob `foresight-depth`.

use magic_jewelry_engine::player::{Knob, Values, KNOBS};
use magic_jewelry_engine::PlayerSpec;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList};

/// The Python name of a knob.
pub fn keyword(knob: &Knob) -> String {
    knob.name.replace('-', "_")
}

/// The knob's value as the table writes it, from a Python value of the knob's kind.
fn text(knob: &Knob, value: &Bound<'_, PyAny>) -> PyResult<String> {
    let name = keyword(knob);
    match knob.values {
        Values::Switch => {
            if let Ok(on) = value.cast::<PyBool>() {
                return Ok(if on.is_true() { "on" } else { "off" }.to_owned());
            }
            Err(PyTypeError::new_err(format!("{name} is True or False")))
        }
        Values::Count { .. } => {
            if value.is_instance_of::<PyBool>() {
                return Err(PyTypeError::new_err(format!(
                    "{name} is an int, not a bool"
                )));
            }
            value
                .extract::<i128>()
                .map(|n| n.to_string())
                .map_err(|_| PyTypeError::new_err(format!("{name} is an int")))
        }
        Values::Choice(_) | Values::Text { .. } => value
            .extract::<String>()
            .map_err(|_| PyTypeError::new_err(format!("{name} is a str"))),
    }
}

/// `spec` with the knobs given as keyword arguments, set in the table's order (the rules
/// before the weights they are read under). `allowed` says which knobs the caller offers.
pub fn apply(
    spec: &mut PlayerSpec,
    given: Option<&Bound<'_, PyDict>>,
    caller: &str,
    allowed: impl Fn(&Knob) -> bool,
) -> PyResult<()> {
    let Some(given) = given else { return Ok(()) };
    for key in given.keys() {
        let key: String = key.extract()?;
        if !KNOBS.iter().any(|k| keyword(k) == key && allowed(k)) {
            let known: Vec<String> = KNOBS.iter().filter(|k| allowed(k)).map(keyword).collect();
            return Err(PyTypeError::new_err(format!(
                "{caller} got an unexpected keyword argument {key:?} (the player's: {})",
                known.join(", ")
            )));
        }
    }
    for knob in &KNOBS {
        let Some(value) = given.get_item(keyword(knob))? else {
            continue;
        };
        let value = text(knob, &value)?;
        knob.apply(spec, &value)
            .map_err(|e| PyValueError::new_err(format!("{}: {e}", keyword(knob))))?;
    }
    for knob in KNOBS.iter().filter(|k| k.needs_foresight) {
        if given.contains(keyword(knob))? && !spec.foresight {
            return Err(PyValueError::new_err(format!(
                "{} is how far foresight looks: it needs foresight=True",
                keyword(knob)
            )));
        }
    }
    Ok(())
}

/// Every knob: its keyword, default, values and help (`jewelbot.knobs()`).
pub fn describe(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for knob in &KNOBS {
        let entry = PyDict::new(py);
        entry.set_item("name", keyword(knob))?;
        entry.set_item("default", knob.default_value())?;
        entry.set_item("help", knob.help)?;
        let values = match knob.values {
            Values::Choice(names) => names.join(" | "),
            Values::Switch => "True | False".to_owned(),
            Values::Text { value_name, .. } => value_name.to_owned(),
            Values::Count { min, max } => format!("{min}..={max}"),
        };
        entry.set_item("values", values)?;
        entry.set_item("needs_foresight", knob.needs_foresight)?;
        list.append(entry)?;
    }
    Ok(list)
}
