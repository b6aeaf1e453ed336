//! Reading the user's files without hanging on them and writing ours without clobbering theirs.
//!
//! Anything a user names (a ROM, a state, a script, a trace) is checked to be a regular file
//! before it is opened: opening a FIFO for reading blocks until a writer appears, and a device
//! can be endless. Reads are bounded, and every write goes to a fresh name or, when replacing
//! is meant, through a temporary file renamed over the old one, so a failed write loses
//! nothing.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Why a file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("{what} not found: {}", path.display())]
    NotFound { what: &'static str, path: PathBuf },
    #[error("{} is {kind}, not a {what} file", path.display())]
    NotRegular {
        what: &'static str,
        path: PathBuf,
        kind: &'static str,
    },
    #[error("{} is {len} bytes, more than any {what} ({max} bytes at most)", path.display())]
    TooLarge {
        what: &'static str,
        path: PathBuf,
        len: u64,
        max: u64,
    },
    #[error("{} exists; pass --force to replace it", path.display())]
    Exists { path: PathBuf },
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
}

/// What kind of file system object `meta` describes, in words for a message.
fn kind_of(meta: &fs::Metadata) -> &'static str {
    let file_type = meta.file_type();
    if file_type.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
    }
    if file_type.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

/// Checks, without opening it, that `path` is a regular file (symbolic links followed) of at
/// most `max_len` bytes; `what` names it in messages ("ROM", "save state").
pub fn check_regular(path: &Path, what: &'static str, max_len: u64) -> Result<u64, FileError> {
    let meta = fs::metadata(path).map_err(|source| match source.kind() {
        std::io::ErrorKind::NotFound => FileError::NotFound {
            what,
            path: path.to_owned(),
        },
        _ => FileError::Io {
            action: "read",
            path: path.to_owned(),
            source,
        },
    })?;
    if !meta.is_file() {
        return Err(FileError::NotRegular {
            what,
            path: path.to_owned(),
            kind: kind_of(&meta),
        });
    }
    if meta.len() > max_len {
        return Err(FileError::TooLarge {
            what,
            path: path.to_owned(),
            len: meta.len(),
            max: max_len,
        });
    }
    Ok(meta.len())
}

/// Reads a whole regular file of at most `max_len` bytes. The file is only ever read.
pub fn read_regular(path: &Path, what: &'static str, max_len: u64) -> Result<Vec<u8>, FileError> {
    check_regular(path, what, max_len)?;
    let io = |source| FileError::Io {
        action: "read",
        path: path.to_owned(),
        source,
    };
    let file = File::open(path).map_err(io)?;
    // The name may have been swapped for something else since the check: ask the open file.
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(FileError::NotRegular {
            what,
            path: path.to_owned(),
            kind: kind_of(&meta),
        });
    }
    let mut bytes = Vec::new();
    // Bounded: a file that grows while it is read still cannot exhaust memory.
    file.take(max_len + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > max_len {
        return Err(FileError::TooLarge {
            what,
            path: path.to_owned(),
            len: bytes.len() as u64,
            max: max_len,
        });
    }
    Ok(bytes)
}

/// Reads a regular text file of at most `max_len` bytes.
pub fn read_regular_text(
    path: &Path,
    what: &'static str,
    max_len: u64,
) -> Result<String, FileError> {
    let bytes = read_regular(path, what, max_len)?;
    String::from_utf8(bytes).map_err(|e| FileError::Io {
        action: "read",
        path: path.to_owned(),
        source: std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error()),
    })
}

/// Writes `bytes` to `path`: never over an existing file unless `replace`, and when replacing,
/// through a temporary file renamed over the old one so that a failed write keeps it whole.
pub fn write_file(path: &Path, bytes: &[u8], replace: bool) -> Result<(), FileError> {
    let io = |action, source| FileError::Io {
        action,
        path: path.to_owned(),
        source,
    };
    if !replace {
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|source| match source.kind() {
                std::io::ErrorKind::AlreadyExists => FileError::Exists {
                    path: path.to_owned(),
                },
                _ => io("create", source),
            })?;
        return file
            .write_all(bytes)
            .and_then(|()| file.sync_all())
            .map_err(|source| {
                // Leave no half-written file under the user's name.
                let _ = fs::remove_file(path);
                io("write", source)
            });
    }
    if let Ok(meta) = fs::metadata(path) {
        if !meta.is_file() {
            return Err(FileError::NotRegular {
                what: "output",
                path: path.to_owned(),
                kind: kind_of(&meta),
            });
        }
    }
    let partial = partial_path(path);
    let written = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&partial)
        .and_then(|mut file| file.write_all(bytes).and_then(|()| file.sync_all()))
        .and_then(|()| fs::rename(&partial, path));
    written.map_err(|source| {
        let _ = fs::remove_file(&partial);
        io("write", source)
    })
}

/// A hidden name beside `path` for the file being written, unique to this process.
pub fn partial_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{}.partial", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_and_missing_files_are_refused_before_opening() {
        let dir = tempfile::tempdir().expect("temp dir");
        let error = read_regular(dir.path(), "ROM", 10).expect_err("a directory");
        assert!(error.to_string().contains("is a directory, not a ROM file"));
        let missing = dir.path().join("missing");
        let error = read_regular(&missing, "save state", 10).expect_err("missing");
        assert!(error.to_string().starts_with("save state not found"));
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // No mkfifo here: nothing to test.
        }
        let error = read_regular(&fifo, "ROM", 10).expect_err("a FIFO");
        assert!(error.to_string().contains("FIFO"), "{error}");
        let error = read_regular(Path::new("/dev/zero"), "ROM", 10).expect_err("a device");
        assert!(error.to_string().contains("character device"), "{error}");
    }

    #[test]
    fn reads_are_bounded() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("big");
        fs::write(&path, [0u8; 11]).expect("written");
        assert!(matches!(
            read_regular(&path, "ROM", 10),
            Err(FileError::TooLarge { len: 11, .. })
        ));
        assert_eq!(read_regular(&path, "ROM", 11).expect("fits").len(), 11);
    }

    #[test]
    fn writes_never_replace_unless_asked_and_replace_whole() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("out.txt");
        write_file(&path, b"first", false).expect("new file");
        assert!(matches!(
            write_file(&path, b"second", false),
            Err(FileError::Exists { .. })
        ));
        assert_eq!(fs::read(&path).expect("read"), b"first");
        write_file(&path, b"second", true).expect("replaced");
        assert_eq!(fs::read(&path).expect("read"), b"second");
        // No temporary file is left behind.
        assert_eq!(fs::read_dir(dir.path()).expect("dir").count(), 1);
        assert!(write_file(dir.path(), b"x", true).is_err());
    }
}
