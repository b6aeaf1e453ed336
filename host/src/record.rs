//! `jewelbot record`: a RAM trace of any ROM from power-on (`docs/traces.md`), driven by an input
//! script or by the plug-ins, with the events the loaded plug-in names read from the CPU by
//! execution breakpoints.

use crate::interrupt::{Interrupt, Signal};
use crate::movie::PowerOnRam;
use crate::session::{Session, SessionError};
use jewelbot_plugin::{Machine, Recording, Script, Trace, TraceHeader, TraceWriter, RAM_SIZE};

/// RAM address ranges to record, inclusive.
pub type Ranges = Vec<(u16, u16)>;

/// `LO-HI,...` in hex (`0000-07FF`, `0000-00FF,0380-03F7`), within the console's 2 KiB.
pub fn parse_ranges(text: &str) -> Result<Ranges, String> {
    text.split(',')
        .map(|range| {
            let (lo, hi) = range
                .split_once('-')
                .ok_or_else(|| format!("`{range}` is not LO-HI"))?;
            let address = |a: &str| {
                u16::from_str_radix(a.trim().trim_start_matches('$'), 16)
                    .ok()
                    .filter(|&a| usize::from(a) < RAM_SIZE)
                    .ok_or_else(|| format!("`{a}` is not a RAM address (0000-07FF)"))
            };
            let (lo, hi) = (address(lo)?, address(hi)?);
            if lo > hi {
                return Err(format!("`{range}` ends before it starts"));
            }
            Ok((lo, hi))
        })
        .collect()
}

/// How a trace header names a power-on fill (one word, no spaces).
fn power_on_word(fill: PowerOnRam) -> String {
    match fill {
        PowerOnRam::AllZeros => "zeros".to_owned(),
        PowerOnRam::AllOnes => "ones".to_owned(),
        PowerOnRam::FceuxPattern => "fceux-pattern".to_owned(),
        PowerOnRam::Seeded(seed) => format!("fceux-seed-{seed}"),
    }
}

/// Frames a recording runs at most, whatever the script says (a script waiting on an event
/// that never comes still ends).
pub const MAX_FRAMES: u64 = 10_000_000;

/// What drives the console while it is recorded.
pub enum Driver<'a> {
    /// The script's buttons and pokes.
    Script(&'a Script),
    /// Whoever holds the controller (the plug-ins, normally), for this many frames.
    Frames(u64),
}

/// A recording and what did not go as the script said.
pub struct Recorded {
    /// The trace's text.
    pub text: String,
    pub frames: u64,
    /// Events of `until` commands that ran out of frames without happening.
    pub waited_out: Vec<String>,
    /// The signal that stopped it early, if one did (the trace holds the frames before it).
    pub interrupted: Option<Signal>,
}

/// The events the plug-ins name for `session`'s ROM, which a script's `until` may wait for.
pub fn known_events(session: &Session) -> Vec<String> {
    session
        .plugins()
        .recording()
        .map(|r| r.routines.into_iter().map(|(name, _)| name).collect())
        .unwrap_or_default()
}

/// Frames between calls of a recording's `progress`: a second of the game.
const PROGRESS_EVERY: u64 = 60;

/// Records `session` from its current frame (power-on for a fresh session), calling
/// `progress` with the frames done every `PROGRESS_EVERY` frames. `ranges` replaces the
/// RAM the plug-in names. A signal (`interrupt`) stops it at a frame boundary, with the
/// frames so far recorded.
pub fn record(
    session: &mut Session,
    driver: &Driver<'_>,
    source: &str,
    ranges: Option<&Ranges>,
    interrupt: &Interrupt,
    mut progress: impl FnMut(u64),
) -> Result<Recorded, SessionError> {
    let recording = session.plugins().recording().unwrap_or_default();
    let Recording {
        ranges: plugin_ranges,
        routines,
    } = recording;
    session.watch_routines(&routines);
    let header = TraceHeader {
        rom_crc32: Some(session.rom().prg_chr_crc32),
        ranges: ranges.cloned().unwrap_or(plugin_ranges),
        power_on_ram: power_on_word(session.power_on_ram()),
        source: source.to_owned(),
    };
    let mut writer = TraceWriter::new(header);
    let mut waited_out = Vec::new();
    match driver {
        Driver::Script(script) => {
            let mut runner = script.runner();
            while let Some(input) = runner.next_frame() {
                if writer.frames() >= MAX_FRAMES || interrupt.requested() {
                    break;
                }
                for note in &input.notes {
                    writer.note(note);
                }
                for &(address, value) in &input.pokes {
                    session.poke(address, value);
                    writer.poke(address, value);
                }
                session
                    .step(input.buttons)
                    .map_err(|e| SessionError::Emulation(e.to_string()))?;
                let events = session.take_events();
                let names: Vec<&str> = events.iter().map(String::as_str).collect();
                writer.frame(session.last_buttons(), &names, session.ram());
                runner.frame_done(&names);
                if writer.frames().is_multiple_of(PROGRESS_EVERY) {
                    progress(writer.frames());
                }
            }
            waited_out.extend(runner.waited_out().iter().cloned());
        }
        Driver::Frames(frames) => {
            for _ in 0..(*frames).min(MAX_FRAMES) {
                if interrupt.requested() {
                    break;
                }
                session.run_frame()?;
                let events = session.take_events();
                let names: Vec<&str> = events.iter().map(String::as_str).collect();
                writer.frame(session.last_buttons(), &names, session.ram());
                if writer.frames().is_multiple_of(PROGRESS_EVERY) {
                    progress(writer.frames());
                }
                // A plug-in asked the run to end (a script's os.exit): the recording ends here.
                if session.plugins().ended().is_some() {
                    break;
                }
            }
        }
    }
    let frames = writer.frames();
    Ok(Recorded {
        text: writer.finish(),
        frames,
        waited_out,
        interrupted: interrupt.signal(),
    })
}

/// [`record`] parsed back into a [`Trace`] (tests compare recordings frame by frame).
pub fn record_trace(
    session: &mut Session,
    driver: &Driver<'_>,
    source: &str,
) -> Result<Trace, SessionError> {
    let recorded = record(session, driver, source, None, &Interrupt::default(), |_| {})?;
    Trace::parse(&recorded.text).map_err(|e| SessionError::Emulation(e.to_string()))
}

/// Writes a trace's text to `path`, gzip'd when its name ends in `.gz`, through a temporary file
/// so a failure never leaves half a trace; over an existing file only when `replace`.
pub fn write_trace(
    path: &std::path::Path,
    text: &str,
    replace: bool,
) -> Result<(), crate::files::FileError> {
    use std::io::Write;
    let bytes = if path.extension().is_some_and(|e| e == "gz") {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        // Into memory: these cannot fail.
        let _ = encoder.write_all(text.as_bytes());
        encoder.finish().unwrap_or_default()
    } else {
        text.as_bytes().to_vec()
    };
    // A hidden temporary name of this process's own: never a file of the user's. Its errors
    // name the file.
    crate::files::write_file(path, &bytes, replace)
}
