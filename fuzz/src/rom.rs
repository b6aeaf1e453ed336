//! ROM bytes: parsed, and when accepted loaded with the plug-in attached and run 12 frames.

use jewelbot_host::rom::{Header, RomImage, HEADER_LEN};
use jewelbot_host::session::{Session, SessionConfig};
use magic_jewelry::plugin::MagicJewelryPlugin;

/// Frames each accepted ROM runs.
pub const FRAMES: usize = 12;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// Refused with an error.
    Refused,
    /// Accepted and ran every frame.
    Ran,
    /// Accepted; emulation stopped with an error (a jammed CPU, a core error).
    Stopped,
    /// Accepted, but what the emulator was handed differs from what the header declares: a
    /// silent wrong load.
    Silent,
}

pub fn run(data: &[u8]) -> Outcome {
    let Ok(image) = RomImage::from_bytes("fuzz.nes", data) else {
        return Outcome::Refused;
    };
    if !hands_over_what_it_declares(&image) {
        return Outcome::Silent;
    }
    let plugins: Vec<Box<dyn jewelbot_plugin::Plugin>> =
        vec![Box::new(MagicJewelryPlugin::default())];
    let Ok(mut session) = Session::new(image, plugins, SessionConfig::default()) else {
        return Outcome::Refused;
    };
    for _ in 0..FRAMES {
        if session.run_frame().is_err() {
            return Outcome::Stopped;
        }
    }
    Outcome::Ran
}

/// The iNES image given to the emulator declares exactly the PRG (mirrored up to 16 KiB when
/// smaller) and CHR the file held, and holds them.
fn hands_over_what_it_declares(image: &RomImage) -> bool {
    let Ok(ines) = image.to_ines() else {
        return false;
    };
    let Ok(header) = Header::parse(&ines) else {
        return false;
    };
    let prg_len = image.prg.len().max(16 * 1024);
    header.prg_len == prg_len
        && header.chr_len == image.chr.len()
        && header.mapper == image.header.mapper
        && ines.len() == HEADER_LEN + image.trainer.len() + prg_len + image.chr.len()
        && ines.ends_with(&image.chr)
}

/// A mutated ROM for the sweep: one of the corpus ROMs with header fields, bytes, length or
/// chunks changed.
pub fn mutate(rng: &mut crate::input::Rng) -> Vec<u8> {
    let roms = crate::corpus::roms();
    let mut rom = roms[rng.below(roms.len())].clone();
    for _ in 0..=rng.below(4) {
        match rng.below(8) {
            // Header fields, where the sizes and the mapper are.
            // (A ROM cut short by an earlier step may have no header left to change.)
            0..=2 => {
                let at = 4 + rng.below(12);
                let value = rng.next_u64() as u8;
                if let Some(byte) = rom.get_mut(at) {
                    *byte = value;
                }
            }
            // The NES 2.0 marker with size nibbles.
            3 if rom.len() > 9 => {
                rom[7] = (rom[7] & 0xF3) | 0x08;
                rom[9] = rng.next_u64() as u8;
            }
            4 => {
                let len = rng.below(rom.len() + 1);
                rom.truncate(len);
            }
            5 => {
                let extra = rng.below(3) * 8192 + rng.below(200);
                rom.extend((0..extra).map(|_| rng.next_u64() as u8));
            }
            6 if !rom.is_empty() => {
                for _ in 0..=rng.below(16) {
                    let at = rng.below(rom.len());
                    rom[at] = rng.next_u64() as u8;
                }
            }
            _ if rom.len() > 16 => {
                // Random code in the program: jams, stray writes, wild jumps.
                let start = 16 + rng.below(rom.len() - 16);
                let len = rng.below(512).min(rom.len() - start);
                for byte in &mut rom[start..start + len] {
                    *byte = rng.next_u64() as u8;
                }
            }
            _ => {}
        }
    }
    rom
}
