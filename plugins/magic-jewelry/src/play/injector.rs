//! Presses a plan's timeline frame by frame and checks in RAM that each move took effect.

use super::plan::Plan;
use crate::engine::{Column, Move};
use jewelbot_plugin::Buttons;

/// What the injector saw and did this frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Hold these buttons during the next frame.
    Press(Buttons),
    /// The column is not where the plan expects (a press was lost, lag, someone else moved
    /// it): plan again from here.
    Replan,
}

/// The closed loop between a plan's timeline and the column's state in RAM.
#[derive(Debug, Clone, Default)]
pub struct Injector {
    /// The next frame of the timeline to press.
    cursor: usize,
    /// Where the column must be after the move pressed last frame.
    pending: Option<(u8, Column)>,
    /// Moves that did not take effect.
    pub misses: u64,
    /// Moves confirmed in RAM.
    pub confirmed: u64,
}

impl Injector {
    /// Starts a new timeline (new column, new plan).
    pub fn restart(&mut self) {
        self.cursor = 0;
        self.pending = None;
    }

    /// One frame: `x` and `jewels` are the falling column as RAM shows it now.
    pub fn step(&mut self, plan: &Plan, x: u8, jewels: Column) -> Step {
        if let Some(expected) = self.pending.take() {
            if (x, jewels) == expected {
                self.confirmed += 1;
            } else {
                self.misses += 1;
                return Step::Replan;
            }
        }
        let timeline = &plan.timeline;
        let Some(&buttons) = timeline.frames.get(self.cursor) else {
            if !plan.is_on_target(x, jewels) {
                return Step::Replan;
            }
            return Step::Press(timeline.finish);
        };
        self.cursor += 1;
        self.pending = Move::of_press(buttons).map(|m| m.apply(x, jewels));
        Step::Press(buttons)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Timeline;
    use std::time::Duration;

    fn plan(frames: &[Buttons], x: u8, jewels: Column) -> Plan {
        Plan {
            target_x: x,
            target_jewels: jewels,
            target_y: 12,
            timeline: Timeline {
                frames: frames.to_vec(),
                finish: Buttons::DOWN,
            },
            decision_time: Duration::ZERO,
        }
    }

    #[test]
    fn presses_the_timeline_then_holds_the_finish() {
        use Buttons as B;
        let start = Column::new(1, 2, 3);
        let plan = plan(&[B::A, B::NONE, B::LEFT, B::NONE], 2, start.cycled());
        let mut injector = Injector::default();
        injector.restart();
        let mut x = 3;
        let mut jewels = start;
        let mut pressed = Vec::new();
        for _ in 0..8 {
            let Step::Press(buttons) = injector.step(&plan, x, jewels) else {
                panic!("no replan expected");
            };
            pressed.push(buttons);
            // The game obeys each press within the frame.
            if buttons == B::A {
                jewels = jewels.cycled();
            } else if buttons == B::LEFT {
                x -= 1;
            }
        }
        assert_eq!(
            pressed,
            [
                B::A,
                B::NONE,
                B::LEFT,
                B::NONE,
                B::DOWN,
                B::DOWN,
                B::DOWN,
                B::DOWN
            ]
        );
        assert_eq!(injector.confirmed, 2);
    }

    #[test]
    fn a_lost_press_asks_for_a_new_plan() {
        let start = Column::new(1, 2, 3);
        let plan = plan(&[Buttons::RIGHT, Buttons::NONE, Buttons::RIGHT], 5, start);
        let mut injector = Injector::default();
        injector.restart();
        assert_eq!(injector.step(&plan, 3, start), Step::Press(Buttons::RIGHT));
        // The game did not move the column.
        assert_eq!(injector.step(&plan, 3, start), Step::Replan);
        assert_eq!(injector.misses, 1);
    }
}
