//! The open cartridge: the project's own Columns game with Magic Jewelry's RAM map, built from
//! `src/` by `build.sh` (`README.md`). The `jewelbot` command plays it when no ROM is given.

/// Name shown for the built-in cartridge.
pub const NAME: &str = "jewelbot open cartridge (built in)";

/// The committed build, `columns.nes`.
pub static ROM: &[u8] = include_bytes!("columns.nes");
