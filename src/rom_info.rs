//! `jewelbot rom-info`: what a ROM file is, and what each plug-in makes of it.

use crate::plugins;
use jewelbot_host::rom::RomImage;
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
    // Each plug-in says what it takes the ROM for, as it would when a session starts.
    for mut plugin in plugins::make_all() {
        let verdict = match plugin.attach(&rom.identity()) {
            Ok(what) => what,
            Err(refusal) => format!("does not play it: {refusal}"),
        };
        writeln!(out, "{}: {verdict}", plugin.name())?;
    }
    Ok(ExitCode::SUCCESS)
}
