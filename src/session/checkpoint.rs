//! What a checkpoint holds besides the console's state (the state file's extras, gzip'd JSON):
//! the buttons the plug-ins chose for the next frame, each plug-in's own snapshot, the movie
//! being recorded from power-on, and the run's own record (its frames and time so far), so
//! that a run resumed from it carries on as if it had not stopped.

use base64::Engine as _;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use serde::{Deserialize, Serialize};
use std::io::Read;

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
    pub fn encode(&self) -> Vec<u8> {
        let mut gz = GzEncoder::new(Vec::new(), flate2::Compression::fast());
        // Straight into the compressor: a marathon's movie is tens of megabytes as text, and
        // its JSON copy need not exist. Writing to a Vec cannot fail.
        let _ = serde_json::to_writer(&mut gz, self);
        gz.finish().unwrap_or_default()
    }

    /// The extras of a checkpoint whose checksum held: damage here means another jewelbot
    /// wrote them.
    pub fn decode(bytes: &[u8], limit: u64) -> Result<Self, String> {
        let mut json = Vec::new();
        GzDecoder::new(bytes)
            .take(limit)
            .read_to_end(&mut json)
            .map_err(|e| format!("the checkpoint's extras are not gzip: {e}"))?;
        serde_json::from_slice(&json).map_err(|e| format!("the checkpoint's extras: {e}"))
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
        };
        let decoded = Extras::decode(&extras.encode(), 1 << 20).expect("decodes");
        assert_eq!(decoded, extras);
        assert_eq!(
            decoded.plugins[0].bytes().expect("base64"),
            b"\x00state\xff"
        );
        assert!(Extras::decode(b"not gzip", 1 << 20).is_err());
    }
}
