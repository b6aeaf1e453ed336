//! Where a command will write, checked before it runs its first frame: each output in a folder
//! that exists, a file output not a folder (a folder output not a file), no two outputs on one
//! path, none over an existing file without `--force`, and none on a file the command reads,
//! `--force` or not. The writing itself goes through [`crate::files::PendingFile`], so an old
//! file is only ever replaced by a whole new one.

use crate::files::folder_of;
use std::path::{Path, PathBuf};

/// An output a command was asked for.
#[derive(Debug, Clone)]
pub struct Output {
    /// The flag that named it (`--gif`), for messages.
    pub flag: String,
    pub path: PathBuf,
    /// A folder of files (`--report`) rather than a file.
    pub folder: bool,
    /// An input it may replace on purpose (a checkpoint over the state it resumed from).
    pub may_replace: Option<PathBuf>,
}

impl Output {
    /// A file written at `path`.
    pub fn file(flag: &str, path: &Path) -> Self {
        Self {
            flag: flag.to_owned(),
            path: path.to_owned(),
            folder: false,
            may_replace: None,
        }
    }

    /// A folder written into at `path`.
    pub fn folder(flag: &str, path: &Path) -> Self {
        Self {
            folder: true,
            ..Self::file(flag, path)
        }
    }

    /// The same, allowed to replace `input`.
    pub fn replacing(self, input: Option<&Path>) -> Self {
        Self {
            may_replace: input.map(Path::to_owned),
            ..self
        }
    }
}

/// A file a command reads (the ROM, a movie, a state, a script, a plug-in's file).
#[derive(Debug, Clone)]
pub struct Input {
    pub flag: String,
    pub path: PathBuf,
}

impl Input {
    pub fn new(flag: &str, path: &Path) -> Self {
        Self {
            flag: flag.to_owned(),
            path: path.to_owned(),
        }
    }
}

/// Why an output was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OutputError {
    #[error("{flag} {}: the folder {} does not exist", path.display(), folder.display())]
    NoFolder {
        flag: String,
        path: PathBuf,
        folder: PathBuf,
    },
    #[error("{flag} {} is a folder, not a file to write", path.display())]
    IsFolder { flag: String, path: PathBuf },
    #[error("{flag} {} is a file, not a folder to write into", path.display())]
    IsFile { flag: String, path: PathBuf },
    #[error("{flag} {} exists; pass --force to replace it", path.display())]
    Exists { flag: String, path: PathBuf },
    #[error("{flag} {} is also the path of {other}: give each output a path of its own", path.display())]
    Shared {
        flag: String,
        path: PathBuf,
        other: String,
    },
    #[error("{flag} {} is the file {input} reads: an output never replaces an input, --force or not", path.display())]
    IsInput {
        flag: String,
        path: PathBuf,
        input: String,
    },
    #[error("{flag} {}: cannot write in {}: {reason}", path.display(), folder.display())]
    NotWritable {
        flag: String,
        path: PathBuf,
        folder: PathBuf,
        reason: String,
    },
}

/// Checks `outputs` against the file system, each other and `inputs`.
pub fn check(outputs: &[Output], inputs: &[Input], force: bool) -> Result<(), OutputError> {
    for (i, output) in outputs.iter().enumerate() {
        let Output {
            flag, path, folder, ..
        } = output;
        let parent = folder_of(path);
        if !parent.is_dir() {
            return Err(OutputError::NoFolder {
                flag: flag.clone(),
                path: path.clone(),
                folder: parent.to_owned(),
            });
        }
        if let Some(other) = outputs[..i].iter().find(|o| same_place(&o.path, path)) {
            return Err(OutputError::Shared {
                flag: flag.clone(),
                path: path.clone(),
                other: other.flag.clone(),
            });
        }
        let replaceable = |input: &Input| {
            output
                .may_replace
                .as_deref()
                .is_some_and(|allowed| same_place(allowed, &input.path))
        };
        if let Some(input) = inputs
            .iter()
            .find(|input| same_place(&input.path, path) && !replaceable(input))
        {
            return Err(OutputError::IsInput {
                flag: flag.clone(),
                path: path.clone(),
                input: input.flag.clone(),
            });
        }
        // Written into at the end of a long run: found out now, not then.
        let written_in = if *folder && path.is_dir() {
            path.as_path()
        } else {
            parent
        };
        if let Err(reason) = probe_writable(written_in) {
            return Err(OutputError::NotWritable {
                flag: flag.clone(),
                path: path.clone(),
                folder: written_in.to_owned(),
                reason,
            });
        }
        let Ok(meta) = std::fs::metadata(path) else {
            continue;
        };
        match (*folder, meta.is_dir()) {
            (true, false) => {
                return Err(OutputError::IsFile {
                    flag: flag.clone(),
                    path: path.clone(),
                })
            }
            (false, true) => {
                return Err(OutputError::IsFolder {
                    flag: flag.clone(),
                    path: path.clone(),
                })
            }
            (false, false) if !force && !inputs.iter().any(replaceable) => {
                return Err(OutputError::Exists {
                    flag: flag.clone(),
                    path: path.clone(),
                })
            }
            _ => {}
        }
    }
    Ok(())
}

/// Whether a file can be made in `folder`: one is, under a hidden name of this process's, and
/// removed at once.
fn probe_writable(folder: &Path) -> Result<(), String> {
    let probe = folder.join(format!(".jewelbot-probe.{}", std::process::id()));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(error) => Err(error.to_string()),
    }
}

/// Two paths name one file: the same file when both exist (links followed; compared by their
/// metadata, never opened, so a FIFO does not block), else the same name in the same folder.
pub fn same_place(a: &Path, b: &Path) -> bool {
    if let Some(same) = same_existing_file(a, b) {
        return same;
    }
    let place = |p: &Path| {
        folder_of(p)
            .canonicalize()
            .ok()
            .map(|folder| folder.join(p.file_name().unwrap_or_default()))
    };
    match (place(a), place(b)) {
        (Some(a), Some(b)) => a == b,
        _ => a == b,
    }
}

/// Whether two existing paths are one file (`None` when either does not exist).
#[cfg(unix)]
fn same_existing_file(a: &Path, b: &Path) -> Option<bool> {
    use std::os::unix::fs::MetadataExt;
    let (a, b) = (std::fs::metadata(a).ok()?, std::fs::metadata(b).ok()?);
    Some((a.dev(), a.ino()) == (b.dev(), b.ino()))
}

/// Whether two existing paths are one file (`None` when either does not exist).
#[cfg(not(unix))]
fn same_existing_file(a: &Path, b: &Path) -> Option<bool> {
    Some(std::fs::canonicalize(a).ok()? == std::fs::canonicalize(b).ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_are_checked_against_the_disk_each_other_and_the_inputs() {
        let dir = tempfile::tempdir().expect("temp dir");
        let rom = dir.path().join("game.nes");
        std::fs::write(&rom, b"rom").expect("written");
        let link = dir.path().join("link.nes");
        #[cfg(unix)]
        std::os::unix::fs::symlink(&rom, &link).expect("linked");
        let inputs = [Input::new("--rom", &rom)];
        let new = dir.path().join("new.gif");
        let check1 = |output: Output, force| check(&[output], &inputs, force);
        assert_eq!(check1(Output::file("--gif", &new), false), Ok(()));
        assert!(matches!(
            check1(Output::file("--gif", &rom), true),
            Err(OutputError::IsInput { .. })
        ));
        #[cfg(unix)]
        assert!(matches!(
            check1(Output::file("--gif", &link), true),
            Err(OutputError::IsInput { .. })
        ));
        assert!(matches!(
            check1(Output::file("--gif", &dir.path().join("no/x.gif")), true),
            Err(OutputError::NoFolder { .. })
        ));
        assert!(matches!(
            check1(Output::file("--gif", dir.path()), true),
            Err(OutputError::IsFolder { .. })
        ));
        let old = dir.path().join("old.fm2");
        std::fs::write(&old, b"old").expect("written");
        assert!(matches!(
            check1(Output::folder("--report", &old), true),
            Err(OutputError::IsFile { .. })
        ));
        assert!(matches!(
            check1(Output::file("--record-movie", &old), false),
            Err(OutputError::Exists { .. })
        ));
        assert_eq!(check1(Output::file("--record-movie", &old), true), Ok(()));
        let relative = dir.path().join(".").join("new.gif");
        assert!(matches!(
            check(
                &[
                    Output::file("--gif", &new),
                    Output::file("--record-movie", &relative)
                ],
                &inputs,
                true
            ),
            Err(OutputError::Shared { .. })
        ));
        // A checkpoint may replace the state it resumes from, even without --force.
        let state = [Input::new("--state", &old)];
        let checkpoint = Output::file("--checkpoint", &old).replacing(Some(&old));
        assert_eq!(check(&[checkpoint], &state, false), Ok(()));
    }
}
