//! A single-producer single-consumer ring of samples shared between the emulator thread and
//! the sound card's callback without locks (the callback must never wait).

use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

pub struct Ring {
    slots: Box<[AtomicU32]>,
    /// Next slot to read; only the consumer moves it.
    head: AtomicUsize,
    /// Next slot to write; only the producer moves it.
    tail: AtomicUsize,
}

impl Ring {
    /// A ring holding up to `capacity` samples.
    pub fn new(capacity: usize) -> Self {
        Self {
            slots: (0..=capacity).map(|_| AtomicU32::new(0)).collect(),
            head: AtomicUsize::new(0),
            tail: AtomicUsize::new(0),
        }
    }

    pub fn capacity(&self) -> usize {
        self.slots.len() - 1
    }

    /// Samples waiting to be read.
    pub fn len(&self) -> usize {
        let head = self.head.load(Ordering::Acquire);
        let tail = self.tail.load(Ordering::Acquire);
        (tail + self.slots.len() - head) % self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Producer side: appends a sample; `false` (and the sample dropped) when full.
    pub fn push(&self, sample: f32) -> bool {
        let tail = self.tail.load(Ordering::Relaxed);
        let next = (tail + 1) % self.slots.len();
        if next == self.head.load(Ordering::Acquire) {
            return false;
        }
        self.slots[tail].store(sample.to_bits(), Ordering::Relaxed);
        self.tail.store(next, Ordering::Release);
        true
    }

    /// Consumer side: the oldest sample.
    pub fn pop(&self) -> Option<f32> {
        let head = self.head.load(Ordering::Relaxed);
        if head == self.tail.load(Ordering::Acquire) {
            return None;
        }
        let sample = f32::from_bits(self.slots[head].load(Ordering::Relaxed));
        self.head
            .store((head + 1) % self.slots.len(), Ordering::Release);
        Some(sample)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn keeps_order_and_refuses_when_full() {
        let ring = Ring::new(3);
        assert!(ring.is_empty());
        assert!(ring.push(1.0) && ring.push(2.0) && ring.push(3.0));
        assert!(!ring.push(4.0));
        assert_eq!(ring.len(), 3);
        assert_eq!(ring.pop(), Some(1.0));
        assert!(ring.push(5.0));
        assert_eq!(
            std::iter::from_fn(|| ring.pop()).collect::<Vec<_>>(),
            vec![2.0, 3.0, 5.0]
        );
    }

    #[test]
    fn crosses_threads_without_losing_or_reordering() {
        let ring = Arc::new(Ring::new(64));
        let producer = {
            let ring = Arc::clone(&ring);
            std::thread::spawn(move || {
                for i in 0..20_000 {
                    while !ring.push(i as f32) {
                        std::thread::yield_now();
                    }
                }
            })
        };
        let mut expected = 0;
        while expected < 20_000 {
            if let Some(s) = ring.pop() {
                assert_eq!(s, expected as f32);
                expected += 1;
            } else {
                std::thread::yield_now();
            }
        }
        assert!(producer.join().is_ok());
    }
}
