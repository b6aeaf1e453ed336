//! What the harnesses start from: real ROMs, a real state and real RAM of the game.

use jewelbot_plugin::Ram;
use std::sync::OnceLock;

/// The open cartridge, a tiny NROM program and a CNROM variant of it.
pub fn roms() -> &'static [Vec<u8>] {
    static ROMS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    ROMS.get_or_init(|| {
        let tiny = tiny_rom(0);
        let cnrom = tiny_rom(3);
        vec![jewelbot_cartridge::ROM.to_vec(), tiny, cnrom]
    })
}

/// An NROM (or CNROM) program that turns on NMI and loops.
fn tiny_rom(mapper: u8) -> Vec<u8> {
    let mut prg = vec![0xEAu8; 0x4000];
    let reset = [
        0x78, 0xD8, 0xA2, 0xFF, 0x9A, 0xA9, 0x80, 0x8D, 0x00, 0x20, 0x4C, 0x0A, 0x80,
    ];
    prg[..reset.len()].copy_from_slice(&reset);
    prg[0x10] = 0x40; // RTI
    let end = prg.len();
    for (i, vector) in [0x8010u16, 0x8000, 0x8010].into_iter().enumerate() {
        prg[end - 6 + 2 * i..end - 4 + 2 * i].copy_from_slice(&vector.to_le_bytes());
    }
    let chr_banks = if mapper == 3 { 2 } else { 1 };
    let mut rom = vec![
        b'N',
        b'E',
        b'S',
        0x1A,
        1,
        chr_banks,
        mapper << 4 | 1,
        mapper & 0xF0,
    ];
    rom.resize(16, 0);
    rom.extend_from_slice(&prg);
    rom.extend(std::iter::repeat_n(0x55, usize::from(chr_banks) * 0x2000));
    rom
}

/// Frames of RAM of the real game (every 4th frame of every recording).
pub fn game_ram() -> &'static [Box<Ram>] {
    static FRAMES: OnceLock<Vec<Box<Ram>>> = OnceLock::new();
    FRAMES.get_or_init(|| {
        let mut frames = Vec::new();
        for recording in magic_jewelry::recordings::all() {
            let trace = recording.load();
            let mut replay = trace.replay();
            let mut n = 0u64;
            while let Some((_, ram)) = replay.next() {
                if n % 4 == 0 {
                    frames.push(Box::new(*ram));
                }
                n += 1;
            }
        }
        if frames.is_empty() {
            frames.push(Box::new([0; jewelbot_plugin::RAM_SIZE]));
        }
        frames
    })
}
