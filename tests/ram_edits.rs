//! `--poke` and `--freeze`: RAM written before a chosen frame, and a byte held around every
//! frame, on the open cartridge.

mod common;
use common::cartridge;

use jewelbot_host::ram_edit::{parse_freeze, parse_poke};
use jewelbot_host::session::{Session, SessionConfig};

fn session() -> Session {
    let rom = cartridge().expect("the open cartridge parses");
    Session::new(rom, Vec::new(), SessionConfig::default()).expect("loads")
}

#[test]
fn a_poke_lands_just_before_its_frame() {
    let mut session = session();
    let poke = parse_poke("30:$7F0=9").expect("valid");
    session.schedule_poke(poke.frame, poke.address, poke.value);
    while session.frame_number() < 29 {
        session.run_frame().expect("frame");
        assert_eq!(
            session.ram()[0x7F0],
            0,
            "too early at frame {}",
            session.frame_number()
        );
    }
    session.run_frame().expect("frame 30");
    assert_eq!(session.ram()[0x7F0], 9);
}

#[test]
fn a_frozen_byte_keeps_its_value_while_the_game_writes_it() {
    let mut session = session();
    // The frame counter, which the game adds 1 to every frame.
    let freeze = parse_freeze("$47=$55").expect("valid");
    session.freeze(freeze.address, freeze.value);
    let mut seen = Vec::new();
    for _ in 0..100 {
        session.run_frame().expect("frame");
        seen.push(session.ram()[0x47]);
    }
    assert!(seen.iter().all(|&v| v == 0x55), "{seen:?}");
    session.unfreeze(0x47);
    session.run_frame().expect("frame");
    session.run_frame().expect("frame");
    assert_ne!(session.ram()[0x47], 0x55, "unfrozen, the game counts again");
}
