//! The iNES / NES 2.0 header: what the file says it holds.

use super::RomError;

pub const HEADER_LEN: usize = 16;
pub const TRAINER_LEN: usize = 512;
pub const MAGIC: &[u8; 4] = b"NES\x1a";
const PRG_UNIT: usize = 16 * 1024;
const CHR_UNIT: usize = 8 * 1024;
/// The most work RAM and CHR RAM the emulator gives a cartridge from an iNES 1.0 header, which
/// is what it is handed: a NES 2.0 header asking for more would silently get less.
const MAX_RAM_LEN: usize = 8 * 1024;
/// Mapper numbers an iNES 1.0 header can carry.
const MAX_INES_MAPPER: u16 = 255;

/// Which header format the file uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeaderFormat {
    Ines,
    /// iNES with junk in bytes 7-15 (e.g. "DiskDude!"): those bytes are ignored.
    InesArchaic,
    Nes2,
}

impl std::fmt::Display for HeaderFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Ines => "iNES 1.0",
            Self::InesArchaic => "iNES 1.0 (junk in bytes 7-15 ignored)",
            Self::Nes2 => "NES 2.0",
        })
    }
}

/// The parts of the header the host needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub format: HeaderFormat,
    pub mapper: u16,
    pub prg_len: usize,
    pub chr_len: usize,
    pub has_trainer: bool,
    pub battery: bool,
    pub vertical_mirroring: bool,
    pub four_screen: bool,
}

impl Header {
    pub fn parse(bytes: &[u8]) -> Result<Self, RomError> {
        let Some(raw) = bytes.get(..HEADER_LEN) else {
            return Err(RomError::TruncatedHeader { len: bytes.len() });
        };
        if &raw[..4] != MAGIC {
            return Err(RomError::BadMagic {
                found: raw[..4].try_into().unwrap_or_default(),
            });
        }
        let nes2 = raw[7] & 0x0C == 0x08;
        let archaic = !nes2 && raw[12..16].iter().any(|&b| b != 0);
        let format = match (nes2, archaic) {
            (true, _) => HeaderFormat::Nes2,
            (false, true) => HeaderFormat::InesArchaic,
            (false, false) => HeaderFormat::Ines,
        };
        let flags7 = if archaic { 0 } else { raw[7] };
        let mut mapper = u16::from(raw[6] >> 4) | u16::from(flags7 & 0xF0);
        let (prg_len, chr_len) = if nes2 {
            mapper |= u16::from(raw[8] & 0x0F) << 8;
            (
                nes2_size(raw[4], raw[9] & 0x0F, PRG_UNIT)?,
                nes2_size(raw[5], raw[9] >> 4, CHR_UNIT)?,
            )
        } else {
            (
                usize::from(raw[4]) * PRG_UNIT,
                usize::from(raw[5]) * CHR_UNIT,
            )
        };
        if prg_len == 0 {
            return Err(RomError::NoPrg);
        }
        if mapper > MAX_INES_MAPPER {
            return Err(RomError::FieldTooLarge {
                field: "mapper number",
                value: usize::from(mapper),
                max: usize::from(MAX_INES_MAPPER),
            });
        }
        if nes2 {
            check_nes2_ram(raw[10], raw[11])?;
        }
        Ok(Self {
            format,
            mapper,
            prg_len,
            chr_len,
            has_trainer: raw[6] & 0x04 != 0,
            battery: raw[6] & 0x02 != 0,
            vertical_mirroring: raw[6] & 0x01 != 0,
            four_screen: raw[6] & 0x08 != 0,
        })
    }

    /// Bytes of data the header promises after itself.
    pub fn data_len(&self) -> usize {
        self.trainer_len() + self.prg_len + self.chr_len
    }

    pub fn trainer_len(&self) -> usize {
        if self.has_trainer {
            TRAINER_LEN
        } else {
            0
        }
    }

    /// An iNES 1.0 header for `prg_len`/`chr_len` in whole units, as the emulator accepts.
    pub fn to_ines(&self, prg_len: usize, chr_len: usize) -> [u8; HEADER_LEN] {
        let mut raw = [0u8; HEADER_LEN];
        raw[..4].copy_from_slice(MAGIC);
        raw[4] = (prg_len / PRG_UNIT) as u8;
        raw[5] = (chr_len / CHR_UNIT) as u8;
        raw[6] = ((self.mapper as u8 & 0x0F) << 4)
            | u8::from(self.four_screen) << 3
            | u8::from(self.has_trainer) << 2
            | u8::from(self.battery) << 1
            | u8::from(self.vertical_mirroring);
        raw[7] = self.mapper as u8 & 0xF0;
        raw
    }
}

/// NES 2.0 RAM sizes (`64 << shift` bytes, 0 for none) that fit what the emulator gives.
fn check_nes2_ram(prg_ram: u8, chr_ram: u8) -> Result<(), RomError> {
    let fields = [
        ("PRG RAM size in bytes", prg_ram & 0x0F),
        ("PRG NVRAM size in bytes", prg_ram >> 4),
        ("CHR RAM size in bytes", chr_ram & 0x0F),
        ("CHR NVRAM size in bytes", chr_ram >> 4),
    ];
    for (field, shift) in fields {
        let len = if shift == 0 { 0 } else { 64usize << shift };
        if len > MAX_RAM_LEN {
            return Err(RomError::FieldTooLarge {
                field,
                value: len,
                max: MAX_RAM_LEN,
            });
        }
    }
    Ok(())
}

/// NES 2.0 sizes: a 12-bit unit count, or `2^E * (2M+1)` bytes when the high nibble is $F.
fn nes2_size(lsb: u8, msb: u8, unit: usize) -> Result<usize, RomError> {
    if msb == 0x0F {
        let exponent = u32::from(lsb >> 2);
        let multiplier = usize::from(lsb & 0x03) * 2 + 1;
        1usize
            .checked_shl(exponent)
            .filter(|_| exponent < 40)
            .and_then(|size| size.checked_mul(multiplier))
            .ok_or(RomError::HeaderSize { exponent })
    } else {
        Ok((usize::from(msb) << 8 | usize::from(lsb)) * unit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nes2_exponent_form_declares_8k_prg() {
        let mut raw = [0u8; 16];
        raw[..4].copy_from_slice(MAGIC);
        raw[4] = 13 << 2; // 2^13 * 1 = 8 KiB
        raw[5] = 1;
        raw[7] = 0x08;
        raw[9] = 0x0F;
        let header = Header::parse(&raw).expect("valid");
        assert_eq!(header.format, HeaderFormat::Nes2);
        assert_eq!((header.prg_len, header.chr_len), (8192, 8192));
    }

    #[test]
    fn archaic_junk_is_ignored_for_the_mapper() {
        let mut raw = [0u8; 16];
        raw[..4].copy_from_slice(MAGIC);
        raw[4] = 1;
        raw[6] = 0x31;
        raw[7..16].copy_from_slice(b"DiskDude!");
        let header = Header::parse(&raw).expect("valid");
        assert_eq!(header.format, HeaderFormat::InesArchaic);
        assert_eq!(header.mapper, 3);
        assert!(header.vertical_mirroring);
    }
}
