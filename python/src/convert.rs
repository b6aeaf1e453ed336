//! Python values into the host's and the engine's, with the usual exceptions: a wrong type is
//! a `TypeError`, a value out of range a `ValueError`, an address past RAM an `IndexError`.

use jewelbot_plugin::{Buttons, RAM_SIZE};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

/// The buttons' names in bit order (A is bit 0, Right bit 7), as `jewelbot.BUTTONS` lists them.
pub const BUTTON_NAMES: [&str; 8] = ["A", "B", "SELECT", "START", "UP", "DOWN", "LEFT", "RIGHT"];

/// Buttons from what Python gives: an int 0-255 (A is bit 0 … Right bit 7, nes-py's action
/// byte), names joined by `+` (`"A+LEFT"`, `""` for none), or a sequence of 8 truth values in
/// [`BUTTON_NAMES`] order (a `MultiBinary(8)` sample).
pub fn buttons(value: &Bound<'_, PyAny>) -> PyResult<Buttons> {
    if value.is_instance_of::<PyString>() {
        return buttons_named(&value.extract::<String>()?);
    }
    if let Ok(bits) = value.extract::<i64>() {
        return u8::try_from(bits).map(Buttons::from_bits).map_err(|_| {
            PyValueError::new_err(format!(
                "buttons {bits} are not a byte (0-255: A is bit 0, Right bit 7)"
            ))
        });
    }
    if value.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(
            "buttons are an int 0-255, names such as \"A+LEFT\", or 8 truth values",
        ));
    }
    let Ok(items) = value.try_iter() else {
        return Err(PyTypeError::new_err(format!(
            "buttons are an int 0-255, names such as \"A+LEFT\", or 8 truth values, not {}",
            value.get_type().name()?
        )));
    };
    let mut bits = 0u8;
    let mut count = 0usize;
    for item in items {
        let item = item?;
        if count < 8 && item.is_truthy()? {
            bits |= 1 << count;
        }
        count += 1;
    }
    if count != 8 {
        return Err(PyValueError::new_err(format!(
            "buttons as a sequence hold 8 values ({}), not {count}",
            BUTTON_NAMES.join(", ")
        )));
    }
    Ok(Buttons::from_bits(bits))
}

fn buttons_named(text: &str) -> PyResult<Buttons> {
    let mut pressed = Buttons::NONE;
    for name in text.split('+').map(str::trim).filter(|n| !n.is_empty()) {
        let Some(bit) = BUTTON_NAMES
            .iter()
            .position(|b| b.eq_ignore_ascii_case(name))
        else {
            return Err(PyValueError::new_err(format!(
                "unknown button {name:?} (one of {})",
                BUTTON_NAMES.join(", ")
            )));
        };
        pressed.insert(Buttons::from_bits(1 << bit));
    }
    Ok(pressed)
}

/// A RAM address, 0 to $07FF.
pub fn address(address: i64) -> PyResult<u16> {
    match u16::try_from(address) {
        Ok(a) if usize::from(a) < RAM_SIZE => Ok(a),
        _ => Err(PyIndexError::new_err(format!(
            "RAM address {address} (${address:X}) is outside the console's 2 KiB ($0000-$07FF)"
        ))),
    }
}

/// A byte value, 0 to 255.
pub fn byte(value: i64) -> PyResult<u8> {
    u8::try_from(value)
        .map_err(|_| PyValueError::new_err(format!("{value} is not a byte value (0-255)")))
}

/// A count of frames: at least 0, at most `max`.
pub fn count(what: &str, value: i64, max: u64) -> PyResult<u64> {
    match u64::try_from(value) {
        Ok(n) if n <= max => Ok(n),
        _ => Err(PyValueError::new_err(format!(
            "{what} is {value}; it must be 0 to {max}"
        ))),
    }
}
