//! Input movies in FCEUX's `fm2` text format, the NES TAS community's convention (BizHawk imports
//! it too): a header of key-value lines, then one `|commands|port0|port1|port2|` line per frame
//! from power-on. jewelbot writes controller 1 as a gamepad (`RLDUTSBA`, `.` for a button not
//! held) and nothing on the other ports, names the ROM by the MD5 of its PRG and CHR
//! (`romChecksum base64:...`), and says how the console was powered on (`RAMInitOption`,
//! `RAMInitSeed`) and which PPU its games match (`NewPPU 1`), so FCEUX replays it as written
//! (`docs/movies.md`).
//!
//! - [`file`](mod@file): movies on disk.
//! - `power_on`: the power-on RAM fills a movie can name.
//! - `deck`: the movie a session plays and the one it records.

pub(crate) mod deck;
pub mod file;
mod power_on;

pub use power_on::PowerOnRam;

use base64::Engine as _;
use jewelbot_plugin::Buttons;
use md5::{Digest, Md5};

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
    #[error("line {line}: {message}")]
    Syntax { line: usize, message: String },
    #[error("it has no {0} line")]
    Missing(&'static str),
    #[error("it was recorded on another ROM (its checksum is {movie}, this ROM's is {rom})")]
    OtherRom { movie: String, rom: String },
    #[error("it starts from a saved state, which jewelbot does not play")]
    FromState,
    #[error("it uses {0}, which jewelbot does not play")]
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
    /// The console's RAM at power-on.
    pub power_on: PowerOnRam,
    /// The movie says it was made with FCEUX's old PPU (`NewPPU 0`), whose timing differs
    /// from jewelbot's (which matches FCEUX's new PPU) in rare frames.
    pub old_ppu: bool,
    /// Header keys FCEUX does not read but that differ from one it does only in case
    /// (`ramInitOption`): ignored, as FCEUX ignores them, with a warning.
    pub miscased_keys: Vec<String>,
    pub frames: Vec<MovieFrame>,
}

/// The header keys FCEUX reads (`MovieData::installValue`), compared as it compares them: case
/// matters.
const FCEUX_KEYS: [&str; 22] = [
    "version",
    "emuVersion",
    "rerecordCount",
    "palFlag",
    "NewPPU",
    "FDS",
    "fourscore",
    "port0",
    "port1",
    "port2",
    "binary",
    "length",
    "romFilename",
    "romChecksum",
    "guid",
    "microphone",
    "RAMInitOption",
    "RAMInitSeed",
    "comment",
    "subtitle",
    "savestate",
    "saveram",
];

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
            power_on: PowerOnRam::default(),
            old_ppu: false,
            miscased_keys: Vec::new(),
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
        let mut out = Vec::new();
        // Writing to a Vec cannot fail, and every byte written is ASCII or the ROM's name.
        let _ = self.write_fm2(&mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// Writes the fm2 text to `out` a line at a time, so a marathon's movie (some 15 bytes a
    /// frame) is never held whole in memory as text.
    pub fn write_fm2(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
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
            format!("NewPPU {}", u8::from(!self.old_ppu)),
            format!("RAMInitOption {}", self.power_on.option()),
            format!("RAMInitSeed {}", self.power_on.seed()),
            AUTHOR_COMMENT.to_owned(),
        ] {
            writeln!(out, "{line}")?;
        }
        let mut pad = [b'.'; 8];
        for frame in &self.frames {
            for (cell, &(button, letter)) in pad.iter_mut().zip(&COLUMNS) {
                *cell = if frame.buttons.contains(button) {
                    letter as u8
                } else {
                    b'.'
                };
            }
            write!(out, "|{}|", u32::from(frame.reset) * RESET)?;
            out.write_all(&pad)?;
            out.write_all(b"|||\n")?;
        }
        Ok(())
    }

    /// Reads fm2 text: a gamepad on port 0, from power-on, with the power-on RAM its header
    /// names. Whatever jewelbot could not play as written is refused: another device or a
    /// second controller that presses buttons, PAL timing, a saved state, a header key given
    /// twice, a line of the input log that is not a frame.
    pub fn parse(text: &str) -> Result<Self, MovieError> {
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
        let mut header = Header::default();
        let mut frames = Vec::new();
        let mut log_started = false;
        let mut blank_after_log = None;
        for (index, line) in lines(text).enumerate() {
            let number = index + 1;
            // FCEUX skips spaces and tabs at the start of a line, before a key or a frame.
            let line = line.trim_start_matches([' ', '\t']);
            let fail = |message: String| MovieError::Syntax {
                line: number,
                message,
            };
            if let Some(log) = line.strip_prefix('|') {
                if let Some(blank) = blank_after_log {
                    return Err(MovieError::Syntax {
                        line: blank,
                        message: "a blank line inside the input log".into(),
                    });
                }
                log_started = true;
                frames.push(parse_frame(log).map_err(fail)?);
            } else if line.trim().is_empty() {
                if log_started {
                    blank_after_log.get_or_insert(number);
                }
            } else if log_started {
                return Err(fail(format!(
                    "`{}` is not an input frame (`|commands|port0|port1|port2|`)",
                    quote(line)
                )));
            } else {
                header.take(line).map_err(fail)?;
            }
        }
        header.into_movie(frames)
    }

    /// What a user should know before trusting a replay of this movie.
    pub fn warnings(&self) -> Vec<String> {
        let mut warnings = Vec::new();
        if self.old_ppu {
            warnings.push(
                "the movie says it was made with FCEUX's old PPU (NewPPU 0); jewelbot's PPU \
                 matches FCEUX's new PPU, and the two part on rare frames (a spawn with Down \
                 held, for one)"
                    .to_owned(),
            );
        }
        for key in &self.miscased_keys {
            let meant = FCEUX_KEYS
                .iter()
                .find(|k| k.eq_ignore_ascii_case(key))
                .unwrap_or(&"");
            warnings.push(format!(
                "the header line `{}` is not read: FCEUX reads `{meant}` (case matters) and \
                 ignores it, and so does jewelbot",
                quote(key)
            ));
        }
        warnings
    }
}

/// The comment jewelbot signs its movies with.
const AUTHOR_COMMENT: &str = "comment author jewelbot";

/// Lines ending in LF, CRLF or a lone CR (FCEUX takes all three).
fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n')
        .flat_map(|line| line.strip_suffix('\r').unwrap_or(line).split('\r'))
}

/// At most 40 characters of a line, for messages.
fn quote(line: &str) -> String {
    const LIMIT: usize = 40;
    if line.chars().count() <= LIMIT {
        line.to_owned()
    } else {
        format!("{}...", line.chars().take(LIMIT).collect::<String>())
    }
}

/// The header's keys as they are read.
#[derive(Default)]
struct Header {
    seen: Vec<String>,
    version: Option<String>,
    rom_filename: Option<String>,
    rom_md5: Option<[u8; 16]>,
    guid: String,
    ram_option: Option<i64>,
    ram_seed: u32,
    old_ppu: bool,
    by_jewelbot: bool,
    miscased_keys: Vec<String>,
}

impl Header {
    fn take(&mut self, line: &str) -> Result<(), String> {
        let (key, value) = line.split_once([' ', '\t']).unwrap_or((line, ""));
        let value = value.trim();
        // Comments and subtitles repeat by design; any other key given twice is ambiguous.
        if !matches!(key, "comment" | "subtitle") {
            if self.seen.iter().any(|k| k == key) {
                return Err(format!("`{}` is given twice", quote(key)));
            }
            self.seen.push(key.to_owned());
        }
        let flag = |value: &str| match value {
            "0" => Ok(false),
            "1" => Ok(true),
            _ => Err(format!("{key} `{}` is not 0 or 1", quote(value))),
        };
        match key {
            "version" => self.version = Some(value.to_owned()),
            "romFilename" => self.rom_filename = Some(value.to_owned()),
            "romChecksum" => self.rom_md5 = Some(parse_checksum(value)?),
            "guid" => value.clone_into(&mut self.guid),
            "comment" => self.by_jewelbot |= line == AUTHOR_COMMENT,
            "NewPPU" => self.old_ppu = !flag(value)?,
            "RAMInitOption" => {
                let option: i64 = value
                    .parse()
                    .map_err(|_| format!("RAMInitOption `{}` is not a number", quote(value)))?;
                self.ram_option = Some(option);
            }
            "RAMInitSeed" => {
                // FCEUX writes the seed as a signed 32-bit number.
                let seed: i64 = value
                    .parse()
                    .ok()
                    .filter(|s| (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(s))
                    .ok_or_else(|| {
                        format!("RAMInitSeed `{}` is not a 32-bit number", quote(value))
                    })?;
                self.ram_seed = seed as u32;
            }
            "savestate" => return Err(MovieError::FromState.to_string()),
            "palFlag" if flag(value)? => {
                return Err(unsupported(
                    "PAL timing (palFlag 1); jewelbot emulates an NTSC console",
                ))
            }
            "fourscore" | "FDS" | "microphone" if flag(value)? => {
                return Err(unsupported(&format!("{key} 1")))
            }
            "binary" if flag(value)? => return Err(unsupported("a binary input log")),
            "port0" if value != "1" => {
                return Err(unsupported(&format!(
                    "device {} on port 0 (jewelbot plays a gamepad there, port0 1)",
                    quote(value)
                )))
            }
            "port1" if value != "0" && value != "1" => {
                return Err(unsupported(&format!("device {} on port 1", quote(value))))
            }
            "port2" if value != "0" => {
                return Err(unsupported(&format!(
                    "expansion device {} (port2)",
                    quote(value)
                )))
            }
            _ if !FCEUX_KEYS.contains(&key)
                && FCEUX_KEYS.iter().any(|k| k.eq_ignore_ascii_case(key)) =>
            {
                self.miscased_keys.push(key.to_owned());
            }
            _ => {}
        }
        Ok(())
    }

    fn into_movie(self, frames: Vec<MovieFrame>) -> Result<Movie, MovieError> {
        match self.version.as_deref() {
            Some("3") => {}
            Some(other) => {
                return Err(MovieError::Unsupported(format!(
                    "fm2 version {}",
                    quote(other)
                )))
            }
            None => return Err(MovieError::Missing("version")),
        }
        // FCEUX reads a missing RAMInitOption as 0, its own pattern; jewelbot's movies from
        // before the key was written were all made with zeros.
        let option = self
            .ram_option
            .unwrap_or(if self.by_jewelbot { 2 } else { 0 });
        let power_on = u8::try_from(option)
            .ok()
            .and_then(|option| PowerOnRam::from_option(option, self.ram_seed))
            .ok_or_else(|| {
                MovieError::Unsupported(format!(
                "RAMInitOption {option} (FCEUX has 0 to 3: its pattern, all $FF, all $00, seeded)"
            ))
            })?;
        Ok(Movie {
            rom_filename: self
                .rom_filename
                .ok_or(MovieError::Missing("romFilename"))?,
            rom_md5: self.rom_md5.ok_or(MovieError::Missing("romChecksum"))?,
            guid: self.guid,
            power_on,
            old_ppu: self.old_ppu,
            miscased_keys: self.miscased_keys,
            frames,
        })
    }
}

fn unsupported(what: &str) -> String {
    MovieError::Unsupported(what.to_owned()).to_string()
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
    let commands = fields.next().unwrap_or("").trim();
    let commands: u32 = if commands.is_empty() {
        0
    } else {
        commands
            .parse()
            .map_err(|_| format!("commands `{}` is not a number", quote(commands)))?
    };
    if commands & !RESET != 0 {
        return Err(format!(
            "command {commands} (only soft reset, 1, is played)"
        ));
    }
    let pad = fields.next().ok_or("the frame has no port 0 field")?;
    let buttons = parse_pad(pad).ok_or_else(|| {
        format!(
            "port 0 `{}` is not 8 gamepad columns (RLDUTSBA)",
            quote(pad)
        )
    })?;
    // A second gamepad that presses nothing changes nothing; one that presses does.
    if fields
        .next()
        .and_then(parse_pad)
        .is_some_and(|b| b != Buttons::NONE)
    {
        return Err("the frame presses controller 2, which jewelbot does not play".into());
    }
    Ok(MovieFrame {
        buttons,
        reset: commands & RESET != 0,
    })
}

/// An 8-column gamepad field (`.` or a space for a button not held).
fn parse_pad(pad: &str) -> Option<Buttons> {
    if pad.chars().count() != COLUMNS.len() {
        return None;
    }
    let mut buttons = Buttons::NONE;
    for (c, (button, _)) in pad.chars().zip(COLUMNS) {
        if c != '.' && c != ' ' {
            buttons.insert(button);
        }
    }
    Some(buttons)
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
            (format!("{good}palFlag 1\n"), "PAL"),
            (format!("{good}fourscore 1\n"), "fourscore 1"),
            (format!("{good}port2 1\n"), "port2"),
            (
                format!("{good}RAMInitOption 4\n"),
                "RAMInitOption 4 (FCEUX has 0 to 3",
            ),
            (
                format!("{good}RAMInitOption 256\n"),
                "RAMInitOption 256 (FCEUX has 0 to 3",
            ),
            (
                format!("{good}RAMInitOption -1\n"),
                "RAMInitOption -1 (FCEUX has 0 to 3",
            ),
            (format!("{good}RAMInitOption x\n"), "line 4"),
            (format!("{good}RAMInitSeed 99999999999\n"), "line 4"),
            (format!("{good}romFilename b\n"), "given twice"),
            (format!("{good}|0|........|||\nhello\n"), "line 5"),
            (
                format!("{good}|0|........|||\n\n|0|........|||\n"),
                "line 5",
            ),
            (format!("{good}|0|........|...A....||\n"), "controller 2"),
        ] {
            let error = Movie::parse(&text).unwrap_err().to_string();
            assert!(error.contains(want), "{text:?}: {error}");
        }
    }

    #[test]
    fn headers_say_how_the_console_powered_on() {
        let mut movie = Movie::new("game.nes", rom_md5(b"prg", b"chr"));
        let text = movie.to_fm2();
        for line in ["NewPPU 1\n", "RAMInitOption 2\n", "RAMInitSeed 0\n"] {
            assert!(text.contains(line), "{line:?} missing:\n{text}");
        }
        movie.power_on = PowerOnRam::Seeded(4_000_000_000);
        assert_eq!(Movie::parse(&movie.to_fm2()), Ok(movie));

        let fceux = "version 3\nromFilename a\nromChecksum base64:VYmON/RqC5V5eZa+cou4Og==\n";
        for (header, fill) in [
            ("", PowerOnRam::FceuxPattern),
            ("RAMInitOption 0\n", PowerOnRam::FceuxPattern),
            ("RAMInitOption 1\n", PowerOnRam::AllOnes),
            ("RAMInitOption 2\n", PowerOnRam::AllZeros),
            (
                "RAMInitOption 3\nRAMInitSeed -1\n",
                PowerOnRam::Seeded(u32::MAX),
            ),
            // jewelbot's movies from before the key: all zeros.
            ("comment author jewelbot\n", PowerOnRam::AllZeros),
            // FCEUX skips spaces and tabs before a key, and compares keys case and all: it
            // reads the first and ignores the second (its default pattern, then).
            (" \tRAMInitOption 1\n", PowerOnRam::AllOnes),
            ("ramInitOption 1\n", PowerOnRam::FceuxPattern),
        ] {
            let parsed = Movie::parse(&format!("{fceux}{header}")).expect("valid");
            assert_eq!(parsed.power_on, fill, "{header:?}");
        }
        let old = Movie::parse(&format!("{fceux}NewPPU 0\n")).expect("played, with a warning");
        assert!(old.old_ppu && old.warnings()[0].contains("old PPU"));
        let miscased = Movie::parse(&format!("{fceux}ramInitOption 1\n")).expect("played");
        assert!(
            miscased.warnings()[0].contains("FCEUX reads `RAMInitOption`"),
            "{:?}",
            miscased.warnings()
        );
        // A frame line may start with spaces too.
        let indented = Movie::parse(&format!("{fceux}  |0|R.......|||\n")).expect("a frame");
        assert_eq!(indented.frames.len(), 1);
    }

    #[test]
    fn line_endings_a_byte_order_mark_and_a_second_idle_pad_are_read() {
        let lf = "version 3\nromFilename a\nromChecksum base64:VYmON/RqC5V5eZa+cou4Og==\nport1 1\n|0|R.......|........||\n|0|.L......|........||\n\n";
        let want = Movie::parse(lf).expect("LF");
        assert_eq!(want.frames.len(), 2);
        for text in [
            lf.replace('\n', "\r\n"),
            lf.replace('\n', "\r"),
            format!("\u{FEFF}{lf}"),
        ] {
            assert_eq!(Movie::parse(&text).as_ref(), Ok(&want), "{text:?}");
        }
    }
}
