/// What a plug-in is told about the loaded cartridge, to decide whether it supports it.
#[derive(Debug, Clone, Copy)]
pub struct RomIdentity<'a> {
    /// File name (or built-in name) the ROM was loaded from.
    pub name: &'a str,
    /// The iNES mapper number.
    pub mapper: u16,
    /// PRG ROM as loaded (after any normalisation of the header).
    pub prg: &'a [u8],
    /// CHR ROM as loaded.
    pub chr: &'a [u8],
    /// CRC32 of the PRG and CHR data as found in the file, without header.
    pub prg_chr_crc32: u32,
    /// SHA-1 of the whole file, lowercase hex.
    pub file_sha1: &'a str,
}
