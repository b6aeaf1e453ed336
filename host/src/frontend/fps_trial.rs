//! The window's own benchmark (`--fps-trial SECONDS`): unthrottled, with every part of the
//! window shown and every part hidden in turn, a second each, it counts the frames emulated in
//! each second and reports the medians of both, and the median of the ratios of each turn with
//! the parts shown to the hidden turns on either side: neighbouring seconds see the same load
//! on the machine and the same stretch of the game, so what the parts cost the emulator is
//! measured in one run, on the machine at hand.

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
    /// Medians of the frames a second of the turns with the parts shown and hidden.
    pub shown_fps: f64,
    pub hidden_fps: f64,
    /// The median, over the turns with the parts shown, of their frames a second over the mean
    /// of the hidden turns on either side.
    pub ratio: f64,
    /// Turns counted of each kind.
    pub turns: usize,
}

impl std::fmt::Display for TrialResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "fps trial: every part shown {:.0} fps, every part hidden {:.0} fps \
             (medians of {} one-second turns each); shown over hidden, the median of the \
             ratios of neighbouring turns: {:.3}",
            self.shown_fps, self.hidden_fps, self.turns, self.ratio
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
            // Turns alternate from a hidden one: each shown turn between two hidden ones is
            // set against their mean, so a steady drift of the machine cancels.
            let mut ratios: Vec<f64> = self
                .with_parts
                .iter()
                .zip(self.without_parts.windows(2))
                .map(|(shown, hidden)| shown / f64::midpoint(hidden[0], hidden[1]))
                .collect();
            return Turn::Done(TrialResult {
                ratio: median(&mut ratios),
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
        // parts hidden, 90 with them shown; the last shown turn has no hidden turn after it.
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
        assert!((result.ratio - 0.9).abs() < 1e-12);
        assert!(result.to_string().ends_with("turns: 0.900"), "{result}");
    }

    /// The machine slows down through the trial: the medians of each kind drift with it, the
    /// ratios of neighbouring turns do not.
    #[test]
    fn neighbouring_turns_cancel_a_drift() {
        let start = Instant::now();
        let mut trial = FpsTrial::new(8, start);
        let mut now = start;
        let mut turn = 0.0;
        let result = loop {
            // 2% a second slower, and the parts cost 1%.
            let base = 400.0 * (1.0 - 0.02 * turn);
            let frames: f64 = if trial.shown() { base * 0.99 } else { base };
            for _ in 0..frames.round() as u32 {
                trial.count();
            }
            now += TURN;
            turn += 1.0;
            if let Turn::Done(result) = trial.tick(now) {
                break result;
            }
        };
        assert!((result.ratio - 0.99).abs() < 0.005, "{result}");
    }

    #[test]
    fn a_turn_lasts_a_second() {
        let start = Instant::now();
        let mut trial = FpsTrial::new(4, start);
        assert_eq!(trial.tick(start + TURN / 2), Turn::Same);
    }
}
