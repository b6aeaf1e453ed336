//! What a search found lately, kept for the next time it asks. A foresight search meets about
//! half of its boards again within a few decisions (the same placements in another order, and
//! the next decision's beam walking the columns this one looked at), and the same stacks from a
//! spawn again and again. What is kept is a function of its key, so a remembered answer is the
//! answer: a memo changes how fast a search runs, never what it finds.

use std::sync::{Mutex, OnceLock, PoisonError};

/// A key a memo can hold: compared whole, mixed into a slot.
pub(crate) trait MemoKey: Copy + Eq {
    /// A key no search asks for: what a slot holds before its first answer.
    const UNUSED: Self;

    /// 64 well-mixed bits: the slot is taken from the high ones.
    fn mix(&self) -> u64;
}

/// Mixes `word` into `hash` (the golden-ratio multiply of Fibonacci hashing).
#[inline]
pub(crate) fn mix_in(hash: u64, word: u64) -> u64 {
    (hash ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Searches ask on every core: the slots are split among locks.
const SHARDS_LOG2: u32 = 6;
const SHARDS: usize = 1 << SHARDS_LOG2;

/// A key and its answer, from the start of a cache line: a lookup of a key and answer that fit
/// in 64 bytes reads one line, where most lookups miss every cache.
#[repr(align(64))]
struct Slot<K, T> {
    key: K,
    answer: T,
}

/// Bytes a memo's slot takes for keys `K` and answers `T`.
#[cfg(test)]
pub(crate) const fn slot_bytes<K, T>() -> usize {
    std::mem::size_of::<Slot<K, T>>()
}

/// A shard's lock on a cache line of its own, so that the cores taking two shards' locks do
/// not pass one line back and forth.
#[repr(align(64))]
struct Shard<K, T>(Mutex<Box<[Slot<K, T>]>>);

/// Answers of type `T` by key `K`, in a fixed number of slots, each holding the last key that
/// fell in it.
pub(crate) struct Memo<K, T> {
    slots_log2: u32,
    /// Made on first use: most searches built (tests, tools) never ask.
    shards: OnceLock<Box<[Shard<K, T>]>>,
}

impl<K: MemoKey, T: Clone + Default> Memo<K, T> {
    /// A memo of 2^`slots_log2` slots (at least one a lock).
    pub(crate) const fn new(slots_log2: u32) -> Self {
        assert!(slots_log2 >= SHARDS_LOG2 && slots_log2 < 64);
        Self {
            slots_log2,
            shards: OnceLock::new(),
        }
    }

    /// The answer for `key`, found by `find` unless asked lately.
    #[inline]
    pub(crate) fn get_or(&self, key: &K, find: impl FnOnce() -> T) -> T {
        debug_assert!(*key != K::UNUSED);
        let slot = (key.mix() >> (64 - self.slots_log2)) as usize;
        let shard = &self.shards()[slot % SHARDS].0;
        let index = slot / SHARDS;
        {
            let slots = shard.lock().unwrap_or_else(PoisonError::into_inner);
            if slots[index].key == *key {
                return slots[index].answer.clone();
            }
        }
        // Found outside the lock: the other cores go on meanwhile.
        let answer = find();
        let mut slots = shard.lock().unwrap_or_else(PoisonError::into_inner);
        slots[index] = Slot {
            key: *key,
            answer: answer.clone(),
        };
        answer
    }

    fn shards(&self) -> &[Shard<K, T>] {
        self.shards.get_or_init(|| {
            let per_shard = 1 << (self.slots_log2 - SHARDS_LOG2);
            let unused = || Slot {
                key: K::UNUSED,
                answer: T::default(),
            };
            (0..SHARDS)
                .map(|_| Shard(Mutex::new((0..per_shard).map(|_| unused()).collect())))
                .collect()
        })
    }
}

impl<K, T> std::fmt::Debug for Memo<K, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Memo")
            .field("slots", &(1u64 << self.slots_log2))
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key whose slot is chosen: its mix is itself.
    #[derive(Clone, Copy, PartialEq, Eq)]
    struct Placed(u64);

    impl MemoKey for Placed {
        const UNUSED: Self = Self(u64::MAX);

        fn mix(&self) -> u64 {
            self.0
        }
    }

    #[test]
    fn an_answer_is_found_once_per_key() {
        let memo = Memo::<Placed, u32>::new(8);
        let mut found = 0;
        let mut ask = |key: u64, answer: u32| {
            memo.get_or(&Placed(key), || {
                found += 1;
                answer
            })
        };
        assert_eq!(ask(1 << 60, 7), 7);
        assert_eq!(ask(1 << 60, 99), 7, "remembered");
        assert_eq!(ask(2 << 60, 8), 8, "another key");
        assert_eq!(found, 2);
    }

    #[test]
    fn a_key_of_the_same_slot_takes_it() {
        let memo = Memo::<Placed, u32>::new(8);
        // The slot is the top 8 bits: these two keys share one.
        let (first, second) = (Placed(5 << 56), Placed(5 << 56 | 1));
        assert_eq!(memo.get_or(&first, || 1), 1);
        assert_eq!(memo.get_or(&second, || 2), 2);
        assert_eq!(memo.get_or(&second, || 3), 2);
        assert_eq!(memo.get_or(&first, || 4), 4, "pushed out, found again");
    }
}
