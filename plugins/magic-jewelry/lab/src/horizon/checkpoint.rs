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

use super::{Fate, Lesson, Progress, Repeat, SpawnState, Step};
use anyhow::{bail, Context};
use flate2::read::{GzDecoder, MultiGzDecoder};
use flate2::write::GzEncoder;
use flate2::Compression;
use jewelbot_plugin::files;
use magic_jewelry::engine::{Board, Counters, Game};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
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
        Self {
            board: saved.board,
            ..saved.state
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

/// A start's head: everything but the columns, and how much of the log holds them.
#[derive(Serialize, Deserialize)]
struct Header {
    horizon_checkpoint: serde_json::Value,
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
    start: u16,
    states: u64,
}

#[derive(Serialize, Deserialize)]
struct LessonLine {
    state: Saved,
    #[serde(flatten)]
    fate: Fate,
}

/// Writes each of `lines` to `out` as a JSON line.
fn put_json_lines<L: Serialize>(
    out: &mut impl Write,
    lines: impl Iterator<Item = L>,
) -> anyhow::Result<()> {
    for line in lines {
        serde_json::to_writer(&mut *out, &line)?;
        out.write_all(b"\n")?;
    }
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
    /// What each start's files hold, as this run read or wrote them.
    written: Mutex<HashMap<u16, Written>>,
}

/// A head is a few hundred bytes; anything much larger is not one.
const MAX_HEAD_BYTES: u64 = 1 << 20;

impl Checkpoints {
    /// Checkpoints in `dir` (made if missing) of games played with `settings`.
    pub fn open(dir: &Path, settings: serde_json::Value, every: Duration) -> anyhow::Result<Self> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("--checkpoint {}: cannot make the folder", dir.display()))?;
        if !dir.is_dir() {
            bail!("--checkpoint {} is not a folder", dir.display());
        }
        Ok(Self {
            dir: dir.to_owned(),
            settings,
            every,
            written: Mutex::new(HashMap::new()),
        })
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
        let (path, header, lines) = if std::fs::symlink_metadata(&head_path).is_ok() {
            let resume = || format!("cannot resume from {}", head_path.display());
            let head = files::read_regular(&head_path, "checkpoint head", MAX_HEAD_BYTES)
                .with_context(resume)?;
            let mut header: Header = serde_json::from_slice(&head)
                .with_context(|| format!("{} is not a horizon checkpoint", head_path.display()))
                .with_context(resume)?;
            self.check_settings(&head_path, &header, start)?;
            let lines = if std::fs::symlink_metadata(self.log_path(start)).is_ok() {
                self.read_log(start, &header).with_context(resume)?
            } else {
                header.log_from = header.columns;
                header.log_bytes = Some(0);
                Vec::new()
            };
            (head_path, header, lines)
        } else if std::fs::symlink_metadata(&one_file).is_ok() {
            let (header, lines): (Header, Vec<Line>) = read_json_lines(&one_file, "checkpoint")
                .with_context(|| format!("cannot resume from {}", one_file.display()))?;
            self.check_settings(&one_file, &header, start)?;
            (one_file, header, lines)
        } else {
            return Ok(None);
        };
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
        if progress.columns() != header.columns {
            bail!(
                "{}: {} columns where its header says {}",
                path.display(),
                progress.columns(),
                header.columns
            );
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
        if header.horizon_checkpoint != self.settings || header.start != start {
            bail!(
                "{} is a checkpoint of other settings ({}, start {}); it is kept: give another \
                 --checkpoint folder",
                path.display(),
                header.horizon_checkpoint,
                header.start
            );
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
            if header.horizon_lessons != self.settings {
                bail!(
                    "{} holds the lessons of other settings ({}); it is kept: give another \
                     --checkpoint folder",
                    path.display(),
                    header.horizon_lessons
                );
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

    /// A game of `columns` made-up columns: a state and a step each, all different.
    fn progress(columns: u16) -> (Progress, Game) {
        let mut progress = Progress::default();
        for k in 0..columns {
            let game = Game::from_generator_state(k.wrapping_mul(97));
            progress.order.push(SpawnState::of(&game));
            progress.steps.push(Step {
                jewels: u32::from(k % 60),
                points: u64::from(k) * 30,
                removed: u64::from(k % 4) * 3,
                lost: false,
            });
            progress.most_jewels = progress.most_jewels.max(u32::from(k % 60));
        }
        (progress, Game::from_generator_state(columns))
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
        let (whole, game) = progress(3_000);
        let mut sizes = Vec::new();
        for columns in [1_000, 2_000, 3_000] {
            let (part, _) = progress(columns);
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
        let (first, game) = progress(500);
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
        let (more, game) = progress(900);
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
        let (played, game) = progress(600);
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
        let (more, game) = progress(250);
        let mut going_on = Progress::known_from(600, played.most_jewels);
        for (k, (state, step)) in more.order.iter().zip(&more.steps).enumerate() {
            going_on.order.push(*state);
            going_on.steps.push(*step);
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
        let (old, game) = progress(700);
        let header = Header {
            horizon_checkpoint: checkpoints.settings.clone(),
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
        let (more, game) = progress(800);
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
}
