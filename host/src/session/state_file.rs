//! The save-state file: a header that says what the state belongs to, then the console's state
//! as the emulator core serialises it; a checkpoint adds the run's own state after it.
//!
//! ```text
//! offset  size  field
//!      0     8  magic "JWBSTATE"
//!      8     2  format version (little-endian): 1 a state, 2 a checkpoint
//!     10     1  length n of the host version (at most 64)
//!     11     n  the host version that saved it, UTF-8 (e.g. "0.1.0")
//!   11+n    40  SHA-1 of the ROM's PRG and CHR, lowercase hex
//!   51+n     8  frame number (little-endian)
//!   59+n     4  payload length p (little-endian)
//!   63+n     4  (checkpoints only) extras length e (little-endian)
//!      …     4  CRC-32 of every byte before it, of the payload and of the extras
//!      …     p  payload: the core's state
//!      …     e  (checkpoints only) extras: the run's own state (`session::checkpoint`)
//! ```
//!
//! The core's own format has no version, no owner and no checksum: a damaged or foreign
//! payload can load as a different machine, panic the core or stall a frame. Everything here
//! is checked on the bytes alone, before any machine is touched.

use std::fmt::Write as _;

const MAGIC: &[u8; 8] = b"JWBSTATE";
/// Bumped whenever the layout above changes.
pub const FORMAT_VERSION: u16 = 1;
/// A checkpoint: a state with extras.
pub const CHECKPOINT_FORMAT: u16 = 2;
/// The host that writes states; the core's layout may change with it.
pub const HOST_VERSION: &str = env!("CARGO_PKG_VERSION");
const MAX_HOST_VERSION_LEN: usize = 64;
const ROM_HASH_LEN: usize = 40;
/// Far above the core's ~21 KB: anything larger is not a state.
pub const MAX_PAYLOAD_LEN: usize = 4 * 1024 * 1024;
/// Far above what a checkpoint's extras hold (a marathon's movie, compressed, is a few MB).
pub const MAX_EXTRAS_LEN: usize = 256 * 1024 * 1024;
/// The largest state file: header, payload and extras.
pub const MAX_FILE_LEN: u64 = (MAX_PAYLOAD_LEN + MAX_EXTRAS_LEN + 256) as u64;

/// Why a state was refused before it reached the machine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StateFileError {
    #[error("not a jewelbot save state (it does not start with \"JWBSTATE\")")]
    NotAState,
    #[error("the state is truncated: it ends inside its {0}")]
    Truncated(&'static str),
    #[error("the state has format version {found}; this jewelbot reads versions {FORMAT_VERSION} and {CHECKPOINT_FORMAT}")]
    FormatVersion { found: u16 },
    #[error("the checkpoint's extras are {0} bytes (at most {MAX_EXTRAS_LEN})")]
    ExtrasLength(u64),
    #[error("the state's host version is {0} bytes long (at most {MAX_HOST_VERSION_LEN})")]
    HostVersionLength(usize),
    #[error("the state's payload is {0} bytes (at most {MAX_PAYLOAD_LEN})")]
    PayloadLength(u64),
    #[error("the state is damaged: {extra} bytes follow its payload")]
    TrailingBytes { extra: usize },
    #[error(
        "the state is damaged: its checksum is {stored:08x} but its bytes give {computed:08x}"
    )]
    Checksum { stored: u32, computed: u32 },
    #[error("the state was saved by jewelbot {saved}; this is jewelbot {HOST_VERSION}, whose emulator state may differ")]
    HostVersion { saved: String },
    #[error(
        "the state belongs to another ROM (PRG+CHR SHA-1 {saved}; the loaded ROM's is {loaded})"
    )]
    OtherRom { saved: String, loaded: String },
}

/// What the header of a state says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateHeader {
    pub host_version: String,
    /// SHA-1 of the ROM's PRG and CHR, lowercase hex.
    pub rom_sha1: String,
    pub frame: u64,
}

/// A state file's bytes for `payload`, a checkpoint's when `extras` are given.
pub fn encode(header: &StateHeader, payload: &[u8], extras: Option<&[u8]>) -> Vec<u8> {
    let version = truncated(&header.host_version, MAX_HOST_VERSION_LEN);
    let mut rom = String::with_capacity(ROM_HASH_LEN);
    for c in header.rom_sha1.chars().chain(std::iter::repeat('0')) {
        if rom.len() == ROM_HASH_LEN {
            break;
        }
        let _ = rom.write_char(if c.is_ascii_hexdigit() { c } else { '0' });
    }
    let extras_len = extras.map_or(0, <[u8]>::len);
    let mut out = Vec::with_capacity(84 + payload.len() + extras_len);
    out.extend_from_slice(MAGIC);
    let format = if extras.is_some() {
        CHECKPOINT_FORMAT
    } else {
        FORMAT_VERSION
    };
    out.extend_from_slice(&format.to_le_bytes());
    out.push(version.len() as u8);
    out.extend_from_slice(version.as_bytes());
    out.extend_from_slice(rom.as_bytes());
    out.extend_from_slice(&header.frame.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    if extras.is_some() {
        out.extend_from_slice(&(extras_len as u32).to_le_bytes());
    }
    let mut crc = crc32fast::Hasher::new();
    crc.update(&out);
    crc.update(payload);
    crc.update(extras.unwrap_or_default());
    out.extend_from_slice(&crc.finalize().to_le_bytes());
    out.extend_from_slice(payload);
    out.extend_from_slice(extras.unwrap_or_default());
    out
}

fn truncated(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Reads the fields in order, naming the one a short file ends in.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, len: usize, field: &'static str) -> Result<&'a [u8], StateFileError> {
        let end = self
            .at
            .checked_add(len)
            .filter(|&end| end <= self.bytes.len())
            .ok_or(StateFileError::Truncated(field))?;
        let taken = &self.bytes[self.at..end];
        self.at = end;
        Ok(taken)
    }

    fn array<const N: usize>(&mut self, field: &'static str) -> Result<[u8; N], StateFileError> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N, field)?);
        Ok(out)
    }
}

/// `state` (of the ROM with PRG+CHR SHA-1 `rom_sha1`) around another payload, its length and
/// checksum made to match and a checkpoint's extras dropped: how the tests and the fuzz harness
/// forge a well-framed state, to show that a payload the core cannot use is refused too.
pub fn reseal(state: &[u8], rom_sha1: &str, payload: &[u8]) -> Result<Vec<u8>, StateFileError> {
    let decoded = decode(state, rom_sha1)?;
    Ok(encode(&decoded.header, payload, None))
}

/// A checkpoint of `state`'s header and payload with other extras, its checksum made anew
/// (for tests of what a checkpoint whose checksum holds may still carry).
pub fn reseal_extras(
    state: &[u8],
    rom_sha1: &str,
    extras: &[u8],
) -> Result<Vec<u8>, StateFileError> {
    let decoded = decode(state, rom_sha1)?;
    Ok(encode(&decoded.header, decoded.payload, Some(extras)))
}

/// A state file's parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded<'a> {
    pub header: StateHeader,
    /// The core's state.
    pub payload: &'a [u8],
    /// A checkpoint's extras.
    pub extras: Option<&'a [u8]>,
}

/// Checks a state file's bytes for the running host and the ROM with PRG+CHR SHA-1
/// `rom_sha1`; returns its parts. The checks run in the order that gives the most useful
/// message: what the file is, its format, its integrity, then whose it is.
pub fn decode<'a>(bytes: &'a [u8], rom_sha1: &str) -> Result<Decoded<'a>, StateFileError> {
    if !bytes.starts_with(MAGIC) {
        return Err(StateFileError::NotAState);
    }
    let mut reader = Reader {
        bytes,
        at: MAGIC.len(),
    };
    let format = u16::from_le_bytes(reader.array("format version")?);
    if format != FORMAT_VERSION && format != CHECKPOINT_FORMAT {
        return Err(StateFileError::FormatVersion { found: format });
    }
    let [version_len] = reader.array("host version")?;
    let version_len = usize::from(version_len);
    if version_len > MAX_HOST_VERSION_LEN {
        return Err(StateFileError::HostVersionLength(version_len));
    }
    let host_version = reader.take(version_len, "host version")?;
    let rom = reader.take(ROM_HASH_LEN, "ROM hash")?;
    let frame = u64::from_le_bytes(reader.array("frame number")?);
    let payload_len = u32::from_le_bytes(reader.array("payload length")?);
    let extras_len = if format == CHECKPOINT_FORMAT {
        Some(u32::from_le_bytes(reader.array("extras length")?))
    } else {
        None
    };
    let checked_len = reader.at;
    let stored = u32::from_le_bytes(reader.array("checksum")?);
    if payload_len as usize > MAX_PAYLOAD_LEN {
        return Err(StateFileError::PayloadLength(u64::from(payload_len)));
    }
    if let Some(len) = extras_len.filter(|&len| len as usize > MAX_EXTRAS_LEN) {
        return Err(StateFileError::ExtrasLength(u64::from(len)));
    }
    let payload = reader.take(payload_len as usize, "payload")?;
    let extras = extras_len
        .map(|len| reader.take(len as usize, "extras"))
        .transpose()?;
    let extra = bytes.len() - reader.at;
    if extra > 0 {
        return Err(StateFileError::TrailingBytes { extra });
    }
    let mut crc = crc32fast::Hasher::new();
    crc.update(&bytes[..checked_len]);
    crc.update(payload);
    crc.update(extras.unwrap_or_default());
    let computed = crc.finalize();
    if computed != stored {
        return Err(StateFileError::Checksum { stored, computed });
    }
    // Past the checksum the text fields are as written; still, never trust them to be text.
    let host_version = String::from_utf8_lossy(host_version).into_owned();
    if host_version != HOST_VERSION {
        return Err(StateFileError::HostVersion {
            saved: host_version,
        });
    }
    let saved_rom = String::from_utf8_lossy(rom).into_owned();
    if !saved_rom.eq_ignore_ascii_case(rom_sha1) {
        return Err(StateFileError::OtherRom {
            saved: saved_rom,
            loaded: rom_sha1.to_owned(),
        });
    }
    Ok(Decoded {
        header: StateHeader {
            host_version,
            rom_sha1: saved_rom,
            frame,
        },
        payload,
        extras,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const ROM: &str = "0123456789abcdef0123456789abcdef01234567";

    fn header(frame: u64) -> StateHeader {
        StateHeader {
            host_version: HOST_VERSION.to_owned(),
            rom_sha1: ROM.to_owned(),
            frame,
        }
    }

    #[test]
    fn round_trips() {
        let bytes = encode(&header(77), b"console", None);
        let read = decode(&bytes, ROM).expect("decodes");
        assert_eq!(read.header, header(77));
        assert_eq!((read.payload, read.extras), (&b"console"[..], None));
        let bytes = encode(&header(78), b"console", Some(b"the run"));
        let read = decode(&bytes, ROM).expect("decodes");
        assert_eq!(read.header, header(78));
        assert_eq!(
            (read.payload, read.extras),
            (&b"console"[..], Some(&b"the run"[..]))
        );
    }

    #[test]
    fn each_check_refuses_with_its_own_message() {
        let good = encode(&header(1), &[9; 100], None);
        assert_eq!(decode(b"NES\x1a", ROM), Err(StateFileError::NotAState));
        let mut format = good.clone();
        format[8] = 3;
        assert_eq!(
            decode(&format, ROM),
            Err(StateFileError::FormatVersion { found: 3 })
        );
        assert_eq!(
            decode(&good[..good.len() - 1], ROM),
            Err(StateFileError::Truncated("payload"))
        );
        let mut longer = good.clone();
        longer.push(0);
        assert_eq!(
            decode(&longer, ROM),
            Err(StateFileError::TrailingBytes { extra: 1 })
        );
        let mut damaged = good.clone();
        *damaged.last_mut().expect("payload") ^= 1;
        assert!(matches!(
            decode(&damaged, ROM),
            Err(StateFileError::Checksum { .. })
        ));
        let other = "f".repeat(40);
        assert!(matches!(
            decode(&good, &other),
            Err(StateFileError::OtherRom { .. })
        ));
        let old = encode(
            &StateHeader {
                host_version: "0.0.1".into(),
                ..header(1)
            },
            &[9; 100],
            None,
        );
        let error = decode(&old, ROM).expect_err("another host");
        assert!(
            error.to_string().contains("saved by jewelbot 0.0.1"),
            "{error}"
        );
    }

    proptest! {
        /// Any change of any byte, any truncation and any extension of a good file is refused:
        /// the checksum covers every byte before it and the payload, the length the rest.
        #[test]
        fn every_corruption_is_refused(
            payload in proptest::collection::vec(any::<u8>(), 0..300),
            extras in proptest::option::of(proptest::collection::vec(any::<u8>(), 0..100)),
            at in any::<prop::sample::Index>(),
            flip in 1u8..=255,
            cut in any::<prop::sample::Index>(),
        ) {
            let good = encode(&header(5), &payload, extras.as_deref());
            let mut flipped = good.clone();
            flipped[at.index(good.len())] ^= flip;
            prop_assert!(decode(&flipped, ROM).is_err());
            let cut = cut.index(good.len());
            prop_assert!(decode(&good[..cut], ROM).is_err());
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = decode(&bytes, ROM);
            let mut framed = MAGIC.to_vec();
            framed.extend_from_slice(&bytes);
            let _ = decode(&framed, ROM);
        }
    }
}
