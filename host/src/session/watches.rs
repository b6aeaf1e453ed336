//! The CPU accesses a session reports: entries into the routines a recording names, and the
//! addresses plug-ins watch ([`MemoryWatch`]). Both are tetanes-core breakpoints that record
//! without stopping the console; the core's log is drained once after every frame.

use jewelbot_plugin::{MemoryAccess, MemoryHit, MemoryWatch, MOST_MEMORY_HITS};
use std::collections::BTreeMap;
use tetanes_core::control_deck::ControlDeck;
use tetanes_core::debug::{Access, Breakpoint};

#[derive(Debug, Default)]
pub struct Watches {
    /// Routines by name and entry address.
    routines: Vec<(String, u16)>,
    /// Each plug-in's watches, by its name.
    plugins: BTreeMap<String, Vec<MemoryWatch>>,
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

impl Watches {
    /// Sets the core's breakpoints to cover every routine and every plug-in's addresses (none
    /// at all costs the core nothing).
    pub fn arm(&self, deck: &mut ControlDeck) {
        let routines = self
            .routines
            .iter()
            .map(|&(_, address)| breakpoint(address, address, Access::EXEC));
        let plugins = self
            .plugins
            .values()
            .flatten()
            .map(|w| breakpoint(w.start.min(w.end), w.start.max(w.end), kind(w.access)));
        deck.set_breakpoints(routines.chain(plugins));
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

    /// Sorts the accesses the frame just run logged into routine entries and plug-in hits.
    /// Returns how many hits were dropped past [`MOST_MEMORY_HITS`].
    pub fn collect(&mut self, deck: &mut ControlDeck) -> usize {
        self.hits.clear();
        self.dropped = 0;
        if self.routines.is_empty() && self.plugins.is_empty() {
            return 0;
        }
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
            let watched = self.plugins.values().flatten().any(|w| {
                w.access == access && (w.start.min(w.end)..=w.start.max(w.end)).contains(&hit.addr)
            });
            if !watched {
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
        self.dropped
    }

    pub fn hits(&self) -> &[MemoryHit] {
        &self.hits
    }

    /// The routines entered since the last call, each named once, in the order first entered.
    pub fn take_events(&mut self) -> Vec<String> {
        std::mem::take(&mut self.events)
    }
}
