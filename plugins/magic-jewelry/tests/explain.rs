//! What the AI shows of its choice in the emulator: the overlay's target, runners-up and
//! next-column plan, and the status panel's explanation.

use jewelbot_host::session::{Session, SessionConfig};
use jewelbot_plugin::Plugin;
use magic_jewelry::plugin::MagicJewelryPlugin;
use magic_jewelry::screen::{NEXT_PLAN, RUNNER_UP, TARGET};

fn fast_session() -> Session {
    let mut plugin = MagicJewelryPlugin::default();
    plugin.set_option("mode", "fast").expect("fast is a mode");
    let rom =
        jewelbot_host::rom::RomImage::from_bytes(jewelbot_cartridge::NAME, jewelbot_cartridge::ROM)
            .expect("the open cartridge parses");
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
