//! What a checkpoint holds besides the console's state (the state file's extras, gzip'd JSON):
//! the buttons the plug-ins chose for the next frame, each plug-in's own snapshot and the
//! options it played with, the movie being recorded from power-on, the movie being played and
//! its place, and the run's own record (its frames and time so far), so that a run resumed
//! from it carries on as if it had not stopped.

use base64::Engine as _;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};

/// The most the extras may unpack to: a movie of some 17 million frames. A checkpoint whose
/// extras unpack to more is refused (a small file can unpack to gigabytes), and one that would
/// is not written.
pub const MAX_UNPACKED_LEN: u64 = 256 * 1024 * 1024;

/// The extras, decoded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Extras {
    /// The plug-ins' buttons for the frame after the checkpoint's.
    pub buttons: u8,
    pub plugins: Vec<PluginSnapshot>,
    /// The movie recorded from power-on up to the checkpoint, as fm2 text.
    pub movie: Option<String>,
    /// The caller's record of the run.
    pub run: serde_json::Value,
    /// The plug-ins' options when the checkpoint was taken.
    #[serde(default)]
    pub options: Vec<SavedOption>,
    /// The movie being played, and its place.
    #[serde(default)]
    pub playing: Option<PlayingMovie>,
}

/// One plug-in option's value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedOption {
    pub plugin: String,
    pub name: String,
    pub value: String,
}

/// A movie being played: its fm2 text and the index of the frame it gives next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayingMovie {
    pub movie: String,
    pub next: usize,
}

/// One plug-in's [`jewelbot_plugin::Plugin::checkpoint`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PluginSnapshot {
    pub name: String,
    /// Its bytes, base64.
    pub snapshot: String,
}

impl PluginSnapshot {
    pub fn new(name: String, snapshot: &[u8]) -> Self {
        Self {
            name,
            snapshot: base64::engine::general_purpose::STANDARD.encode(snapshot),
        }
    }

    pub fn bytes(&self) -> Result<Vec<u8>, String> {
        base64::engine::general_purpose::STANDARD
            .decode(&self.snapshot)
            .map_err(|e| format!("{}'s snapshot is not base64: {e}", self.name))
    }
}

impl Extras {
    /// The extras, compressed; `Err` when they would unpack to more than `limit` bytes (no
    /// jewelbot could load them).
    pub fn encode(&self, limit: u64) -> Result<Vec<u8>, String> {
        let mut out = Counted {
            inner: GzEncoder::new(Vec::new(), flate2::Compression::fast()),
            written: 0,
        };
        // Straight into the compressor: a marathon's movie is tens of megabytes as text, and
        // its JSON copy need not exist. Writing to a Vec cannot fail.
        let _ = serde_json::to_writer(&mut out, self);
        if out.written > limit {
            return Err(format!(
                "the checkpoint's extras would unpack to {} MiB, more than the {} MiB a checkpoint \
                 may hold (the movie of a run this long): record the movie in shorter runs",
                out.written >> 20,
                limit >> 20
            ));
        }
        Ok(out.inner.finish().unwrap_or_default())
    }

    /// The extras of a checkpoint whose checksum held: damage here means another jewelbot
    /// wrote them. They may unpack to `limit` bytes at most.
    pub fn decode(bytes: &[u8], limit: u64) -> Result<Self, String> {
        let mut json = Vec::new();
        GzDecoder::new(bytes)
            .take(limit.saturating_add(1))
            .read_to_end(&mut json)
            .map_err(|e| format!("the checkpoint's extras are not gzip: {e}"))?;
        if json.len() as u64 > limit {
            return Err(format!(
                "the checkpoint's extras unpack to more than the {} MiB a checkpoint may hold",
                limit >> 20
            ));
        }
        serde_json::from_slice(&json).map_err(|e| format!("the checkpoint's extras: {e}"))
    }
}

/// A writer that counts what passes through it.
struct Counted<W> {
    inner: W,
    written: u64,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(bytes)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extras_round_trip() {
        let extras = Extras {
            buttons: 0x81,
            plugins: vec![PluginSnapshot::new("p".into(), b"\x00state\xff")],
            movie: Some("version 3\n|0|........|||\n".into()),
            run: serde_json::json!({"frames": 12}),
            options: vec![SavedOption {
                plugin: "p".into(),
                name: "mode".into(),
                value: "fast".into(),
            }],
            playing: Some(PlayingMovie {
                movie: "version 3\n".into(),
                next: 7,
            }),
        };
        let packed = extras.encode(1 << 20).expect("fits");
        let decoded = Extras::decode(&packed, 1 << 20).expect("decodes");
        assert_eq!(decoded, extras);
        assert_eq!(
            decoded.plugins[0].bytes().expect("base64"),
            b"\x00state\xff"
        );
        assert!(Extras::decode(b"not gzip", 1 << 20).is_err());
        // Unpacking stops at the limit, with the reason, and nothing larger is written.
        let small = 50;
        let error = Extras::decode(&packed, small).expect_err("over the limit");
        assert!(error.contains("more than"), "{error}");
        assert!(extras.encode(small).is_err());
    }
}
