use crate::{Buttons, Ram};
use std::fmt;

/// A console that a script drives frame by frame: the driver owns the loop.
///
/// Conformance scenarios and end-to-end tests are written against this trait so they run on
/// any emulator session without depending on it.
pub trait Machine {
    /// CPU RAM as it stands after the last frame.
    fn ram(&self) -> &Ram;
    /// Writes one byte of CPU RAM (address taken modulo the RAM size).
    fn poke(&mut self, address: u16, value: u8);
    /// Runs one frame with `buttons` held on controller 1.
    fn step(&mut self, buttons: Buttons) -> Result<(), MachineError>;
    /// Frames run since power-on.
    fn frame_number(&self) -> u64;
    /// Power-cycles the console: RAM back to its power-on state, the program from reset.
    fn power_cycle(&mut self) -> Result<(), MachineError>;
}

/// The console could not run a frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MachineError(pub String);

impl fmt::Display for MachineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MachineError {}
