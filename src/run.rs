//! `jewelbot run --headless`: frames without a window, for a number of frames or until a
//! condition holds, with the files a run reads and writes (a state or checkpoint to start
//! from, checkpoints, movies, a GIF, a report) and a progress bar while stderr is a terminal.

use crate::cli::RunArgs;
use crate::setup::Plugins;
use anyhow::{bail, Context};
use jewelbot_host::files::PendingFile;
use jewelbot_host::gif_capture::GifCapture;
use jewelbot_host::headless::until::Until;
use jewelbot_host::headless::{self, report, Checkpoints, Ended, RunPlan, RunRecord, Summary};
use jewelbot_host::interrupt::Interrupt;
use jewelbot_host::movie::file as movie_file;
use jewelbot_host::outputs::{self, Input, Output};
use jewelbot_host::session::Session;
use jewelbot_plugin::Pacing;
use jewelbot_plugin::Series;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

/// Frames between two updates of the progress bar.
const PROGRESS_EVERY: u64 = 64;

/// Runs `session` (fresh from power-on) as `args` say and prints the summary. A signal stops
/// it at a frame boundary; what it has is written all the same, and the exit status is the
/// signal's.
pub fn run(
    args: &RunArgs,
    session: &mut Session,
    plugins: &Plugins,
    inputs: &[Input],
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    // Everything that can be refused is refused before the first frame runs.
    check_outputs(args, inputs, &session.plugins().series())?;
    let until = args
        .until
        .iter()
        .map(|text| Until::parse(text, &session.plugins().stop_conditions()))
        .collect::<Result<Vec<_>, String>>()
        .map_err(anyhow::Error::msg)?;
    let saved = match &args.state {
        Some(path) => crate::setup::load_state(session, path, plugins)?,
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
    session
        .plugins_mut()
        .set_pacing(
            args.stall_limit
                .map_or(Pacing::Lockstep, |ms| Pacing::RealTime {
                    stall_limit: Duration::from_millis(ms),
                }),
        );
    let mut gif = args
        .gif
        .as_deref()
        .map(|path| GifCapture::create(path, args.force).map(|gif| gif.every(args.gif_every)))
        .transpose()?;
    let mut ram_log = args
        .ram_log
        .as_deref()
        .map(|path| RamLog::create(path, args.ram_log_every, args.force))
        .transpose()?;
    let plan = RunPlan {
        frames: args.frames,
        until,
        checkpoints: args.checkpoint.as_ref().map(|path| Checkpoints {
            path: path.clone(),
            every: args.checkpoint_every,
            // Checked before the run: a file there is one --force or the resume allows.
            replace: args.force
                || args
                    .state
                    .as_deref()
                    .is_some_and(|state| outputs::same_place(state, path)),
        }),
        interrupt: Interrupt::listen().context("cannot listen for signals")?,
    };

    // Watched only: the page changes nothing in the game.
    let mut watch = args
        .serve
        .map(|address| {
            let config = crate::serve::config(address, false, &args.viewers);
            jewelbot_web::watch::Watch::start(config, session, plan.until.clone())
        })
        .transpose()?;
    if let Some(watch) = &watch {
        crate::serve::announce(watch.server());
    }

    let mut progress = Progress::new(&plan, session);
    let summary = headless::run(session, &plan, &mut record, |session| {
        // A time-lapse keeps few pictures, and a viewer takes at most a screen's worth: the
        // PPU draws only those.
        let mut video = None;
        if let Some(gif) = &mut gif {
            gif.frame(session.picture_rgba())?;
            video = Some(gif.wants_next());
        }
        if let Some(watch) = &mut watch {
            let wanted = watch.after_frame(session);
            video = Some(video.unwrap_or(false) || wanted);
        }
        if let Some(video) = video {
            session.set_video(video);
        }
        if let Some(log) = &mut ram_log {
            log.frame(session)?;
        }
        progress.frame(session);
        Ok(())
    });
    progress.finish();
    if let Some(watch) = watch {
        watch.stop();
    }
    let summary = summary?;

    // Every output is written that can be, and the summary printed, before an error is said.
    let mut failed: Option<anyhow::Error> = None;
    let mut attempt = |result: anyhow::Result<()>| {
        if let Err(error) = result {
            match &failed {
                None => failed = Some(error),
                Some(_) => eprintln!("error: {error:#}"),
            }
        }
    };
    if let Some(log) = ram_log {
        attempt(log.finish(session));
    }
    if let Some(gif) = gif {
        let (pictures, path) = (gif.pictures(), gif.path().to_owned());
        attempt(
            gif.finish()
                .map(|()| eprintln!("{pictures} pictures written to {}", path.display()))
                .map_err(anyhow::Error::from),
        );
    }
    if let Some((played, total)) = session.movie_playback() {
        if played < total {
            eprintln!("note: the movie has {total} frames; the run played {played} of them");
        }
    }
    if let Some(path) = &args.record_movie {
        if let Some(movie) = session.take_recorded_movie() {
            attempt(
                movie_file::write(path, &movie, args.force)
                    .map(|()| {
                        eprintln!(
                            "movie of {} frames recorded to {}",
                            movie.frames.len(),
                            path.display()
                        );
                    })
                    .map_err(anyhow::Error::from),
            );
        }
    }
    if let Some(path) = &args.save_state {
        attempt(
            session
                .save_state()
                .map_err(anyhow::Error::from)
                .and_then(|state| {
                    jewelbot_host::files::write_file(path, &state, args.force)?;
                    eprintln!(
                        "state of frame {} saved to {}",
                        session.frame_number(),
                        path.display()
                    );
                    Ok(())
                }),
        );
    }
    if let Some(dir) = &args.report {
        attempt(
            report::write(
                dir,
                &summary,
                &session.plugins().series(),
                &session.plugins().milestones(),
                args.force,
            )
            .map(|written| {
                eprintln!(
                    "report of {} files written to {}",
                    written.len(),
                    dir.display()
                );
            }),
        );
    }
    warn_unapplied_pokes(session);
    print_summary(args, &summary, out)?;
    if let Some(error) = failed {
        return Err(error);
    }
    Ok(match &summary.ended {
        Ended::Interrupted(_) => plan.interrupt.signal().map_or(ExitCode::FAILURE, |signal| {
            ExitCode::from(signal.exit_status())
        }),
        // A script's os.exit(n) ends the process with its status, as in FCEUX.
        Ended::Plugin(_) => session
            .plugins()
            .exit_status()
            .map_or(ExitCode::SUCCESS, ExitCode::from),
        _ => ExitCode::SUCCESS,
    })
}

/// `--poke`s whose frame the run did not reach are said, not dropped in silence.
pub fn warn_unapplied_pokes(session: &Session) {
    for (frame, address, value) in session.pending_pokes() {
        eprintln!(
            "note: --poke {frame}:${address:04X}={value:02X} was not applied: the run ended at \
             frame {}",
            session.frame_number()
        );
    }
}

/// The run's outputs, checked against the disk, each other and the files the run reads. A
/// checkpoint may replace the state the run resumes from.
fn check_outputs(args: &RunArgs, inputs: &[Input], series: &[Series]) -> anyhow::Result<()> {
    let files = [
        ("--save-state", &args.save_state),
        ("--record-movie", &args.record_movie),
        ("--gif", &args.gif),
        ("--ram-log", &args.ram_log),
    ];
    let mut outputs: Vec<Output> = files
        .into_iter()
        .filter_map(|(flag, path)| path.as_deref().map(|p| Output::file(flag, p)))
        .collect();
    if let Some(path) = &args.checkpoint {
        outputs.push(Output::file("--checkpoint", path).replacing(args.state.as_deref()));
    }
    if let Some(path) = &args.report {
        outputs.push(Output::folder("--report", path));
        // The files it will hold are outputs too, where the folder exists already.
        if path.is_dir() {
            outputs.extend(
                report::files(path, series)
                    .iter()
                    .map(|file| Output::file("--report", file)),
            );
        }
    }
    let mut inputs = inputs.to_vec();
    if let Some(state) = &args.state {
        inputs.push(Input::new("--state", state));
    }
    Ok(outputs::check(&outputs, &inputs, args.force)?)
}

fn print_summary(args: &RunArgs, summary: &Summary, out: &mut dyn Write) -> anyhow::Result<()> {
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(summary)?)?;
    } else {
        for note in &summary.notes {
            writeln!(out, "frame {}: {}: {}", note.frame, note.plugin, note.text)?;
        }
        writeln!(out, "{}", summary.to_text())?;
    }
    Ok(())
}

/// `--ram-log`: RAM every so many frames, as `FRAME ` + 2,048 bytes + a newline, written to a
/// hidden file beside the log and put in its place when the run ends.
struct RamLog {
    out: PendingFile,
    every: u64,
}

impl RamLog {
    fn create(path: &Path, every: u64, force: bool) -> anyhow::Result<Self> {
        Ok(Self {
            out: PendingFile::create(path, force)?,
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
        let out = &mut self.out;
        write!(out, "{} ", session.frame_number())
            .and_then(|()| out.write_all(session.ram()))
            .and_then(|()| out.write_all(b"\n"))
            .with_context(|| format!("cannot write the RAM log {}", out.path().display()))
    }

    /// Writes the run's last frame too, then puts the log in its place.
    fn finish(mut self, session: &Session) -> anyhow::Result<()> {
        if !session.frame_number().is_multiple_of(self.every) {
            self.write(session)?;
        }
        Ok(self.out.commit()?)
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
                jewelbot_plugin::progress::bar((until.at_least - from).max(1) as u64, &until.text)
            }
            None => jewelbot_plugin::progress::bar(plan.frames.unwrap_or(0), "frames"),
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
