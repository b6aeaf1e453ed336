//! Where the lab's commands write, checked before they start: a file is replaced only with
//! `--force`, and `sim --out DIR` writes its fixed names only into an empty or new folder.

use anyhow::{bail, Context};
use std::path::{Path, PathBuf};

/// What `train` and `learn` start from and where they write their result.
#[derive(Debug, Clone, PartialEq, Eq, Default, clap::Args)]
pub struct TrainingFiles {
    /// Weights JSON or a learned value to start from (default: `train`, the published
    /// weights; `learn`, an all-zero network).
    #[arg(long, value_parser = crate::args::evaluation_file)]
    pub from: Option<PathBuf>,
    /// Where to write the result (the best weights, or the network), rewritten as the run goes
    /// so that a stopped run keeps what it had.
    #[arg(long)]
    pub out: PathBuf,
    /// Replace --out if it exists.
    #[arg(long)]
    pub force: bool,
}

impl TrainingFiles {
    /// Refuses, before any work, an `--out` that cannot be written whole or would lose a
    /// file: a folder, a path in a missing folder, an existing file without `--force`, and
    /// the `--from` file itself, `--force` or not.
    pub fn check(&self) -> anyhow::Result<()> {
        let out = &self.out;
        let folder = match out.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        if !folder.is_dir() {
            bail!(
                "--out {}: the folder {} does not exist",
                out.display(),
                folder.display()
            );
        }
        if let Some(from) = &self.from {
            if same_file(from, out) {
                bail!(
                    "--out {} is the file --from reads: an output never replaces an input, \
                     --force or not",
                    out.display()
                );
            }
        }
        match std::fs::metadata(out) {
            Ok(meta) if meta.is_dir() => {
                bail!("--out {} is a folder, not a file to write", out.display())
            }
            Ok(_) if !self.force => {
                bail!("--out {} exists; pass --force to replace it", out.display())
            }
            _ => Ok(()),
        }
    }
}

/// Whether two existing paths are one file (links and `.` or `..` resolved).
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Writes `path` whole or not at all ([`write_whole_with`](jewelbot_plugin::files::write_whole_with):
/// the commands checked `--force` before they began), naming `path` in any error.
pub fn write_whole(
    path: &Path,
    write: impl FnOnce(&Path) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    jewelbot_plugin::files::write_whole_with(path, true, write)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// `sim --out DIR` writes several files of fixed names into DIR: only into an empty or new one
/// without `force`.
pub fn refuse_full_dir(dir: &Path, force: bool) -> anyhow::Result<()> {
    match std::fs::read_dir(dir).map(|mut entries| entries.next().is_some()) {
        Ok(true) if !force => bail!(
            "{} is not empty and sim writes fixed file names into it; pass --force to replace \
             them or name a new folder",
            dir.display()
        ),
        Ok(_) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(_) if dir.exists() => bail!("{} is not a folder", dir.display()),
        Err(error) => Err(error.into()),
    }
}
