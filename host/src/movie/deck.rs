//! The movies a session plays and records: controller 1 frame by frame from power-on
//! ([`crate::movie`]). A playing movie's buttons replace whoever holds the controller for its
//! frames; the recorder keeps the buttons actually applied, whoever chose them.

use super::{Movie, MovieFrame};
use jewelbot_plugin::Buttons;

/// A movie being played: the frame it gives next.
#[derive(Debug)]
struct Playback {
    movie: Movie,
    next: usize,
}

#[derive(Debug, Default)]
pub(crate) struct MovieDeck {
    playing: Option<Playback>,
    recording: Option<Movie>,
    /// The recording still grows (a power cycle or a state load ends it).
    recording_live: bool,
    /// A soft reset happened since the last recorded frame: the next one carries it.
    reset_pending: bool,
}

impl MovieDeck {
    pub(crate) fn play(&mut self, movie: Movie) {
        self.play_from(movie, 0);
    }

    /// Plays `movie` from its frame `next` on (a checkpoint's place in it).
    pub(crate) fn play_from(&mut self, movie: Movie, next: usize) {
        self.playing = Some(Playback { movie, next });
    }

    /// The movie being played and the index of the frame it gives next.
    pub(crate) fn playing(&self) -> Option<(&Movie, usize)> {
        self.playing.as_ref().map(|p| (&p.movie, p.next))
    }

    pub(crate) fn record(&mut self, movie: Movie) {
        self.reset_pending = false;
        self.recording = Some(movie);
        self.recording_live = true;
    }

    /// The playing movie's next frame, or `None` when no movie plays or it has ended.
    pub(crate) fn next_frame(&mut self) -> Option<MovieFrame> {
        let playback = self.playing.as_mut()?;
        let frame = playback.movie.frames.get(playback.next).copied()?;
        playback.next += 1;
        Some(frame)
    }

    pub(crate) fn note_reset(&mut self) {
        self.reset_pending = self.recording_live;
    }

    /// Records the buttons applied to one frame.
    pub(crate) fn applied(&mut self, buttons: Buttons) {
        if let Some(movie) = self.recording.as_mut().filter(|_| self.recording_live) {
            movie.frames.push(MovieFrame {
                buttons,
                reset: std::mem::take(&mut self.reset_pending),
            });
        }
    }

    /// A power cycle or a state load: the console left the movies' timeline, so playback
    /// stops and the recording ends where it is (what it holds stays valid from power-on).
    pub(crate) fn interrupt(&mut self) {
        self.playing = None;
        self.recording_live = false;
        self.reset_pending = false;
    }

    /// The movie being recorded, while it still grows.
    pub(crate) fn recording_mut(&mut self) -> Option<&mut Movie> {
        self.recording.as_mut().filter(|_| self.recording_live)
    }

    pub(crate) fn take_recording(&mut self) -> Option<Movie> {
        self.recording_live = false;
        self.recording.take()
    }

    /// (frames played, frames in the movie) of the playing movie.
    pub(crate) fn playback_position(&self) -> Option<(usize, usize)> {
        self.playing
            .as_ref()
            .map(|p| (p.next, p.movie.frames.len()))
    }
}
