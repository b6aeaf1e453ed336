//! When to run the next emulated frame: real time, twice as fast, or as fast as possible in
//! bounded slices so the window keeps answering.

use std::time::{Duration, Instant};

/// NTSC NES frame rate: 39375000 / 655171 frames per second (about 60.0988).
pub const NTSC_FRAME: Duration = Duration::from_nanos(16_639_264);

/// Longest run of frames between two looks at the window when unthrottled.
pub const SLICE: Duration = Duration::from_millis(14);

/// How far behind real time the pacer may fall before it stops catching up (a stall, a
/// dragged window): beyond this it drops the lost time rather than racing.
const MAX_LAG_FRAMES: u32 = 4;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speed {
    RealTime,
    Double,
    Unthrottled,
}

impl Speed {
    pub fn next(self) -> Self {
        match self {
            Self::RealTime => Self::Double,
            Self::Double => Self::Unthrottled,
            Self::Unthrottled => Self::RealTime,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::RealTime => "1x",
            Self::Double => "2x",
            Self::Unthrottled => "max",
        }
    }

    /// Time between frames, or `None` when frames run back to back.
    pub fn period(self) -> Option<Duration> {
        match self {
            Self::RealTime => Some(NTSC_FRAME),
            Self::Double => Some(NTSC_FRAME / 2),
            Self::Unthrottled => None,
        }
    }
}

/// Keeps frame deadlines on a fixed grid so rounding never accumulates into drift.
#[derive(Debug, Clone)]
pub struct Pacer {
    speed: Speed,
    next: Option<Instant>,
}

/// What the loop should do now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Due {
    /// Run this many frames, then wait until the instant.
    Frames(u32, Instant),
    /// Run frames until the instant (a time slice), then look at the window again.
    Until(Instant),
}

impl Pacer {
    pub fn new(speed: Speed) -> Self {
        Self { speed, next: None }
    }

    pub fn speed(&self) -> Speed {
        self.speed
    }

    pub fn set_speed(&mut self, speed: Speed) {
        self.speed = speed;
        self.next = None;
    }

    /// Forgets the schedule (after a pause): the next call starts a fresh one.
    pub fn resync(&mut self) {
        self.next = None;
    }

    pub fn due(&mut self, now: Instant) -> Due {
        let Some(period) = self.speed.period() else {
            self.next = None;
            return Due::Until(now + SLICE);
        };
        let mut next = self.next.unwrap_or(now);
        let mut frames = 0;
        while next <= now {
            frames += 1;
            next += period;
            if frames > MAX_LAG_FRAMES {
                // Too far behind: run what is allowed and restart the grid from now.
                frames = MAX_LAG_FRAMES;
                next = now + period;
                break;
            }
        }
        self.next = Some(next);
        Due::Frames(frames, next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(due: Due) -> u32 {
        match due {
            Due::Frames(n, _) => n,
            Due::Until(_) => panic!("expected a throttled answer"),
        }
    }

    #[test]
    fn real_time_runs_sixty_frames_a_second_without_drift() {
        let start = Instant::now();
        let mut pacer = Pacer::new(Speed::RealTime);
        let mut total = 0;
        // Look every 5 ms for ten seconds.
        for step in 0..=2000u64 {
            total += frames(pacer.due(start + Duration::from_millis(5 * step)));
        }
        assert!((600..=602).contains(&total), "{total} frames in 10 s");
    }

    #[test]
    fn double_speed_runs_twice_as_many() {
        let start = Instant::now();
        let mut pacer = Pacer::new(Speed::Double);
        let total: u32 = (0..=1000u64)
            .map(|step| frames(pacer.due(start + Duration::from_millis(10 * step))))
            .sum();
        assert!((1200..=1204).contains(&total), "{total} frames in 10 s");
    }

    #[test]
    fn a_stall_is_not_caught_up_all_at_once() {
        let start = Instant::now();
        let mut pacer = Pacer::new(Speed::RealTime);
        assert_eq!(frames(pacer.due(start)), 1);
        let after_stall = start + Duration::from_secs(2);
        assert_eq!(frames(pacer.due(after_stall)), MAX_LAG_FRAMES);
        assert_eq!(frames(pacer.due(after_stall + Duration::from_millis(1))), 0);
    }

    #[test]
    fn the_deadline_is_the_next_frame() {
        let start = Instant::now();
        let mut pacer = Pacer::new(Speed::RealTime);
        assert_eq!(pacer.due(start), Due::Frames(1, start + NTSC_FRAME));
        assert_eq!(
            pacer.due(start + Duration::from_millis(1)),
            Due::Frames(0, start + NTSC_FRAME)
        );
    }

    #[test]
    fn unthrottled_runs_in_slices() {
        let now = Instant::now();
        let mut pacer = Pacer::new(Speed::RealTime);
        pacer.set_speed(Speed::RealTime.next().next());
        assert_eq!(pacer.due(now), Due::Until(now + SLICE));
        assert_eq!(Speed::Unthrottled.next(), Speed::RealTime);
    }
}
