//! A results file: one JSON line a decided start, so that a long run resumes where it stopped.

use super::StartResult;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A results file: the settings its starts were played with (its first line), the results
/// it holds, and where new ones go.
pub(super) struct ResultsFile {
    path: PathBuf,
    file: Mutex<std::fs::File>,
    /// The results already in it, by start.
    pub(super) held: HashMap<u16, serde_json::Value>,
}

impl ResultsFile {
    /// Opens `path` for `settings`: a new file starts with them; an existing one must hold
    /// the same, and its results are read (a line cut short by a killed run is passed over).
    pub(super) fn open(path: &Path, settings: &serde_json::Value) -> anyhow::Result<Self> {
        use anyhow::Context;
        let header = serde_json::json!({ "horizon": settings });
        let mut held = HashMap::new();
        let existing = match std::fs::read_to_string(path) {
            Ok(text) => Some(text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        };
        if let Some(text) = &existing {
            let mut lines = text.lines();
            let first: Option<serde_json::Value> =
                lines.next().and_then(|l| serde_json::from_str(l).ok());
            if first.as_ref() != Some(&header) {
                anyhow::bail!(
                    "{} is not a results file of these settings ({header}); give another file",
                    path.display()
                );
            }
            for line in lines {
                let Ok(result) = serde_json::from_str::<serde_json::Value>(line) else {
                    continue;
                };
                if let Some(start) = result["generator_state"].as_u64() {
                    if let Ok(start) = u16::try_from(start) {
                        held.insert(start, result);
                    }
                }
            }
        }
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        match &existing {
            None => writeln!(file, "{header}")?,
            // A line cut short ends here, so that the next result starts a line of its own.
            Some(text) if !text.ends_with('\n') => writeln!(file)?,
            Some(_) => {}
        }
        Ok(Self {
            path: path.to_owned(),
            file: Mutex::new(file),
            held,
        })
    }

    pub(super) fn append(&self, result: &StartResult) -> anyhow::Result<()> {
        let line = serde_json::to_string(result)?;
        let mut file = self
            .file
            .lock()
            .map_err(|_| anyhow::anyhow!("{}: a writer panicked", self.path.display()))?;
        writeln!(file, "{line}")?;
        file.flush()?;
        Ok(())
    }
}
