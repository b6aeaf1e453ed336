//! `jewelbot conform`: runs every conformance scenario (`magic_jewelry::conformance`) on a
//! console, one line a scenario as it finishes, then a summary.
//!
//! The ROM must be a Magic Jewelry dump or the open cartridge: anything else is refused before
//! any scenario runs. A scenario that runs past [`FRAME_LIMIT`] frames (a state that never
//! comes) is stopped and fails; a console that stops (a jammed CPU) fails the scenario too.

use jewelbot_plugin::{Buttons, Machine, MachineError, Ram, RomIdentity};
use magic_jewelry::conformance::{self, Outcome, Report};
use magic_jewelry::dumps::{self, Identification};
use std::io::Write;

/// Frames one scenario may run (the longest needs about 1,300).
pub const FRAME_LIMIT: u64 = 5_000;

/// The ROM is not one the scenarios are about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotTheGame {
    pub name: String,
    pub what: String,
}

impl std::fmt::Display for NotTheGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} is not Magic Jewelry or the jewelbot open cartridge ({}); no scenario was run",
            self.name, self.what
        )
    }
}

impl std::error::Error for NotTheGame {}

/// What the ROM is, if the scenarios apply to it.
pub fn identify(rom: &RomIdentity<'_>) -> Result<Identification, NotTheGame> {
    let identification = dumps::identify(rom.prg_chr_crc32, rom.file_sha1, rom.prg);
    if identification.is_playable() {
        Ok(identification)
    } else {
        Err(NotTheGame {
            name: rom.name.to_owned(),
            what: identification.describe(),
        })
    }
}

/// A console that refuses to run more than `limit` frames.
struct Limited<'m> {
    machine: &'m mut dyn Machine,
    limit: u64,
    frames: u64,
}

impl Limited<'_> {
    fn timed_out(&self) -> bool {
        self.frames > self.limit
    }
}

impl Machine for Limited<'_> {
    fn ram(&self) -> &Ram {
        self.machine.ram()
    }

    fn poke(&mut self, address: u16, value: u8) {
        self.machine.poke(address, value);
    }

    fn step(&mut self, buttons: Buttons) -> Result<(), MachineError> {
        self.frames += 1;
        if self.timed_out() {
            return Err(MachineError(format!(
                "the scenario ran out of its {} frames",
                self.limit
            )));
        }
        self.machine.step(buttons)
    }

    fn frame_number(&self) -> u64 {
        self.machine.frame_number()
    }

    fn power_cycle(&mut self) -> Result<(), MachineError> {
        self.machine.power_cycle()
    }
}

/// Runs one scenario within `limit` frames.
pub fn run_scenario(
    machine: &mut dyn Machine,
    scenario: &conformance::Scenario,
    limit: u64,
) -> Outcome {
    let mut limited = Limited {
        machine,
        limit,
        frames: 0,
    };
    let mut outcome = conformance::run(&mut limited, scenario);
    if limited.timed_out() {
        outcome.passed = false;
        outcome.observed = format!(
            "timed out: nothing came within {limit} frames (the console stopped the scenario)"
        );
    }
    outcome
}

/// Checks the ROM, then runs every scenario on `machine` (a console with that ROM), writing a
/// line for each as it finishes and the summary to `out`.
pub fn run(
    machine: &mut dyn Machine,
    rom: &RomIdentity<'_>,
    limit: u64,
    out: &mut dyn Write,
) -> anyhow::Result<Report> {
    run_with_progress(machine, rom, limit, out, &indicatif::ProgressBar::hidden())
}

/// [`run`], counting the scenarios on `bar` (its length is set here); the bar steps aside
/// while a line is written.
pub fn run_with_progress(
    machine: &mut dyn Machine,
    rom: &RomIdentity<'_>,
    limit: u64,
    out: &mut dyn Write,
    bar: &indicatif::ProgressBar,
) -> anyhow::Result<Report> {
    let identification = identify(rom)?;
    let scenarios = conformance::scenarios();
    bar.set_length(scenarios.len() as u64);
    bar.suspend(|| {
        writeln!(
            out,
            "conformance of {}: {}",
            rom.name,
            identification.describe()
        )
    })?;
    let mut report = Report::default();
    for scenario in scenarios {
        let outcome = run_scenario(machine, &scenario, limit);
        bar.suspend(|| writeln!(out, "{outcome}").and_then(|()| out.flush()))?;
        bar.inc(1);
        report.outcomes.push(outcome);
    }
    bar.finish_and_clear();
    writeln!(out, "{}", report.summary())?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A console whose title never leaves: every scenario that waits for a game must time out
    /// or fail, never hang.
    struct StuckOnTitle {
        ram: Ram,
        frames: u64,
    }

    impl Machine for StuckOnTitle {
        fn ram(&self) -> &Ram {
            &self.ram
        }
        fn poke(&mut self, _: u16, _: u8) {}
        fn step(&mut self, _: Buttons) -> Result<(), MachineError> {
            self.frames += 1;
            self.ram[0x46] = 0x83;
            Ok(())
        }
        fn frame_number(&self) -> u64 {
            self.frames
        }
        fn power_cycle(&mut self) -> Result<(), MachineError> {
            self.frames = 0;
            self.ram = [0; 0x800];
            Ok(())
        }
    }

    fn identity<'a>(name: &'a str, prg: &'a [u8], crc: u32) -> RomIdentity<'a> {
        RomIdentity {
            name,
            mapper: 0,
            prg,
            chr: &[],
            prg_chr_crc32: crc,
            file_sha1: "",
        }
    }

    #[test]
    fn another_game_is_refused_before_any_scenario() {
        let mut console = StuckOnTitle {
            ram: [0; 0x800],
            frames: 0,
        };
        let mut out = Vec::new();
        let error = run(
            &mut console,
            &identity("other.nes", &[0; 64], 1),
            FRAME_LIMIT,
            &mut out,
        )
        .unwrap_err();
        let text = error.to_string();
        assert!(text.contains("other.nes is not Magic Jewelry"), "{text}");
        assert!(out.is_empty());
        assert_eq!(console.frames, 0);
    }

    #[test]
    fn a_state_that_never_comes_times_out() {
        let mut console = StuckOnTitle {
            ram: [0; 0x800],
            frames: 0,
        };
        let scenario = conformance::scenarios()
            .into_iter()
            .find(|s| s.name == "automatic-start")
            .unwrap();
        let outcome = run_scenario(&mut console, &scenario, 300);
        assert!(!outcome.passed);
        assert!(outcome.observed.starts_with("timed out"), "{outcome}");
        assert!(outcome.to_string().starts_with("FAIL automatic-start"));
        assert!(console.frames <= 301);
    }

    #[test]
    fn the_real_game_is_accepted() {
        let real = identify(&identity("mj.nes", &[], 0xA189_843D)).unwrap();
        assert!(matches!(real, Identification::Known(_)));
        let mut prg = vec![0u8; 64];
        prg[4..4 + dumps::OPEN_CARTRIDGE_SIGNATURE.len()]
            .copy_from_slice(dumps::OPEN_CARTRIDGE_SIGNATURE);
        let open = identify(&identity("columns.nes", &prg, 7)).unwrap();
        assert_eq!(open, Identification::OpenCartridge);
    }
}
