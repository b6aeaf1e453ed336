//! Frames of the real game's RAM, with bytes changed, through the whole plug-in: decoder,
//! tracker, player, search and injector, with the inspector and statistics besides.
//!
//! The input picks a run of consecutive recorded frames (so the tracker and the player see a
//! game go on), the player's settings, and changes to RAM: some held over every frame of the
//! run, some on one frame only, biased to the game's variables and the playfield and to the
//! values at the edges of what the game holds (0, 7, 8, digits over 9, 255).

use crate::input::Input;
use jewelbot_plugin::{Buttons, FrameOutcome, Plugin, Ram, RomIdentity};
use magic_jewelry::dumps;
use magic_jewelry::plugin::MagicJewelryPlugin;

/// The most frames one input runs.
pub const MAX_FRAMES: usize = 24;
const STRATEGIES: [&str; 4] = ["simple", "smart", "deep", "deep:2:2"];

/// Frames shown to the plug-in, for the sweep's count.
pub fn run(data: &[u8]) -> usize {
    let mut input = Input::new(data);
    let frames = crate::corpus::game_ram();
    let start = input.below(frames.len());
    let count = 1 + input.below(MAX_FRAMES);
    let mut plugin = attached(&mut input);
    let held: Vec<(u16, u8)> = (0..input.below(6))
        .map(|_| (address(&mut input), input.interesting()))
        .collect();
    let mut shown = 0;
    for k in 0..count {
        let Some(base) = frames.get(start + k) else {
            break;
        };
        let mut ram: Ram = **base;
        for &(address, value) in &held {
            ram[usize::from(address)] = value;
        }
        for _ in 0..input.below(4) {
            let address = address(&mut input);
            ram[usize::from(address)] = input.interesting();
        }
        if input.byte() == 0xA5 {
            // Now and then the host's own calls between frames.
            plugin.on_reset();
            plugin.set_in_control(input.flag());
        }
        frame(&mut plugin, k as u64, &ram);
        let _ = plugin.inspect(&ram);
        shown += 1;
    }
    let _ = plugin.stats();
    let _ = plugin.options();
    shown
}

/// A plug-in attached to the open cartridge with settings the input picks.
fn attached(input: &mut Input<'_>) -> MagicJewelryPlugin {
    let mut plugin = MagicJewelryPlugin::default();
    let strategy = STRATEGIES[input.below(STRATEGIES.len())];
    let _ = plugin.set_option("strategy", strategy);
    let _ = plugin.set_option("mode", if input.flag() { "fast" } else { "normal" });
    let mut prg = vec![0u8; 64];
    prg[..dumps::OPEN_CARTRIDGE_SIGNATURE.len()].copy_from_slice(dumps::OPEN_CARTRIDGE_SIGNATURE);
    let _ = plugin.attach(&RomIdentity {
        name: "fuzz",
        mapper: 0,
        prg: &prg,
        chr: &[],
        prg_chr_crc32: 1,
        file_sha1: "",
    });
    plugin.set_in_control(input.byte() != 0);
    plugin
}

/// An address the game uses, mostly: its variables, the playfield, now and then anywhere.
fn address(input: &mut Input<'_>) -> u16 {
    match input.below(10) {
        0..=4 => input.byte().into(),
        5..=8 => 0x380 + input.below(0x78) as u16,
        _ => input.below(jewelbot_plugin::RAM_SIZE) as u16,
    }
}

fn frame(plugin: &mut MagicJewelryPlugin, number: u64, ram: &Ram) -> Buttons {
    FrameOutcome::of(plugin, number, ram).buttons
}
