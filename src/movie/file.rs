//! fm2 movies on disk: read only from a regular file of a plausible size, written never over a
//! file the user has unless asked to.

use super::{Movie, MovieError};
use crate::files::{self, FileError};
use std::path::{Path, PathBuf};

/// Larger than any movie of a session (an fm2 frame is about 14 bytes: 64 MiB is over 50
/// hours at 60 frames a second).
pub const MAX_MOVIE_LEN: u64 = 64 * 1024 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum MovieFileError {
    #[error(transparent)]
    File(#[from] FileError),
    // The reason is part of the message, not a source, so that it is said once.
    #[error("{} is not an fm2 movie jewelbot plays: {reason}", path.display())]
    Refused { path: PathBuf, reason: MovieError },
}

/// Reads and parses an fm2 movie.
pub fn read(path: &Path) -> Result<Movie, MovieFileError> {
    let text = files::read_regular_text(path, "movie", MAX_MOVIE_LEN)?;
    Movie::parse(&text).map_err(|reason| MovieFileError::Refused {
        path: path.to_owned(),
        reason,
    })
}

/// Writes `movie` as fm2; an existing file is replaced only when `replace`.
pub fn write(path: &Path, movie: &Movie, replace: bool) -> Result<(), MovieFileError> {
    files::write_file(path, movie.to_fm2().as_bytes(), replace)?;
    Ok(())
}
