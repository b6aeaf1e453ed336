//! A results file: one JSON line a decided start, so that a long run resumes where it stopped.
//!
//! Its first line is its header: the settings its starts were played with, and its format
//! version (none up to d75c35b: version 1, read alike). Each line after it is a start's result,
//! read back only when it is one: its outcome one of the four a run writes, its fields present
//! and consistent, and a proof only when it carries what proves it (the repeat's columns, the
//! period and the cycle's name; a `joined` line names a start whose line in the same file is a
//! proof, in the same cycle). Nothing is played again to check a line: a line that passes
//! holds what a run wrote. A line that does not is refused, said, and its start played again;
//! only the last line, without its newline, is taken for one cut short by a killed run and
//! passed over without a word.

use super::settings::{differences, readable, same, FORMAT};
use super::state::{SpawnState, MOST_JEWELS};
use super::StartResult;
use anyhow::{bail, Context};
use jewelbot_plugin::files;
use serde::Deserialize;
use serde_json::Value;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A results file holds a line of some 400 bytes a start; anything much larger is not one.
const MAX_RESULTS_BYTES: u64 = 1 << 32;

/// What a result held in the file counts as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Proven perpetual (`perpetual`, or `joined` to a start proven in the file).
    Proven,
    Lost,
    Undecided,
}

/// A start's result as the file holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Held {
    pub(super) kind: Kind,
    /// The cycle a proven start ends in.
    pub(super) cycle: Option<u64>,
    /// Its line in the file (1: the header).
    pub(super) line: usize,
}

/// A results file: the settings its starts were played with (its first line), the results
/// it holds, and where new ones go.
pub(super) struct ResultsFile {
    path: PathBuf,
    file: Mutex<std::fs::File>,
    /// The results already in it, by start.
    pub(super) held: HashMap<u16, Held>,
    /// The lines refused, each in words (which line, why, and what becomes of its start), for
    /// the run to say.
    pub(super) refused: Vec<String>,
}

/// A result line's outcome as a run writes it (the fields a report adds to the file's are
/// read by what they are; others are passed over).
#[derive(Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
enum Line {
    Perpetual {
        cycle_start: u64,
        #[serde(default)]
        states_kept_from: u64,
        period: u64,
        cycle: String,
        most_jewels: u32,
        most_jewels_in_cycle: u32,
        #[allow(dead_code)] // required: a proof carries it
        points_per_period: u64,
        jewels_per_period: u64,
        first_state: SpawnState,
    },
    Joined {
        #[allow(dead_code)] // required: a proof carries it
        column: u64,
        start: u16,
        cycle: String,
        period: u64,
        most_jewels: u32,
    },
    GameOver {
        #[allow(dead_code)] // required
        column: u64,
        most_jewels: u32,
    },
    Undecided {
        #[allow(dead_code)] // required
        columns: u64,
        most_jewels: u32,
    },
}

/// A line read: its start, and its outcome once checked on its own.
struct Read {
    start: u16,
    outcome: Checked,
}

/// An outcome checked on its own; a joined one is a proof only with the line it names.
enum Checked {
    Perpetual { cycle: u64, period: u64 },
    Joined { start: u16, cycle: u64, period: u64 },
    Lost,
    Undecided,
}

/// A cycle's name as a result writes it: 16 hex digits.
fn cycle_name(text: &str) -> Result<u64, String> {
    if text.len() != 16 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!(
            "cycle `{text}` is not a cycle's name (16 hex digits)"
        ));
    }
    u64::from_str_radix(text, 16).map_err(|e| format!("cycle `{text}`: {e}"))
}

fn at_most_jewels(most_jewels: u32, field: &str) -> Result<(), String> {
    if most_jewels > MOST_JEWELS {
        return Err(format!(
            "{field} {most_jewels}, where a board holds at most {MOST_JEWELS}"
        ));
    }
    Ok(())
}

/// Reads one result line on its own: the start it is of (when that much can be read) and its
/// outcome, or why it is not a result.
fn read_line(text: &str) -> (Option<u16>, Result<Read, String>) {
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => return (None, Err(format!("not JSON: {e}"))),
    };
    let start = value["generator_state"]
        .as_u64()
        .and_then(|s| u16::try_from(s).ok());
    let read = || -> Result<Read, String> {
        let start = start.ok_or("no generator_state from 0 to 65535")?;
        let seconds = value["seconds"].as_f64().ok_or("no seconds")?;
        if !(seconds.is_finite() && seconds >= 0.0) {
            return Err(format!("seconds {seconds}"));
        }
        let line: Line = serde_json::from_value(value.clone()).map_err(|e| e.to_string())?;
        let outcome = match line {
            Line::Perpetual {
                cycle_start,
                states_kept_from,
                period,
                cycle,
                most_jewels,
                most_jewels_in_cycle,
                points_per_period: _,
                jewels_per_period,
                first_state,
            } => {
                let cycle = cycle_name(&cycle)?;
                if period == 0 || cycle_start.checked_add(period).is_none() {
                    return Err(format!(
                        "a repeat from column {cycle_start} with a period of {period}"
                    ));
                }
                if states_kept_from > cycle_start {
                    return Err(format!(
                        "a cycle from column {cycle_start}, before the first column known \
                         ({states_kept_from})"
                    ));
                }
                at_most_jewels(most_jewels, "most_jewels")?;
                if most_jewels_in_cycle > most_jewels {
                    return Err(format!(
                        "most_jewels_in_cycle {most_jewels_in_cycle} past most_jewels \
                         {most_jewels}"
                    ));
                }
                // Every cell removed was placed in the period, three a column.
                if jewels_per_period > period.saturating_mul(3) {
                    return Err(format!(
                        "jewels_per_period {jewels_per_period}, more than the {} cells a \
                         period of {period} columns places",
                        period.saturating_mul(3)
                    ));
                }
                first_state
                    .check()
                    .map_err(|e| format!("first_state: {e}"))?;
                Checked::Perpetual { cycle, period }
            }
            Line::Joined {
                column: _,
                start: joined,
                cycle,
                period,
                most_jewels,
            } => {
                let cycle = cycle_name(&cycle)?;
                if period == 0 {
                    return Err("a period of 0".into());
                }
                if joined == start {
                    return Err("it names its own start as the one it joined".into());
                }
                at_most_jewels(most_jewels, "most_jewels")?;
                Checked::Joined {
                    start: joined,
                    cycle,
                    period,
                }
            }
            Line::GameOver { most_jewels, .. } => {
                at_most_jewels(most_jewels, "most_jewels")?;
                Checked::Lost
            }
            Line::Undecided { most_jewels, .. } => {
                at_most_jewels(most_jewels, "most_jewels")?;
                Checked::Undecided
            }
        };
        Ok(Read { start, outcome })
    };
    (start, read())
}

/// A line refused: its number, its start if that much could be read, and why.
type Refusal = (usize, Option<u16>, String);

/// The results of `lines` (numbered from 2, the header being line 1) that pass, by start (the
/// first line of a start that passes), and the lines refused with why. `cut_short` says that
/// the last line has no newline: it fails without a word.
fn read_results(lines: &[String], cut_short: bool) -> (HashMap<u16, Held>, Vec<Refusal>) {
    let mut read: Vec<(usize, u16, Checked)> = Vec::new();
    let mut refused = Vec::new();
    for (k, text) in lines.iter().enumerate() {
        let line = k + 2;
        if text.trim().is_empty() {
            continue;
        }
        match read_line(text) {
            (_, Ok(r)) => read.push((line, r.start, r.outcome)),
            _ if cut_short && k + 1 == lines.len() => {}
            (start, Err(why)) => refused.push((line, start, why)),
        }
    }
    // The proofs on their own: the perpetual lines, by start.
    let mut perpetual: HashMap<u16, (u64, u64)> = HashMap::new();
    for (_, start, outcome) in &read {
        if let Checked::Perpetual { cycle, period } = outcome {
            perpetual.entry(*start).or_insert((*cycle, *period));
        }
    }
    let mut held: HashMap<u16, Held> = HashMap::new();
    for (line, start, outcome) in read {
        let (kind, cycle) = match outcome {
            Checked::Perpetual { cycle, .. } => (Kind::Proven, Some(cycle)),
            Checked::Joined {
                start: joined,
                cycle,
                period,
            } => match perpetual.get(&joined) {
                Some(&(c, p)) if (c, p) == (cycle, period) => (Kind::Proven, Some(cycle)),
                Some(&(c, p)) => {
                    let why = format!(
                        "it joined start {joined:#06X} in cycle {cycle:016x} of period \
                         {period}, where the file proves that start in cycle {c:016x} of \
                         period {p}"
                    );
                    refused.push((line, Some(start), why));
                    continue;
                }
                None => {
                    let why = format!(
                        "it joined start {joined:#06X}, which the file does not prove \
                         perpetual"
                    );
                    refused.push((line, Some(start), why));
                    continue;
                }
            },
            Checked::Lost => (Kind::Lost, None),
            Checked::Undecided => (Kind::Undecided, None),
        };
        held.entry(start).or_insert(Held { kind, cycle, line });
    }
    refused.sort_by_key(|(line, _, _)| *line);
    (held, refused)
}

impl ResultsFile {
    /// Opens `path` for `settings`: a new (or empty) file starts with them; an existing one
    /// must hold the same, in a format this build reads, and its results are read (a last
    /// line cut short by a killed run is passed over; any other line that is not a result is
    /// refused, and its start is played again). Whether the file can be written is known here,
    /// before any start plays: it is opened to append, and a new one gets its header.
    pub(super) fn open(path: &Path, settings: &Value) -> anyhow::Result<Self> {
        let existing = match std::fs::symlink_metadata(path) {
            Ok(_) => {
                let bytes = files::read_regular(path, "results", MAX_RESULTS_BYTES)
                    .with_context(|| format!("--results {}: cannot read it", path.display()))?;
                Some(bytes).filter(|b| !b.is_empty())
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => {
                return Err(e)
                    .with_context(|| format!("--results {}: cannot read it", path.display()))
            }
        };
        let mut held = HashMap::new();
        let mut refused = Vec::new();
        if let Some(bytes) = &existing {
            let mut lines: Vec<String> = bytes
                .split(|&b| b == b'\n')
                .map(|line| String::from_utf8_lossy(line).into_owned())
                .collect();
            let cut_short = !bytes.ends_with(b"\n");
            if !cut_short {
                lines.pop();
            }
            let header: Option<Value> = lines.first().and_then(|l| serde_json::from_str(l).ok());
            let Some(file_settings) = header.as_ref().and_then(|h| h.get("horizon")) else {
                bail!(
                    "{} is not a horizon results file (its first line is not a results \
                     file's header); it is kept: give another file",
                    path.display()
                );
            };
            let version = header.as_ref().and_then(|h| h.get("version"));
            if let Err(why) = readable(version, "results file") {
                bail!("{} is {why}; it is kept: give another file", path.display());
            }
            if !same(file_settings, settings) {
                bail!(
                    "{} holds the results of other settings ({}); it is kept: give another \
                     file",
                    path.display(),
                    differences(file_settings, settings)
                );
            }
            let (read, refusals) = read_results(&lines[1..], cut_short);
            held = read;
            for (line, start, why) in refusals {
                let then = match start {
                    Some(start) => match held.get(&start) {
                        Some(h) => {
                            format!("line {} holds the result of start {start:#06X}", h.line)
                        }
                        None => {
                            format!("start {start:#06X} is played again if this run asks for it")
                        }
                    },
                    None => "its start is not known".to_owned(),
                };
                refused.push(format!(
                    "{} line {line}: refused ({why}); {then}",
                    path.display()
                ));
            }
        }
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("--results {}: cannot write it", path.display()))?;
        let header = serde_json::json!({ "horizon": settings, "version": FORMAT });
        match &existing {
            None => writeln!(file, "{header}")
                .with_context(|| format!("--results {}: cannot write it", path.display()))?,
            // A line cut short ends here, so that the next result starts a line of its own.
            Some(bytes) if !bytes.ends_with(b"\n") => writeln!(file)
                .with_context(|| format!("--results {}: cannot write it", path.display()))?,
            Some(_) => {}
        }
        Ok(Self {
            path: path.to_owned(),
            file: Mutex::new(file),
            held,
            refused,
        })
    }

    pub(super) fn append(&self, result: &StartResult) -> anyhow::Result<()> {
        self.append_line(&serde_json::to_string(result)?)
    }

    /// Appends a result's line as [`ResultsFile::append`] writes it (a worker's, elsewhere).
    pub(super) fn append_line(&self, line: &str) -> anyhow::Result<()> {
        // One write: a killed run leaves a whole line or a line cut short.
        let line = line.trim_end().to_owned() + "\n";
        let mut file = self
            .file
            .lock()
            .map_err(|_| anyhow::anyhow!("{}: a writer panicked", self.path.display()))?;
        file.write_all(line.as_bytes())
            .and_then(|()| file.flush())
            .with_context(|| format!("cannot write {}", self.path.display()))?;
        Ok(())
    }
}
