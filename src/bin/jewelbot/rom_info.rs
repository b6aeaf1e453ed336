//! `jewelbot rom-info`: what a ROM file is, and which dump.

use jewelbot::rom::RomImage;
use magic_jewelry::dumps;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

pub fn rom_info(path: &Path, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let rom = RomImage::from_path(path)?;
    let h = &rom.header;
    writeln!(out, "file: {} ({} bytes)", path.display(), rom.file_len)?;
    writeln!(out, "format: {}", h.format)?;
    writeln!(out, "mapper: {}", h.mapper)?;
    writeln!(
        out,
        "PRG: {} bytes, CHR: {} bytes{}",
        rom.prg.len(),
        rom.chr.len(),
        if h.has_trainer { ", trainer" } else { "" }
    )?;
    writeln!(
        out,
        "mirroring: {}{}",
        if h.four_screen {
            "four-screen"
        } else if h.vertical_mirroring {
            "vertical"
        } else {
            "horizontal"
        },
        if h.battery { ", battery" } else { "" }
    )?;
    writeln!(out, "SHA-1 (file): {}", rom.file_sha1)?;
    writeln!(out, "SHA-1 (PRG+CHR): {}", rom.prg_chr_sha1)?;
    writeln!(out, "CRC32 (PRG+CHR): {:08X}", rom.prg_chr_crc32)?;
    if let Some(change) = &rom.normalisation {
        writeln!(
            out,
            "loaded as: {change} (in memory; the file is untouched)"
        )?;
    }
    let id = dumps::identify(rom.prg_chr_crc32, &rom.file_sha1, &rom.prg);
    writeln!(out, "identified as: {}", id.describe())?;
    Ok(ExitCode::SUCCESS)
}
