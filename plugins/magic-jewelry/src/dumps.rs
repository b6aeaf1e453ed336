//! The cartridges this plug-in plays, recognised by hash (or, for the open cartridge, by its
//! signature), and the ones it knows it does not.

/// A cartridge the plug-in can play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownDump {
    pub name: &'static str,
    /// CRC32 of PRG followed by CHR, without the header.
    pub prg_chr_crc32: u32,
    pub notes: &'static str,
}

pub const SUPPORTED: &[KnownDump] = &[
    KnownDump {
        name: "Magic Jewelry (Asia) (Unl)",
        prg_chr_crc32: 0xA189_843D,
        notes: "iNES 1.0, 8 KiB PRG doubled to 16 KiB (24,592-byte file)",
    },
    KnownDump {
        name: "Magic Jewelry (Taiwan) (En) (Unl)",
        prg_chr_crc32: 0x46A0_1115,
        notes: "No-Intro, NES 2.0 header with 8 KiB PRG (16,400-byte file)",
    },
    KnownDump {
        name: "Magic Jewelry (PRG padded to 16 KiB)",
        prg_chr_crc32: 0x834A_117D,
        notes: "PRG padded rather than mirrored",
    },
];

/// SHA-1 of the whole Magic Jewelry II file: a different game on mapper 216.
pub const MAGIC_JEWELRY_II_SHA1: &str = "9a8f4ec8200a7b08575a91964dd60d7bd9e7df88";

/// The project's own Columns cartridge carries this text in its PRG.
pub const OPEN_CARTRIDGE_SIGNATURE: &[u8] = b"JEWELBOT OPEN CARTRIDGE";

/// The game's events, in the order of the open cartridge's routine table.
pub const EVENTS: [&str; 8] = [
    "reset",
    "game-setup",
    "spawn",
    "lock",
    "match-check",
    "wild-generated",
    "wild-landed",
    "game-over",
];

/// The real game's routines for [`EVENTS`] (`docs/magic-jewelry.md`, "Routines").
pub const REAL_GAME_ROUTINES: [u16; 8] = [
    0xE283, 0xE3D0, 0xE58B, 0xE6C4, 0xE9E9, 0xE754, 0xE743, 0xE7C4,
];

/// RAM the real game's traces record: the zero page and the playfield.
pub const TRACE_RANGES: [(u16, u16); 2] = [(0x0000, 0x00FF), (0x0380, 0x03F7)];

/// The open cartridge's routines for [`EVENTS`], from the table it keeps right after its
/// signature: a count byte (8), then one little-endian address per event.
pub fn open_cartridge_routines(prg: &[u8]) -> Option<[u16; 8]> {
    let at = prg
        .windows(OPEN_CARTRIDGE_SIGNATURE.len())
        .position(|w| w == OPEN_CARTRIDGE_SIGNATURE)?
        + OPEN_CARTRIDGE_SIGNATURE.len();
    let table = prg.get(at..at + 17)?;
    if usize::from(table[0]) != EVENTS.len() {
        return None;
    }
    let mut routines = [0u16; 8];
    for (i, routine) in routines.iter_mut().enumerate() {
        *routine = u16::from_le_bytes([table[1 + 2 * i], table[2 + 2 * i]]);
    }
    Some(routines)
}

/// What a ROM is, as far as this plug-in is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Identification {
    Known(&'static KnownDump),
    OpenCartridge,
    MagicJewelryII,
    Unknown,
}

impl Identification {
    pub fn is_playable(self) -> bool {
        matches!(self, Self::Known(_) | Self::OpenCartridge)
    }

    /// The routines that mark the game's events, named, for a recorder.
    pub fn routines(self, prg: &[u8]) -> Vec<(String, u16)> {
        let addresses = match self {
            Self::Known(_) => Some(REAL_GAME_ROUTINES),
            Self::OpenCartridge => open_cartridge_routines(prg),
            Self::MagicJewelryII | Self::Unknown => None,
        };
        addresses.map_or_else(Vec::new, |addresses| {
            EVENTS
                .iter()
                .zip(addresses)
                .map(|(name, address)| ((*name).to_owned(), address))
                .collect()
        })
    }

    /// One line for the user.
    pub fn describe(self) -> String {
        match self {
            Self::Known(dump) => format!("{} ({})", dump.name, dump.notes),
            Self::OpenCartridge => {
                "jewelbot open cartridge (Columns with Magic Jewelry's RAM map)".into()
            }
            Self::MagicJewelryII => {
                "Magic Jewelry II: a different game (mapper 216), not supported".into()
            }
            Self::Unknown => "not a supported Magic Jewelry dump".into(),
        }
    }
}

/// Identifies a ROM from its hashes and PRG.
pub fn identify(prg_chr_crc32: u32, file_sha1: &str, prg: &[u8]) -> Identification {
    if let Some(dump) = SUPPORTED.iter().find(|d| d.prg_chr_crc32 == prg_chr_crc32) {
        Identification::Known(dump)
    } else if file_sha1.eq_ignore_ascii_case(MAGIC_JEWELRY_II_SHA1) {
        Identification::MagicJewelryII
    } else if prg
        .windows(OPEN_CARTRIDGE_SIGNATURE.len())
        .any(|w| w == OPEN_CARTRIDGE_SIGNATURE)
    {
        Identification::OpenCartridge
    } else {
        Identification::Unknown
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifies_by_hash_and_signature() {
        assert!(matches!(
            identify(0x46A0_1115, "", &[]),
            Identification::Known(d) if d.name.contains("Taiwan")
        ));
        assert_eq!(
            identify(1, MAGIC_JEWELRY_II_SHA1, &[]),
            Identification::MagicJewelryII
        );
        let mut prg = vec![0u8; 64];
        prg[10..33].copy_from_slice(OPEN_CARTRIDGE_SIGNATURE);
        assert_eq!(identify(1, "", &prg), Identification::OpenCartridge);
        assert_eq!(identify(1, "", &prg[..20]), Identification::Unknown);
        assert!(!Identification::Unknown.is_playable());
        // No routine table after this signature.
        assert!(Identification::OpenCartridge.routines(&prg).is_empty());
        prg[33] = 8;
        for i in 0..8u8 {
            prg[34 + 2 * usize::from(i)] = i;
            prg[35 + 2 * usize::from(i)] = 0xE0;
        }
        let routines = Identification::OpenCartridge.routines(&prg);
        assert_eq!(routines[3], ("lock".to_owned(), 0xE003));
        let real = identify(0xA189_843D, "", &[]).routines(&[]);
        assert_eq!(real[2], ("spawn".to_owned(), 0xE58B));
    }
}
