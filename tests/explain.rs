//! What the AI shows of its choice: the overlay's target, runners-up and next-column plan, the
//! status panel's explanation, and `run --explain`.

use jewelbot::cartridge;
use jewelbot::session::{Session, SessionConfig};
use jewelbot_plugin::Plugin;
use magic_jewelry::plugin::MagicJewelryPlugin;
use magic_jewelry::screen::{NEXT_PLAN, RUNNER_UP, TARGET};
use std::process::Command;

fn fast_session() -> Session {
    let mut plugin = MagicJewelryPlugin::default();
    plugin.set_option("mode", "fast").expect("fast is a mode");
    let rom = cartridge::rom().expect("the open cartridge parses");
    Session::new(rom, vec![Box::new(plugin)], SessionConfig::default()).expect("loads")
}

#[test]
fn the_overlay_shows_the_target_the_runners_up_and_the_next_plan() {
    let mut session = fast_session();
    let mut seen = (false, false, false, false);
    for _ in 0..600 {
        session.run_frame().expect("a frame");
        let status = session.plugins().slots()[0].status();
        let colours: Vec<[u8; 4]> = status.marks.iter().map(|m| m.color).collect();
        seen.0 |= colours.contains(&TARGET);
        seen.1 |= colours.contains(&RUNNER_UP);
        seen.2 |= colours.contains(&NEXT_PLAN);
        seen.3 |= status.lines.iter().any(|l| l.starts_with("why: removes "));
        // The target is drawn last, over the others.
        if let Some(last) = colours.last() {
            assert_eq!(*last, TARGET, "{colours:?}");
        }
    }
    assert_eq!(seen, (true, true, true, true));
}

#[test]
fn run_explain_prints_one_line_a_decision() {
    let run = |extra: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_jewelbot"))
            .args([
                "run",
                "--headless",
                "--frames",
                "900",
                "--mode",
                "fast",
                "--explain",
            ])
            .args(extra)
            .output()
            .expect("jewelbot runs");
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout).expect("UTF-8")
    };
    let text = run(&[]);
    let notes: Vec<&str> = text.lines().filter(|l| l.starts_with("frame ")).collect();
    assert!(notes.len() >= 5, "{text}");
    let mut last_frame = 0;
    for note in &notes {
        let (frame, rest) = note["frame ".len()..]
            .split_once(": magic-jewelry: x")
            .unwrap_or_else(|| panic!("{note}"));
        let frame: u64 = frame.parse().expect("a frame number");
        assert!(frame > last_frame, "{text}");
        last_frame = frame;
        assert!(rest.contains(" row "), "{note}");
        assert!(rest.contains(" removes "), "{note}");
    }

    let json: serde_json::Value = serde_json::from_str(&run(&["--json"])).expect("JSON");
    let logged = json["notes"].as_array().expect("notes").len() as u64;
    assert_eq!(Some(logged), json["decisions"].as_u64(), "{json}");
}
