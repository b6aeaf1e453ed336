//! Reading the user's files without hanging on them and writing ours without clobbering theirs.
//!
//! Anything a user names (a ROM, a state, a script, a trace) is checked to be a regular file
//! before it is opened: opening a FIFO for reading blocks until a writer appears, and a device
//! can be endless. Reads are bounded, and every write goes to a fresh name or, when replacing
//! is meant, through a temporary file renamed over the old one, so a failed write loses
//! nothing.

use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// Why a file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// Nothing at the path.
    #[error("{what} not found: {}", path.display())]
    NotFound {
        /// What the file was to be ("ROM", "save state").
        what: &'static str,
        /// The path named.
        path: PathBuf,
    },
    /// A directory, FIFO, socket or device where a regular file was expected.
    #[error("{} is {kind}, not a {what} file", path.display())]
    NotRegular {
        /// What the file was to be.
        what: &'static str,
        /// The path named.
        path: PathBuf,
        /// What it is, in words.
        kind: &'static str,
    },
    /// Larger than any file of its kind.
    #[error("{} is {len} bytes, more than any {what} ({max} bytes at most)", path.display())]
    TooLarge {
        /// What the file was to be.
        what: &'static str,
        /// The path named.
        path: PathBuf,
        /// Its length.
        len: u64,
        /// The most a file of its kind may have.
        max: u64,
    },
    /// An output would replace a file it may not.
    #[error("{} exists; pass --force to replace it", path.display())]
    Exists {
        /// The output's path.
        path: PathBuf,
    },
    /// A file written again and again was replaced by someone else meanwhile.
    #[error("{} was replaced by another program since this run began or last wrote it; it is kept, and the run stops", path.display())]
    Replaced {
        /// The output's path.
        path: PathBuf,
    },
    /// The system refused.
    #[error("cannot {action} {}: {error}", path.display())]
    Io {
        /// "read", "write", "create".
        action: &'static str,
        /// The path named.
        path: PathBuf,
        /// The system's reason. Not a `source`: the message says it, and an error chain
        /// would say it twice.
        error: std::io::Error,
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
            error: source,
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
    let io = |error| FileError::Io {
        action: "read",
        path: path.to_owned(),
        error,
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
        error: std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error()),
    })
}

/// Writes `bytes` to `path` through a [`PendingFile`]: never over an existing file unless
/// `replace`, and the old file (if any) replaced only by a whole new one.
pub fn write_file(path: &Path, bytes: &[u8], replace: bool) -> Result<(), FileError> {
    let mut file = PendingFile::create(path, replace)?;
    file.write_all(bytes).map_err(|error| FileError::Io {
        action: "write",
        path: path.to_owned(),
        error,
    })?;
    file.commit()
}

/// A file being written under a hidden name beside its path ([`partial_path`]), put in place
/// only when whole ([`PendingFile::commit`]): a run that fails or is stopped midway leaves the
/// old file as it was, and no half-written one. Dropped without a commit, it removes itself.
pub struct PendingFile {
    path: PathBuf,
    partial: PathBuf,
    out: Option<BufWriter<File>>,
    replace: bool,
}

impl PendingFile {
    /// Starts writing `path`: refused at once when it exists and may not be replaced, or is
    /// not a regular file.
    pub fn create(path: &Path, replace: bool) -> Result<Self, FileError> {
        if let Ok(meta) = fs::symlink_metadata(path) {
            if !replace {
                return Err(FileError::Exists {
                    path: path.to_owned(),
                });
            }
            if !meta.is_file() && !meta.file_type().is_symlink() {
                return Err(FileError::NotRegular {
                    what: "output",
                    path: path.to_owned(),
                    kind: kind_of(&meta),
                });
            }
        }
        clear_abandoned_partials(path);
        let partial = partial_path(path);
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&partial)
            .map_err(|error| FileError::Io {
                action: "create",
                path: path.to_owned(),
                error,
            })?;
        Ok(Self {
            path: path.to_owned(),
            partial,
            out: Some(BufWriter::new(file)),
            replace,
        })
    }

    /// The path it will have.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Finishes the file and puts it in place: over the old one when replacing, else only if
    /// no file has taken the name meanwhile.
    pub fn commit(mut self) -> Result<(), FileError> {
        let io = |action, error| FileError::Io {
            action,
            path: self.path.clone(),
            error,
        };
        let out = self.out.take().expect("written until committed");
        let file = out.into_inner().map_err(|e| io("write", e.into_error()))?;
        file.sync_all().map_err(|e| io("write", e))?;
        drop(file);
        put_in_place(&self.partial, &self.path, self.replace)
    }
}

/// Puts the whole file at `partial` at `path`: over the old one when `replace`, else only if no
/// file has taken the name meanwhile.
fn put_in_place(partial: &Path, path: &Path, replace: bool) -> Result<(), FileError> {
    let io = |error| FileError::Io {
        action: "write",
        path: path.to_owned(),
        error,
    };
    if replace {
        return fs::rename(partial, path).map_err(io);
    }
    // A hard link fails if the name is taken, where a rename would replace it.
    match fs::hard_link(partial, path) {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => Err(FileError::Exists {
            path: path.to_owned(),
        }),
        // A file system without hard links: take the name only if it is still free.
        Err(_) if fs::symlink_metadata(path).is_err() => fs::rename(partial, path).map_err(io),
        Err(error) => Err(io(error)),
    }
}

/// Makes `path` whole or not at all with a writer that wants a path of its own (a plotting
/// library choosing the format from the extension): `write` makes the file at a hidden name
/// beside `path` with the same extension, which is put in place once written, over an old file
/// only when `replace`. A failed write leaves `path` as it was and no hidden file.
pub fn write_whole_with<E: From<FileError>>(
    path: &Path,
    replace: bool,
    write: impl FnOnce(&Path) -> Result<(), E>,
) -> Result<(), E> {
    let name = output_name(path);
    let (stem, extension) = name.rsplit_once('.').unwrap_or((&name, ""));
    let partial = path.with_file_name(format!(
        ".{stem}.{}.partial.{extension}",
        std::process::id()
    ));
    let written = write(&partial).and_then(|()| Ok(put_in_place(&partial, path, replace)?));
    let _ = fs::remove_file(&partial);
    written
}

impl Write for PendingFile {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.out.as_mut().map_or(Ok(0), |out| out.write(bytes))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.as_mut().map_or(Ok(()), BufWriter::flush)
    }
}

impl Drop for PendingFile {
    fn drop(&mut self) {
        // Committed or not, the hidden name goes (after a hard link, the file keeps its own).
        self.out = None;
        let _ = fs::remove_file(&self.partial);
    }
}

/// A hidden name beside `path` for the file being written, unique to this process.
pub fn partial_path(path: &Path) -> PathBuf {
    partial_path_of(path, std::process::id())
}

fn partial_path_of(path: &Path, pid: u32) -> PathBuf {
    path.with_file_name(format!(".{}.{pid}.partial", output_name(path)))
}

fn output_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned())
}

/// Removes the hidden files of writes to `path` that a killed jewelbot left behind: those of
/// processes no longer running (where the system can say; elsewhere none is removed).
fn clear_abandoned_partials(path: &Path) {
    let name = output_name(path);
    let Ok(entries) = fs::read_dir(folder_of(path)) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let pid = file
            .strip_prefix(&format!(".{name}."))
            .and_then(|rest| rest.strip_suffix(".partial"))
            .and_then(|pid| pid.parse::<u32>().ok());
        if let Some(pid) = pid.filter(|&pid| pid != std::process::id() && !running(pid)) {
            let _ = fs::remove_file(partial_path_of(path, pid));
        }
    }
}

/// The folder a path is in (`.` for a bare name).
pub fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// Whether process `pid` runs; true where the system cannot tell, so nothing of a live
/// process is ever removed.
fn running(pid: u32) -> bool {
    if cfg!(target_os = "linux") {
        Path::new("/proc").join(pid.to_string()).exists()
    } else {
        true
    }
}

/// Which file a path names now, and as it is now, to tell our own last write from another
/// program's: a new file (a rename over it), or the same one written again in place.
fn file_identity(path: &Path) -> Option<FileIdentity> {
    let meta = fs::symlink_metadata(path).ok()?;
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    #[cfg(unix)]
    let file = {
        use std::os::unix::fs::MetadataExt;
        (meta.dev(), meta.ino())
    };
    #[cfg(not(unix))]
    let file = (0, 0);
    Some(FileIdentity {
        file,
        len: meta.len(),
        modified,
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileIdentity {
    file: (u64, u64),
    len: u64,
    modified: u128,
}

/// A file a run writes again and again (a checkpoint), each time whole. The first write takes
/// the name only if it is free, or holds the file the run was allowed to replace; each later
/// one only if the file there is still the run's last. A file another program (or another run)
/// puts there meanwhile is kept, and the write fails with [`FileError::Replaced`].
#[derive(Debug)]
pub struct Rewritten {
    path: PathBuf,
    /// The file at the path the run may replace: its last write, or the one it found.
    owned: Option<FileIdentity>,
}

impl Rewritten {
    /// Writes to `path`; `may_replace`: the file there now (if any) may be replaced.
    pub fn new(path: &Path, may_replace: bool) -> Self {
        Self {
            path: path.to_owned(),
            owned: if may_replace {
                file_identity(path)
            } else {
                None
            },
        }
    }

    /// The path it writes.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Puts `bytes` at the path, whole.
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), FileError> {
        match file_identity(&self.path) {
            None => write_file(&self.path, bytes, false),
            Some(now) if Some(now) == self.owned => write_file(&self.path, bytes, true),
            Some(_) => Err(FileError::Replaced {
                path: self.path.clone(),
            }),
        }
        .map_err(|error| match error {
            // Taken between the look and the write: someone else's all the same.
            FileError::Exists { path } => FileError::Replaced { path },
            other => other,
        })?;
        self.owned = file_identity(&self.path);
        Ok(())
    }
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

    #[cfg(target_os = "linux")]
    /// A writer that wants a path gets one with the file's extension; what it wrote lands
    /// whole, an existing file is kept unless replacing, and a failed write leaves nothing.
    #[test]
    fn a_writer_with_its_own_path_lands_whole_or_not_at_all() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("plot.svg");
        let mut seen = PathBuf::new();
        write_whole_with::<FileError>(&path, false, |partial| {
            seen = partial.to_owned();
            fs::write(partial, "new").map_err(|error| FileError::Io {
                action: "write",
                path: partial.to_owned(),
                error,
            })
        })
        .expect("written");
        assert_eq!(seen.extension().and_then(|e| e.to_str()), Some("svg"));
        assert_eq!(fs::read_to_string(&path).expect("read"), "new");
        let again = write_whole_with::<FileError>(&path, false, |partial| {
            fs::write(partial, "other").map_err(|error| FileError::Io {
                action: "write",
                path: partial.to_owned(),
                error,
            })
        });
        assert!(matches!(again, Err(FileError::Exists { .. })), "{again:?}");
        let failed = write_whole_with::<FileError>(&path, true, |partial| {
            fs::write(partial, "half").expect("partial");
            Err(FileError::Replaced {
                path: partial.to_owned(),
            })
        });
        assert!(failed.is_err());
        assert_eq!(fs::read_to_string(&path).expect("read"), "new");
        let left = fs::read_dir(dir.path()).expect("list").count();
        assert_eq!(left, 1, "only the file itself");
    }

    #[test]
    fn hidden_files_a_killed_run_left_are_cleared_and_a_live_ones_kept() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("run.checkpoint");
        // Process IDs above the kernel's largest never run; process 1 always does.
        let abandoned = partial_path_of(&path, 4_999_999);
        let live = partial_path_of(&path, 1);
        let other = dir.path().join(".other.4999999.partial");
        for file in [&abandoned, &live, &other] {
            fs::write(file, b"half a checkpoint").expect("written");
        }
        write_file(&path, b"whole", false).expect("written");
        assert!(!abandoned.exists());
        assert!(live.exists() && other.exists());
    }

    #[test]
    fn a_rewritten_file_is_replaced_only_while_it_is_the_runs_own() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("run.checkpoint");
        let mut run = Rewritten::new(&path, false);
        run.write(b"first").expect("the name is free");
        run.write(b"second").expect("its own file");
        assert_eq!(fs::read(&path).expect("read"), b"second");
        // Another run writes there: it is kept, and this one is told.
        let mut other = Rewritten::new(&path, false);
        assert!(matches!(other.write(b"x"), Err(FileError::Replaced { .. })));
        fs::write(&path, b"someone else's").expect("written");
        assert!(matches!(
            run.write(b"third"),
            Err(FileError::Replaced { .. })
        ));
        assert_eq!(fs::read(&path).expect("read"), b"someone else's");
        // Allowed to replace what is there when it starts (--force, or the resumed checkpoint).
        let mut forced = Rewritten::new(&path, true);
        forced.write(b"fourth").expect("allowed");
        assert_eq!(fs::read(&path).expect("read"), b"fourth");
    }

    #[test]
    fn a_file_that_appears_meanwhile_is_kept_and_an_unfinished_one_never_lands() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("run.trace");
        let mut pending = PendingFile::create(&path, false).expect("a new name");
        pending.write_all(b"the run's trace").expect("written");
        // Another program takes the name while the run goes on.
        fs::write(&path, b"someone else's file").expect("written");
        assert!(matches!(pending.commit(), Err(FileError::Exists { .. })));
        assert_eq!(fs::read(&path).expect("read"), b"someone else's file");
        // Replacing, but stopped before the end: the old file stays whole.
        let mut pending = PendingFile::create(&path, true).expect("may replace");
        pending.write_all(b"half a").expect("written");
        drop(pending);
        assert_eq!(fs::read(&path).expect("read"), b"someone else's file");
        assert_eq!(fs::read_dir(dir.path()).expect("dir").count(), 1);
    }
}
