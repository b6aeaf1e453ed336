//! The plug-in through its interface: options, panics, edge values in every real frame.

use super::*;
use crate::memory_map as map;
use jewelbot_plugin::FrameOutcome;
use magic_jewelry_engine::Objective;
use proptest::prelude::*;

fn attached() -> MagicJewelryPlugin {
    let mut prg = vec![0u8; 64];
    prg[..dumps::OPEN_CARTRIDGE_SIGNATURE.len()].copy_from_slice(dumps::OPEN_CARTRIDGE_SIGNATURE);
    let mut plugin = MagicJewelryPlugin::default();
    plugin
        .set_option("strategy", "simple")
        .expect("simple exists");
    plugin
        .attach(&RomIdentity {
            name: "test",
            mapper: 0,
            prg: &prg,
            chr: &[],
            prg_chr_crc32: 1,
            file_sha1: "",
        })
        .expect("the signature is recognised");
    plugin
}

fn frame(plugin: &mut MagicJewelryPlugin, number: u64, ram: &Ram) -> Buttons {
    let outcome = FrameOutcome::of(plugin, number, ram);
    assert!(
        outcome.pokes.is_empty(),
        "the player never writes the game's RAM"
    );
    outcome.buttons
}

/// Frames of the real game's RAM (`traces/`), every one of the traces that together show
/// every state of the game: controls, clears, the wild column, level changes, game overs,
/// the continue.
fn real_frames() -> &'static [Ram] {
    static FRAMES: std::sync::OnceLock<Vec<Ram>> = std::sync::OnceLock::new();
    FRAMES.get_or_init(|| {
        let mut frames = Vec::new();
        for name in [
            "start-and-controls",
            "wild-and-levels",
            "game-over-restart",
            "continue",
        ] {
            let trace = crate::recordings::load(name);
            let mut replay = trace.replay();
            while let Some((_, ram)) = replay.next() {
                frames.push(*ram);
            }
        }
        frames
    })
}

/// Values at the edges of what the game holds, where decoders and arithmetic break.
const EDGES: [u8; 9] = [0, 1, 6, 7, 8, 9, 10, 0x80, 0xFF];

/// The objective is an option of its own: listed, set, refused when unknown, and the player
/// built for it plays the real game's frames.
#[test]
fn the_objective_option() {
    let mut plugin = attached();
    let listed = |plugin: &MagicJewelryPlugin| {
        plugin
            .options()
            .into_iter()
            .find(|o| o.name == "objective")
            .map(|o| (o.value, o.choices))
    };
    let survive = ("survive".to_owned(), vec!["survive".into(), "score".into()]);
    assert_eq!(listed(&plugin), Some(survive));
    plugin
        .set_option("objective", "score")
        .expect("an objective");
    assert_eq!(listed(&plugin).map(|(v, _)| v).as_deref(), Some("score"));
    let error = plugin.set_option("objective", "points").unwrap_err();
    assert!(error.contains("survive or score"), "{error}");
    // The strategy asked for plays the objective.
    assert_eq!(plugin.player().map(Player::strategy_name), Some("simple"));
    plugin.set_option("strategy", "smart").expect("a strategy");
    assert_eq!(plugin.player().map(Player::strategy_name), Some("smart"));
    plugin.set_option("mode", "fast").expect("a mode");
    for (n, ram) in real_frames().iter().enumerate() {
        frame(&mut plugin, n as u64, ram);
    }
}

/// A combo counter frozen past the game's 9 (as `--freeze A0=FF` makes it): the predicted
/// locks count it on, and nothing overflows.
#[test]
fn a_frozen_combo_past_nine_never_panics_the_plug_in() {
    let mut plugin = attached();
    plugin.set_option("mode", "fast").expect("a mode");
    plugin
        .set_option("objective", "score")
        .expect("an objective");
    // A work budget: every column waits for its decision, whatever the machine.
    plugin.set_option("work", "3000").expect("a work budget");
    let mut planned = 0;
    for (n, base) in real_frames().iter().enumerate() {
        let mut ram = *base;
        ram[map::COMBO as usize] = 0xFF;
        planned += usize::from(!frame(&mut plugin, n as u64, &ram).is_empty());
    }
    assert!(planned > 500, "{planned} frames with presses");
    let stats = plugin.player().map(Player::stats).expect("a player");
    assert_eq!(stats.worker_restarts, 0, "the search panicked");
}

/// Foresight plans for the score objective too, set in either order.
#[test]
fn foresight_and_the_score_objective_go_together() {
    for options in [["foresight", "objective"], ["objective", "foresight"]] {
        let mut plugin = attached();
        for option in options {
            let value = if option == "foresight" { "on" } else { "score" };
            plugin.set_option(option, value).expect(option);
        }
        assert_eq!(plugin.settings.player.objective, Objective::Score);
        assert!(plugin.settings.player.foresight);
    }
}

/// Every real frame with the column mixed wild and coloured, the timers and speeds at
/// their edges, and a counter digit over 9, frame after frame through the whole plug-in:
/// no panic (an overflow-checked build), and no press on a frame the decoder refuses.
#[test]
fn edge_values_in_every_real_frame_never_panic_the_plug_in() {
    const MIXES: [[u8; 3]; 6] = [
        [WILD_, 1, 2],
        [3, WILD_, WILD_],
        [map::WILD_LANDED, WILD_, 4],
        [WILD_, WILD_, map::WILD_LANDED],
        [0, WILD_, 0],
        [map::WILD_LANDED; 3],
    ];
    const WILD_: u8 = magic_jewelry_engine::WILD;
    let frames = real_frames();
    let mut plugin = attached();
    plugin.set_option("mode", "fast").expect("a mode");
    for (n, base) in frames.iter().enumerate() {
        let mut ram = *base;
        let edge = EDGES[n % EDGES.len()];
        match n % 6 {
            0 => ram[map::CURRENT_COLUMN as usize..][..3]
                .copy_from_slice(&MIXES[n / 6 % MIXES.len()]),
            1 => ram[map::FALL_TIMER as usize] = 0xFF,
            2 => {
                ram[map::SPEED_IN_FORCE as usize] = edge;
                ram[map::FALL_SPEED as usize] = edge;
            }
            3 => ram[(map::SCORE + (n as u16 / 6) % 8) as usize] = 10 + (n / 6 % 246) as u8,
            4 => {
                ram[map::COLUMN_Y as usize] = edge;
                ram[map::COLUMN_X as usize] = EDGES[(n / 6) % EDGES.len()];
            }
            _ => ram[map::NEXT_COLUMN as usize + n % 3] = edge,
        }
        let buttons = frame(&mut plugin, n as u64, &ram);
        if GameView::decode(&ram).is_err() {
            assert!(buttons.is_empty(), "frame {n}: pressed {buttons:?}");
        }
        let _ = plugin.inspect(&ram);
    }
    let _ = plugin.stats();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Runs of real frames with bytes changed, some held over the run and some on one frame,
    /// through the whole plug-in with every strategy: never a panic.
    #[test]
    fn real_frames_with_bytes_changed_never_panic_the_plug_in(
        start in any::<prop::sample::Index>(),
        count in 1usize..24,
        strategy in prop::sample::select(vec!["simple", "smart", "deep", "deep:2:2"]),
        fast in any::<bool>(),
        held in proptest::collection::vec((0u16..0x100, prop::sample::select(EDGES.to_vec())), 0..4),
        once in proptest::collection::vec(
            (0usize..24, prop_oneof![0u16..0x100, 0x380u16..0x3F8], any::<u8>()), 0..8),
    ) {
        let frames = real_frames();
        let start = start.index(frames.len());
        let mut plugin = attached();
        plugin.set_option("strategy", strategy).expect("a strategy");
        plugin.set_option("mode", if fast { "fast" } else { "normal" }).expect("a mode");
        for (k, base) in frames[start..].iter().take(count).enumerate() {
            let mut ram = *base;
            for &(address, value) in &held {
                ram[usize::from(address)] = value;
            }
            for &(_, address, value) in once.iter().filter(|(at, _, _)| *at == k) {
                ram[usize::from(address)] = value;
            }
            let buttons = frame(&mut plugin, k as u64, &ram);
            if GameView::decode(&ram).is_err() {
                prop_assert!(buttons.is_empty());
            }
            let _ = plugin.inspect(&ram);
        }
        let _ = plugin.stats();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Garbage RAM, frame after frame, never panics the plug-in: it reports inconsistent
    /// frames and presses nothing on them.
    #[test]
    fn garbage_ram_never_panics_the_plug_in(frames in proptest::collection::vec(
        proptest::collection::vec(any::<u8>(), 0x800), 1..12)
    ) {
        let mut plugin = attached();
        for (n, bytes) in frames.iter().enumerate() {
            let mut ram = [0u8; 0x800];
            ram.copy_from_slice(bytes);
            let buttons = frame(&mut plugin, n as u64, &ram);
            if GameView::decode(&ram).is_err() {
                prop_assert!(buttons.is_empty());
            }
            let _ = plugin.inspect(&ram);
        }
        let _ = plugin.stats();
    }

    /// A game's RAM with any byte of the state changed: every state the decoder accepts is
    /// played without a panic.
    #[test]
    fn a_game_with_one_byte_changed_never_panics_the_plug_in(
        address in 0x00u16..0x100, value in any::<u8>(), x in 0u8..6, y in 0u8..13
    ) {
        let mut plugin = attached();
        let mut ram = [0u8; 0x800];
        ram[map::FALL_SPEED as usize] = 8;
        ram[map::SPEED_IN_FORCE as usize] = 8;
        ram[map::CURRENT_COLUMN as usize..][..3].copy_from_slice(&[7, 7, 7]);
        ram[map::NEXT_COLUMN as usize..][..3].copy_from_slice(&[1, 2, 3]);
        ram[map::COLUMN_X as usize] = x;
        ram[map::COLUMN_Y as usize] = y;
        for row in y as i8 - 2..=y as i8 {
            ram[map::cell_address(row, x) as usize] = 7;
        }
        frame(&mut plugin, 1, &ram);
        ram[address as usize] = value;
        frame(&mut plugin, 2, &ram);
        ram[map::FALL_TIMER as usize] = 255;
        frame(&mut plugin, 3, &ram);
    }
}

/// Over the real game's frames, the plug-in announces every event it offers, and at each spawn
/// it announces, its description shows the new column at the spawn point (on a torn frame too,
/// where the game has drawn none of it yet) on a board of 15 rows of 6 cells.
#[test]
fn it_announces_the_games_events_and_describes_the_board() {
    let mut plugin = attached();
    plugin.set_in_control(false);
    let mut counts = std::collections::BTreeMap::new();
    for (number, ram) in real_frames().iter().enumerate() {
        let outcome = FrameOutcome::of(&mut plugin, number as u64, ram);
        for event in &outcome.events {
            *counts.entry(event.clone()).or_insert(0) += 1;
        }
        let Some(text) = plugin.describe(ram) else {
            continue;
        };
        let view: serde_json::Value = serde_json::from_str(&text).expect("one JSON object");
        let rows = view["board"].as_array().expect("board rows");
        assert_eq!(rows.len(), 15);
        assert!(rows
            .iter()
            .all(|row| row.as_str().is_some_and(|r| r.len() == 6)));
        let heights = view["heights"].as_array().expect("heights");
        assert!(heights.iter().all(|h| h.as_u64().is_some_and(|h| h <= 13)));
        if outcome.events.iter().any(|e| e == describe::SPAWN) {
            let phase = view["phase"].as_str().unwrap_or_default();
            assert!(
                ["column_falling", "column_spawning"].contains(&phase),
                "frame {number}: {view}"
            );
            assert_eq!(
                (&view["falling"]["x"], &view["falling"]["y"]),
                (&3.into(), &0.into()),
                "frame {number}: {view}"
            );
            *counts.entry(phase.to_owned()).or_insert(0) += 1;
        }
    }
    for event in describe::EVENTS.iter().chain(&["column_spawning"]) {
        assert!(
            counts.get(*event).copied().unwrap_or(0) > 0,
            "{event}: {counts:?}"
        );
    }
    assert_eq!(
        plugin.events(),
        describe::EVENTS.map(str::to_owned).to_vec()
    );
}
