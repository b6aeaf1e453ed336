//! The CPU accesses a session reports: entries into the routines a recording names, and the
//! addresses plug-ins watch ([`MemoryWatch`]). Both are tetanes-core breakpoints that record
//! without stopping the console.
//!
//! The core keeps at most [`Breakpoints::MAX`] breakpoints and logs at most 256 accesses
//! between two drains. So the plug-ins' watches, however many, are merged into as many ranges
//! as the core keeps (an access the merge covers but no plug-in watches is dropped here, by
//! the exact map of what is watched), and a frame with watches armed is run in slices short
//! enough that the log never fills: every access to a watched address reaches the plug-ins,
//! up to [`MOST_MEMORY_HITS`] a frame.

use jewelbot_plugin::{MemoryAccess, MemoryHit, MemoryWatch, MOST_MEMORY_HITS};
use std::collections::BTreeMap;
use tetanes_core::control_deck::{Clocked, ControlDeck};
use tetanes_core::debug::{Access, Breakpoint, Breakpoints};

/// CPU cycles in a slice of a watched frame. Every access takes a cycle, so a slice logs at
/// most this many accesses and the few of the instruction that ends it: under the core's 256.
const SLICE_CYCLES: u32 = 200;

/// One bit for each CPU address.
#[derive(Debug, Clone)]
struct AddressSet(Vec<u64>);

impl Default for AddressSet {
    fn default() -> Self {
        Self(vec![0; 1024])
    }
}

impl AddressSet {
    fn insert_range(&mut self, start: u16, end: u16) {
        for address in start..=end {
            self.0[usize::from(address) / 64] |= 1 << (address % 64);
        }
    }

    fn contains(&self, address: u16) -> bool {
        self.0[usize::from(address) / 64] & (1 << (address % 64)) != 0
    }
}

#[derive(Debug, Default)]
pub struct Watches {
    /// Routines by name and entry address.
    routines: Vec<(String, u16)>,
    /// Each plug-in's watches, by its name.
    plugins: BTreeMap<String, Vec<MemoryWatch>>,
    /// Every address some plug-in watches, by kind of access (read, write, execute).
    watched: [AddressSet; 3],
    /// Routines entered since [`Watches::take_events`], each named once.
    events: Vec<String>,
    /// The last frame's accesses to the plug-ins' addresses.
    hits: Vec<MemoryHit>,
    /// Accesses past [`MOST_MEMORY_HITS`] in the last frame, dropped.
    dropped: usize,
}

fn kind(access: MemoryAccess) -> Access {
    match access {
        MemoryAccess::Read => Access::READ,
        MemoryAccess::Write => Access::WRITE,
        MemoryAccess::Execute => Access::EXEC,
    }
}

fn kind_index(access: MemoryAccess) -> usize {
    match access {
        MemoryAccess::Read => 0,
        MemoryAccess::Write => 1,
        MemoryAccess::Execute => 2,
    }
}

fn breakpoint(start: u16, end: u16, access: Access) -> Breakpoint {
    Breakpoint {
        start,
        end,
        offset: None,
        access,
        breaks: false,
        condition: None,
    }
}

/// `ranges` (start, end, access) merged into at most `most` breakpoints: the widest gaps
/// between neighbouring ranges are kept, the others closed, and each merged range watches
/// every kind of access its parts did.
fn merged(mut ranges: Vec<(u16, u16, Access)>, most: usize) -> Vec<Breakpoint> {
    ranges.sort_by_key(|&(start, end, _)| (start, end));
    if ranges.len() > most && most > 0 {
        // The gaps to keep: the `most - 1` widest (ties to the earliest), by the index of the
        // range after them.
        let mut reach = ranges[0].1;
        let mut gaps: Vec<(i32, usize)> = Vec::with_capacity(ranges.len());
        for (i, range) in ranges.iter().enumerate().skip(1) {
            gaps.push((i32::from(range.0) - i32::from(reach), i));
            reach = reach.max(range.1);
        }
        gaps.sort_by_key(|&(width, i)| (std::cmp::Reverse(width), i));
        let mut kept: Vec<usize> = gaps.iter().take(most - 1).map(|&(_, i)| i).collect();
        kept.sort_unstable();
        let mut groups = Vec::with_capacity(most);
        let mut from = 0;
        for split in kept.into_iter().chain([ranges.len()]) {
            let group = &ranges[from..split];
            let start = group.iter().map(|r| r.0).min().unwrap_or(0);
            let end = group.iter().map(|r| r.1).max().unwrap_or(0);
            let access = group.iter().fold(Access::empty(), |a, r| a | r.2);
            groups.push((start, end, access));
            from = split;
        }
        ranges = groups;
    }
    ranges
        .into_iter()
        .map(|(start, end, access)| breakpoint(start, end, access))
        .collect()
}

impl Watches {
    /// Sets the core's breakpoints to cover every routine and every plug-in's addresses (none
    /// at all costs the core nothing).
    pub fn arm(&mut self, deck: &mut ControlDeck) {
        let routines = self
            .routines
            .iter()
            .map(|&(_, address)| breakpoint(address, address, Access::EXEC));
        self.watched = Default::default();
        let mut ranges = Vec::new();
        for watch in self.plugins.values().flatten() {
            let (start, end) = (watch.start.min(watch.end), watch.start.max(watch.end));
            self.watched[kind_index(watch.access)].insert_range(start, end);
            ranges.push((start, end, kind(watch.access)));
        }
        let room = Breakpoints::MAX.saturating_sub(self.routines.len());
        let plugins = merged(ranges, room);
        deck.set_breakpoints(routines.take(Breakpoints::MAX).chain(plugins));
        deck.drain_access_log();
    }

    pub fn set_routines(&mut self, deck: &mut ControlDeck, routines: &[(String, u16)]) {
        self.routines = routines.to_vec();
        self.events.clear();
        self.arm(deck);
    }

    /// `plugin`'s watches from now on, in place of its old ones.
    pub fn set_plugin(&mut self, deck: &mut ControlDeck, plugin: &str, watches: Vec<MemoryWatch>) {
        if watches.is_empty() {
            self.plugins.remove(plugin);
        } else {
            self.plugins.insert(plugin.to_owned(), watches);
        }
        self.arm(deck);
    }

    fn armed(&self) -> bool {
        !self.routines.is_empty() || !self.plugins.is_empty()
    }

    /// Runs one frame of `deck`, sorting the accesses it makes into routine entries and
    /// plug-in hits. With nothing armed the frame runs in one call; otherwise in slices of
    /// [`SLICE_CYCLES`], the log drained after each.
    pub fn clock_frame(
        &mut self,
        deck: &mut ControlDeck,
    ) -> tetanes_core::control_deck::Result<Clocked> {
        self.hits.clear();
        self.dropped = 0;
        if !self.armed() {
            return deck.clock_frame();
        }
        let frame = deck.frame_number();
        loop {
            let start = deck.bus().cpu.cycle;
            // Never stopped on the instruction that ends the frame: the frame is then wound
            // up as an unsliced one is.
            let clocked = deck.clock_frame_until(|bus| {
                bus.ppu.frame_number() == frame && bus.cpu.cycle.wrapping_sub(start) >= SLICE_CYCLES
            })?;
            self.collect(deck);
            if clocked != Clocked::Stopped {
                return Ok(clocked);
            }
        }
    }

    /// Accesses past [`MOST_MEMORY_HITS`] in the last frame, dropped.
    pub fn dropped(&self) -> usize {
        self.dropped
    }

    /// Sorts the accesses logged since the last drain.
    fn collect(&mut self, deck: &mut ControlDeck) {
        for hit in deck.drain_access_log() {
            if hit.access == Access::EXEC {
                if let Some((name, _)) = self.routines.iter().find(|(_, a)| *a == hit.pc) {
                    if !self.events.contains(name) {
                        self.events.push(name.clone());
                    }
                }
            }
            let access = if hit.access == Access::EXEC {
                MemoryAccess::Execute
            } else if hit.access == Access::WRITE {
                MemoryAccess::Write
            } else {
                MemoryAccess::Read
            };
            if !self.watched[kind_index(access)].contains(hit.addr) {
                continue;
            }
            if self.hits.len() == MOST_MEMORY_HITS {
                self.dropped += 1;
            } else {
                self.hits.push(MemoryHit {
                    address: hit.addr,
                    access,
                    value: hit.value,
                    pc: hit.pc,
                });
            }
        }
    }

    pub fn hits(&self) -> &[MemoryHit] {
        &self.hits
    }

    /// The routines entered since the last call, each named once, in the order first entered.
    pub fn take_events(&mut self) -> Vec<String> {
        std::mem::take(&mut self.events)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_past_the_cores_room_merge_across_the_narrowest_gaps() {
        let ranges = vec![
            (0x10, 0x10, Access::WRITE),
            (0x12, 0x12, Access::READ),
            (0x100, 0x101, Access::WRITE),
            (0x105, 0x105, Access::EXEC),
        ];
        let merged: Vec<(u16, u16, Access)> = merged(ranges.clone(), 2)
            .into_iter()
            .map(|b| (b.start, b.end, b.access))
            .collect();
        assert_eq!(
            merged,
            [
                (0x10, 0x12, Access::WRITE | Access::READ),
                (0x100, 0x105, Access::WRITE | Access::EXEC)
            ]
        );
        assert_eq!(super::merged(ranges.clone(), 4).len(), 4);
        let many: Vec<_> = (0..5000u16)
            .map(|i| (i * 13, i * 13, Access::READ))
            .collect();
        assert_eq!(
            super::merged(many, Breakpoints::MAX).len(),
            Breakpoints::MAX
        );
    }
}
