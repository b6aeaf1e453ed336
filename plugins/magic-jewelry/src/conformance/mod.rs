//! Scripted scenarios that check a ROM behaves as `magic-jewelry.md` documents: spawn,
//! timings, controls, matches, chains, the wild column, game over and counters.
//!
//! They use only the documented RAM map and the controller (games are started with Start on
//! the title screen, boards are set up by writing playfield RAM), so they run unchanged on a
//! Magic Jewelry dump and on the open cartridge. Each scenario power-cycles the console and
//! starts its own game.

mod board;
mod controls;
mod driver;
mod matches;
mod special;

pub use board::Board;
pub use driver::{Check, Driver, Failure};

use jewelbot_plugin::Machine;
use std::fmt;

/// One scripted check.
#[derive(Clone, Copy)]
pub struct Scenario {
    pub name: &'static str,
    /// What it checks, in a few words.
    pub about: &'static str,
    run: fn(&mut Driver<'_>) -> Check,
}

impl fmt::Debug for Scenario {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scenario")
            .field("name", &self.name)
            .field("about", &self.about)
            .finish_non_exhaustive()
    }
}

/// Every scenario, in the order they run.
pub fn scenarios() -> Vec<Scenario> {
    macro_rules! list {
        ($($name:literal, $about:literal => $run:path;)*) => {
            vec![$(Scenario { name: $name, about: $about, run: $run }),*]
        };
    }
    list! {
        "spawn", "new column at x=3, bottom jewel in row 0, two hidden; speed 63" => controls::spawn;
        "gravity", "a row every fall-speed frames; the fall timer counts up" => controls::gravity;
        "move", "Left/Right on the press frame; taps every 2 frames; walls" => controls::moves;
        "hold-repeat", "held Right moves after 0, 6, 14, 22, 30 frames" => controls::hold_repeat;
        "rotation", "A and B move the bottom jewel to the top" => controls::rotation;
        "soft-drop", "Down: a row every 2 frames, lock on landing, quick spawn" => controls::soft_drop;
        "slide-before-lock", "a landed column slides for one fall period" => controls::slide_before_lock;
        "match-horizontal", "three across vanish after the 85-frame animation" => matches::horizontal;
        "match-vertical", "three down vanish" => matches::vertical;
        "match-diagonal-down", "three on a down-right diagonal vanish" => matches::diagonal_down;
        "match-diagonal-up", "three on an up-right diagonal vanish" => matches::diagonal_up;
        "match-four", "four across count 4" => matches::four;
        "match-five", "five across count 5" => matches::five;
        "match-simultaneous", "two lines of two colours at once count 6" => matches::simultaneous;
        "match-overlapping", "a line across and down sharing a jewel count 5" => matches::overlapping;
        "chain", "a collapse that makes a new line clears it too" => matches::chain;
        "wild-on-floor", "the wild column on the floor vanishes; level and speed go up" => special::wild_on_floor;
        "wild-on-colour", "the wild column removes every jewel of the colour it lands on" => special::wild_on_colour;
        "game-over-hidden-row", "locking into the hidden rows ends the game; Start restarts" => special::game_over_hidden_row;
        "game-over-blocked-spawn", "no room to spawn ends the game; Start restarts" => special::game_over_blocked_spawn;
        "counter-rollover", "jewel counter and score roll over" => special::counter_rollover;
        "level-rollover", "the level rolls over from 9999" => special::level_rollover;
    }
}

/// How one scenario went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub name: &'static str,
    pub passed: bool,
    /// What was measured, or why it failed.
    pub message: String,
    /// Frames the scenario ran.
    pub frames: u64,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = if self.passed { "PASS" } else { "FAIL" };
        write!(f, "{verdict} {:<24} {}", self.name, self.message)
    }
}

/// Every scenario's outcome.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    pub outcomes: Vec<Outcome>,
}

impl Report {
    pub fn passed(&self) -> usize {
        self.outcomes.iter().filter(|o| o.passed).count()
    }

    pub fn failed(&self) -> usize {
        self.outcomes.len() - self.passed()
    }

    pub fn all_passed(&self) -> bool {
        self.failed() == 0
    }

    /// One line, e.g. "22 of 22 scenarios passed".
    pub fn summary(&self) -> String {
        let frames: u64 = self.outcomes.iter().map(|o| o.frames).sum();
        format!(
            "{} of {} scenarios passed ({} failed, {frames} frames)",
            self.passed(),
            self.outcomes.len(),
            self.failed()
        )
    }
}

impl fmt::Display for Report {
    /// A line per scenario, then the summary.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for outcome in &self.outcomes {
            writeln!(f, "{outcome}")?;
        }
        f.write_str(&self.summary())
    }
}

/// Power-cycles the console, starts a game and runs `scenario`.
pub fn run(machine: &mut dyn Machine, scenario: &Scenario) -> Outcome {
    let mut driver = Driver::new(machine);
    let result = driver
        .power_cycle()
        .and_then(|()| driver.start_game())
        .and_then(|()| (scenario.run)(&mut driver));
    let (passed, message) = match result {
        Ok(message) => (true, message),
        Err(Failure(why)) => (false, why),
    };
    Outcome {
        name: scenario.name,
        passed,
        message,
        frames: driver.frames(),
    }
}

/// Runs every scenario in turn.
pub fn run_all(machine: &mut dyn Machine) -> Report {
    Report {
        outcomes: scenarios().iter().map(|s| run(machine, s)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jewelbot_plugin::{Buttons, MachineError, Ram};

    /// A console whose RAM never changes: every scenario must fail on it, not hang or pass.
    struct DeadConsole {
        ram: Ram,
        frames: u64,
    }

    impl Machine for DeadConsole {
        fn ram(&self) -> &Ram {
            &self.ram
        }
        fn poke(&mut self, address: u16, value: u8) {
            self.ram[usize::from(address) % self.ram.len()] = value;
        }
        fn step(&mut self, _: Buttons) -> Result<(), MachineError> {
            self.frames += 1;
            Ok(())
        }
        fn frame_number(&self) -> u64 {
            self.frames
        }
        fn power_cycle(&mut self) -> Result<(), MachineError> {
            self.ram = [0; 0x800];
            Ok(())
        }
    }

    #[test]
    fn names_are_unique() {
        let list = scenarios();
        let mut names: Vec<_> = list.iter().map(|s| s.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), list.len());
    }

    #[test]
    fn a_console_that_does_nothing_fails_everything() {
        let mut console = DeadConsole {
            ram: [0; 0x800],
            frames: 0,
        };
        let report = run_all(&mut console);
        assert_eq!(report.passed(), 0, "{report}");
        assert!(report.outcomes[0].message.contains("Start"), "{report}");
        assert!(report.summary().starts_with("0 of 22 scenarios passed"));
    }

    #[test]
    fn a_console_that_stops_is_reported() {
        struct Broken;
        impl Machine for Broken {
            fn ram(&self) -> &Ram {
                &[0; 0x800]
            }
            fn poke(&mut self, _: u16, _: u8) {}
            fn step(&mut self, _: Buttons) -> Result<(), MachineError> {
                Err(MachineError("jammed".into()))
            }
            fn frame_number(&self) -> u64 {
                0
            }
            fn power_cycle(&mut self) -> Result<(), MachineError> {
                Ok(())
            }
        }
        let outcome = run(&mut Broken, &scenarios()[0]);
        assert!(!outcome.passed);
        assert!(outcome.message.contains("jammed"), "{outcome}");
    }
}
