//! The conformance suite on the open cartridge: every documented behaviour of Magic Jewelry's
//! second edition must hold on the game the project ships; and `jewelbot conform`'s runner
//! refuses other games and fails, never hangs, on a broken one.

use jewelbot_host::rom::tiny;

use jewelbot_host::rom::RomImage;
use jewelbot_host::session::{Session, SessionConfig};
use magic_jewelry::conformance;
use magic_jewelry_lab::conform;

fn session(rom: RomImage) -> Session {
    Session::new(rom, Vec::new(), SessionConfig::default()).expect("loads")
}

/// Runs `jewelbot conform`'s runner on a ROM: its printed text and the report, or the refusal.
fn run(rom: &RomImage) -> (String, anyhow::Result<conformance::Report>) {
    let mut session = session(rom.clone());
    let identity = rom.identity();
    let mut out = Vec::new();
    let report = conform::run(&mut session, &identity, conform::FRAME_LIMIT, &mut out);
    (String::from_utf8(out).expect("text"), report)
}

/// Every scenario, shared between two consoles of their own (each scenario starts from
/// power-on, so the order changes nothing).
#[test]
fn the_open_cartridge_passes_every_scenario() {
    let rom =
        jewelbot_host::rom::RomImage::from_bytes(jewelbot_cartridge::NAME, jewelbot_cartridge::ROM)
            .expect("the open cartridge parses");
    let scenarios = conformance::scenarios();
    let (first, second) = scenarios.split_at(scenarios.len() / 2);
    let run_part = |part: &[conformance::Scenario]| {
        let mut session = session(rom.clone());
        part.iter()
            .map(|scenario| conformance::run(&mut session, scenario))
            .collect::<Vec<_>>()
    };
    let outcomes = std::thread::scope(|scope| {
        let other = scope.spawn(|| run_part(second));
        let mut outcomes = run_part(first);
        outcomes.extend(other.join().expect("the scenarios run"));
        outcomes
    });
    let report = conformance::Report { outcomes };
    println!("{report}");
    assert!(report.outcomes.len() >= 30);
    assert_eq!(report.outcomes.len(), conformance::scenarios().len());
    assert!(report.all_passed(), "\n{report}");
}

#[test]
fn another_game_is_refused_without_running_a_scenario() {
    let rom = RomImage::from_bytes("tiny.nes", &tiny::tiny_rom()).expect("parses");
    let (text, report) = run(&rom);
    let error = report.expect_err("refused").to_string();
    assert!(
        error.contains("tiny.nes is not Magic Jewelry or the jewelbot open cartridge"),
        "{error}"
    );
    assert!(text.is_empty(), "{text}");
}

#[test]
fn a_cartridge_that_jams_fails_every_scenario_at_once() {
    // The open cartridge with a jam opcode where its reset routine begins.
    let mut bytes = jewelbot_cartridge::ROM.to_vec();
    let prg = usize::from(bytes[4]) * 0x4000;
    let reset = usize::from(u16::from_le_bytes([
        bytes[16 + prg - 4],
        bytes[16 + prg - 3],
    ]));
    bytes[16 + (reset - 0x8000) % prg] = 0x02;
    let rom = RomImage::from_bytes("jammed.nes", &bytes).expect("parses");
    let (text, report) = run(&rom);
    let report = report.expect("still the open cartridge");
    assert_eq!(report.passed(), 0, "{text}");
    assert!(
        report.frames() < 10 * report.outcomes.len() as u64,
        "{text}"
    );
    assert!(
        report
            .outcomes
            .iter()
            .all(|o| o.to_string().starts_with("FAIL") && o.observed.contains("stuck")),
        "{text}"
    );
    assert!(text.ends_with(&format!("{}\n", report.summary())), "{text}");
}
