//! Input movies in FCEUX's `fm2` text format, the NES TAS community's convention (BizHawk imports
//! it too): a header of key-value lines, then one `|commands|port0|port1|port2|` line per frame
//! from power-on. jewelbot writes controller 1 as a gamepad (`RLDUTSBA`, `.` for a button not
//! held) and nothing on the other ports, and names the ROM by the MD5 of its PRG and CHR
//! (`romChecksum base64:...`), as FCEUX does.

use base64::Engine as _;
use jewelbot_plugin::Buttons;
use md5::{Digest, Md5};
use std::fmt::Write as _;

/// The gamepad field's columns, left to right.
const COLUMNS: [(Buttons, char); 8] = [
    (Buttons::RIGHT, 'R'),
    (Buttons::LEFT, 'L'),
    (Buttons::DOWN, 'D'),
    (Buttons::UP, 'U'),
    (Buttons::START, 'T'),
    (Buttons::SELECT, 'S'),
    (Buttons::B, 'B'),
    (Buttons::A, 'A'),
];

/// The command bit of a frame that starts with a soft reset.
const RESET: u32 = 1;

/// Why a movie cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MovieError {
    #[error("movie line {line}: {message}")]
    Syntax { line: usize, message: String },
    #[error("the movie has no {0} line")]
    Missing(&'static str),
    #[error(
        "the movie was recorded on another ROM (its checksum is {movie}, this ROM's is {rom})"
    )]
    OtherRom { movie: String, rom: String },
    #[error("the movie starts from a saved state, which this host does not play")]
    FromState,
    #[error("the movie uses {0}, which this host does not play")]
    Unsupported(String),
}

/// One frame of a movie.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MovieFrame {
    pub buttons: Buttons,
    /// The console is reset at the start of the frame.
    pub reset: bool,
}

/// A movie: the ROM it was made on and controller 1, frame by frame from power-on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Movie {
    pub rom_filename: String,
    /// MD5 of the ROM's PRG and CHR.
    pub rom_md5: [u8; 16],
    pub guid: String,
    pub frames: Vec<MovieFrame>,
}

/// The MD5 of a ROM's PRG and CHR, the identity an fm2 movie gives its ROM.
pub fn rom_md5(prg: &[u8], chr: &[u8]) -> [u8; 16] {
    let mut hasher = Md5::new();
    hasher.update(prg);
    hasher.update(chr);
    hasher.finalize().into()
}

fn checksum_text(md5: &[u8; 16]) -> String {
    format!(
        "base64:{}",
        base64::engine::general_purpose::STANDARD.encode(md5)
    )
}

impl Movie {
    /// An empty movie for a ROM, with a fresh GUID.
    pub fn new(rom_filename: &str, rom_md5: [u8; 16]) -> Self {
        let id: [u8; 16] = rand::random();
        let hex: String = id.iter().map(|b| format!("{b:02X}")).collect();
        let guid = format!(
            "{}-{}-{}-{}-{}",
            &hex[0..8],
            &hex[8..12],
            &hex[12..16],
            &hex[16..20],
            &hex[20..32]
        );
        Self {
            rom_filename: rom_filename.replace(['\r', '\n'], " "),
            rom_md5,
            guid,
            frames: Vec::new(),
        }
    }

    /// Refuses a movie made on another ROM.
    pub fn check_rom(&self, rom_md5: &[u8; 16]) -> Result<(), MovieError> {
        if &self.rom_md5 == rom_md5 {
            Ok(())
        } else {
            Err(MovieError::OtherRom {
                movie: checksum_text(&self.rom_md5),
                rom: checksum_text(rom_md5),
            })
        }
    }

    /// The movie as fm2 text.
    pub fn to_fm2(&self) -> String {
        let mut out = String::new();
        for line in [
            "version 3".to_owned(),
            format!("emuVersion {}", env!("CARGO_PKG_VERSION").replace('.', "")),
            "rerecordCount 0".to_owned(),
            "palFlag 0".to_owned(),
            format!("romFilename {}", self.rom_filename),
            format!("romChecksum {}", checksum_text(&self.rom_md5)),
            format!("guid {}", self.guid),
            "fourscore 0".to_owned(),
            "microphone 0".to_owned(),
            "port0 1".to_owned(),
            "port1 0".to_owned(),
            "port2 0".to_owned(),
            "FDS 0".to_owned(),
            "NewPPU 0".to_owned(),
            "comment author jewelbot".to_owned(),
        ] {
            out.push_str(&line);
            out.push('\n');
        }
        for frame in &self.frames {
            let pad: String = COLUMNS
                .iter()
                .map(|&(b, c)| if frame.buttons.contains(b) { c } else { '.' })
                .collect();
            let _ = writeln!(out, "|{}|{pad}|||", u32::from(frame.reset) * RESET);
        }
        out
    }

    /// Reads fm2 text: a gamepad on port 0 (the other ports are ignored), from power-on.
    pub fn parse(text: &str) -> Result<Self, MovieError> {
        let mut rom_filename = None;
        let mut rom_md5 = None;
        let mut guid = String::new();
        let mut version = None;
        let mut frames = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let fail = |message: String| MovieError::Syntax {
                line: index + 1,
                message,
            };
            let line = line.trim_end_matches('\r');
            if let Some(log) = line.strip_prefix('|') {
                frames.push(parse_frame(log).map_err(fail)?);
                continue;
            }
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "version" => version = Some(value.trim().to_owned()),
                "romFilename" => rom_filename = Some(value.to_owned()),
                "romChecksum" => rom_md5 = Some(parse_checksum(value.trim()).map_err(fail)?),
                "guid" => value.trim().clone_into(&mut guid),
                "savestate" => return Err(MovieError::FromState),
                "fourscore" | "FDS" if value.trim() == "1" => {
                    return Err(MovieError::Unsupported(key.to_owned()))
                }
                "port0" if value.trim() != "1" => {
                    return Err(MovieError::Unsupported(format!(
                        "device {} on port 0",
                        value.trim()
                    )))
                }
                "binary" if value.trim() == "1" => {
                    return Err(MovieError::Unsupported("a binary input log".into()))
                }
                _ => {}
            }
        }
        match version.as_deref() {
            Some("3") => {}
            Some(other) => return Err(MovieError::Unsupported(format!("fm2 version {other}"))),
            None => return Err(MovieError::Missing("version")),
        }
        Ok(Self {
            rom_filename: rom_filename.ok_or(MovieError::Missing("romFilename"))?,
            rom_md5: rom_md5.ok_or(MovieError::Missing("romChecksum"))?,
            guid,
            frames,
        })
    }
}

/// `base64:...` (as FCEUX writes it) or `0x...` hex (the older form).
fn parse_checksum(text: &str) -> Result<[u8; 16], String> {
    let bytes = if let Some(b64) = text.strip_prefix("base64:") {
        base64::engine::general_purpose::STANDARD
            .decode(b64)
            .map_err(|e| format!("romChecksum is not base64: {e}"))?
    } else if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        (0..hex.len())
            .step_by(2)
            .map(|i| {
                hex.get(i..i + 2)
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| "romChecksum is not hexadecimal".to_owned())
            })
            .collect::<Result<Vec<u8>, _>>()?
    } else {
        return Err(format!("romChecksum `{text}` is neither base64: nor 0x"));
    };
    bytes
        .try_into()
        .map_err(|_| "romChecksum is not an MD5 (16 bytes)".to_owned())
}

/// One input-log line after its first `|`: `commands|port0|port1|port2|`.
fn parse_frame(log: &str) -> Result<MovieFrame, String> {
    let mut fields = log.split('|');
    let commands = fields.next().unwrap_or("");
    let commands: u32 = if commands.is_empty() {
        0
    } else {
        commands
            .trim()
            .parse()
            .map_err(|_| format!("commands `{commands}` is not a number"))?
    };
    if commands & !RESET != 0 {
        return Err(format!(
            "command {commands} (only soft reset, 1, is played)"
        ));
    }
    let pad = fields.next().ok_or("the frame has no port 0 field")?;
    if pad.chars().count() != COLUMNS.len() {
        return Err(format!(
            "port 0 `{pad}` is not 8 gamepad columns (RLDUTSBA)"
        ));
    }
    let mut buttons = Buttons::NONE;
    for (c, (button, _)) in pad.chars().zip(COLUMNS) {
        if c != '.' && c != ' ' {
            buttons.insert(button);
        }
    }
    Ok(MovieFrame {
        buttons,
        reset: commands & RESET != 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_reads_back_fm2() {
        let md5 = rom_md5(b"prg", b"chr");
        let mut movie = Movie::new("game.nes", md5);
        movie.frames = vec![
            MovieFrame::default(),
            MovieFrame {
                buttons: Buttons::RIGHT | Buttons::B,
                reset: false,
            },
            MovieFrame {
                buttons: Buttons::START,
                reset: true,
            },
        ];
        let text = movie.to_fm2();
        assert!(text.starts_with("version 3\n"));
        assert!(text.contains("|0|R.....B.|||\n"), "{text}");
        assert!(text.contains("|1|....T...|||\n"), "{text}");
        assert_eq!(Movie::parse(&text), Ok(movie.clone()));
        assert!(movie.check_rom(&md5).is_ok());
        assert!(matches!(
            movie.check_rom(&rom_md5(b"other", b"")),
            Err(MovieError::OtherRom { .. })
        ));
    }

    #[test]
    fn reads_fceux_movies() {
        let text = "version 3\nemuVersion 9828\nromFilename smb\nromChecksum base64:VYmON/RqC5V5eZa+cou4Og==\nguid 2EDB1A82-6AE2-A0DA-167A-B6ABC24A3EED\nfourscore 0\nport0 1\nport1 1\nport2 0\n|1|........|........||\n|0|R.....B.|........||\n|0|.L....B.|........||\n";
        let movie = Movie::parse(text).unwrap();
        assert_eq!(movie.frames.len(), 3);
        assert!(movie.frames[0].reset);
        assert_eq!(movie.frames[2].buttons, Buttons::LEFT | Buttons::B);
        assert_eq!(movie.rom_md5[0], 0x55);
    }

    #[test]
    fn damaged_movies_are_refused_with_the_line() {
        let good = "version 3\nromFilename a\nromChecksum base64:VYmON/RqC5V5eZa+cou4Og==\n";
        for (text, want) in [
            (format!("{good}|0|RL.|||\n"), "line 4"),
            (format!("{good}|x|........|||\n"), "line 4"),
            (format!("{good}|4|........|||\n"), "line 4"),
            (good.replace("version 3", "version 2"), "version 2"),
            (
                good.replace("base64:VYmON/RqC5V5eZa+cou4Og==", "base64:!!"),
                "line 3",
            ),
            (
                good.replace("romChecksum base64:VYmON/RqC5V5eZa+cou4Og==\n", ""),
                "romChecksum",
            ),
            (format!("{good}savestate 0x00\n"), "saved state"),
            (format!("{good}port0 2\n"), "port 0"),
        ] {
            let error = Movie::parse(&text).unwrap_err().to_string();
            assert!(error.contains(want), "{text:?}: {error}");
        }
    }
}
