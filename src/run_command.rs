//! `jewelbot run --headless`: frames without a window, with the files a run reads and writes
//! (a save state, movies, a GIF) and a progress bar while stderr is a terminal.

use crate::cli::RunArgs;
use anyhow::Context;
use jewelbot::gif_capture::GifCapture;
use jewelbot::headless;
use jewelbot::movie::file as movie_file;
use jewelbot::session::Session;

/// Runs `args.frames` frames of `session` (fresh from power-on) and prints the summary.
pub fn run(args: &RunArgs, session: &mut Session) -> anyhow::Result<()> {
    // Everything that can be refused is refused before the first frame runs.
    for path in [&args.save_state, &args.record_movie].into_iter().flatten() {
        crate::refuse_existing(path, args.force)?;
    }
    if let Some(path) = &args.state {
        session
            .load_state_file(path)
            .with_context(|| format!("cannot start from {}", path.display()))?;
    }
    if args.record_movie.is_some() {
        session.record_movie()?;
    }
    if args.explain {
        session.plugins_mut().keep_notes();
    }
    let mut gif = args
        .gif
        .as_deref()
        .map(|path| GifCapture::create(path, args.force))
        .transpose()?;

    let bar = magic_jewelry_lab::progress_bar(args.frames, true, "frames");
    let summary = headless::run(session, Some(args.frames), |session| {
        if let Some(gif) = &mut gif {
            gif.frame(session.picture_rgba())?;
        }
        bar.inc(1);
        Ok(())
    });
    bar.finish_and_clear();
    let summary = summary?;

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
            movie_file::write(path, &movie, args.force)?;
            eprintln!(
                "movie of {} frames recorded to {}",
                movie.frames.len(),
                path.display()
            );
        }
    }
    if let Some(path) = &args.save_state {
        let state = session.save_state()?;
        jewelbot::files::write_file(path, &state, args.force)?;
        eprintln!(
            "state of frame {} saved to {}",
            session.frame_number(),
            path.display()
        );
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        for note in &summary.notes {
            println!("frame {}: {}: {}", note.frame, note.plugin, note.text);
        }
        println!("{}", summary.to_text());
    }
    Ok(())
}
