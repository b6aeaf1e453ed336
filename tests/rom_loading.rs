//! Every kind of bad ROM file gets a clear error and a non-zero exit code, never a panic, and
//! the user's file is never modified.

mod common;

use common::jewelbot;
use jewelbot_host::rom::{RomError, RomImage};
use std::path::{Path, PathBuf};
use std::process::Command;

const BAD_ROM_EXIT: i32 = 3;

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("temp file written");
    path
}

/// Runs `rom-info` and `run` on a bad file and checks both refuse it with `expected` in the
/// message.
fn assert_refused(path: &Path, expected: &str) {
    let path = path.to_str().expect("utf-8 temp path");
    for args in [
        vec!["rom-info", path],
        vec!["run", "--headless", "--frames", "5", "--rom", path],
    ] {
        let (code, _, stderr) = jewelbot(&args);
        assert_eq!(code, BAD_ROM_EXIT, "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn missing_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    assert_refused(&dir.path().join("nope.nes"), "not found");
}

#[test]
fn directory() {
    let dir = tempfile::tempdir().expect("temp dir");
    assert_refused(dir.path(), "is a directory");
}

#[test]
fn empty_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    assert_refused(&write(dir.path(), "empty.nes", &[]), "empty");
}

/// A file cut short in its header, its PRG or its CHR is refused, saying which and by how much.
#[test]
fn truncated_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let rom = common::tiny_rom();
    for (name, length, reason) in [
        ("short.nes", 10, "too short for the 16-byte iNES header"),
        (
            "prg.nes",
            16 + 1000,
            "PRG ROM is truncated: the header declares 16384 bytes but only 1000 follow",
        ),
        (
            "chr.nes",
            rom.len() - 100,
            "CHR ROM is truncated: the header declares 8192 bytes but only 8092 follow",
        ),
    ] {
        assert_refused(&write(dir.path(), name, &rom[..length]), reason);
    }
}

#[test]
fn wrong_magic() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut rom = common::tiny_rom();
    rom[..4].copy_from_slice(b"BAD\x1a");
    assert_refused(&write(dir.path(), "magic.nes", &rom), "not an iNES ROM");
}

#[test]
fn unsupported_mapper() {
    let dir = tempfile::tempdir().expect("temp dir");
    let rom = common::ines(&vec![0xEA; 0x8000], &vec![0; 0x2000], 216);
    let path = write(dir.path(), "mj2.nes", &rom);
    let (code, _, stderr) = jewelbot(&[
        "run",
        "--headless",
        "--frames",
        "5",
        "--rom",
        path.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, BAD_ROM_EXIT, "{stderr}");
    assert!(stderr.contains("mapper 216 is not supported"), "{stderr}");
}

#[test]
fn oversized_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut rom = common::tiny_rom();
    rom.resize(9 * 1024 * 1024, 0);
    assert_refused(
        &write(dir.path(), "huge.nes", &rom),
        "more than any NES ROM",
    );
}

#[test]
fn trailing_garbage() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut rom = common::tiny_rom();
    rom.extend_from_slice(&[0x55; 4096]);
    assert_refused(
        &write(dir.path(), "tail.nes", &rom),
        "unexpected bytes after",
    );
}

#[test]
fn errors_are_typed_in_the_library() {
    assert!(matches!(
        RomImage::from_bytes("x", &[]),
        Err(RomError::Empty)
    ));
    assert!(matches!(
        RomImage::from_bytes("x", b"NES\x1a"),
        Err(RomError::TruncatedHeader { len: 4 })
    ));
    let mut no_prg = common::tiny_rom();
    no_prg[4] = 0;
    assert!(matches!(
        RomImage::from_bytes("x", &no_prg),
        Err(RomError::NoPrg)
    ));
}

#[test]
fn not_the_game_runs_without_the_plugin_and_the_file_is_untouched() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bytes = common::tiny_rom();
    let path = write(dir.path(), "other-game.nes", &bytes);
    let modified = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .expect("mtime");
    let (code, stdout, stderr) = jewelbot(&[
        "run",
        "--headless",
        "--frames",
        "30",
        "--rom",
        path.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("frames: 30"), "{stdout}");
    assert!(
        stderr.contains("not a supported Magic Jewelry dump"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&path).expect("still there"), bytes);
    assert_eq!(
        std::fs::metadata(&path)
            .and_then(|m| m.modified())
            .expect("mtime"),
        modified
    );
    // Nothing was written beside it (no battery or state files).
    assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 1);
}

#[test]
fn rom_info_reports_hashes_and_normalisation() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The No-Intro layout: NES 2.0 header declaring 8 KiB of PRG in exponent form.
    let mut rom = common::tiny_rom();
    rom.drain(16 + 0x2000..16 + 0x4000);
    rom[4] = 13 << 2;
    rom[7] = 0x08;
    rom[9] = 0x0F;
    let path = write(dir.path(), "nes2.nes", &rom);
    let (code, stdout, stderr) = jewelbot(&["rom-info", path.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("format: NES 2.0"), "{stdout}");
    assert!(
        stdout.contains("PRG: 8192 bytes, CHR: 8192 bytes"),
        "{stdout}"
    );
    assert!(
        stdout.contains("mirrored the 8 KiB PRG bank to 16 KiB"),
        "{stdout}"
    );
    let image = RomImage::from_bytes("nes2.nes", &rom).expect("parses");
    assert!(stdout.contains(&format!("CRC32 (PRG+CHR): {:08X}", image.prg_chr_crc32)));
    // And it runs.
    let (code, _, stderr) = jewelbot(&[
        "run",
        "--headless",
        "--frames",
        "3",
        "--rom",
        path.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{stderr}");
}

/// A NES 2.0 header for the tiny ROM's data with `edit` applied to the header.
fn nes2(edit: impl FnOnce(&mut [u8])) -> Vec<u8> {
    let mut rom = common::tiny_rom();
    rom[7] = 0x08;
    edit(&mut rom[..16]);
    rom
}

#[test]
fn sizes_the_emulator_would_wrap_are_refused_naming_the_field() {
    let dir = tempfile::tempdir().expect("temp dir");
    // 256 CHR banks (2 MiB): an iNES 1.0 byte would hold 0. Before, it loaded with no CHR.
    let mut rom = nes2(|h| {
        h[5] = 0x00;
        h[9] = 0x10;
    });
    rom.resize(16 + 0x4000 + 256 * 0x2000, 0);
    assert_refused(
        &write(dir.path(), "chr256.nes", &rom),
        "CHR ROM size in 8 KiB banks is 256",
    );
    // 256 PRG banks (4 MiB).
    let mut rom = nes2(|h| {
        h[4] = 0x00;
        h[5] = 0x00;
        h[9] = 0x01;
    });
    rom.truncate(16);
    rom.resize(16 + 256 * 0x4000, 0);
    assert_refused(
        &write(dir.path(), "prg256.nes", &rom),
        "PRG ROM size in 16 KiB banks is 256",
    );
    // Mapper 259: the low byte would make it mapper 3.
    let rom = nes2(|h| {
        h[6] = (h[6] & 0x0F) | 0x30;
        h[8] = 0x01;
    });
    assert_refused(&write(dir.path(), "m259.nes", &rom), "mapper number is 259");
    // 32 KiB of CHR RAM would get 8.
    let rom = nes2(|h| h[11] = 0x09);
    assert_refused(
        &write(dir.path(), "chrram.nes", &rom),
        "CHR RAM size in bytes is 32768",
    );
    // CHR of 2^10 bytes in exponent form: not whole 8 KiB banks.
    let mut rom = nes2(|h| {
        h[5] = 10 << 2;
        h[9] = 0xF0;
    });
    rom.truncate(16 + 0x4000 + 1024);
    assert_refused(
        &write(dir.path(), "chr1k.nes", &rom),
        "CHR ROM of 1024 bytes",
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_or_device_is_refused_without_waiting() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("rom.nes");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        // Before, `rom-info` opened it and waited forever for a writer.
        assert_refused(&fifo, "is a FIFO (named pipe), not a ROM file");
    }
    assert_refused(
        Path::new("/dev/null"),
        "is a character device, not a ROM file",
    );
}

mod mutated {
    use super::common;
    use jewelbot_host::rom::{Header, RomImage, HEADER_LEN};
    use jewelbot_host::session::{Session, SessionConfig};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Header bytes, data bytes and the length changed: never a panic; a ROM that is
        /// accepted is handed to the emulator as exactly what its header declares, and runs
        /// or stops with an error.
        #[test]
        fn mutated_roms_are_refused_or_loaded_as_declared(
            header in proptest::collection::vec((4usize..16, any::<u8>()), 0..4),
            nes2 in any::<bool>(),
            bytes in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..16),
            len in proptest::option::of(0usize..40_000),
        ) {
            let mut rom = common::tiny_rom();
            if nes2 {
                rom[7] |= 0x08;
            }
            for (at, value) in header {
                rom[at] = value;
            }
            for (at, value) in bytes {
                let at = at.index(rom.len());
                rom[at] = value;
            }
            if let Some(len) = len {
                rom.resize(len, 0xEA);
            }
            let Ok(image) = RomImage::from_bytes("fuzz.nes", &rom) else {
                return Ok(());
            };
            let ines = image.to_ines().expect("an accepted ROM converts");
            let declared = Header::parse(&ines).expect("its own header parses");
            let prg_len = image.prg.len().max(16 * 1024);
            prop_assert_eq!(declared.prg_len, prg_len);
            prop_assert_eq!(declared.chr_len, image.chr.len());
            prop_assert_eq!(declared.mapper, image.header.mapper);
            prop_assert_eq!(ines.len(), HEADER_LEN + image.trainer.len() + prg_len + image.chr.len());
            if let Ok(mut session) = Session::new(image, Vec::new(), SessionConfig::default()) {
                for _ in 0..12 {
                    if session.run_frame().is_err() {
                        break;
                    }
                }
            }
        }
    }
}
