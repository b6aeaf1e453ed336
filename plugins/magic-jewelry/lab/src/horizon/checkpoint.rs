//! A start's game kept on disk while it plays (`horizon --checkpoint DIR`), so that a start of
//! hours resumes where it stopped: every state it went through, what each column did, and the
//! state it is at. The state at a spawn decides the future (docs/horizon.md), so the game goes
//! on from it as if it had never stopped.
//!
//! A start's checkpoint is two files. The column log (`start-XXXX.columns.gz`) holds one JSON
//! line a column, gzip'd, and grows by a gzip member a write: a run of millions of columns
//! writes only what it played since the last time. The head (`start-XXXX.json`, written whole)
//! holds the settings, the start, the columns played, the state now and how many bytes of the
//! log are its columns; it is written after the log, so a write cut short leaves the last head
//! and a log tail that the next write replaces. A head of other settings is refused, its files
//! untouched. (A checkpoint of one file, the head's line then the columns', as earlier versions
//! wrote it, is read and rewritten in two at its next write.)
//!
//! Beside them, what each decided start taught the others ([`super::Known`]): a file a start,
//! its header then one line a state with its fate, so that a resumed run shares what the
//! starts decided before it from its first start on.
//!
//! A checkpoint is checked against itself before it is used ([`Checkpoints::load`]): its
//! format version, every state's board (its heights against its cells), counters and columns
//! (against the generator's place), its log's first column against the start's game, each
//! column against the next (some placement of its column leads to the next state, with the
//! jewels, points and cells its line says), its log's last column against the head's state
//! now, the most jewels against the columns, and a repeat under check against the period
//! before it. One that fails is refused with what is wrong, its files kept as they are, and the
//! run stops before any start plays: nothing is lost, and removing the start's files plays it
//! from its beginning.

use super::settings::{differences, readable, same, FORMAT};
use super::state::{Fnv, MOST_JEWELS};
use super::{Blind, Fate, Lesson, Progress, Repeat, SpawnState, Step, MOST_MAX_COLUMNS};
use anyhow::{bail, Context};
use flate2::read::{GzDecoder, MultiGzDecoder};
use flate2::write::GzEncoder;
use flate2::Compression;
use jewelbot_plugin::files;
use magic_jewelry_engine::rules::board::WIDTH;
use magic_jewelry_engine::{Board, Counters, Game};
use rayon::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::Hash;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A state at a spawn as a file keeps it: the state, its board beside it (a report leaves the
/// board out of a state, a checkpoint cannot).
#[derive(Serialize, Deserialize)]
struct Saved {
    board: Board,
    state: SpawnState,
}

impl From<&SpawnState> for Saved {
    fn from(state: &SpawnState) -> Self {
        Self {
            board: state.board,
            state: *state,
        }
    }
}

impl From<Saved> for SpawnState {
    fn from(saved: Saved) -> Self {
        saved.spawn_state()
    }
}

impl Saved {
    fn spawn_state(&self) -> SpawnState {
        SpawnState {
            board: self.board,
            ..self.state
        }
    }
}

/// The game at that state: the same future.
fn game_at(state: &SpawnState) -> Game {
    let counters = Counters {
        since_wild: state.since_wild,
        level: state.level,
        combo: state.combo,
        ..Counters::default()
    };
    Game::at_spawn(
        state.board,
        state.current,
        state.next,
        state.cycle_position,
        counters,
    )
}

/// Whether the column of `line` leads to `after`: some placement of it (no replay of the
/// player, which would take the game's time again: every place and arrangement is tried) leads
/// from its state to `after`, with the jewels, points and cells its line says. Otherwise
/// what differs, from a placement that leads to the board of `after` if one does.
fn follows(line: &Line, after: &SpawnState) -> Result<(), String> {
    let before = line.state.spawn_state();
    let game = game_at(&before);
    let arrangements = before.current.distinct_arrangements(6);
    let said = (line.jewels, line.points, line.removed);
    let mut nearest = None;
    for x in 0..WIDTH as u8 {
        for arrangement in (0..6u8).filter(|a| arrangements >> a & 1 == 1) {
            let mut played = game.clone();
            let turn = played.play(Some((x, arrangement)));
            if turn.lost {
                continue;
            }
            let removed = turn.resolution.map_or(0, |r| u64::from(r.outcome.removed));
            let did = (turn.jewels, turn.points(), removed);
            let state = SpawnState::of(&played);
            if did == said && state == *after {
                return Ok(());
            }
            if state.board == after.board && nearest.is_none() {
                nearest = Some((state, did));
            }
        }
    }
    let Some((state, did)) = nearest else {
        return Err(format!(
            "no placement of its column {:?} leads to the board after it",
            before.current.0
        ));
    };
    let mut differ = Vec::new();
    let mut differs = |field: &str, is: String, would: String| {
        if is != would {
            differ.push(format!("{field} {is} where its column leaves {would}"));
        }
    };
    differs(
        "current",
        format!("{:?}", after.current.0),
        format!("{:?}", state.current.0),
    );
    differs(
        "next",
        format!("{:?}", after.next.0),
        format!("{:?}", state.next.0),
    );
    differs(
        "cycle_position",
        after.cycle_position.to_string(),
        state.cycle_position.to_string(),
    );
    differs(
        "since_wild",
        after.since_wild.to_string(),
        state.since_wild.to_string(),
    );
    differs("level", after.level.to_string(), state.level.to_string());
    differs("combo", after.combo.to_string(), state.combo.to_string());
    differs("jewels", said.0.to_string(), did.0.to_string());
    differs("points", said.1.to_string(), did.1.to_string());
    differs("removed", said.2.to_string(), did.2.to_string());
    Err(differ.join(", "))
}

/// Makes, writes and removes a file in `dir`: whether the run may keep files there.
fn probe(dir: &Path) -> std::io::Result<()> {
    let path = dir.join(format!(".horizon-probe-{}", std::process::id()));
    let written = std::fs::File::create(&path).and_then(|mut file| file.write_all(b"horizon\n"));
    let removed = std::fs::remove_file(&path);
    written.and(removed)
}

/// A start's head: everything but the columns, and how much of the log holds them.
#[derive(Serialize, Deserialize)]
struct Header {
    horizon_checkpoint: serde_json::Value,
    /// The format ([`FORMAT`]; absent up to d75c35b: version 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    version: Option<serde_json::Value>,
    start: u16,
    columns: u64,
    most_jewels: u32,
    now: Saved,
    /// Bytes of the column log that hold its lines (absent in a one-file checkpoint, whose
    /// lines follow its head).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    log_bytes: Option<u64>,
    /// The column of the log's first line: 0, unless the game went on from a head whose log
    /// was gone.
    #[serde(default, skip_serializing_if = "is_zero")]
    log_from: u64,
    /// Within the check of a period: the state seen twice (what it says to one who waits; a
    /// resumed run finds the repeat again in the log).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    checking: Option<Repeat>,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` passes a reference
fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What a start's files on disk hold, so that the next write appends the rest: the columns
/// from `log_from` to `columns`, in the log's first `log_bytes`.
#[derive(Debug, Clone, Copy, Default)]
struct Written {
    log_from: u64,
    columns: u64,
    log_bytes: u64,
}

/// One column: the state before it and what it did.
#[derive(Serialize, Deserialize)]
struct Line {
    // Nested, not flattened: a flattened struct cannot hold the board's u128 planes.
    state: Saved,
    jewels: u32,
    points: u64,
    removed: u64,
}

impl Line {
    fn of((state, step): (&SpawnState, &Step)) -> Self {
        Self {
            state: state.into(),
            jewels: step.jewels,
            points: step.points,
            removed: step.removed,
        }
    }
}

#[derive(Serialize, Deserialize)]
struct LessonsHeader {
    horizon_lessons: serde_json::Value,
    /// The format, as a head's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    version: Option<serde_json::Value>,
    start: u16,
    states: u64,
}

#[derive(Serialize, Deserialize)]
struct LessonLine {
    state: Saved,
    #[serde(flatten)]
    fate: Fate,
}

impl LessonLine {
    /// What is wrong with the lesson, read from outside, if anything: its state (see
    /// [`SpawnState::check`]) or a fate no game has.
    fn check(&self) -> Result<(), String> {
        self.state.spawn_state().check()?;
        let fate = match self.fate {
            Fate::Perpetual {
                period,
                most_jewels,
                ..
            } => (period > 0 && most_jewels <= MOST_JEWELS)
                .then_some(())
                .ok_or("a perpetual fate with a period of 0 or too many jewels"),
            Fate::Lost { most_jewels, .. } => (most_jewels <= MOST_JEWELS)
                .then_some(())
                .ok_or("a lost fate with more jewels than a board holds"),
        };
        fate.map_err(str::to_owned)
    }
}

/// Lessons as bytes, to travel between processes: a JSON array of the lines a lessons file
/// keeps, each state with its board.
pub fn lessons_to_bytes(lessons: &[Lesson]) -> anyhow::Result<Vec<u8>> {
    let lines: Vec<LessonLine> = lessons
        .iter()
        .map(|(state, fate)| LessonLine {
            state: state.into(),
            fate: *fate,
        })
        .collect();
    Ok(serde_json::to_vec(&lines)?)
}

/// Lessons from [`lessons_to_bytes`]' bytes, each checked as a lessons file's are.
pub fn lessons_from_bytes(bytes: &[u8]) -> anyhow::Result<Vec<Lesson>> {
    let lines: Vec<LessonLine> =
        serde_json::from_slice(bytes).context("lessons that are not a horizon run's")?;
    for (k, line) in lines.iter().enumerate() {
        if let Err(why) = line.check() {
            bail!("lessons refused: their state {}: {why}", k + 1);
        }
    }
    Ok(lines
        .into_iter()
        .map(|l| (l.state.into(), l.fate))
        .collect())
}

/// Writes each of `lines` to `out` as a JSON line.
fn put_json_lines<L: Serialize>(
    out: &mut impl Write,
    lines: impl Iterator<Item = L>,
) -> anyhow::Result<()> {
    // Buffered: a gzip encoder makes each small write a call of its own, which clears the room
    // left in its output, so that a log of many columns took time as their square.
    let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
    for line in lines {
        serde_json::to_writer(&mut out, &line)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

/// Each of `lines` as a JSON line, in one gzip member.
fn gzip_json_lines<L: Serialize>(lines: impl Iterator<Item = L>) -> anyhow::Result<Vec<u8>> {
    let mut out = GzEncoder::new(Vec::new(), Compression::fast());
    put_json_lines(&mut out, lines)?;
    Ok(out.finish()?)
}

/// Writes `header` then each of `lines`, a JSON line each, gzip'd, to `path` whole.
fn write_json_lines<L: Serialize>(
    path: &Path,
    header: &impl Serialize,
    lines: impl Iterator<Item = L>,
) -> anyhow::Result<()> {
    let mut out = GzEncoder::new(Vec::new(), Compression::fast());
    put_json_lines(&mut out, std::iter::once(header))?;
    put_json_lines(&mut out, lines)?;
    let bytes = out.finish()?;
    files::write_file(path, &bytes, true)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Parses each of `lines` (`cannot` says what, in errors).
fn json_lines<L: DeserializeOwned>(
    lines: impl Iterator<Item = std::io::Result<String>>,
    cannot: &dyn Fn() -> String,
) -> anyhow::Result<Vec<L>> {
    lines
        .map(|line| serde_json::from_str(&line.with_context(cannot)?).with_context(cannot))
        .collect()
}

/// Reads what [`write_json_lines`] wrote: the header, then each line (`what` names the file
/// in errors).
fn read_json_lines<H: DeserializeOwned, L: DeserializeOwned>(
    path: &Path,
    what: &'static str,
) -> anyhow::Result<(H, Vec<L>)> {
    let cannot = || format!("cannot read the {what} {}", path.display());
    files::check_regular(path, what, u64::MAX).with_context(cannot)?;
    let file = std::fs::File::open(path).with_context(cannot)?;
    let mut lines = BufReader::new(GzDecoder::new(file)).lines();
    let header: H = match lines.next() {
        Some(line) => serde_json::from_str(&line.with_context(cannot)?).with_context(cannot)?,
        None => bail!("{}: empty, not a horizon {what}", path.display()),
    };
    Ok((header, json_lines(lines, &cannot)?))
}

/// Where the starts' checkpoints go, and how often.
pub struct Checkpoints {
    dir: PathBuf,
    settings: serde_json::Value,
    every: Duration,
    /// What the player cannot tell apart: a repeat in a log is a repeat as the run finds it.
    blind: Blind,
    /// Whether each column of a log is checked to lead to the next (always, but for the
    /// tests' made-up repeats).
    check_moves: bool,
    /// What each start's files hold, as this run read or wrote them.
    written: Mutex<HashMap<u16, Written>>,
}

/// A head is a few hundred bytes; anything much larger is not one.
const MAX_HEAD_BYTES: u64 = 1 << 20;

/// The most columns a checkpoint may hold: a start plays at most the largest `--max-columns`,
/// and the check of a repeat found there as many again.
const MOST_COLUMNS: u64 = 2 * MOST_MAX_COLUMNS;

impl Checkpoints {
    /// Checkpoints in `dir` (made if missing) of games played with `settings`. The folder is
    /// written to (a file made, written and removed) before anything plays, so that one the
    /// run cannot write in stops it now, not when the first checkpoint is due.
    pub fn open(dir: &Path, settings: serde_json::Value, every: Duration) -> anyhow::Result<Self> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("--checkpoint {}: cannot make the folder", dir.display()))?;
        if !dir.is_dir() {
            bail!("--checkpoint {} is not a folder", dir.display());
        }
        probe(dir).with_context(|| {
            format!(
                "--checkpoint {}: cannot write in the folder, so the run could keep none of its \
                 games; give a folder it may write in",
                dir.display()
            )
        })?;
        Ok(Self {
            dir: dir.to_owned(),
            settings,
            every,
            blind: Blind::default(),
            check_moves: true,
            written: Mutex::new(HashMap::new()),
        })
    }

    /// States told apart as a player `blind` to some of them tells them (the run's `Known`).
    pub fn with_blind(mut self, blind: Blind) -> Self {
        self.blind = blind;
        self
    }

    /// For the tests' made-up repeats, a game set back to a state it held, which no
    /// placement reaches (a true repeat takes a game of hundreds of thousands of columns): the
    /// columns of a log are not checked to lead one to the next; all else is checked.
    #[cfg(test)]
    pub(super) fn unchecked_moves(mut self) -> Self {
        self.check_moves = false;
        self
    }

    fn head_path(&self, start: u16) -> PathBuf {
        self.dir.join(format!("start-{start:04x}.json"))
    }

    fn log_path(&self, start: u16) -> PathBuf {
        self.dir.join(format!("start-{start:04x}.columns.gz"))
    }

    /// The one-file checkpoint of earlier versions.
    fn one_file_path(&self, start: u16) -> PathBuf {
        self.dir.join(format!("start-{start:04x}.jsonl.gz"))
    }

    fn written(&self, start: u16) -> Written {
        self.written
            .lock()
            .map(|w| w.get(&start).copied().unwrap_or_default())
            .unwrap_or_default()
    }

    fn set_written(&self, start: u16, written: Written) {
        if let Ok(mut w) = self.written.lock() {
            w.insert(start, written);
        }
    }

    /// The game of `start` as its checkpoint left it, if there is one. A head whose column
    /// log is gone (copied alone to another machine, say) resumes the game from its state
    /// now, with none of the states before it: a repeat is then found among the states from
    /// there on.
    pub fn load(&self, start: u16) -> anyhow::Result<Option<(Progress, Game)>> {
        let head_path = self.head_path(start);
        let one_file = self.one_file_path(start);
        let log_path = self.log_path(start);
        let refused = |path: &Path, why: String| {
            let files = if path == one_file {
                one_file.display().to_string()
            } else {
                format!("{} and {}", head_path.display(), log_path.display())
            };
            anyhow::anyhow!(
                "{} is refused: {why}. Its files are kept as they are, and the run stops \
                 before any start plays; remove {files} to play start {start:#06X} from its \
                 beginning",
                path.display()
            )
        };
        let (path, header, lines) = if std::fs::symlink_metadata(&head_path).is_ok() {
            let resume = || format!("cannot resume from {}", head_path.display());
            let head = files::read_regular(&head_path, "checkpoint head", MAX_HEAD_BYTES)
                .with_context(resume)?;
            let mut header: Header = serde_json::from_slice(&head).map_err(|e| {
                refused(&head_path, format!("it is not a horizon checkpoint ({e})"))
            })?;
            self.check_settings(&head_path, &header, start)?;
            let lines = if std::fs::symlink_metadata(&log_path).is_ok() {
                self.read_log(start, &header)
                    .map_err(|e| refused(&head_path, format!("{e:#}")))?
            } else {
                header.log_from = header.columns;
                header.log_bytes = Some(0);
                Vec::new()
            };
            (head_path.clone(), header, lines)
        } else if std::fs::symlink_metadata(&one_file).is_ok() {
            let (header, lines): (Header, Vec<Line>) = read_json_lines(&one_file, "checkpoint")
                .map_err(|e| refused(&one_file, format!("{e:#}")))?;
            self.check_settings(&one_file, &header, start)?;
            (one_file.clone(), header, lines)
        } else {
            return Ok(None);
        };
        self.check(start, &header, &lines)
            .map_err(|why| refused(&path, why))?;
        // Its log is appended to in place: one the run cannot write stops it now.
        if header.log_bytes.is_some() && std::fs::symlink_metadata(&log_path).is_ok() {
            std::fs::OpenOptions::new()
                .write(true)
                .open(&log_path)
                .with_context(|| {
                    format!(
                        "cannot write {}, where the game of start {start:#06X} goes on",
                        log_path.display()
                    )
                })?;
        }
        let mut progress = Progress::known_from(header.log_from, header.most_jewels);
        for line in lines {
            progress.order.push(line.state.into());
            progress.steps.push(Step {
                jewels: line.jewels,
                points: line.points,
                removed: line.removed,
                lost: false,
            });
        }
        // A one-file checkpoint is written again in two, from the first column.
        if let Some(log_bytes) = header.log_bytes {
            let (log_from, columns) = (header.log_from, header.columns);
            let written = Written {
                log_from,
                columns,
                log_bytes,
            };
            self.set_written(start, written);
        }
        Ok(Some((progress, game_at(&header.now.into()))))
    }

    fn check_settings(&self, path: &Path, header: &Header, start: u16) -> anyhow::Result<()> {
        if let Err(why) = readable(header.version.as_ref(), "checkpoint") {
            bail!(
                "{} is {why}; it is kept: give another --checkpoint folder",
                path.display()
            );
        }
        if !same(&header.horizon_checkpoint, &self.settings) {
            bail!(
                "{} is a checkpoint of other settings ({}); it is kept: give another \
                 --checkpoint folder",
                path.display(),
                differences(&header.horizon_checkpoint, &self.settings)
            );
        }
        if header.start != start {
            bail!(
                "{} is the checkpoint of start {:#06X}, not of start {start:#06X} its name \
                 says; it is kept: give another --checkpoint folder",
                path.display(),
                header.start
            );
        }
        Ok(())
    }

    /// What is wrong with the checkpoint of `start` (its head, and its log's columns from
    /// `header.log_from` on), if anything: see the module's documentation.
    fn check(&self, start: u16, header: &Header, lines: &[Line]) -> Result<(), String> {
        let (columns, log_from) = (header.columns, header.log_from);
        if columns > MOST_COLUMNS {
            return Err(format!(
                "columns {columns}, more than any run plays ({MOST_COLUMNS})"
            ));
        }
        if log_from > columns || log_from + lines.len() as u64 != columns {
            return Err(format!(
                "its log holds {} columns from column {log_from}, where its head says \
                 columns {columns}",
                lines.len()
            ));
        }
        if header.most_jewels > MOST_JEWELS {
            return Err(format!(
                "most_jewels {}, where a board holds at most {MOST_JEWELS}",
                header.most_jewels
            ));
        }
        let now = header.now.spawn_state();
        now.check()
            .map_err(|e| format!("its state now (column {columns}): {e}"))?;
        for (k, line) in lines.iter().enumerate() {
            let column = log_from + k as u64;
            line.state
                .spawn_state()
                .check()
                .map_err(|e| format!("column {column} of its log: {e}"))?;
        }
        let most = lines.iter().map(|l| l.jewels).max().unwrap_or(0);
        if log_from == 0 {
            let first = SpawnState::of(&Game::from_generator_state(start));
            let known = lines.first().map_or(now, |l| l.state.spawn_state());
            if known != first {
                return Err(format!(
                    "its column 0 is not the game of start {start:#06X} (its columns {:?} \
                     then {:?}, where that start deals {:?} then {:?})",
                    known.current.0, known.next.0, first.current.0, first.next.0
                ));
            }
            if header.most_jewels != most {
                return Err(format!(
                    "most_jewels {} where its columns reach {most}",
                    header.most_jewels
                ));
            }
        } else if header.most_jewels < most.max(now.board.jewels()) {
            return Err(format!(
                "most_jewels {} where its columns reach {}",
                header.most_jewels,
                most.max(now.board.jewels())
            ));
        }
        // Each column leads to the next, the last to the state now.
        let moves = if self.check_moves { lines.len() } else { 0 };
        let wrong = (0..moves).into_par_iter().find_map_first(|k| {
            let after = lines.get(k + 1).map_or(now, |l| l.state.spawn_state());
            follows(&lines[k], &after).err().map(|why| (k, why))
        });
        if let Some((k, why)) = wrong {
            let column = log_from + k as u64;
            return Err(if k + 1 == lines.len() {
                format!("its state now (column {columns}) is not what its log's last column ({column}) leads to: {why}")
            } else {
                format!(
                    "column {} of its log is not what column {column} leads to: {why}",
                    column + 1
                )
            });
        }
        self.check_repeat(header, lines)
    }

    /// A repeat in the log (the check of its period under way) against the head's, and the
    /// columns of the check against the period before them.
    fn check_repeat(&self, header: &Header, lines: &[Line]) -> Result<(), String> {
        let (columns, log_from) = (header.columns, header.log_from);
        let key = |k: usize| lines[k].state.spawn_state().key(self.blind);
        let state_at = |column: u64| match lines.get((column - log_from) as usize) {
            Some(line) => line.state.spawn_state().key(self.blind),
            None => header.now.spawn_state().key(self.blind),
        };
        // The first state seen twice, as the run finds it.
        let mut seen: HashMap<u64, usize> = HashMap::with_capacity(lines.len());
        let mut repeat = None;
        for k in 0..lines.len() {
            let mut hash = Fnv::default();
            key(k).hash(&mut hash);
            match seen.entry(std::hash::Hasher::finish(&hash)) {
                Entry::Vacant(entry) => {
                    entry.insert(k);
                }
                Entry::Occupied(entry) if key(*entry.get()) == key(k) => {
                    repeat = Some(Repeat {
                        first: log_from + *entry.get() as u64,
                        again: log_from + k as u64,
                    });
                    break;
                }
                Entry::Occupied(_) => {}
            }
        }
        drop(seen);
        if let Some(said) = header.checking {
            if !(said.first < said.again && said.again <= columns) {
                return Err(format!(
                    "its head checks a repeat of column {} at column {}, out of its {columns} \
                     columns",
                    said.first, said.again
                ));
            }
            let known = said.first >= log_from;
            if known
                && (repeat.is_some_and(|r| r != said)
                    || state_at(said.first) != state_at(said.again))
            {
                return Err(format!(
                    "its head checks the repeat of column {} at column {}, which its log does \
                     not hold",
                    said.first, said.again
                ));
            }
        }
        let Some(Repeat { first, again }) = repeat else {
            return Ok(());
        };
        let period = again - first;
        if columns > again + period {
            return Err(format!(
                "its log goes on to column {columns}, past the end ({}) of the check of its \
                 repeat of column {first} at column {again}",
                again + period
            ));
        }
        for column in again..=columns {
            let k = (column - log_from) as usize;
            let before = (column - period - log_from) as usize;
            let same_step = lines
                .get(k)
                .is_none_or(|line| line.jewels == lines[before].jewels);
            if state_at(column) != key(before) || !same_step {
                return Err(format!(
                    "column {column} of the check of its repeat (column {first} at column \
                     {again}) is not column {} of the period before",
                    column - period
                ));
            }
        }
        Ok(())
    }

    /// The columns of the log of `start` that its head names.
    fn read_log(&self, start: u16, header: &Header) -> anyhow::Result<Vec<Line>> {
        let Some(log_bytes) = header.log_bytes else {
            bail!("its head names no column log");
        };
        let log_path = self.log_path(start);
        let cannot = || format!("cannot read the column log {}", log_path.display());
        let len = files::check_regular(&log_path, "column log", u64::MAX).with_context(cannot)?;
        if len < log_bytes {
            bail!(
                "{} holds {len} bytes where its head says {log_bytes}",
                log_path.display()
            );
        }
        // Bytes past the head's count are a write cut short: the next write replaces them.
        let log = std::fs::File::open(&log_path)
            .with_context(cannot)?
            .take(log_bytes);
        json_lines(BufReader::new(MultiGzDecoder::new(log)).lines(), &cannot)
    }

    /// Writes the game of `start`: the columns played since the last write appended to its
    /// log, then its head whole.
    pub fn save(&self, start: u16, progress: &Progress, game: &Game) -> anyhow::Result<()> {
        let log_path = self.log_path(start);
        let cannot = || format!("cannot write {}", log_path.display());
        let columns = progress.columns();
        // Appended to what the files hold, or written from the first column kept when they
        // hold nothing of this run's game.
        let from = Some(self.written(start))
            .filter(|w| w.log_from == progress.kept_from && w.columns <= columns)
            .unwrap_or(Written {
                log_from: progress.kept_from,
                columns: progress.kept_from,
                log_bytes: 0,
            });
        let new = (from.columns - from.log_from) as usize;
        let member = gzip_json_lines(
            progress.order[new..]
                .iter()
                .zip(&progress.steps[new..])
                .map(Line::of),
        )?;
        if std::fs::symlink_metadata(&log_path).is_ok() {
            files::check_regular(&log_path, "column log", u64::MAX).with_context(cannot)?;
        }
        let mut log = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&log_path)
            .with_context(cannot)?;
        let log_bytes = from.log_bytes;
        log.set_len(log_bytes).with_context(cannot)?;
        log.seek(SeekFrom::Start(log_bytes)).with_context(cannot)?;
        log.write_all(&member).with_context(cannot)?;
        log.sync_data().with_context(cannot)?;
        let written = Written {
            log_from: from.log_from,
            columns,
            log_bytes: log_bytes + member.len() as u64,
        };
        let header = Header {
            horizon_checkpoint: self.settings.clone(),
            version: Some(FORMAT.into()),
            start,
            columns,
            most_jewels: progress.most_jewels,
            now: Saved::from(&SpawnState::of(game)),
            log_bytes: Some(written.log_bytes),
            log_from: written.log_from,
            checking: progress.repeat,
        };
        let head_path = self.head_path(start);
        files::write_file(&head_path, &serde_json::to_vec(&header)?, true)
            .with_context(|| format!("cannot write {}", head_path.display()))?;
        self.set_written(start, written);
        let _ = std::fs::remove_file(self.one_file_path(start));
        Ok(())
    }

    fn lessons_path(&self, start: u16) -> PathBuf {
        self.dir.join(format!("lessons-{start:04x}.jsonl.gz"))
    }

    /// Keeps what the decided `start` taught.
    pub fn save_lessons(&self, start: u16, lessons: &[Lesson]) -> anyhow::Result<()> {
        let path = self.lessons_path(start);
        let header = LessonsHeader {
            horizon_lessons: self.settings.clone(),
            version: Some(FORMAT.into()),
            start,
            states: lessons.len() as u64,
        };
        let lines = lessons.iter().map(|(state, fate)| LessonLine {
            state: state.into(),
            fate: *fate,
        });
        write_json_lines(&path, &header, lines)
    }

    /// What every decided start of these settings taught, as kept in the folder.
    pub fn load_lessons(&self) -> anyhow::Result<Vec<Lesson>> {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&self.dir)
            .with_context(|| format!("cannot read {}", self.dir.display()))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|path| {
                path.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("lessons-") && n.ends_with(".jsonl.gz"))
            })
            .collect();
        paths.sort();
        let mut lessons = Vec::new();
        for path in paths {
            let (header, lines): (LessonsHeader, Vec<LessonLine>) =
                read_json_lines(&path, "lessons")?;
            if let Err(why) = readable(header.version.as_ref(), "lessons file") {
                bail!(
                    "{} is {why}; it is kept: give another --checkpoint folder",
                    path.display()
                );
            }
            if !same(&header.horizon_lessons, &self.settings) {
                bail!(
                    "{} holds the lessons of other settings ({}); it is kept: give another \
                     --checkpoint folder",
                    path.display(),
                    differences(&header.horizon_lessons, &self.settings)
                );
            }
            for (k, line) in lines.iter().enumerate() {
                if let Err(why) = line.check() {
                    bail!(
                        "{} is refused: its state {} (line {}): {why}. It is kept as it is, \
                         and the run stops before any start plays; remove it to play on \
                         without what it teaches",
                        path.display(),
                        k + 1,
                        k + 2
                    );
                }
            }
            if lines.len() as u64 != header.states {
                bail!(
                    "{}: {} states where its header says {}",
                    path.display(),
                    lines.len(),
                    header.states
                );
            }
            lessons.extend(lines.into_iter().map(|l| (l.state.into(), l.fate)));
        }
        Ok(lessons)
    }

    /// A decided start needs no checkpoint.
    pub fn remove(&self, start: u16) {
        for path in [
            self.head_path(start),
            self.log_path(start),
            self.one_file_path(start),
        ] {
            let _ = std::fs::remove_file(path);
        }
    }

    /// Whether a checkpoint written at `last` is due again.
    pub fn due(&self, last: Instant) -> bool {
        last.elapsed() >= self.every
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use magic_jewelry_engine::{Budget, InputModel, PlayerSpec, StrategySpec};

    /// `simple` with the real rules' built-in value, with no limit on a decision.
    fn simple_player() -> Box<dyn magic_jewelry_engine::Strategy> {
        PlayerSpec {
            strategy: StrategySpec::Simple,
            ..PlayerSpec::default().with_budget(Budget::UNLIMITED)
        }
        .build()
    }

    /// The first `columns` columns of `simple`'s game from `start`: a state and a step each,
    /// and the game after them.
    fn progress(start: u16, columns: u16) -> (Progress, Game) {
        let mut strategy = simple_player();
        let mut choose = super::super::choices_of(strategy.as_mut());
        let mut game = Game::from_generator_state(start);
        let mut progress = Progress::default();
        for _ in 0..columns {
            progress.order.push(SpawnState::of(&game));
            let step = super::super::play_column(&mut choose, &mut game, InputModel::FAST);
            assert!(!step.lost, "simple lost from {start}");
            progress.most_jewels = progress.most_jewels.max(step.jewels);
            progress.steps.push(step);
        }
        (progress, game)
    }

    /// Lessons that travel as bytes keep every state whole, its board included: a state that
    /// lost its board would be met by another game's state with the same columns and counters.
    #[test]
    fn lessons_travel_with_their_boards() {
        let (played, _) = progress(0x0125, 40);
        let lessons: Vec<Lesson> = played
            .order
            .iter()
            .enumerate()
            .map(|(k, state)| {
                let fate = Fate::Lost {
                    columns: 40 - k as u64,
                    most_jewels: played.most_jewels,
                };
                (*state, fate)
            })
            .collect();
        assert!(lessons.iter().any(|(state, _)| state.board.jewels() > 0));
        let bytes = lessons_to_bytes(&lessons).expect("bytes");
        assert_eq!(lessons_from_bytes(&bytes).expect("lessons"), lessons);
    }

    #[test]
    fn lessons_that_no_game_has_are_refused() {
        let (played, _) = progress(0x0125, 3);
        let lost = |most_jewels| Fate::Lost {
            columns: 1,
            most_jewels,
        };
        let too_many = [(played.order[2], lost(MOST_JEWELS + 1))];
        let refused = lessons_from_bytes(&lessons_to_bytes(&too_many).expect("bytes"));
        let why = refused.expect_err("refused").to_string();
        assert!(
            why.contains("state 1") && why.contains("more jewels"),
            "{why}"
        );
        assert!(lessons_from_bytes(b"[{}]").is_err());
    }

    fn steps(progress: &Progress) -> Vec<(u32, u64, u64)> {
        let step = |s: &Step| (s.jewels, s.points, s.removed);
        progress.steps.iter().map(step).collect()
    }

    fn assert_holds(loaded: Option<(Progress, Game)>, expected: &Progress, game: &Game) {
        let (loaded, now) = loaded.expect("a checkpoint");
        assert!(loaded.order == expected.order, "other states");
        assert_eq!(steps(&loaded), steps(expected));
        assert_eq!(loaded.most_jewels, expected.most_jewels);
        assert_eq!(SpawnState::of(&now), SpawnState::of(game));
    }

    fn folder() -> (tempfile::TempDir, serde_json::Value) {
        let dir = tempfile::tempdir().expect("temp dir");
        (dir, serde_json::json!({ "ai": "simple" }))
    }

    /// Each write appends only the columns played since the last; a read gets them all back.
    #[test]
    fn writes_append_the_new_columns() {
        let (dir, settings) = folder();
        let checkpoints = Checkpoints::open(dir.path(), settings, Duration::ZERO).expect("open");
        let (whole, game) = progress(7, 3_000);
        let mut sizes = Vec::new();
        for columns in [1_000, 2_000, 3_000] {
            let part = Progress {
                order: whole.order[..columns].to_vec(),
                steps: whole.steps[..columns].to_vec(),
                ..whole.clone()
            };
            checkpoints.save(7, &part, &game).expect("saved");
            sizes.push(
                std::fs::metadata(checkpoints.log_path(7))
                    .expect("log")
                    .len(),
            );
        }
        // Every write added about a third: none wrote the whole game again.
        assert!(
            sizes[1] < sizes[0] * 5 / 2 && sizes[2] < sizes[0] * 7 / 2,
            "{sizes:?}"
        );
        assert_holds(checkpoints.load(7).expect("read"), &whole, &game);
        // A later run reads the same.
        let later = Checkpoints::open(dir.path(), checkpoints.settings.clone(), Duration::ZERO)
            .expect("open");
        assert_holds(later.load(7).expect("read"), &whole, &game);
    }

    /// A write cut short leaves bytes past what the head names: a read ignores them, and the
    /// next write replaces them.
    #[test]
    fn a_torn_log_tail_is_ignored_then_replaced() {
        let (dir, settings) = folder();
        let checkpoints = Checkpoints::open(dir.path(), settings, Duration::ZERO).expect("open");
        let (first, game) = progress(1, 500);
        checkpoints.save(1, &first, &game).expect("saved");
        let mut log = std::fs::OpenOptions::new()
            .append(true)
            .open(checkpoints.log_path(1))
            .expect("log");
        log.write_all(&[0x1f, 0x8b, 8, 0, 1, 2, 3])
            .expect("torn tail");
        drop(log);
        let resumed = Checkpoints::open(dir.path(), checkpoints.settings.clone(), Duration::ZERO)
            .expect("open");
        assert_holds(resumed.load(1).expect("read"), &first, &game);
        let (more, game) = progress(1, 900);
        resumed.save(1, &more, &game).expect("saved");
        assert_holds(resumed.load(1).expect("read"), &more, &game);
        // A log shorter than its head says is refused, not read as fewer columns.
        let log = std::fs::OpenOptions::new()
            .write(true)
            .open(resumed.log_path(1))
            .expect("log");
        log.set_len(100).expect("cut");
        let error = resumed.load(1).map(|_| ()).expect_err("short log");
        assert!(
            format!("{error:#}").contains("where its head says"),
            "{error:#}"
        );
    }

    /// A head whose log is gone goes on from its state now, knowing the game from there on;
    /// its next writes start a log from that column, which a later read takes back.
    #[test]
    fn a_head_without_its_log_goes_on_from_its_state_now() {
        let (dir, settings) = folder();
        let checkpoints = Checkpoints::open(dir.path(), settings, Duration::ZERO).expect("open");
        let (played, game) = progress(5, 600);
        checkpoints.save(5, &played, &game).expect("saved");
        std::fs::remove_file(checkpoints.log_path(5)).expect("log removed");
        let later = Checkpoints::open(dir.path(), checkpoints.settings.clone(), Duration::ZERO)
            .expect("open");
        let (head_only, now) = later.load(5).expect("read").expect("a checkpoint");
        assert_eq!((head_only.kept_from, head_only.columns()), (600, 600));
        assert!(head_only.order.is_empty());
        assert_eq!(head_only.most_jewels, played.most_jewels);
        assert_eq!(SpawnState::of(&now), SpawnState::of(&game));
        // 250 more columns, written twice: the log holds them from column 600.
        let (more, game) = progress(5, 850);
        let mut going_on = Progress::known_from(600, played.most_jewels);
        for (k, (state, step)) in more.order[600..].iter().zip(&more.steps[600..]).enumerate() {
            going_on.order.push(*state);
            going_on.steps.push(*step);
            going_on.most_jewels = going_on.most_jewels.max(step.jewels);
            if k == 99 {
                later.save(5, &going_on, &game).expect("saved");
            }
        }
        later.save(5, &going_on, &game).expect("saved");
        let head: serde_json::Value =
            serde_json::from_slice(&std::fs::read(later.head_path(5)).expect("head"))
                .expect("json");
        assert_eq!(
            (head["columns"].as_u64(), head["log_from"].as_u64()),
            (Some(850), Some(600))
        );
        let again = Checkpoints::open(dir.path(), checkpoints.settings.clone(), Duration::ZERO)
            .expect("open");
        let (loaded, _) = again.load(5).expect("read").expect("a checkpoint");
        assert_eq!((loaded.kept_from, loaded.columns()), (600, 850));
        assert_holds(Some((loaded, game.clone())), &going_on, &game);
    }

    /// The one-file checkpoint of earlier versions is read, and its next write is in two
    /// files.
    #[test]
    fn a_one_file_checkpoint_is_read_then_written_in_two() {
        let (dir, settings) = folder();
        let checkpoints = Checkpoints::open(dir.path(), settings, Duration::ZERO).expect("open");
        let (old, game) = progress(3, 700);
        let header = Header {
            horizon_checkpoint: checkpoints.settings.clone(),
            version: None,
            start: 3,
            columns: 700,
            most_jewels: old.most_jewels,
            now: Saved::from(&SpawnState::of(&game)),
            log_bytes: None,
            log_from: 0,
            checking: None,
        };
        let lines = old.order.iter().zip(&old.steps).map(Line::of);
        write_json_lines(&checkpoints.one_file_path(3), &header, lines).expect("written");
        assert_holds(checkpoints.load(3).expect("read"), &old, &game);
        let (more, game) = progress(3, 800);
        checkpoints.save(3, &more, &game).expect("saved");
        assert!(!checkpoints.one_file_path(3).exists());
        assert!(checkpoints.head_path(3).exists());
        assert_holds(checkpoints.load(3).expect("read"), &more, &game);
        // Another run's settings are refused, the files kept.
        let other = Checkpoints::open(
            dir.path(),
            serde_json::json!({ "ai": "smart" }),
            Duration::ZERO,
        )
        .expect("open");
        let error = other.load(3).map(|_| ()).expect_err("other settings");
        assert!(error.to_string().contains("other settings"), "{error}");
        checkpoints.remove(3);
        assert!(checkpoints.load(3).expect("read").is_none());
    }

    /// Where each number of `text` is: (start, end) of each run of digits.
    fn numbers(text: &str) -> Vec<(usize, usize)> {
        let bytes = text.as_bytes();
        let mut runs = Vec::new();
        let mut k = 0;
        while k < bytes.len() {
            if bytes[k].is_ascii_digit() {
                let start = k;
                while k < bytes.len() && bytes[k].is_ascii_digit() {
                    k += 1;
                }
                runs.push((start, k));
            } else {
                k += 1;
            }
        }
        runs
    }

    /// `text` with one of its numbers (drawn by `rng`) changed: by one, a bit, to 0, to a
    /// large number or past any integer.
    fn change_a_number(text: &str, rng: &mut impl rand::Rng) -> (String, String) {
        let runs = numbers(text);
        let (start, end) = runs[rng.random_range(0..runs.len())];
        let old: u128 = text[start..end].parse().unwrap_or(0);
        let new = match rng.random_range(0..6) {
            0 => (old + 1).to_string(),
            1 => old.saturating_sub(1).to_string(),
            2 => (old ^ 1 << rng.random_range(0..8)).to_string(),
            3 => "0".to_owned(),
            4 => rng.random::<u32>().to_string(),
            _ => "340282366920938463463374607431768211456".to_owned(),
        };
        let what = format!("{} -> {new} at byte {start}", &text[start..end]);
        (format!("{}{new}{}", &text[..start], &text[end..]), what)
    }

    fn gunzip(bytes: &[u8]) -> String {
        let mut text = String::new();
        MultiGzDecoder::new(bytes)
            .read_to_string(&mut text)
            .expect("the log");
        text
    }

    fn gzip(text: &str) -> Vec<u8> {
        let mut out = GzEncoder::new(Vec::new(), Compression::fast());
        out.write_all(text.as_bytes()).expect("compressed");
        out.finish().expect("compressed")
    }

    /// The head `head` naming a log of `log_bytes` bytes.
    fn with_log_bytes(head: &str, log_bytes: usize) -> String {
        let key = "\"log_bytes\":";
        let at = head.find(key).expect("log_bytes") + key.len();
        let end = at
            + head[at..]
                .find(|c: char| !c.is_ascii_digit())
                .expect("its end");
        format!("{}{log_bytes}{}", &head[..at], &head[end..])
    }

    /// Bytes and fields of a real checkpoint changed at random (numbers of its head and of
    /// its log's lines, bits of its head and of its compressed log, its log cut short or a
    /// line of it gone), 300 times: never a panic, reading it or playing on from it; either
    /// a refusal or the very game the checkpoint held.
    #[test]
    fn a_damaged_checkpoint_is_refused_or_read_whole_and_never_panics() {
        use rand::{Rng, SeedableRng};
        let (dir, settings) = folder();
        let checkpoints = Checkpoints::open(dir.path(), settings, Duration::ZERO).expect("open");
        let start = 0x0125;
        let (played, game) = progress(start, 300);
        checkpoints.save(start, &played, &game).expect("saved");
        let head = std::fs::read_to_string(checkpoints.head_path(start)).expect("the head");
        let log = std::fs::read(checkpoints.log_path(start)).expect("the log");
        let log_text = gunzip(&log);
        let whole = |loaded: &(Progress, Game)| {
            let (p, now) = loaded;
            p.kept_from == played.kept_from
                && p.order == played.order
                && steps(p) == steps(&played)
                && p.most_jewels == played.most_jewels
                && SpawnState::of(now) == SpawnState::of(&game)
        };
        assert!(whole(
            &checkpoints.load(start).expect("read").expect("kept")
        ));
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let (mut refused, mut read) = (0, 0);
        for round in 0..300 {
            let (new_head, new_log, what) = match round % 6 {
                0 => {
                    let (h, what) = change_a_number(&head, &mut rng);
                    (h.into_bytes(), log.clone(), format!("head: {what}"))
                }
                1 => {
                    let mut lines: Vec<String> = log_text.lines().map(str::to_owned).collect();
                    let k = rng.random_range(0..lines.len());
                    let (line, what) = change_a_number(&lines[k], &mut rng);
                    lines[k] = line;
                    let new_log = gzip(&(lines.join("\n") + "\n"));
                    let h = with_log_bytes(&head, new_log.len());
                    (h.into_bytes(), new_log, format!("log line {k}: {what}"))
                }
                2 => {
                    let mut h = head.clone().into_bytes();
                    let k = rng.random_range(0..h.len());
                    h[k] ^= 1 << rng.random_range(0..8);
                    (h, log.clone(), format!("head: bit flipped at byte {k}"))
                }
                3 => {
                    let mut l = log.clone();
                    let k = rng.random_range(0..l.len());
                    l[k] ^= 1 << rng.random_range(0..8);
                    (
                        head.clone().into_bytes(),
                        l,
                        format!("log: bit flipped at byte {k}"),
                    )
                }
                4 => {
                    let cut = rng.random_range(0..log.len());
                    let h = with_log_bytes(&head, cut);
                    (
                        h.into_bytes(),
                        log[..cut].to_vec(),
                        format!("log cut at {cut}"),
                    )
                }
                _ => {
                    let mut lines: Vec<&str> = log_text.lines().collect();
                    let k = rng.random_range(0..lines.len());
                    lines.remove(k);
                    let new_log = gzip(&(lines.join("\n") + "\n"));
                    let h = with_log_bytes(&head, new_log.len());
                    (h.into_bytes(), new_log, format!("log line {k} gone"))
                }
            };
            std::fs::write(checkpoints.head_path(start), &new_head).expect("written");
            std::fs::write(checkpoints.log_path(start), &new_log).expect("written");
            let later = Checkpoints::open(dir.path(), checkpoints.settings.clone(), Duration::ZERO)
                .expect("open");
            let loaded = std::panic::catch_unwind(|| later.load(start))
                .unwrap_or_else(|_| panic!("{what}: a panic reading it"));
            match loaded {
                Err(error) => {
                    assert!(!format!("{error:#}").is_empty());
                    refused += 1;
                }
                Ok(None) => panic!("{what}: no checkpoint found"),
                Ok(Some(loaded)) => {
                    assert!(whole(&loaded), "{what}: read as another game");
                    read += 1;
                    // And played on from, without a panic.
                    let played_on = std::panic::catch_unwind(|| {
                        let mut strategy = simple_player();
                        let mut choose = super::super::choices_of(strategy.as_mut());
                        let (progress, mut now) = loaded;
                        for _ in 0..5 {
                            super::super::play_column(&mut choose, &mut now, InputModel::FAST);
                        }
                        progress.columns()
                    });
                    assert_eq!(played_on.ok(), Some(300), "{what}");
                }
            }
        }
        // Both happened: the test changes what matters, and what does not.
        assert!(
            refused > 200 && read > 0,
            "{refused} refused, {read} read whole"
        );
    }

    /// A lessons file whose state could not be a game's is refused, naming the file and the
    /// state; one of a later format is refused by its version.
    #[test]
    fn a_damaged_lessons_file_is_refused() {
        let (dir, settings) = folder();
        let checkpoints = Checkpoints::open(dir.path(), settings, Duration::ZERO).expect("open");
        let (played, _) = progress(0x0125, 20);
        let lessons: Vec<Lesson> = played
            .order
            .iter()
            .map(|state| {
                let fate = Fate::Lost {
                    columns: 5,
                    most_jewels: 9,
                };
                (*state, fate)
            })
            .collect();
        checkpoints.save_lessons(0x0125, &lessons).expect("saved");
        assert_eq!(checkpoints.load_lessons().expect("read"), lessons);
        let mut bad = lessons.clone();
        bad[3].0.since_wild = 99;
        checkpoints.save_lessons(0x0125, &bad).expect("saved");
        let error = format!("{:#}", checkpoints.load_lessons().expect_err("refused"));
        assert!(
            error.contains("lessons-0125.jsonl.gz") && error.contains("since_wild 99"),
            "{error}"
        );
        let header = LessonsHeader {
            horizon_lessons: checkpoints.settings.clone(),
            version: Some((FORMAT + 1).into()),
            start: 0x0125,
            states: 0,
        };
        let path = checkpoints.lessons_path(0x0125);
        write_json_lines(&path, &header, std::iter::empty::<LessonLine>()).expect("written");
        let error = format!("{:#}", checkpoints.load_lessons().expect_err("refused"));
        assert!(
            error.contains(&format!("version {}", FORMAT + 1)),
            "{error}"
        );
    }
}
