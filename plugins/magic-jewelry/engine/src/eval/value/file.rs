//! The value file: a short header, then every table entry as a little-endian `f32`, deflated
//! (zlib, whose checksum catches a damaged file). Most entries of a trained network are 0, so
//! the file is small.

use super::{ValueNetwork, ENTRIES};
use crate::rules::RuleSet;
use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;
use flate2::Compression;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, OnceLock};

const MAGIC: &[u8; 8] = b"JWLVALUE";
const VERSION: u32 = 1;
const HEADER: usize = MAGIC.len() + 4 + 4;
/// The largest entry either way a value file may hold (the trained files hold a few hundred at most).
const MAX_ENTRY: f32 = 1e6;

/// Why a value file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ValueFileError {
    #[error("cannot read value file {path}: {error}")]
    Read { path: String, error: std::io::Error },
    #[error(
        "not a jewelbot value file (it does not start with {:?})",
        String::from_utf8_lossy(MAGIC)
    )]
    NotAValueFile,
    #[error("value file version {0} is not supported (this build reads version {VERSION})")]
    Version(u32),
    #[error("value file holds {found} entries, this build's network has {ENTRIES}")]
    Layout { found: u32 },
    #[error("value file is damaged: {0}")]
    Damaged(String),
}

/// The committed network learned under the reference's conditions (`weights/learned.jwl`, see
/// `weights/README.md`).
const TRAINED: &[u8] = include_bytes!("../../../weights/learned.jwl");
/// The committed network learned under the real game's rules (`weights/learned-real.jwl`).
const TRAINED_REAL: &[u8] = include_bytes!("../../../weights/learned-real.jwl");

impl ValueNetwork {
    /// The committed network trained under `rules`, decoded once and shared.
    pub fn trained_for(rules: RuleSet) -> Arc<Self> {
        static TRAINED_REAL_NETWORK: OnceLock<Arc<ValueNetwork>> = OnceLock::new();
        match rules {
            RuleSet::Reference => Self::trained(),
            RuleSet::Real => TRAINED_REAL_NETWORK
                .get_or_init(|| {
                    // A build-time file, checked by a test.
                    Arc::new(
                        Self::from_bytes(TRAINED_REAL).expect("weights/learned-real.jwl decodes"),
                    )
                })
                .clone(),
        }
    }

    /// The committed network trained under the reference's conditions (`weights/learned.jwl`),
    /// decoded once and shared.
    pub fn trained() -> Arc<Self> {
        static TRAINED_NETWORK: OnceLock<Arc<ValueNetwork>> = OnceLock::new();
        TRAINED_NETWORK
            .get_or_init(|| {
                // A build-time file, checked by a test: a failure here is a broken build.
                Arc::new(Self::from_bytes(TRAINED).expect("weights/learned.jwl decodes"))
            })
            .clone()
    }

    /// The file form.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + ENTRIES / 4);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(ENTRIES as u32).to_le_bytes());
        let mut encoder = ZlibEncoder::new(out, Compression::best());
        let raw: Vec<u8> = self.weights.iter().flat_map(|w| w.to_le_bytes()).collect();
        // Writing to a Vec cannot fail.
        let _ = encoder.write_all(&raw);
        encoder.finish().unwrap_or_default()
    }

    /// True when `bytes` start like a value file (anything else may be weights JSON).
    pub fn is_value_file(bytes: &[u8]) -> bool {
        bytes.starts_with(MAGIC)
    }

    /// Reads the file form, checking the header, the size and the checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, ValueFileError> {
        if bytes.len() < HEADER || &bytes[..MAGIC.len()] != MAGIC {
            return Err(ValueFileError::NotAValueFile);
        }
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let version = word(MAGIC.len());
        if version != VERSION {
            return Err(ValueFileError::Version(version));
        }
        let found = word(MAGIC.len() + 4);
        if found as usize != ENTRIES {
            return Err(ValueFileError::Layout { found });
        }
        let mut raw = Vec::with_capacity(ENTRIES * 4);
        // Reading one byte more than needed catches a stream with too many entries.
        ZlibDecoder::new(&bytes[HEADER..])
            .take(ENTRIES as u64 * 4 + 1)
            .read_to_end(&mut raw)
            .map_err(|e| ValueFileError::Damaged(e.to_string()))?;
        if raw.len() != ENTRIES * 4 {
            return Err(ValueFileError::Damaged(format!(
                "{} bytes of entries, expected {}",
                raw.len(),
                ENTRIES * 4
            )));
        }
        let weights: Vec<f32> = raw
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        // A learned entry is a small number; one far out of range (or not a number) would
        // overflow the network's sums and play a collapsed game.
        if let Some(i) = weights
            .iter()
            .position(|w| w.is_nan() || w.abs() > MAX_ENTRY)
        {
            return Err(ValueFileError::Damaged(format!(
                "entry {i} is {}, not a number of at most {MAX_ENTRY:e} either way",
                weights[i]
            )));
        }
        Ok(Self { weights })
    }

    /// Reads a value file.
    pub fn load(path: &Path) -> Result<Self, ValueFileError> {
        let bytes = super::super::weights::read_evaluation_file(path).map_err(|error| {
            ValueFileError::Read {
                path: path.display().to_string(),
                error,
            }
        })?;
        Self::from_bytes(&bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::value::Active;
    use crate::rules::board::Board;

    fn trained_a_little() -> ValueNetwork {
        let mut net = ValueNetwork::zeroed();
        net.adjust(
            &Active::of(&Board::from_text("12.3..\n211323").unwrap()),
            0.25,
        );
        net.adjust(&Active::of(&Board::empty()), -1.5);
        net
    }

    #[test]
    fn round_trip() {
        let net = trained_a_little();
        let bytes = net.to_bytes();
        // Mostly zeros: it compresses to a small fraction of the raw tables.
        assert!(bytes.len() < ENTRIES / 50, "{} bytes", bytes.len());
        assert_eq!(ValueNetwork::from_bytes(&bytes).unwrap(), net);
    }

    #[test]
    fn committed_networks_decode_and_have_learned() {
        for rules in RuleSet::ALL {
            let net = ValueNetwork::trained_for(rules);
            assert!(net.entries_set() > 100_000, "{rules}: {net:?}");
            // A 1 dropped in the gap clears the row; three colours far apart clear nothing.
            let paired = Board::from_text("11.1..").unwrap();
            let scattered = Board::from_text("1.2.3.").unwrap();
            assert!(net.value(&paired) < net.value(&scattered), "{rules}");
        }
        assert!(ValueNetwork::trained() == ValueNetwork::trained_for(RuleSet::Reference));
        assert!(ValueNetwork::trained_for(RuleSet::Real) != ValueNetwork::trained());
    }

    #[test]
    fn bad_files_are_clear_errors() {
        let bytes = trained_a_little().to_bytes();
        assert!(matches!(
            ValueNetwork::from_bytes(b"{\"adjacent\": []}"),
            Err(ValueFileError::NotAValueFile)
        ));
        let mut version = bytes.clone();
        version[8] = 9;
        assert!(matches!(
            ValueNetwork::from_bytes(&version),
            Err(ValueFileError::Version(9))
        ));
        let mut layout = bytes.clone();
        layout[12] ^= 1;
        assert!(matches!(
            ValueNetwork::from_bytes(&layout),
            Err(ValueFileError::Layout { .. })
        ));
        let truncated = &bytes[..bytes.len() - 10];
        assert!(matches!(
            ValueNetwork::from_bytes(truncated),
            Err(ValueFileError::Damaged(_))
        ));
        let mut flipped = bytes.clone();
        let middle = HEADER + (bytes.len() - HEADER) / 2;
        flipped[middle] ^= 0x55;
        assert!(ValueNetwork::from_bytes(&flipped).is_err());
        let mut trailing = bytes.clone();
        trailing.extend_from_slice(&[0; 16]);
        // Bytes after the compressed stream are ignored by zlib; the entries are intact.
        assert!(ValueNetwork::from_bytes(&trailing).is_ok());
        for huge in [3e38, -1e7, f32::NAN] {
            let mut network = trained_a_little();
            network.weights[7] = huge;
            let error =
                ValueNetwork::from_bytes(&network.to_bytes()).expect_err("an entry out of range");
            assert!(error.to_string().contains("entry 7"), "{error}");
        }
        assert!(matches!(
            ValueNetwork::load(Path::new("/nonexistent/value.jwl")),
            Err(ValueFileError::Read { .. })
        ));
    }
}
