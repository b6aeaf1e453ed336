//! `jewelbot run --headless`: frames without a window, for a number of frames or until a
//! condition holds, with the files a run reads and writes (a state or checkpoint to start
//! from, checkpoints, movies, a GIF, a report) and a progress bar while stderr is a terminal.

use crate::cli::RunArgs;
use anyhow::{bail, Context};
use jewelbot::gif_capture::GifCapture;
use jewelbot::headless::until::Until;
use jewelbot::headless::{self, report, Checkpoints, RunPlan, RunRecord, Summary};
use jewelbot::movie::file as movie_file;
use jewelbot::session::Session;
use std::path::Path;

/// Frames between two updates of the progress bar.
const PROGRESS_EVERY: u64 = 64;

/// Runs `session` (fresh from power-on) as `args` say and prints the summary.
pub fn run(args: &RunArgs, session: &mut Session) -> anyhow::Result<()> {
    // Everything that can be refused is refused before the first frame runs.
    check_outputs(args)?;
    let until = args
        .until
        .iter()
        .map(|text| Until::parse(text, &session.plugins().stop_conditions()))
        .collect::<Result<Vec<_>, String>>()
        .map_err(anyhow::Error::msg)?;
    let saved = match &args.state {
        Some(path) => session
            .load_state_file(path)
            .with_context(|| format!("cannot start from {}", path.display()))?,
        None => None,
    };
    let mut record = RunRecord::resumed(saved, session).map_err(anyhow::Error::msg)?;
    if args.record_movie.is_some() && !session.is_recording_movie() {
        if args.state.is_some() {
            bail!(
                "--record-movie: {} carries no movie from power-on to go on with (a checkpoint \
                 of a run that recorded one does)",
                args.state.as_deref().unwrap_or(Path::new("")).display()
            );
        }
        session.record_movie()?;
    }
    if args.explain {
        session.plugins_mut().keep_notes();
    }
    let mut gif = args
        .gif
        .as_deref()
        .map(|path| GifCapture::create(path, args.force).map(|gif| gif.every(args.gif_every)))
        .transpose()?;
    let mut ram_log = args
        .ram_log
        .as_deref()
        .map(|path| RamLog::create(path, args.ram_log_every))
        .transpose()?;
    let plan = RunPlan {
        frames: args.frames,
        until,
        checkpoints: args.checkpoint.as_ref().map(|path| Checkpoints {
            path: path.clone(),
            every: args.checkpoint_every,
        }),
    };

    let mut progress = Progress::new(&plan, session);
    let summary = headless::run(session, &plan, &mut record, |session| {
        if let Some(gif) = &mut gif {
            gif.frame(session.picture_rgba())?;
            // A time-lapse keeps few pictures: the PPU draws only those.
            session.set_video(gif.wants_next());
        }
        if let Some(log) = &mut ram_log {
            log.frame(session)?;
        }
        progress.frame(session);
        Ok(())
    });
    progress.finish();
    let summary = summary?;

    if let Some(log) = ram_log {
        log.finish(session)?;
    }
    if let Some(gif) = gif {
        let (pictures, path) = (gif.pictures(), gif.path().to_owned());
        gif.finish()?;
        eprintln!("{pictures} pictures written to {}", path.display());
    }
    if let Some((played, total)) = session.movie_playback() {
        if played < total {
            eprintln!("note: the movie has {total} frames; the run played {played} of them");
        }
    }
    if let Some(path) = &args.record_movie {
        if let Some(movie) = session.take_recorded_movie() {
            movie_file::write(path, &movie, true)?;
            eprintln!(
                "movie of {} frames recorded to {}",
                movie.frames.len(),
                path.display()
            );
        }
    }
    if let Some(path) = &args.save_state {
        let state = session.save_state()?;
        jewelbot::files::write_file(path, &state, true)?;
        eprintln!(
            "state of frame {} saved to {}",
            session.frame_number(),
            path.display()
        );
    }
    if let Some(dir) = &args.report {
        let written = report::write(
            dir,
            &summary,
            &session.plugins().series(),
            &session.plugins().milestones(),
        )?;
        eprintln!(
            "report of {} files written to {}",
            written.len(),
            dir.display()
        );
    }
    print_summary(args, &summary)
}

/// The run's output files: never over a file without `--force`, each in a folder that exists,
/// no two on one path. A checkpoint may replace the state the run resumes from.
fn check_outputs(args: &RunArgs) -> anyhow::Result<()> {
    let outputs: Vec<(&str, &Path)> = [
        ("--save-state", &args.save_state),
        ("--record-movie", &args.record_movie),
        ("--gif", &args.gif),
        ("--checkpoint", &args.checkpoint),
        ("--ram-log", &args.ram_log),
        ("--report", &args.report),
    ]
    .into_iter()
    .filter_map(|(flag, path)| path.as_deref().map(|p| (flag, p)))
    .collect();
    for (i, (flag, path)) in outputs.iter().enumerate() {
        let folder = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        if !folder.is_dir() {
            bail!(
                "{flag} {}: the folder {} does not exist",
                path.display(),
                folder.display()
            );
        }
        if let Some((other, _)) = outputs[..i].iter().find(|(_, p)| same_path(p, path)) {
            bail!(
                "{flag} {} is also the path of {other}: give each output a path of its own",
                path.display()
            );
        }
        let own_state = *flag == "--checkpoint"
            && args
                .state
                .as_deref()
                .is_some_and(|state| same_path(state, path));
        let is_dir_output = *flag == "--report";
        if !own_state && !is_dir_output {
            crate::setup::refuse_existing(path, args.force)?;
        }
        if is_dir_output && path.is_file() {
            bail!("--report {} is a file, not a folder", path.display());
        }
    }
    Ok(())
}

/// Two paths name one file (the same file when both exist, else the same words).
fn same_path(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

fn print_summary(args: &RunArgs, summary: &Summary) -> anyhow::Result<()> {
    if args.json {
        println!("{}", serde_json::to_string_pretty(summary)?);
    } else {
        for note in &summary.notes {
            println!("frame {}: {}: {}", note.frame, note.plugin, note.text);
        }
        println!("{}", summary.to_text());
    }
    Ok(())
}

/// `--ram-log`: RAM every so many frames, as `FRAME ` + 2,048 bytes + a newline, written to a
/// hidden file beside the log and put in its place when the run ends.
struct RamLog {
    path: std::path::PathBuf,
    partial: std::path::PathBuf,
    out: std::io::BufWriter<std::fs::File>,
    every: u64,
}

impl RamLog {
    fn create(path: &Path, every: u64) -> anyhow::Result<Self> {
        let partial = jewelbot::files::partial_path(path);
        let file = std::fs::File::create(&partial)
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(Self {
            path: path.to_owned(),
            partial,
            out: std::io::BufWriter::new(file),
            every,
        })
    }

    fn frame(&mut self, session: &Session) -> anyhow::Result<()> {
        if session.frame_number().is_multiple_of(self.every) {
            self.write(session)?;
        }
        Ok(())
    }

    fn write(&mut self, session: &Session) -> anyhow::Result<()> {
        use std::io::Write;
        write!(self.out, "{} ", session.frame_number())?;
        self.out.write_all(session.ram())?;
        self.out.write_all(b"\n")?;
        Ok(())
    }

    /// Writes the run's last frame too, then puts the log in its place.
    fn finish(mut self, session: &Session) -> anyhow::Result<()> {
        if !session.frame_number().is_multiple_of(self.every) {
            self.write(session)?;
        }
        let file = self
            .out
            .into_inner()
            .map_err(std::io::IntoInnerError::into_error)?;
        file.sync_all()?;
        std::fs::rename(&self.partial, &self.path)
            .with_context(|| format!("cannot write {}", self.path.display()))?;
        Ok(())
    }
}

/// The progress bar of a run: towards its first `--until` condition (the condition's
/// statistic from where it stood to its threshold, whose rate gives the time left), or
/// through its frames.
struct Progress {
    bar: indicatif::ProgressBar,
    until: Option<(Until, i64)>,
    frames: u64,
    started: std::time::Instant,
}

impl Progress {
    fn new(plan: &RunPlan, session: &Session) -> Self {
        let until = plan
            .until
            .first()
            .map(|u| (u.clone(), u.value(session.plugins())));
        let bar = match &until {
            Some((until, from)) => {
                jewelbot::progress::bar((until.at_least - from).max(1) as u64, &until.text)
            }
            None => jewelbot::progress::bar(plan.frames.unwrap_or(0), "frames"),
        };
        Self {
            bar,
            until,
            frames: 0,
            started: std::time::Instant::now(),
        }
    }

    fn frame(&mut self, session: &Session) {
        self.frames += 1;
        if !self.frames.is_multiple_of(PROGRESS_EVERY) {
            return;
        }
        match &self.until {
            Some((until, from)) => {
                let done = (until.value(session.plugins()) - from).max(0) as u64;
                self.bar.set_position(done);
                let fps = self.frames as f64 / self.started.elapsed().as_secs_f64().max(1e-9);
                self.bar.set_message(format!(
                    "{}: frame {} ({fps:.0} fps)",
                    until.text,
                    session.frame_number()
                ));
            }
            None => self.bar.set_position(self.frames),
        }
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
