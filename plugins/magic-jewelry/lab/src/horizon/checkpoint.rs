//! A start's game kept on disk while it plays (`horizon --checkpoint DIR`), so that a start of
//! hours resumes where it stopped: every state it went through, what each column did, and the
//! state it is at. The state at a spawn decides the future (docs/horizon.md), so the game goes
//! on from it as if it had never stopped.
//!
//! A file is gzip'd JSON lines: a header (the settings, the start, the columns played, the
//! state now), then one line a column. It is written whole or not at all, and one of other
//! settings is refused untouched.
//!
//! Beside them, what each decided start taught the others ([`super::Known`]): a file a start,
//! its header then one line a state with its fate, so that a resumed run shares what the
//! starts decided before it from its first start on.

use super::{Fate, Lesson, Progress, SpawnState, Step};
use anyhow::{bail, Context};
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use jewelbot_plugin::files;
use magic_jewelry::engine::{Board, Counters, Game};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
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

#[derive(Serialize, Deserialize)]
struct Header {
    horizon_checkpoint: serde_json::Value,
    start: u16,
    columns: u64,
    most_jewels: u32,
    now: Saved,
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

/// Writes `header` then each of `lines`, a JSON line each, gzip'd, to `path` whole.
fn write_json_lines<L: Serialize>(
    path: &Path,
    header: &impl Serialize,
    lines: impl Iterator<Item = L>,
) -> anyhow::Result<()> {
    let mut out = GzEncoder::new(Vec::new(), Compression::fast());
    serde_json::to_writer(&mut out, header)?;
    out.write_all(b"\n")?;
    for line in lines {
        serde_json::to_writer(&mut out, &line)?;
        out.write_all(b"\n")?;
    }
    let bytes = out.finish()?;
    files::write_file(path, &bytes, true)
        .with_context(|| format!("cannot write {}", path.display()))
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
    let lines = lines
        .map(|line| serde_json::from_str(&line.with_context(cannot)?).with_context(cannot))
        .collect::<anyhow::Result<Vec<L>>>()?;
    Ok((header, lines))
}

/// Where the starts' checkpoints go, and how often.
pub struct Checkpoints {
    dir: PathBuf,
    settings: serde_json::Value,
    every: Duration,
}

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
        })
    }

    fn path(&self, start: u16) -> PathBuf {
        self.dir.join(format!("start-{start:04x}.jsonl.gz"))
    }

    /// The game of `start` as its checkpoint left it, if there is one.
    pub fn load(&self, start: u16) -> anyhow::Result<Option<(Progress, Game)>> {
        let path = self.path(start);
        if std::fs::symlink_metadata(&path).is_err() {
            return Ok(None);
        }
        let (header, lines): (Header, Vec<Line>) = read_json_lines(&path, "checkpoint")
            .with_context(|| format!("cannot resume from {}", path.display()))?;
        if header.horizon_checkpoint != self.settings || header.start != start {
            bail!(
                "{} is a checkpoint of other settings ({}, start {}); it is kept: give another \
                 --checkpoint folder",
                path.display(),
                header.horizon_checkpoint,
                header.start
            );
        }
        let mut progress = Progress {
            most_jewels: header.most_jewels,
            ..Progress::default()
        };
        for line in lines {
            progress.order.push(line.state.into());
            progress.steps.push(Step {
                jewels: line.jewels,
                points: line.points,
                removed: line.removed,
                lost: false,
            });
        }
        if progress.order.len() as u64 != header.columns {
            bail!(
                "{}: {} columns where its header says {}",
                path.display(),
                progress.order.len(),
                header.columns
            );
        }
        Ok(Some((progress, game_at(&header.now.into()))))
    }

    /// Writes the game of `start` whole.
    pub fn save(&self, start: u16, progress: &Progress, game: &Game) -> anyhow::Result<()> {
        let path = self.path(start);
        let header = Header {
            horizon_checkpoint: self.settings.clone(),
            start,
            columns: progress.order.len() as u64,
            most_jewels: progress.most_jewels,
            now: Saved::from(&SpawnState::of(game)),
        };
        let lines = progress
            .order
            .iter()
            .zip(&progress.steps)
            .map(|(state, step)| Line {
                state: state.into(),
                jewels: step.jewels,
                points: step.points,
                removed: step.removed,
            });
        write_json_lines(&path, &header, lines)
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
        let _ = std::fs::remove_file(self.path(start));
    }

    /// Whether a checkpoint written at `last` is due again.
    pub fn due(&self, last: Instant) -> bool {
        last.elapsed() >= self.every
    }
}
