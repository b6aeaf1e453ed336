//! RAM traces: a console's RAM recorded frame by frame, with the buttons held and the routines
//! the CPU entered (`docs/traces.md` describes the format).
//!
//! A trace is text, one line per frame: `<frame> <buttons hex> <events|-> [addr=value ...]`,
//! where the changes are the recorded bytes that differ from the previous frame's. Lines starting
//! with `#` are the header (first line), RAM writes made before the next frame (`# poke AAAA=VV`)
//! and notes (`# note TEXT`). [`Trace::parse`] reads one, [`Trace::replay`] rebuilds RAM at the
//! end of every frame, and [`TraceWriter`] writes one.

use crate::{Buttons, Ram, RAM_SIZE};
use std::fmt::{self, Write as _};

/// First word of a trace's header line.
pub const TRACE_MAGIC: &str = "jewelbot-ram-trace";
/// The version this module reads and writes.
pub const TRACE_VERSION: &str = "v1";

/// Why a trace could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceError {
    /// 1-based line number of the fault (0 for the whole text).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "trace line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TraceError {}

/// The header line's fields.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TraceHeader {
    /// CRC32 of the ROM's PRG and CHR (`rom-crc32=`).
    pub rom_crc32: Option<u32>,
    /// Recorded address ranges, inclusive (`ranges=0000-00FF,0380-03F7`).
    pub ranges: Vec<(u16, u16)>,
    /// What RAM held at power-on (`power-on-ram=zeros`).
    pub power_on_ram: String,
    /// What made the recording (`source=`).
    pub source: String,
}

impl TraceHeader {
    /// True when `address` is inside a recorded range.
    pub fn records(&self, address: u16) -> bool {
        self.ranges
            .iter()
            .any(|&(lo, hi)| (lo..=hi).contains(&address))
    }

    fn parse(line: &str) -> Result<Self, String> {
        let mut words = line.trim_start_matches('#').split_whitespace();
        if words.next() != Some(TRACE_MAGIC) {
            return Err(format!(
                "not a RAM trace (the first line must start with `# {TRACE_MAGIC}`)"
            ));
        }
        match words.next() {
            Some(TRACE_VERSION) => {}
            other => {
                return Err(format!(
                    "unsupported trace version {} (this build reads {TRACE_VERSION})",
                    other.unwrap_or("(none)")
                ))
            }
        }
        let mut header = Self::default();
        for word in words {
            let Some((key, value)) = word.split_once('=') else {
                continue;
            };
            match key {
                "rom-crc32" => {
                    header.rom_crc32 = Some(
                        u32::from_str_radix(value, 16)
                            .map_err(|_| format!("rom-crc32 `{value}` is not hexadecimal"))?,
                    );
                }
                "ranges" => {
                    for range in value.split(',') {
                        let (lo, hi) = range
                            .split_once('-')
                            .ok_or_else(|| format!("range `{range}` is not LOW-HIGH"))?;
                        let lo = hex_address(lo)?;
                        let hi = hex_address(hi)?;
                        if lo > hi {
                            return Err(format!("range `{range}` ends before it starts"));
                        }
                        header.ranges.push((lo, hi));
                    }
                }
                "power-on-ram" => value.clone_into(&mut header.power_on_ram),
                "source" => value.clone_into(&mut header.source),
                _ => {}
            }
        }
        Ok(header)
    }

    fn line(&self) -> String {
        let mut line = format!("# {TRACE_MAGIC} {TRACE_VERSION}");
        if let Some(crc) = self.rom_crc32 {
            let _ = write!(line, " rom-crc32={crc:08X}");
        }
        let ranges: Vec<String> = self
            .ranges
            .iter()
            .map(|(lo, hi)| format!("{lo:04X}-{hi:04X}"))
            .collect();
        let _ = write!(line, " ranges={}", ranges.join(","));
        for (key, value) in [
            ("power-on-ram", &self.power_on_ram),
            ("source", &self.source),
        ] {
            if !value.is_empty() {
                let _ = write!(line, " {key}={}", value.replace(char::is_whitespace, "_"));
            }
        }
        line
    }
}

/// One frame of a trace.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TraceFrame {
    /// The frame's number, 1 for the first frame after power-on.
    pub number: u64,
    /// Controller-1 buttons held during the frame.
    pub buttons: Buttons,
    /// Routines the CPU entered during the frame, in the recorder's order.
    pub events: Vec<String>,
    /// RAM writes made before the frame ran.
    pub pokes: Vec<(u16, u8)>,
    /// Notes written before the frame.
    pub notes: Vec<String>,
    /// Recorded bytes whose value at the end of the frame differs from the frame before.
    pub changes: Vec<(u16, u8)>,
}

impl TraceFrame {
    /// True when the CPU entered the routine `event` during this frame.
    pub fn has(&self, event: &str) -> bool {
        self.events.iter().any(|e| e == event)
    }
}

/// A whole recording.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Trace {
    /// The header line.
    pub header: TraceHeader,
    /// Every frame from frame 1.
    pub frames: Vec<TraceFrame>,
}

impl Trace {
    /// Reads a trace's text.
    pub fn parse(text: &str) -> Result<Self, TraceError> {
        let mut lines = text.lines().enumerate();
        let header = match lines.next() {
            Some((_, line)) => {
                TraceHeader::parse(line).map_err(|message| TraceError { line: 1, message })?
            }
            None => {
                return Err(TraceError {
                    line: 0,
                    message: "empty trace".into(),
                })
            }
        };
        let mut frames: Vec<TraceFrame> = Vec::new();
        let mut pokes = Vec::new();
        let mut notes = Vec::new();
        for (index, line) in lines {
            let fail = |message: String| TraceError {
                line: index + 1,
                message,
            };
            if let Some(comment) = line.strip_prefix('#') {
                let comment = comment.trim();
                if let Some(poke) = comment.strip_prefix("poke ") {
                    pokes.push(parse_change(poke.trim()).map_err(fail)?);
                } else if let Some(note) = comment.strip_prefix("note ") {
                    notes.push(note.to_owned());
                }
                continue;
            }
            if line.trim().is_empty() {
                continue;
            }
            let mut words = line.split_whitespace();
            let number: u64 = words
                .next()
                .and_then(|w| w.parse().ok())
                .ok_or_else(|| fail("the frame number is missing".into()))?;
            let expected = frames.last().map_or(1, |f| f.number + 1);
            if number != expected {
                return Err(fail(format!(
                    "frame {number} where frame {expected} was expected"
                )));
            }
            let buttons = words
                .next()
                .and_then(|w| u8::from_str_radix(w, 16).ok())
                .ok_or_else(|| fail("the buttons are missing or not hexadecimal".into()))?;
            let events = match words.next() {
                Some("-") => Vec::new(),
                Some(list) => list.split(',').map(str::to_owned).collect(),
                None => return Err(fail("the events are missing".into())),
            };
            let changes = words
                .map(parse_change)
                .collect::<Result<Vec<_>, _>>()
                .map_err(fail)?;
            frames.push(TraceFrame {
                number,
                buttons: Buttons::from_bits(buttons),
                events,
                pokes: std::mem::take(&mut pokes),
                notes: std::mem::take(&mut notes),
                changes,
            });
        }
        Ok(Self { header, frames })
    }

    /// Every frame with RAM as it stood at the end of it (bytes outside the recorded ranges
    /// stay 0).
    pub fn replay(&self) -> Replay<'_> {
        Replay {
            frames: self.frames.iter(),
            ram: Box::new([0; RAM_SIZE]),
        }
    }

    /// The first frame that entered `event`, at or after frame `from`.
    pub fn find(&self, event: &str, from: u64) -> Option<&TraceFrame> {
        self.frames
            .iter()
            .find(|f| f.number >= from && f.has(event))
    }
}

/// Iterator over a trace's frames with the RAM at the end of each.
pub struct Replay<'a> {
    frames: std::slice::Iter<'a, TraceFrame>,
    ram: Box<Ram>,
}

impl<'a> Replay<'a> {
    /// The next frame and RAM at its end (a lending iterator: the RAM is borrowed until the
    /// next call).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<(&'a TraceFrame, &Ram)> {
        let frame = self.frames.next()?;
        for &(address, value) in &frame.changes {
            self.ram[usize::from(address) % RAM_SIZE] = value;
        }
        Some((frame, &self.ram))
    }
}

fn hex_address(text: &str) -> Result<u16, String> {
    u16::from_str_radix(text, 16).map_err(|_| format!("`{text}` is not a hexadecimal address"))
}

fn parse_change(word: &str) -> Result<(u16, u8), String> {
    let (address, value) = word
        .split_once('=')
        .ok_or_else(|| format!("`{word}` is not ADDR=VALUE"))?;
    let address = hex_address(address)?;
    if usize::from(address) >= RAM_SIZE {
        return Err(format!(
            "address ${address:04X} is outside the 2 KiB of RAM"
        ));
    }
    let value = u8::from_str_radix(value, 16)
        .map_err(|_| format!("`{value}` is not a hexadecimal byte"))?;
    Ok((address, value))
}

/// Writes a trace frame by frame.
#[derive(Debug, Clone)]
pub struct TraceWriter {
    header: TraceHeader,
    text: String,
    previous: Box<Ram>,
    frames: u64,
}

impl TraceWriter {
    /// Starts a trace; RAM before the first frame is taken as all zero.
    pub fn new(header: TraceHeader) -> Self {
        let mut text = header.line();
        text.push('\n');
        Self {
            header,
            text,
            previous: Box::new([0; RAM_SIZE]),
            frames: 0,
        }
    }

    /// Adds a note before the next frame.
    pub fn note(&mut self, note: &str) {
        let _ = writeln!(self.text, "# note {}", note.replace('\n', " "));
    }

    /// Adds a RAM write made before the next frame.
    pub fn poke(&mut self, address: u16, value: u8) {
        let _ = writeln!(self.text, "# poke {address:04X}={value:02X}");
    }

    /// Adds the frame just run: the buttons held, the routines entered and RAM at its end.
    pub fn frame(&mut self, buttons: Buttons, events: &[&str], ram: &Ram) {
        self.frames += 1;
        let events = if events.is_empty() {
            "-".to_owned()
        } else {
            events.join(",")
        };
        let _ = write!(self.text, "{} {:02x} {events}", self.frames, buttons.bits());
        for &(lo, hi) in &self.header.ranges {
            for address in lo..=hi.min(RAM_SIZE as u16 - 1) {
                let i = usize::from(address);
                if ram[i] != self.previous[i] {
                    let _ = write!(self.text, " {address:04x}={:02x}", ram[i]);
                }
            }
        }
        self.text.push('\n');
        self.previous.copy_from_slice(ram);
    }

    /// Frames written so far.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// The trace's text.
    pub fn finish(self) -> String {
        self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "# jewelbot-ram-trace v1 rom-crc32=A189843D ranges=0000-00FF,0380-03F7 power-on-ram=zeros source=test\n\
        # note start\n\
        1 00 reset\n\
        2 08 - 0044=ad 0045=ad\n\
        # poke 0399=02\n\
        3 00 spawn,lock 0044=00 0399=02\n";

    #[test]
    fn parses_and_replays() {
        let trace = Trace::parse(SAMPLE).unwrap();
        assert_eq!(trace.header.rom_crc32, Some(0xA189_843D));
        assert_eq!(trace.header.ranges, vec![(0, 0xFF), (0x380, 0x3F7)]);
        assert_eq!(trace.frames.len(), 3);
        assert_eq!(trace.frames[0].notes, vec!["start".to_owned()]);
        assert_eq!(trace.frames[1].buttons, Buttons::START);
        assert_eq!(trace.frames[2].pokes, vec![(0x399, 2)]);
        assert!(trace.frames[2].has("lock") && !trace.frames[2].has("reset"));
        assert_eq!(trace.find("spawn", 1).map(|f| f.number), Some(3));
        let mut replay = trace.replay();
        let mut last = Vec::new();
        while let Some((frame, ram)) = replay.next() {
            last.push((frame.number, ram[0x44], ram[0x45], ram[0x399]));
        }
        assert_eq!(
            last,
            vec![(1, 0, 0, 0), (2, 0xAD, 0xAD, 0), (3, 0, 0xAD, 2)]
        );
    }

    #[test]
    fn writer_round_trips() {
        let trace = Trace::parse(SAMPLE).unwrap();
        let mut writer = TraceWriter::new(trace.header.clone());
        let mut replay = trace.replay();
        while let Some((frame, ram)) = replay.next() {
            for note in &frame.notes {
                writer.note(note);
            }
            for &(a, v) in &frame.pokes {
                writer.poke(a, v);
            }
            let events: Vec<&str> = frame.events.iter().map(String::as_str).collect();
            writer.frame(frame.buttons, &events, ram);
        }
        assert_eq!(Trace::parse(&writer.finish()).unwrap(), trace);
    }

    #[test]
    fn bad_traces_say_where() {
        for (text, line) in [
            ("", 0),
            ("# something else\n", 1),
            ("# jewelbot-ram-trace v9\n", 1),
            ("# jewelbot-ram-trace v1 ranges=0000-00FF\n2 00 -\n", 2),
            ("# jewelbot-ram-trace v1 ranges=0000-00FF\n1 zz -\n", 2),
            (
                "# jewelbot-ram-trace v1 ranges=0000-00FF\n1 00 - 0900=01\n",
                2,
            ),
            (
                "# jewelbot-ram-trace v1 ranges=0000-00FF\n1 00 - 0001=100\n",
                2,
            ),
            ("# jewelbot-ram-trace v1 ranges=00FF-0000\n", 1),
        ] {
            let error = Trace::parse(text).unwrap_err();
            assert_eq!(error.line, line, "{text:?}: {error}");
        }
    }
}
