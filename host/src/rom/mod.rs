//! Loading ROM files users can trust: every bad file gets a clear error, headers the emulator
//! cannot read are normalised in memory, and the user's file is only ever read.

mod header;
pub mod tiny;

pub use header::{Header, HeaderFormat, HEADER_LEN};

use crate::files::{self, FileError};
use sha1::{Digest, Sha1};
use std::path::{Path, PathBuf};

/// Larger than any NES cartridge ever made; anything bigger is not a ROM.
pub const MAX_ROM_LEN: u64 = 8 * 1024 * 1024;
/// Some old dumps carry a 128-byte title block after the CHR data.
const TITLE_BLOCK_LEN: usize = 128;
const PRG_BANK: usize = 16 * 1024;
const CHR_BANK: usize = 8 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum RomError {
    #[error("ROM file not found: {0}")]
    NotFound(PathBuf),
    #[error("{0} is a directory, not a ROM file")]
    IsDirectory(PathBuf),
    #[error("{} is {kind}, not a ROM file", path.display())]
    NotRegular { path: PathBuf, kind: &'static str },
    #[error("could not read {path}: {error}")]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("the file is empty")]
    Empty,
    #[error("the file is {len} bytes, more than any NES ROM ({MAX_ROM_LEN} bytes at most)")]
    TooLarge { len: u64 },
    #[error("the file is {len} bytes, too short for the 16-byte iNES header")]
    TruncatedHeader { len: usize },
    #[error("not an iNES ROM: the file starts with {found:02X?}, expected \"NES\\x1A\"")]
    BadMagic { found: [u8; 4] },
    #[error("the header declares no PRG ROM")]
    NoPrg,
    #[error("the NES 2.0 header declares an impossible size (2^{exponent} bytes)")]
    HeaderSize { exponent: u32 },
    #[error("{part} is truncated: the header declares {declared} bytes but only {found} follow")]
    Truncated {
        part: &'static str,
        declared: usize,
        found: usize,
    },
    #[error("{extra} unexpected bytes after the ROM data the header declares ({declared} bytes)")]
    TrailingData { extra: usize, declared: usize },
    #[error("PRG ROM of {len} bytes cannot be mapped (not a power of two below 16 KiB or a multiple of 16 KiB)")]
    OddPrgSize { len: usize },
    #[error("CHR ROM of {len} bytes cannot be mapped (not a multiple of 8 KiB)")]
    OddChrSize { len: usize },
    #[error("the header's {field} is {value}, more than the emulator takes ({max} at most)")]
    FieldTooLarge {
        field: &'static str,
        value: usize,
        max: usize,
    },
    #[error("mapper {mapper} is not supported by the emulator{hint}")]
    UnsupportedMapper { mapper: u16, hint: String },
    #[error("the emulator rejected the ROM: {0}")]
    Emulator(String),
}

/// A ROM as read from a file or built in, ready to hand to the emulator.
#[derive(Debug, Clone)]
pub struct RomImage {
    /// File name (or built-in name).
    pub name: String,
    pub header: Header,
    /// PRG ROM as the file holds it.
    pub prg: Vec<u8>,
    /// CHR ROM as the file holds it (empty for CHR RAM boards).
    pub chr: Vec<u8>,
    pub trainer: Vec<u8>,
    /// Size of the whole file.
    pub file_len: usize,
    /// SHA-1 of the whole file, lowercase hex.
    pub file_sha1: String,
    /// CRC32 of PRG followed by CHR (no header), as ROM databases list it.
    pub prg_chr_crc32: u32,
    /// SHA-1 of PRG followed by CHR.
    pub prg_chr_sha1: String,
    /// What was changed in memory so the emulator accepts it (never in the file).
    pub normalisation: Option<String>,
}

impl RomImage {
    /// What a plug-in is told of this ROM to decide whether it knows the game.
    pub fn identity(&self) -> jewelbot_plugin::RomIdentity<'_> {
        jewelbot_plugin::RomIdentity {
            name: &self.name,
            mapper: self.header.mapper,
            prg: &self.prg,
            chr: &self.chr,
            prg_chr_crc32: self.prg_chr_crc32,
            file_sha1: &self.file_sha1,
        }
    }

    /// Reads and checks a ROM file. Only a regular file is opened, read-only, and never written.
    pub fn from_path(path: &Path) -> Result<Self, RomError> {
        let bytes = files::read_regular(path, "ROM", MAX_ROM_LEN).map_err(|error| match error {
            FileError::NotFound { path, .. } => RomError::NotFound(path),
            FileError::NotRegular {
                path,
                kind: "a directory",
                ..
            } => RomError::IsDirectory(path),
            FileError::NotRegular { path, kind, .. } => RomError::NotRegular { path, kind },
            FileError::TooLarge { len, .. } => RomError::TooLarge { len },
            FileError::Io { path, error, .. } => RomError::Io { path, error },
            // Reading never creates or replaces a file.
            FileError::Exists { path } | FileError::Replaced { path } => RomError::Io {
                path,
                error: std::io::ErrorKind::AlreadyExists.into(),
            },
        })?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        Self::from_bytes(&name, &bytes)
    }

    /// Checks a ROM held in memory.
    pub fn from_bytes(name: &str, bytes: &[u8]) -> Result<Self, RomError> {
        if bytes.is_empty() {
            return Err(RomError::Empty);
        }
        if bytes.len() as u64 > MAX_ROM_LEN {
            return Err(RomError::TooLarge {
                len: bytes.len() as u64,
            });
        }
        let header = Header::parse(bytes)?;
        let mut rest = &bytes[HEADER_LEN..];
        let mut take = |part: &'static str, len: usize| {
            if rest.len() < len {
                return Err(RomError::Truncated {
                    part,
                    declared: len,
                    found: rest.len(),
                });
            }
            let (data, tail) = rest.split_at(len);
            rest = tail;
            Ok(data.to_vec())
        };
        let trainer = take("trainer", header.trainer_len())?;
        let prg = take("PRG ROM", header.prg_len)?;
        let chr = take("CHR ROM", header.chr_len)?;
        if rest.len() > TITLE_BLOCK_LEN {
            return Err(RomError::TrailingData {
                extra: rest.len(),
                declared: header.data_len(),
            });
        }
        let mut data_hash = Sha1::new();
        data_hash.update(&prg);
        data_hash.update(&chr);
        let mut crc = crc32fast::Hasher::new();
        crc.update(&prg);
        crc.update(&chr);

        let mut normalisation = Vec::new();
        if header.format == HeaderFormat::InesArchaic {
            normalisation.push("ignored junk in header bytes 7-15".to_owned());
        }
        if header.format == HeaderFormat::Nes2 {
            normalisation.push("rewrote the NES 2.0 header as iNES 1.0".to_owned());
        }
        loadable_chr_len(chr.len())?;
        if loadable_prg_len(prg.len())? != prg.len() {
            normalisation.push(format!(
                "mirrored the {} KiB PRG bank to 16 KiB",
                prg.len() / 1024
            ));
        }
        Ok(Self {
            name: name.to_owned(),
            header,
            prg,
            chr,
            trainer,
            file_len: bytes.len(),
            file_sha1: hex(&Sha1::digest(bytes)),
            prg_chr_crc32: crc.finalize(),
            prg_chr_sha1: hex(&data_hash.finalize()),
            normalisation: (!normalisation.is_empty()).then(|| normalisation.join("; ")),
        })
    }

    /// The ROM as an iNES 1.0 file the emulator accepts: PRG smaller than a 16 KiB bank is
    /// mirrored to fill it, as the cartridge's address decoding does.
    pub fn to_ines(&self) -> Result<Vec<u8>, RomError> {
        let prg_len = loadable_prg_len(self.prg.len())?;
        loadable_chr_len(self.chr.len())?;
        let mut out =
            Vec::with_capacity(HEADER_LEN + self.trainer.len() + prg_len + self.chr.len());
        out.extend_from_slice(&self.header.to_ines(prg_len, self.chr.len()));
        out.extend_from_slice(&self.trainer);
        while out.len() < HEADER_LEN + self.trainer.len() + prg_len {
            out.extend_from_slice(&self.prg);
        }
        out.extend_from_slice(&self.chr);
        Ok(out)
    }
}

/// Banks of each kind an iNES 1.0 header can declare: the emulator is given one, so a larger
/// count would wrap.
const MAX_INES_BANKS: usize = 255;

fn loadable_prg_len(len: usize) -> Result<usize, RomError> {
    if len.is_multiple_of(PRG_BANK) {
        if len / PRG_BANK > MAX_INES_BANKS {
            return Err(RomError::FieldTooLarge {
                field: "PRG ROM size in 16 KiB banks",
                value: len / PRG_BANK,
                max: MAX_INES_BANKS,
            });
        }
        Ok(len)
    } else if len < PRG_BANK && len.is_power_of_two() {
        Ok(PRG_BANK)
    } else {
        Err(RomError::OddPrgSize { len })
    }
}

/// CHR ROM goes to the emulator in whole 8 KiB banks, at most 255 of them.
fn loadable_chr_len(len: usize) -> Result<usize, RomError> {
    if !len.is_multiple_of(CHR_BANK) {
        return Err(RomError::OddChrSize { len });
    }
    if len / CHR_BANK > MAX_INES_BANKS {
        return Err(RomError::FieldTooLarge {
            field: "CHR ROM size in 8 KiB banks",
            value: len / CHR_BANK,
            max: MAX_INES_BANKS,
        });
    }
    Ok(len)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nrom(prg_banks: u8, chr_banks: u8) -> Vec<u8> {
        let mut rom = vec![b'N', b'E', b'S', 0x1A, prg_banks, chr_banks, 0x01, 0];
        rom.resize(16, 0);
        rom.extend((0..usize::from(prg_banks) * PRG_BANK).map(|i| i as u8));
        rom.extend(std::iter::repeat_n(0xAA, usize::from(chr_banks) * 8192));
        rom
    }

    #[test]
    fn eight_kib_prg_is_mirrored_in_memory() {
        let mut rom = nrom(1, 1);
        // NES 2.0: 8 KiB PRG in exponent form.
        rom[4] = 13 << 2;
        rom[7] = 0x08;
        rom[9] = 0x0F;
        rom.drain(16 + 8192..16 + PRG_BANK);
        assert_eq!(rom.len(), 16_400);
        let image = RomImage::from_bytes("small.nes", &rom).expect("loads");
        assert_eq!(image.prg.len(), 8192);
        let ines = image.to_ines().expect("normalises");
        assert_eq!(ines.len(), 24_592);
        assert_eq!(ines[4], 1);
        assert_eq!(ines[16..16 + 8192], ines[16 + 8192..16 + PRG_BANK]);
        assert!(image.normalisation.is_some());
    }

    #[test]
    fn hashes_cover_prg_and_chr_only() {
        let rom = nrom(1, 1);
        let a = RomImage::from_bytes("a", &rom).expect("loads");
        let mut other_header = rom.clone();
        other_header[6] = 0x00;
        let b = RomImage::from_bytes("b", &other_header).expect("loads");
        assert_eq!(a.prg_chr_crc32, b.prg_chr_crc32);
        assert_ne!(a.file_sha1, b.file_sha1);
        assert_eq!(a.to_ines().expect("ines"), rom);
    }
}
