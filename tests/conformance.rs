//! The conformance suite on the open cartridge: every documented behaviour of Magic Jewelry
//! that the plug-in relies on must hold on the game the project ships.

use jewelbot::cartridge;
use jewelbot::session::{Session, SessionConfig};
use magic_jewelry::conformance;

#[test]
fn the_open_cartridge_passes_every_scenario() {
    let rom = cartridge::rom().expect("the open cartridge parses");
    let mut session = Session::new(rom, Vec::new(), SessionConfig::default()).expect("loads");
    let report = conformance::run_all(&mut session);
    println!("{report}");
    assert_eq!(report.outcomes.len(), conformance::scenarios().len());
    assert!(report.all_passed(), "\n{report}");
}
