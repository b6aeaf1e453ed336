//! Presses a plan's timeline frame by frame and checks in RAM, every frame, that the column is
//! where the game's input rules say the presses put it.

use super::plan::Plan;
use super::stats::PlayerStats;
use jewelbot_plugin::Buttons;
use magic_jewelry_engine::rules::board::WIDTH;
use magic_jewelry_engine::{Column, FallState};

/// What the column looks like in RAM, as far as the injector checks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seen {
    pub x: u8,
    pub y: u8,
    pub jewels: Column,
    /// Soft drop armed ($65).
    pub armed: bool,
}

/// What the injector saw and did this frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Hold these buttons during the next frame.
    Press(Buttons),
    /// The column is not where the plan expects (a press was lost, lag, someone else moved
    /// it): plan again from here.
    Replan,
}

/// What the input rules say the last frame pressed did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Predicted {
    /// Nothing pressed yet.
    #[default]
    Start,
    /// The column is there.
    Falling(FallState),
    /// The column locked.
    Locked,
}

/// The closed loop between a plan's timeline and the column's state in RAM.
#[derive(Debug, Clone, Default)]
pub struct Injector {
    /// The next frame of the timeline to press.
    cursor: usize,
    predicted: Predicted,
}

impl Injector {
    /// Starts a new timeline (new column, new plan).
    pub fn restart(&mut self) {
        self.cursor = 0;
        self.predicted = Predicted::Start;
    }

    /// One frame: `seen` is the falling column as RAM shows it now, `rest` the rest rows of the
    /// settled board it falls over. Frames that went as predicted, and those that did not,
    /// count in `stats`.
    pub fn step(
        &mut self,
        plan: &Plan,
        seen: Seen,
        rest: &[i8; WIDTH],
        stats: &mut PlayerStats,
    ) -> Step {
        let state = match self.predicted {
            Predicted::Falling(predicted) => {
                let expected = Seen {
                    x: predicted.x,
                    y: predicted.y as u8,
                    jewels: plan.jewels.arranged(predicted.arrangement),
                    armed: predicted.armed,
                };
                if expected != seen {
                    stats.missed_presses += 1;
                    return Step::Replan;
                }
                stats.confirmed_presses += 1;
                predicted
            }
            Predicted::Start => plan.start,
            // RAM may show the column for a frame after it locked: let go of the controller
            // so the next column finds no button held.
            Predicted::Locked => return Step::Press(Buttons::NONE),
        };
        let buttons = plan.timeline.buttons_at(self.cursor);
        self.cursor += 1;
        let mut next = state;
        self.predicted = if next.step(rest, buttons) {
            Predicted::Locked
        } else {
            Predicted::Falling(next)
        };
        Step::Press(buttons)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use magic_jewelry_engine::Timeline;
    use std::time::Duration;

    fn plan(frames: &[Buttons], x: u8, jewels: Column) -> Plan {
        Plan {
            target_x: x,
            target_jewels: jewels,
            target_y: 12,
            jewels: Column::new(1, 2, 3),
            start: FallState::spawn(63),
            timeline: Timeline {
                frames: frames.to_vec(),
                finish: Buttons::DOWN,
            },
            decision_time: Duration::ZERO,
            candidates: Vec::new(),
            next: None,
            explanation: None,
            short_explanation: None,
        }
    }

    /// The game's answer to a frame's buttons, by the same rules.
    fn game_step(state: &mut FallState, rest: [i8; WIDTH], buttons: Buttons) -> Seen {
        state.step(&rest, buttons);
        Seen {
            x: state.x,
            y: state.y as u8,
            jewels: Column::new(1, 2, 3).arranged(state.arrangement),
            armed: state.armed,
        }
    }

    #[test]
    fn presses_the_timeline_then_holds_the_finish() {
        use Buttons as B;
        let rest = [12; WIDTH];
        let start = Column::new(1, 2, 3);
        let plan = plan(&[B::A, B::DOWN, B::LEFT | B::DOWN], 2, start.cycled());
        let mut injector = Injector::default();
        let mut game = plan.start;
        let mut seen = Seen {
            x: 3,
            y: 0,
            jewels: start,
            armed: false,
        };
        let mut pressed = Vec::new();
        let mut stats = PlayerStats::default();
        for _ in 0..6 {
            let Step::Press(buttons) = injector.step(&plan, seen, &rest, &mut stats) else {
                panic!("no replan expected");
            };
            pressed.push(buttons);
            seen = game_step(&mut game, rest, buttons);
        }
        assert_eq!(
            pressed,
            [B::A, B::DOWN, B::LEFT | B::DOWN, B::DOWN, B::DOWN, B::DOWN]
        );
        assert_eq!((stats.confirmed_presses, stats.missed_presses), (5, 0));
        assert_eq!((seen.x, seen.jewels), (2, start.cycled()));
    }

    #[test]
    fn a_lost_press_asks_for_a_new_plan() {
        let rest = [12; WIDTH];
        let start = Column::new(1, 2, 3);
        let plan = plan(&[Buttons::RIGHT, Buttons::NONE, Buttons::RIGHT], 5, start);
        let mut injector = Injector::default();
        let seen = Seen {
            x: 3,
            y: 0,
            jewels: start,
            armed: false,
        };
        let mut stats = PlayerStats::default();
        assert_eq!(
            injector.step(&plan, seen, &rest, &mut stats),
            Step::Press(Buttons::RIGHT)
        );
        // The game did not move the column.
        assert_eq!(injector.step(&plan, seen, &rest, &mut stats), Step::Replan);
        assert_eq!(stats.missed_presses, 1);
    }
}
