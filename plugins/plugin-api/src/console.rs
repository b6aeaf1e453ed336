//! What a plug-in may see of the console beyond its RAM, and ask of it, during a frame.

use crate::{Buttons, Ram, RAM_SIZE};

/// The console as the frame just run left it, read without changing it.
pub trait Console {
    /// The byte the CPU would read at `address`, without the read's side effects: RAM and its
    /// mirrors, the PPU's and APU's registers as a debugger sees them, the cartridge's RAM and
    /// ROM as its mapper has them banked now.
    fn peek(&self, address: u16) -> u8;

    /// The console's state now, in the host's save-state format (what `--save-state` writes):
    /// keep it in memory or write it to a file, and give it back with
    /// [`ConsoleRequest::LoadState`].
    fn save_state(&self) -> Result<Vec<u8>, String>;

    /// The buttons the person holds on controller 1 (keys or gamepad; none without a window).
    fn person_buttons(&self) -> Buttons;

    /// Whether the frame just run never read a controller (a lag frame, in FCEUX's words).
    fn lagged(&self) -> bool;

    /// Lag frames since power-on.
    fn lag_count(&self) -> u64;

    /// The accesses the frame just run made to the addresses the plug-ins watch
    /// ([`ConsoleRequest::Watch`]), in the order they happened, every plug-in's together (at
    /// most [`MOST_MEMORY_HITS`] a frame).
    fn memory_hits(&self) -> &[MemoryHit];
}

/// Most accesses to watched addresses kept from one frame; past it the rest are dropped, and
/// the host says so.
pub const MOST_MEMORY_HITS: usize = 65_536;

/// How the CPU touched an address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemoryAccess {
    /// A byte read.
    Read,
    /// A byte written.
    Write,
    /// An instruction's first byte fetched.
    Execute,
}

/// Addresses a plug-in wants to hear about, for one kind of access.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MemoryWatch {
    /// The first address.
    pub start: u16,
    /// The last address, included.
    pub end: u16,
    /// Which accesses.
    pub access: MemoryAccess,
}

/// One access to a watched address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryHit {
    /// The address touched.
    pub address: u16,
    /// How.
    pub access: MemoryAccess,
    /// The byte read, written or fetched.
    pub value: u8,
    /// The address of the instruction that made the access.
    pub pc: u16,
}

/// Something a plug-in asks the host to do to the console, after every plug-in has seen the
/// frame and before the next one runs. Every plug-in is then told of a reset
/// ([`crate::Plugin::on_reset`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConsoleRequest {
    /// Press the console's reset button.
    Reset,
    /// Power the console off and on: RAM as at power-on, the frame count back to 0.
    PowerOn,
    /// Go back to a state [`Console::save_state`] gave (of this ROM).
    LoadState(Vec<u8>),
    /// From the next frame on, report the accesses to these addresses
    /// ([`Console::memory_hits`]), in place of those this plug-in watched before (none: stop).
    Watch(Vec<MemoryWatch>),
}

/// The console as a plug-in sees it without a host (its own tests, tools, fuzzing): RAM and
/// its mirrors only, no person, no lag, no states.
pub struct RamOnly<'a>(pub &'a Ram);

impl Console for RamOnly<'_> {
    fn peek(&self, address: u16) -> u8 {
        if address < 0x2000 {
            self.0[usize::from(address) % RAM_SIZE]
        } else {
            0
        }
    }

    fn save_state(&self) -> Result<Vec<u8>, String> {
        Err("no console to save: the plug-in runs without a host".into())
    }

    fn person_buttons(&self) -> Buttons {
        Buttons::NONE
    }

    fn lagged(&self) -> bool {
        false
    }

    fn lag_count(&self) -> u64 {
        0
    }

    fn memory_hits(&self) -> &[MemoryHit] {
        &[]
    }
}
