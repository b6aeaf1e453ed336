//! fm2 movies on disk: read only from a regular file of a plausible size, written never over a
//! file the user has unless asked to.

use super::{Movie, MovieError};
use crate::files::{self, FileError};
use std::path::{Path, PathBuf};

/// Larger than any movie of a session: an fm2 frame is 15 bytes, so 256 MiB holds some 17
/// million frames, 80 hours at 60 frames a second (a marathon to every rollover is 3.3 million).
pub const MAX_MOVIE_LEN: u64 = 256 * 1024 * 1024;

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
    let mut file = files::PendingFile::create(path, replace)?;
    movie.write_fm2(&mut file).map_err(|error| FileError::Io {
        action: "write",
        path: path.to_owned(),
        error,
    })?;
    file.commit()?;
    Ok(())
}
