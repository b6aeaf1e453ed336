//! The window's own benchmark (`--fps-trial SECONDS`): unthrottled, with every part of the
//! window shown and every part hidden in turn, a second each, it counts the frames emulated in
//! each second and reports the medians of both and their ratio, so that what the panels cost
//! the emulator is measured in one run, on the machine at hand.

use std::time::{Duration, Instant};

/// How long each turn lasts.
const TURN: Duration = Duration::from_secs(1);

/// A trial under way.
#[derive(Debug)]
pub struct FpsTrial {
    /// Turns still to run (the first one, a warm-up, is not counted).
    turns_left: u32,
    warm_up: bool,
    /// Whether the parts are shown in this turn.
    shown: bool,
    turn_began: Instant,
    frames: u64,
    /// Frames a second of the counted turns, with the parts shown and hidden.
    with_parts: Vec<f64>,
    without_parts: Vec<f64>,
}

/// What a finished trial found.
#[derive(Debug, Clone, PartialEq)]
pub struct TrialResult {
    pub shown_fps: f64,
    pub hidden_fps: f64,
    /// Turns counted of each kind.
    pub turns: usize,
}

impl TrialResult {
    /// Frames a second with the parts shown over those with them hidden.
    pub fn ratio(&self) -> f64 {
        self.shown_fps / self.hidden_fps
    }
}

impl std::fmt::Display for TrialResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "fps trial: every part shown {:.0} fps, every part hidden {:.0} fps \
             (medians of {} one-second turns each): ratio {:.3}",
            self.shown_fps,
            self.hidden_fps,
            self.turns,
            self.ratio()
        )
    }
}

/// What the window does after a frame of the trial.
#[derive(Debug, Clone, PartialEq)]
pub enum Turn {
    /// Keep going as it is.
    Same,
    /// Show (`true`) or hide every part from now on.
    Show(bool),
    /// The trial is over.
    Done(TrialResult),
}

impl FpsTrial {
    /// A trial of `seconds` (at least two turns of each kind), starting with every part shown.
    pub fn new(seconds: u32, now: Instant) -> Self {
        Self {
            turns_left: seconds.max(4) + 1,
            warm_up: true,
            shown: true,
            turn_began: now,
            frames: 0,
            with_parts: Vec::new(),
            without_parts: Vec::new(),
        }
    }

    /// Whether the parts are shown in this turn.
    pub fn shown(&self) -> bool {
        self.shown
    }

    /// Counts a frame emulated.
    pub fn count(&mut self) {
        self.frames += 1;
    }

    /// Ends the turn when its second is up.
    pub fn tick(&mut self, now: Instant) -> Turn {
        let elapsed = now.duration_since(self.turn_began);
        if elapsed < TURN {
            return Turn::Same;
        }
        let fps = self.frames as f64 / elapsed.as_secs_f64();
        if !std::mem::take(&mut self.warm_up) {
            if self.shown {
                self.with_parts.push(fps);
            } else {
                self.without_parts.push(fps);
            }
        }
        self.turns_left -= 1;
        self.frames = 0;
        self.turn_began = now;
        if self.turns_left == 0 {
            return Turn::Done(TrialResult {
                shown_fps: median(&mut self.with_parts),
                hidden_fps: median(&mut self.without_parts),
                turns: self.with_parts.len().min(self.without_parts.len()),
            });
        }
        self.shown = !self.shown;
        Turn::Show(self.shown)
    }
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => 0.0,
        n if n % 2 == 1 => values[n / 2],
        n => f64::midpoint(values[n / 2 - 1], values[n / 2]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Turns alternate after a warm-up; each turn's rate counts for its kind.
    #[test]
    fn turns_alternate_and_their_medians_are_compared() {
        let start = Instant::now();
        let mut trial = FpsTrial::new(4, start);
        let mut now = start;
        let mut shows = Vec::new();
        // Warm-up (shown), then hidden, shown, hidden, shown: 100 frames a second with the
        // parts hidden, 90 with them shown.
        let result = loop {
            let frames = if trial.shown() { 90 } else { 100 };
            for _ in 0..frames {
                trial.count();
            }
            now += TURN;
            match trial.tick(now) {
                Turn::Same => unreachable!("a whole turn went by"),
                Turn::Show(shown) => shows.push(shown),
                Turn::Done(result) => break result,
            }
        };
        assert_eq!(shows, [false, true, false, true]);
        assert_eq!(result.turns, 2);
        assert_eq!((result.shown_fps, result.hidden_fps), (90.0, 100.0));
        assert!((result.ratio() - 0.9).abs() < 1e-12);
        assert!(result.to_string().contains("ratio 0.900"), "{result}");
    }

    #[test]
    fn a_turn_lasts_a_second() {
        let start = Instant::now();
        let mut trial = FpsTrial::new(4, start);
        assert_eq!(trial.tick(start + TURN / 2), Turn::Same);
    }
}
