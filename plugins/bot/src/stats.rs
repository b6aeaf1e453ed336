//! How long the bot takes to answer, and how long the game waits on it.

use std::time::Duration;

/// The bot's decisions so far.
#[derive(Debug, Default)]
pub struct Decisions {
    /// Messages sent.
    pub messages: u64,
    /// In lockstep, frames on which the emulator stood still for an answer; in real time,
    /// frames that ran while an answer was owed.
    pub frames_waited: u64,
    /// How long each answer took, from its message sent to it read.
    times: Vec<Duration>,
}

impl Decisions {
    /// An answer came `took` after its message.
    pub fn took(&mut self, took: Duration) {
        self.times.push(took);
    }

    /// Answers received.
    pub fn answers(&self) -> u64 {
        self.times.len() as u64
    }

    /// The median answer time (zero before any).
    pub fn median(&self) -> Duration {
        let mut sorted = self.times.clone();
        sorted.sort_unstable();
        sorted.get(sorted.len() / 2).copied().unwrap_or_default()
    }

    /// The last answer's time (zero before any).
    pub fn last(&self) -> Duration {
        self.times.last().copied().unwrap_or_default()
    }

    /// The longest answer time.
    pub fn max(&self) -> Duration {
        self.times.iter().max().copied().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_and_max_of_the_answer_times() {
        let mut decisions = Decisions::default();
        assert_eq!(decisions.median(), Duration::ZERO);
        for ms in [5, 1, 9] {
            decisions.took(Duration::from_millis(ms));
        }
        assert_eq!(decisions.median(), Duration::from_millis(5));
        assert_eq!(decisions.max(), Duration::from_millis(9));
        assert_eq!(decisions.answers(), 3);
    }
}
