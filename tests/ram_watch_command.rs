//! A plug-in's command of its own, mounted from its row of the binary's table: the example
//! plug-in's `ram-watch` prints every change of a RAM byte while the game's plug-ins play.

mod common;

use common::jewelbot;

/// The open cartridge's column generator ($44) from power-on: seeded at the automatic start,
/// then stepped with every jewel made. The lines are pinned: a change of the cartridge, the
/// player or the command shows as other frames.
#[test]
fn ram_watch_prints_each_change_of_the_byte() {
    let (code, out, err) = jewelbot(&["ram-watch", "--address", "$44", "--frames", "1500"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "frame 0: $0044 = $00",
            "frame 4: $0044 = $AD",
            "frame 13: $0044 = $97",
            "frame 833: $0044 = $C2"
        ]
    );
    // The player's options reach the game's plug-ins through the command's flags.
    let (code, fast, err) = jewelbot(&[
        "ram-watch",
        "--address",
        "$44",
        "--frames",
        "1500",
        "--mode",
        "fast",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(fast.lines().count() > lines.len(), "{fast}");
}

#[test]
fn ram_watch_refuses_what_is_not_a_ram_address() {
    for bad in ["$800", "x", "70000"] {
        let (code, _, err) = jewelbot(&["ram-watch", "--address", bad]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("is not a RAM address"), "{bad}: {err}");
    }
    let (code, _, err) = jewelbot(&["ram-watch", "--address", "$44", "--mode", "warp"]);
    assert_eq!(code, 2, "{err}");
}
