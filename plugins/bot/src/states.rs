//! The states a bot saved by name, within bounds: a bot that saves under a new name every frame
//! would otherwise keep every state of the run (22 KB each on the open cartridge).

use std::collections::HashMap;

/// The most states a bot may keep.
pub const MAX_STATES: usize = 1024;
/// The most bytes the states a bot keeps may take, all together.
pub const MAX_STATE_BYTES: usize = 64 << 20;

/// States by name, at most `max_states` of them and `max_bytes` in all.
pub struct SavedStates {
    states: HashMap<String, Vec<u8>>,
    bytes: usize,
    max_states: usize,
    max_bytes: usize,
}

impl Default for SavedStates {
    fn default() -> Self {
        Self::with_bounds(MAX_STATES, MAX_STATE_BYTES)
    }
}

impl SavedStates {
    /// No states, and these bounds.
    pub fn with_bounds(max_states: usize, max_bytes: usize) -> Self {
        Self {
            states: HashMap::new(),
            bytes: 0,
            max_states,
            max_bytes,
        }
    }

    /// Keeps `state` under `name`, in place of the one saved under it before; `Err` says which
    /// bound a new state would pass (nothing is kept then).
    pub fn save(&mut self, name: String, state: Vec<u8>) -> Result<(), String> {
        let replaced = self.states.get(&name).map(Vec::len);
        if replaced.is_none() && self.states.len() >= self.max_states {
            return Err(format!(
                "the bot saves a state under a new name, `{}`, when it keeps {} already: at most \
                 {} states are kept (save under a name used before to replace its state)",
                crate::link::cut(&name),
                self.states.len(),
                self.max_states
            ));
        }
        let bytes = self.bytes - replaced.unwrap_or(0) + state.len();
        if bytes > self.max_bytes {
            return Err(format!(
                "the bot saves a state under `{}` that would make its states {bytes} bytes: at \
                 most {} MiB of states are kept",
                crate::link::cut(&name),
                self.max_bytes >> 20
            ));
        }
        self.bytes = bytes;
        self.states.insert(name, state);
        Ok(())
    }

    /// The state saved under `name`.
    pub fn get(&self, name: &str) -> Option<&Vec<u8>> {
        self.states.get(name)
    }

    /// Forgets every state.
    pub fn clear(&mut self) {
        self.states.clear();
        self.bytes = 0;
    }

    /// How many states are kept, and their bytes.
    #[cfg(test)]
    pub fn size(&self) -> (usize, usize) {
        (self.states.len(), self.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_names_past_the_count_are_refused_and_old_names_are_replaced() {
        let mut states = SavedStates::with_bounds(3, 1 << 20);
        for name in ["a", "b", "c"] {
            states.save(name.to_owned(), vec![0; 10]).unwrap();
        }
        let refusal = states.save("d".to_owned(), vec![0; 10]).unwrap_err();
        assert!(refusal.contains("at most 3 states"), "{refusal}");
        assert!(refusal.contains("`d`"), "{refusal}");
        assert!(states.get("d").is_none());
        // The same names again, as often as the bot likes.
        for round in 0..100_u8 {
            states.save("b".to_owned(), vec![round; 10]).unwrap();
        }
        assert_eq!(states.get("b"), Some(&vec![99; 10]));
        assert_eq!(states.size(), (3, 30));
    }

    #[test]
    fn states_past_the_bytes_are_refused_and_a_replacement_counts_its_own_size() {
        let mut states = SavedStates::with_bounds(100, 2 << 20);
        states.save("a".to_owned(), vec![0; 1 << 20]).unwrap();
        states.save("b".to_owned(), vec![0; 1 << 20]).unwrap();
        let refusal = states.save("c".to_owned(), vec![0; 1]).unwrap_err();
        assert!(refusal.contains("at most 2 MiB of states"), "{refusal}");
        // A state replaced by a smaller one frees room; one that grows past the bound does not.
        states.save("a".to_owned(), vec![0; 1000]).unwrap();
        states.save("c".to_owned(), vec![0; 1000]).unwrap();
        assert!(states.save("a".to_owned(), vec![0; 1 << 20]).is_err());
        assert_eq!(states.size(), (3, (1 << 20) + 2000));
        states.clear();
        assert_eq!(states.size(), (0, 0));
    }

    #[test]
    fn the_bounds_hold_a_bot_that_saves_every_frame_under_a_new_name() {
        // 20,000 frames of 22 KB states, each under a new name: 440 MB unbounded.
        let mut states = SavedStates::default();
        let mut refused = 0;
        for frame in 0..20_000 {
            if states.save(format!("s{frame}"), vec![0; 22 << 10]).is_err() {
                refused += 1;
            }
        }
        let (count, bytes) = states.size();
        assert!(count <= MAX_STATES && bytes <= MAX_STATE_BYTES);
        assert_eq!(refused, 20_000 - MAX_STATES);
    }
}
