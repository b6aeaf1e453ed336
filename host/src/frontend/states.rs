//! Where save-state slots live: the user's data directory or `--state-dir`, never beside the
//! ROM.

use super::screenshot::file_stem;
use std::path::{Path, PathBuf};

/// The directory for state files: the one given, or `<data dir>/jewelbot/states`.
pub fn state_dir(given: Option<&Path>) -> Result<PathBuf, String> {
    match given {
        Some(dir) => Ok(dir.to_owned()),
        None => dirs::data_dir()
            .map(|d| d.join("jewelbot").join("states"))
            .ok_or_else(|| "no user data directory is known; pass --state-dir DIR".to_owned()),
    }
}

/// The file of `slot` for a ROM: named after the ROM and its checksum so games never share.
pub fn slot_path(dir: &Path, rom_name: &str, crc32: u32, slot: u8) -> PathBuf {
    dir.join(format!(
        "{}-{crc32:08x}.slot{slot}.state",
        file_stem(rom_name)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_per_rom_and_never_the_rom_itself() {
        let dir = Path::new("/tmp/states");
        let a = slot_path(dir, "roms/Magic Jewelry.nes", 0xA189_843D, 1);
        assert_eq!(a, dir.join("Magic_Jewelry-a189843d.slot1.state"));
        assert_ne!(a, slot_path(dir, "roms/Magic Jewelry.nes", 0xA189_843D, 2));
        assert_ne!(a, slot_path(dir, "roms/Magic Jewelry.nes", 1, 1));
        assert_eq!(
            state_dir(Some(Path::new("/x"))).as_deref(),
            Ok(Path::new("/x"))
        );
    }
}
