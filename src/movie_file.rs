//! fm2 movies on disk: read only from a regular file of a plausible size, written never over a
//! file the user has unless asked to.

use crate::files::{self, FileError};
use crate::movie::{Movie, MovieError};
use std::path::{Path, PathBuf};

/// Larger than any movie of a session (an fm2 frame is about 14 bytes: 64 MiB is over 50
/// hours at 60 frames a second).
pub const MAX_MOVIE_LEN: u64 = 64 * 1024 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum MovieFileError {
    #[error(transparent)]
    File(#[from] FileError),
    #[error("{} is not an fm2 movie jewelbot plays: {source}", path.display())]
    Refused { path: PathBuf, source: MovieError },
}

/// Reads and parses an fm2 movie.
pub fn read(path: &Path) -> Result<Movie, MovieFileError> {
    let text = files::read_regular_text(path, "movie", MAX_MOVIE_LEN)?;
    Movie::parse(&text).map_err(|source| MovieFileError::Refused {
        path: path.to_owned(),
        source,
    })
}

/// Writes `movie` as fm2; an existing file is replaced only when `replace`.
pub fn write(path: &Path, movie: &Movie, replace: bool) -> Result<(), MovieFileError> {
    files::write_file(path, movie.to_fm2().as_bytes(), replace)?;
    Ok(())
}
