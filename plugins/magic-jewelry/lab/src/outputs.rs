//! Where the lab's commands write, checked before they start: a file is replaced only with
//! `--force`, and `sim --out DIR` writes its fixed names only into an empty or new folder.

use anyhow::bail;
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

/// Refuses to replace `path` without `force`, and a folder in its place at all.
pub fn refuse_existing(path: &Path, force: bool) -> anyhow::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => bail!("{} is a folder, not a file to write", path.display()),
        Ok(_) if !force => bail!("{} exists; pass --force to replace it", path.display()),
        _ => Ok(()),
    }
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
