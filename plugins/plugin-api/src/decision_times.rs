//! How long decisions took: a histogram that keeps every time to within 1/256 of itself, for
//! the median and the longest, in bounded memory however long the run, mergeable across a
//! lab's chunks. The AI's decisions and a bot's answers are timed with it.

use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Times below this many microseconds have a bin each.
const EXACT_MICROS: u64 = 512;
/// Above them, each doubling of the time has this many bins.
const BINS_PER_DOUBLING: u64 = 256;
/// Bins: every `u64` of microseconds has one.
const TIME_BINS: usize = (EXACT_MICROS + (64 - 9) * BINS_PER_DOUBLING) as usize;

/// The bin of a time in microseconds.
fn time_bin(micros: u64) -> usize {
    if micros < EXACT_MICROS {
        return micros as usize;
    }
    let doubling = u64::from(micros.ilog2()); // 9 and up
    let within = (micros >> (doubling - 8)) - BINS_PER_DOUBLING;
    (EXACT_MICROS + (doubling - 9) * BINS_PER_DOUBLING + within) as usize
}

/// The least time in microseconds a bin holds.
fn bin_floor(bin: usize) -> u64 {
    let bin = bin as u64;
    if bin < EXACT_MICROS {
        return bin;
    }
    let doubling = 9 + (bin - EXACT_MICROS) / BINS_PER_DOUBLING;
    let within = (bin - EXACT_MICROS) % BINS_PER_DOUBLING;
    (BINS_PER_DOUBLING + within) << (doubling - 8)
}

/// How long decisions took.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "Sparse", try_from = "Sparse")]
pub struct DecisionTimes {
    /// Decisions by time bin (empty until one is recorded).
    bins: Vec<u64>,
    count: u64,
    total: Duration,
    max: Duration,
}

/// [`DecisionTimes`] as files keep it: the bins that hold any.
#[derive(Serialize, Deserialize)]
struct Sparse {
    /// `(bin, decisions)`, bins ascending.
    bins: Vec<(u32, u64)>,
    count: u64,
    total_us: u64,
    max_us: u64,
}

impl From<DecisionTimes> for Sparse {
    fn from(times: DecisionTimes) -> Self {
        Self {
            bins: (0..)
                .zip(&times.bins)
                .filter(|&(_, &n)| n > 0)
                .map(|(bin, &n)| (bin, n))
                .collect(),
            count: times.count,
            total_us: times.total.as_micros() as u64,
            max_us: times.max.as_micros() as u64,
        }
    }
}

impl TryFrom<Sparse> for DecisionTimes {
    type Error = String;

    fn try_from(sparse: Sparse) -> Result<Self, String> {
        let mut times = Self {
            count: sparse.count,
            total: Duration::from_micros(sparse.total_us),
            max: Duration::from_micros(sparse.max_us),
            ..Self::default()
        };
        for (bin, n) in sparse.bins {
            let slot = times
                .bins_mut()
                .get_mut(bin as usize)
                .ok_or_else(|| format!("decision time bin {bin} is past the last, {TIME_BINS}"))?;
            *slot = n;
        }
        Ok(times)
    }
}

impl DecisionTimes {
    fn bins_mut(&mut self) -> &mut [u64] {
        if self.bins.is_empty() {
            self.bins = vec![0; TIME_BINS];
        }
        &mut self.bins
    }

    /// Counts a decision that took `elapsed`.
    pub fn record(&mut self, elapsed: Duration) {
        let micros = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
        self.bins_mut()[time_bin(micros).min(TIME_BINS - 1)] += 1;
        self.count += 1;
        self.total += elapsed;
        self.max = self.max.max(elapsed);
    }

    /// Decisions recorded.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The mean time (0 with none recorded).
    pub fn mean(&self) -> Duration {
        match u32::try_from(self.count) {
            Ok(0) => Duration::ZERO,
            Ok(count) => self.total / count,
            Err(_) => Duration::from_secs_f64(self.total.as_secs_f64() / self.count as f64),
        }
    }

    /// The longest time.
    pub fn max(&self) -> Duration {
        self.max
    }

    /// The median, to within 1/256 of itself (0 with none recorded).
    pub fn median(&self) -> Duration {
        let mut seen = 0;
        for (bin, &n) in self.bins.iter().enumerate() {
            seen += n;
            if 2 * seen >= self.count && n > 0 {
                return Duration::from_micros(bin_floor(bin));
            }
        }
        Duration::ZERO
    }

    /// Adds the decisions of `other`.
    pub fn merge(&mut self, other: &Self) {
        if !other.bins.is_empty() {
            for (a, b) in self.bins_mut().iter_mut().zip(&other.bins) {
                *a += b;
            }
        }
        self.count += other.count;
        self.total += other.total;
        self.max = self.max.max(other.max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_time_has_a_bin_within_a_256th_of_it() {
        for micros in [
            0,
            1,
            511,
            512,
            513,
            1023,
            1024,
            99_999,
            150_000,
            749_893,
            u64::MAX,
        ] {
            let bin = time_bin(micros);
            assert!(bin < TIME_BINS, "{micros}");
            let floor = bin_floor(bin);
            assert!(
                floor <= micros && micros - floor <= micros / 256,
                "{micros}: {floor}"
            );
        }
        assert_eq!(time_bin(512), 512);
        assert_eq!(time_bin(1024), time_bin(1023) + 1);
    }

    /// A slow search's median is its own, not a cap's; merged and written out, the same.
    #[test]
    fn median_merge_and_round_trip() {
        let mut a = DecisionTimes::default();
        assert_eq!(a.median(), Duration::ZERO);
        a.record(Duration::from_millis(700));
        let mut b = DecisionTimes::default();
        for micros in [750_000, 800_000] {
            b.record(Duration::from_micros(micros));
        }
        a.merge(&b);
        let median = a.median().as_micros();
        assert!((747_000..=750_000).contains(&median), "{median}");
        assert_eq!((a.count(), a.max()), (3, Duration::from_millis(800)));
        assert_eq!(a.mean(), Duration::from_millis(750));
        let text = serde_json::to_string(&a).unwrap();
        assert!(text.len() < 200, "{text}");
        assert_eq!(serde_json::from_str::<DecisionTimes>(&text).unwrap(), a);
        let bad = text.replacen("[[", "[[99999,1],[", 1);
        let error = serde_json::from_str::<DecisionTimes>(&bad).unwrap_err();
        assert!(error.to_string().contains("past the last"), "{error}");
    }
}
