//! The real game's recordings kept in `traces/` (RAM frame by frame from power-on, with the
//! CPU's events), listed in `traces/manifest.json`: the ground truth the tests replay. A new
//! recording is a file and an entry in the manifest; every test that goes over the recordings
//! takes it up.

use jewelbot_plugin::Trace;
use serde::Deserialize;
use std::io::Read;
use std::path::PathBuf;

/// One recording, as the manifest describes it.
#[derive(Debug, Clone, Deserialize)]
pub struct Recording {
    /// `traces/NAME.trace.gz`.
    pub name: String,
    pub frames: u64,
    /// The input script that drove it, relative to `traces/` (scripted recordings only).
    #[serde(default)]
    pub script: Option<String>,
    /// The CPU events, locks and spawns the twin test compares when it replays the script on
    /// the open cartridge.
    #[serde(default)]
    pub twin: Option<[usize; 3]>,
    pub about: String,
}

#[derive(Deserialize)]
struct Manifest {
    recordings: Vec<Recording>,
}

/// The folder of the recordings.
pub fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("traces")
}

/// Every recording in the manifest, in its order.
///
/// # Panics
/// When the manifest is missing or damaged: the recordings are part of the source tree.
pub fn all() -> Vec<Recording> {
    let path = dir().join("manifest.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{} is part of the source: {e}", path.display()));
    let manifest: Manifest = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} does not parse: {e}", path.display()));
    manifest.recordings
}

/// The recordings made by an input script.
pub fn scripted() -> Vec<Recording> {
    all().into_iter().filter(|r| r.script.is_some()).collect()
}

impl Recording {
    /// The recording's trace.
    ///
    /// # Panics
    /// When the file is missing or damaged, or does not hold the frames the manifest says.
    pub fn load(&self) -> Trace {
        let trace = load(&self.name);
        assert_eq!(
            trace.frames.len() as u64,
            self.frames,
            "{}: the manifest says {} frames",
            self.name,
            self.frames
        );
        trace
    }

    /// The text of the script that drove it.
    ///
    /// # Panics
    /// When it has no script or the file is missing.
    pub fn script_text(&self) -> String {
        let script = self.script.as_deref().expect("a scripted recording");
        let path = dir().join(script);
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{} is part of the source: {e}", path.display()))
    }
}

/// `traces/NAME.trace.gz`, parsed.
///
/// # Panics
/// When the file is missing or damaged: the recordings are part of the source tree.
pub fn load(name: &str) -> Trace {
    let path = dir().join(format!("{name}.trace.gz"));
    let file = std::fs::File::open(&path)
        .unwrap_or_else(|e| panic!("{} is part of the source: {e}", path.display()));
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .unwrap_or_else(|e| panic!("{} is not gzip text: {e}", path.display()));
    Trace::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file in the folder is in the manifest and every entry has its file, so that a
    /// recording cannot be left out of the tests.
    #[test]
    fn the_manifest_lists_every_recording() {
        let mut files: Vec<String> = std::fs::read_dir(dir())
            .expect("traces/")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter_map(|n| n.strip_suffix(".trace.gz").map(str::to_owned))
            .collect();
        files.sort();
        let mut listed: Vec<String> = all().into_iter().map(|r| r.name).collect();
        listed.sort();
        assert_eq!(files, listed);
        for recording in scripted() {
            assert!(
                recording.twin.is_some(),
                "{}: no twin counts",
                recording.name
            );
            assert!(!recording.script_text().is_empty());
        }
    }
}
