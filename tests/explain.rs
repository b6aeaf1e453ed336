//! `run --explain`: a line for each of the AI's decisions, and the notes in the JSON report.

use std::process::Command;

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
