//! Which addresses a script has hooked (`memory.registerread`, `registerwrite`,
//! `registerexec`), one bit an address: the console keeps it, the memory API sets it.

use jewelbot_plugin::{MemoryAccess, MemoryWatch};

/// The kinds of access in the order of [`Hooked`]'s maps.
pub(crate) const KINDS: [MemoryAccess; 3] = [
    MemoryAccess::Read,
    MemoryAccess::Write,
    MemoryAccess::Execute,
];

/// Which addresses have a hook, by kind: one bit an address, so that an access is matched
/// with its hook at once and the host's watch list is made once a frame, whatever the
/// number of hooks.
#[derive(Debug)]
pub struct Hooked {
    bits: [Vec<u64>; 3],
    /// Hooks were set or removed since the host was last given the list.
    changed: bool,
}

impl Default for Hooked {
    fn default() -> Self {
        Self {
            bits: std::array::from_fn(|_| vec![0; 1024]),
            changed: false,
        }
    }
}

impl Hooked {
    pub(crate) fn index(access: MemoryAccess) -> usize {
        match access {
            MemoryAccess::Read => 0,
            MemoryAccess::Write => 1,
            MemoryAccess::Execute => 2,
        }
    }

    pub(crate) fn set(&mut self, access: MemoryAccess, address: u16, hooked: bool) {
        let (word, bit) = (usize::from(address) / 64, address % 64);
        let words = &mut self.bits[Self::index(access)];
        if hooked {
            words[word] |= 1 << bit;
        } else {
            words[word] &= !(1 << bit);
        }
        self.changed = true;
    }

    pub(crate) fn has(&self, access: MemoryAccess, address: u16) -> bool {
        self.bits[Self::index(access)][usize::from(address) / 64] & (1 << (address % 64)) != 0
    }

    /// The addresses to watch as ranges, if they changed since the last call.
    pub fn take_changed(&mut self) -> Option<Vec<MemoryWatch>> {
        if !std::mem::take(&mut self.changed) {
            return None;
        }
        let mut watches = Vec::new();
        for access in KINDS {
            let mut start = None;
            for address in 0..=0x1_0000u32 {
                let hooked = address <= 0xFFFF && self.has(access, address as u16);
                match (hooked, start) {
                    (true, None) => start = Some(address as u16),
                    (false, Some(from)) => {
                        watches.push(MemoryWatch {
                            start: from,
                            end: (address - 1) as u16,
                            access,
                        });
                        start = None;
                    }
                    _ => {}
                }
            }
        }
        watches.sort_by_key(|w| (w.start, w.end, w.access as u8));
        Some(watches)
    }
}
