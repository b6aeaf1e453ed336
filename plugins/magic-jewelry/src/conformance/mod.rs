//! Scripted scenarios that check a ROM behaves as `docs/magic-jewelry.md` documents the third
//! edition of Magic Jewelry: the title and the start, the generator, spawn, gravity, every
//! control and its frame counts, matches in every direction, chains, the score formula, the
//! wild column, levels and speeds, counters, game over, continue and pause.
//!
//! They use only the documented RAM map and the controller (games start the way the real game
//! starts, with Start on frame 7 after power-on; boards are set up by writing playfield RAM),
//! so they run unchanged on a Magic Jewelry dump and on the open cartridge. Where the real
//! game's recordings show a fact, the scenario measures it the same way and expects the
//! recorded frame counts. Each scenario power-cycles the console first.

mod board;
mod controls;
mod driver;
mod matches;
mod special;

pub use driver::{Check, Driver, Fact, Failure, FIRST_START_FRAME};

use jewelbot_plugin::Machine;
use std::fmt;

/// How a scenario begins after the power-on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Begin {
    /// From the power-on itself.
    PowerOn,
    /// In a game started with Start on frame 7, on the first column's spawn frame.
    Game,
}

/// One scripted check.
#[derive(Clone, Copy)]
pub struct Scenario {
    pub name: &'static str,
    /// The fact it checks, in a few words.
    pub about: &'static str,
    pub begin: Begin,
    run: fn(&mut Driver<'_>) -> Check,
}

impl fmt::Debug for Scenario {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scenario")
            .field("name", &self.name)
            .field("about", &self.about)
            .field("begin", &self.begin)
            .finish_non_exhaustive()
    }
}

/// Every scenario, in the order they run.
pub fn scenarios() -> Vec<Scenario> {
    use Begin::{Game, PowerOn};
    macro_rules! list {
        ($($name:literal, $begin:ident, $about:literal => $run:path;)*) => {
            vec![$(Scenario { name: $name, about: $about, begin: $begin, run: $run }),*]
        };
    }
    list! {
        "title-ignores-early-start", PowerOn, "the title from frame 6; Start held on frames 1-6 starts nothing" => controls::title_ignores_early_start;
        "start-on-frame-7", PowerOn, "Start on frame 7: the first column (5,1,2), next (2,4,3), on frame 13" => controls::start_on_frame_7;
        "automatic-start", PowerOn, "no input: the game starts itself on frame 1224, first column on 1230" => controls::automatic_start;
        "first-columns", PowerOn, "seed $ADAD, $1297 at the first spawn; (5,1,2), (2,4,3), (3,2,1), (4,4,1), (1,2,4); 3 steps a column" => controls::first_columns;
        "spawn", Game, "x 3, bottom in row 0, drawn in rows -2..0; speed 63; counters 0" => controls::spawn;
        "gravity", Game, "a row every 63 frames at the first level; the fall timer counts up" => controls::gravity;
        "taps-and-walls", Game, "Left/Right move on the press frame; walls at 0 and 5" => controls::taps_and_walls;
        "one-action-a-frame", Game, "Left, B, Left, A, Left on consecutive frames: three moves, two rotations" => controls::one_action_a_frame;
        "one-press-per-frame", Game, "A+Left only rotates, Left+Down only moves, Right+Left goes right" => controls::one_press_per_frame;
        "moves-blocked", Game, "a move is refused when a cell beside the column is taken" => controls::moves_blocked;
        "auto-repeat", Game, "Left held: moves 0, 6, 14, 22, 30 frames after the press" => controls::auto_repeat;
        "auto-repeat-after-spawn", Game, "Left pressed on the frame after a spawn: moves 0, 7, 15 frames after" => controls::auto_repeat_after_spawn;
        "auto-repeat-through-spawn", Game, "Right held through a spawn: moves 8 and 16 frames after it" => controls::auto_repeat_through_spawn;
        "rotation", Game, "A and B: [t, m, b] -> [b, t, m]; a held button turns once" => controls::rotation;
        "select-swap", Game, "Select held with A or B swaps top and bottom" => controls::select_swap;
        "up-does-nothing", Game, "Up held 30 frames: no move, no drop" => controls::up_does_nothing;
        "soft-drop", Game, "a new Down press arms it: a row every 2 frames; released, 63 again" => controls::soft_drop;
        "soft-drop-lock", Game, "Down held: lands 22 frames after the press, the next column 3 frames after landing" => controls::soft_drop_lock;
        "down-through-spawn", Game, "Down held through a spawn does nothing until pressed again" => controls::down_through_spawn;
        "down-locks-resting", Game, "a Down press on a resting column locks it: the next column the frame after" => controls::down_locks_resting;
        "rest-one-fall-period", Game, "landed without Down, a column locks 63 frames later" => controls::rest_one_fall_period;
        "slide-over-gap", Game, "a resting column slides over a gap and falls at the expiry (no press on the race frame)" => controls::slide_over_gap;
        "lock-after-landing", Game, "with Down held a column locks 2 frames after landing" => matches::lock_after_landing;
        "match-across", Game, "three across: counted at the match, 300 when the 85-frame step ends" => matches::horizontal;
        "match-down", Game, "three down vanish; 2 + 300 from row 10" => matches::vertical;
        "match-diagonal-down", Game, "three on a down-right diagonal vanish" => matches::diagonal_down;
        "match-diagonal-up", Game, "three on an up-right diagonal vanish" => matches::diagonal_up;
        "match-four", Game, "four across count 4 and score 500" => matches::four;
        "match-five", Game, "five across count 5 and score 800" => matches::five;
        "match-six", Game, "two lines of two colours: six cells, 1200" => matches::six;
        "match-overlapping", Game, "a line across and one down sharing a jewel: five cells, 800" => matches::overlapping;
        "chain", Game, "a collapse that makes a line starts a second step: 300 then 600" => matches::chain;
        "combo", Game, "consecutive clears on the floor score 300, 330; a quiet lock takes 2 off $A0" => matches::combo;
        "high-lock-bonus", Game, "three with the bottom on row 3 and combo 9: 9 + 190*3 = 579" => matches::high_lock_bonus;
        "row-2-erased", Game, "a collapse erases row -2 instead of letting it fall" => matches::row_minus_2_erased;
        "wild-generated", Game, "71 cells removed: the wild column 17 frames after the step, next kept, level + 1" => special::wild_generated;
        "wild-on-floor", Game, "the wild column on the floor: 3 counted, 330; level index 1, speed 52" => special::wild_on_floor;
        "wild-on-jewel", Game, "the wild column on a 1: every 1 and X goes, 7 cells, 1872" => special::wild_on_jewel;
        "speed-table", Game, "a level request raises $6D and sets the speed from the table; 255 wraps to 0" => special::speed_table;
        "counters-roll-over", Game, "999,999 jewels + 3 = 1,000,002; score 99,999,999 + 300 = 299" => special::counters_roll_over;
        "level-counter", Game, "level 9,999 + 1 = 10,000 when a wild column is generated" => special::level_counter;
        "game-over", Game, "a jewel left in row -1: the 7-fill, 178 frames for the cells, 180 with the border" => special::game_over;
        "game-over-wait", Game, "the game over waits for Start held; then reset, title, a new game 11 frames later" => special::game_over_wait;
        "start-during-fill", Game, "a Start press during the 7-fill only toggles $3F" => special::start_during_fill;
        "continue", Game, "exactly Select+Start+Right after the fill: the board empties, a logo ($46 = 1) waits for a new Start press, which spawns the next column with every counter, the speed and the generator kept" => special::continue_game;
        "continue-needs-exact-buttons", Game, "Select+Start+Right with A as well: a reset, as Start alone (the title 4 frames later)" => special::continue_needs_exact_buttons;
        "spawn-over-full-column", Game, "a column always spawns; unable to fall it locks 63 frames later and the game ends" => special::spawn_over_full_column;
        "spawn-overwrites", Game, "the jewel under the spawn is overwritten; the column can still move and fall" => special::spawn_overwrites;
        "pause", Game, "Start pauses: presses lost, the timer counts, the column drops on resuming" => special::pause;
        "pause-during-clear", Game, "Start during a clear pauses after the next spawn" => special::pause_during_clear;
    }
}

/// How one scenario went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub name: &'static str,
    pub passed: bool,
    /// What the game does.
    pub expected: String,
    /// What was measured, or why nothing could be.
    pub observed: String,
    /// Frames the scenario ran.
    pub frames: u64,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = if self.passed { "PASS" } else { "FAIL" };
        write!(
            f,
            "{verdict} {:<26} expected {}; observed {} ({} frames)",
            self.name, self.expected, self.observed, self.frames
        )
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

    /// Frames run by every scenario.
    pub fn frames(&self) -> u64 {
        self.outcomes.iter().map(|o| o.frames).sum()
    }

    /// One line, e.g. "48 of 48 scenarios passed (0 failed, 17000 frames)".
    pub fn summary(&self) -> String {
        format!(
            "{} of {} scenarios passed ({} failed, {} frames)",
            self.passed(),
            self.outcomes.len(),
            self.failed(),
            self.frames()
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

/// Power-cycles the console, starts a game if the scenario begins in one, and runs it.
pub fn run(machine: &mut dyn Machine, scenario: &Scenario) -> Outcome {
    let mut driver = Driver::new(machine);
    let result = driver.power_cycle().and_then(|()| {
        if scenario.begin == Begin::Game {
            driver.start_game()?;
        }
        (scenario.run)(&mut driver)
    });
    let (passed, expected, observed) = match result {
        Ok(fact) => (fact.passed, fact.expected, fact.observed),
        Err(Failure(why)) => (false, scenario.about.to_owned(), why),
    };
    Outcome {
        name: scenario.name,
        passed,
        expected,
        observed,
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
        assert!(report.outcomes[1].observed.contains("Start"), "{report}");
        assert!(report
            .summary()
            .starts_with(&format!("0 of {} scenarios passed", scenarios().len())));
        assert!(scenarios().len() >= 30);
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
        assert!(outcome.observed.contains("jammed"), "{outcome}");
    }
}
