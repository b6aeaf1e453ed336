//! The open cartridge: the project's own Columns game with Magic Jewelry's RAM map, built from
//! `cartridge/src` and played when no ROM is given.

use crate::rom::{RomError, RomImage};

/// Name shown for the built-in cartridge.
pub const NAME: &str = "jewelbot open cartridge (built in)";

/// The committed build of `cartridge/columns.nes`.
pub static OPEN_CARTRIDGE: &[u8] = include_bytes!("../cartridge/columns.nes");

/// The open cartridge as a ROM image.
pub fn rom() -> Result<RomImage, RomError> {
    RomImage::from_bytes(NAME, OPEN_CARTRIDGE)
}
