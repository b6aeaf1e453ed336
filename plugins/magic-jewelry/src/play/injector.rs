//! Presses the planned taps at a limited rate and checks in RAM that each one took effect.

use super::plan::{Plan, Tap};
use crate::engine::Column;
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

/// The closed loop between planned taps and the column's state in RAM.
#[derive(Debug, Clone, Default)]
pub struct Injector {
    /// The tap pressed last frame and the state it must produce.
    pending: Option<(Tap, u8, Column)>,
    /// Frames since the last tap went down.
    since_press: u32,
    /// Taps that did not take effect.
    pub misses: u64,
    /// Taps confirmed in RAM.
    pub confirmed: u64,
}

impl Injector {
    /// Forgets the tap in flight (new column, new plan).
    pub fn restart(&mut self) {
        self.pending = None;
        self.since_press = u32::MAX / 2;
    }

    /// One frame: `x` and `jewels` are the falling column as RAM shows it now, `interval` the
    /// fewest frames between two taps.
    pub fn step(&mut self, plan: &mut Plan, x: u8, jewels: Column, interval: u8) -> Step {
        self.since_press = self.since_press.saturating_add(1);
        if let Some((tap, expected_x, expected_jewels)) = self.pending.take() {
            if (x, jewels) == (expected_x, expected_jewels) {
                self.confirmed += 1;
                if plan.taps.front() == Some(&tap) {
                    plan.taps.pop_front();
                }
            } else {
                self.misses += 1;
                return Step::Replan;
            }
        }
        let Some(&tap) = plan.taps.front() else {
            if !plan.is_on_target(x, jewels) {
                return Step::Replan;
            }
            // A released frame between the last tap and Down, as the search assumes.
            return Step::Press(if self.since_press >= 2 {
                plan.finish
            } else {
                Buttons::NONE
            });
        };
        if self.since_press < u32::from(interval.max(2)) {
            return Step::Press(Buttons::NONE);
        }
        let (expected_x, expected_jewels) = tap.apply(x, jewels);
        self.pending = Some((tap, expected_x, expected_jewels));
        self.since_press = 0;
        Step::Press(tap.button())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;
    use std::time::Duration;

    fn plan(taps: &[Tap], x: u8, jewels: Column) -> Plan {
        Plan {
            target_x: x,
            target_jewels: jewels,
            target_y: 12,
            taps: taps.iter().copied().collect::<VecDeque<_>>(),
            finish: Buttons::DOWN,
            decision_time: Duration::ZERO,
        }
    }

    #[test]
    fn taps_at_the_interval_then_holds_the_finish() {
        let start = Column::new(1, 2, 3);
        let mut plan = plan(&[Tap::Rotate, Tap::Left], 2, start.cycled());
        let mut injector = Injector::default();
        injector.restart();
        let mut x = 3;
        let mut jewels = start;
        let mut pressed = Vec::new();
        for _ in 0..8 {
            let Step::Press(buttons) = injector.step(&mut plan, x, jewels, 2) else {
                panic!("no replan expected");
            };
            pressed.push(buttons);
            // The game obeys each tap within the frame.
            if buttons == Buttons::A {
                jewels = jewels.cycled();
            } else if buttons == Buttons::LEFT {
                x -= 1;
            }
        }
        use Buttons as B;
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
        let mut plan = plan(&[Tap::Right, Tap::Right], 5, start);
        let mut injector = Injector::default();
        injector.restart();
        assert_eq!(
            injector.step(&mut plan, 3, start, 4),
            Step::Press(Buttons::RIGHT)
        );
        // The game did not move the column.
        assert_eq!(injector.step(&mut plan, 3, start, 4), Step::Replan);
        assert_eq!(injector.misses, 1);
    }
}
