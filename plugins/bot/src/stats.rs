//! How long the bot takes to answer, and how long the game waits on it.

use jewelbot_plugin::DecisionTimes;
use std::time::Duration;

/// The bot's decisions so far.
#[derive(Debug, Default)]
pub struct Decisions {
    /// Messages sent.
    pub messages: u64,
    /// In lockstep, frames on which the emulator stood still for an answer; in real time,
    /// frames that ran while an answer was owed.
    pub frames_waited: u64,
    /// How long the answers took, from a message sent to its answer read.
    times: DecisionTimes,
    last: Duration,
}

impl Decisions {
    /// An answer came `took` after its message.
    pub fn took(&mut self, took: Duration) {
        self.times.record(took);
        self.last = took;
    }

    /// Answers received.
    pub fn answers(&self) -> u64 {
        self.times.count()
    }

    /// The median answer time (zero before any).
    pub fn median(&self) -> Duration {
        self.times.median()
    }

    /// The last answer's time (zero before any).
    pub fn last(&self) -> Duration {
        self.last
    }

    /// The longest answer time.
    pub fn max(&self) -> Duration {
        self.times.max()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_and_max_of_the_answer_times() {
        let mut decisions = Decisions::default();
        assert_eq!(decisions.median(), Duration::ZERO);
        for us in [5, 1, 9] {
            decisions.took(Duration::from_micros(us));
        }
        assert_eq!(decisions.median(), Duration::from_micros(5));
        assert_eq!(decisions.max(), Duration::from_micros(9));
        assert_eq!(decisions.answers(), 3);
    }
}
