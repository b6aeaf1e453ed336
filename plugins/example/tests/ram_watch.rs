//! The example plug-in in the emulator, as the host runs it: on a tiny ROM that counts frames in
//! $21 and reads the controller into $10-$17.

use jewelbot_example_plugin::RamWatch;
use jewelbot_host::rom::tiny::{tiny_rom, NMI_COUNT, PAD_BITS};
use jewelbot_host::rom::RomImage;
use jewelbot_host::session::{Session, SessionConfig};
use jewelbot_plugin::Plugin;

fn session_with(options: &[(&str, &str)]) -> Session {
    let mut watch = RamWatch::default();
    for (name, value) in options {
        watch.set_option(name, value).expect("a good option");
    }
    let rom = RomImage::from_bytes("tiny.nes", &tiny_rom()).expect("the tiny ROM parses");
    Session::new(rom, vec![Box::new(watch)], SessionConfig::default()).expect("it loads")
}

#[test]
fn it_counts_the_frame_counters_changes_and_shows_its_value() {
    let mut session = session_with(&[("watch", &format!("${NMI_COUNT:02X}"))]);
    for _ in 0..60 {
        session.run_frame().expect("a frame");
    }
    // The counter moves once a frame: 59 changes between 60 frames seen.
    assert_eq!(session.plugins().stat("watch_changes"), Some(59));
    let value = session.ram()[NMI_COUNT];
    let status = session.plugins().slots()[0].status();
    assert_eq!(
        status.lines,
        vec![format!("${NMI_COUNT:04X} = {value:02X}")]
    );
    assert_eq!(status.marks[0].width, u16::from(value).max(1));
}

#[test]
fn it_holds_start_while_the_byte_has_the_chosen_value() {
    // $30 stays 0 on this ROM: Start is held from the second frame on, and the ROM reads it
    // into $13 (A, B, Select, Start).
    let mut session = session_with(&[("watch", "30"), ("start-on", "00")]);
    for _ in 0..5 {
        session.run_frame().expect("a frame");
    }
    assert_eq!(session.ram()[PAD_BITS + 3], 1, "Start read by the game");
    assert_eq!(session.ram()[PAD_BITS], 0, "A not pressed");
}

#[test]
fn bad_settings_are_refused_with_the_reason() {
    let mut watch = RamWatch::default();
    assert_eq!(
        watch.set_option("watch", "$0800"),
        Err("$0800 is outside RAM ($0000-$07FF)".to_owned())
    );
    assert_eq!(
        watch.set_option("watch", "zz"),
        Err("`zz` is not a hex address".to_owned())
    );
    assert!(watch.set_option("start-on", "100").is_err());
    assert!(watch.set_option("speed", "1").is_err());
    // Nothing refused was taken.
    assert_eq!(watch.options()[0].value, "0000");
}
