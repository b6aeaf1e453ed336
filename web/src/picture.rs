//! Pictures for the page, compactly: the NES picture has few colours, so each picture is
//! indexed into a palette shared by the pictures that follow ([`Indexer`]), and each viewer is
//! sent only the rows that changed since the picture it last had, with the palette entries it
//! lacks ([`Encoder`]).
//!
//! A picture message (binary, little-endian):
//!
//! | bytes | what |
//! |---|---|
//! | 1 | 1: a picture |
//! | 1 | flags: bit 0, the palette starts afresh; bit 1, every row follows |
//! | 8 | the frame |
//! | 2, 2 | the first palette index given, and how many entries follow |
//! | 3 each | the entries, R G B |
//! | 2 | marks that follow |
//! | 12 each | a mark: x, y, width, height (2 bytes each), then R G B A |
//! | 30 | the rows that follow: bit `r % 8` of byte `r / 8` for row `r` |
//! | 256 each | those rows, top to bottom, a palette index a pixel |

use crate::hub::RawPicture;
use jewelbot_plugin::{Mark, SCREEN_HEIGHT, SCREEN_WIDTH};
use std::collections::HashMap;
use std::sync::Arc;

/// The message kind of a picture.
pub const PICTURE: u8 = 1;
pub const FLAG_NEW_PALETTE: u8 = 1;
pub const FLAG_EVERY_ROW: u8 = 2;
const ROW_BITS: usize = SCREEN_HEIGHT / 8;
/// The most marks a picture carries; plug-ins draw a handful.
const MOST_MARKS: usize = 256;

/// A picture as palette indices.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexedPicture {
    /// Its place in the indexer's sequence: what a message from it to another is known by.
    pub number: u64,
    pub frame: u64,
    /// Pictures of the same epoch share their palette's first entries.
    pub epoch: u64,
    pub palette: Arc<[[u8; 3]]>,
    /// One index a pixel, row by row.
    pub indices: Vec<u8>,
    pub marks: Vec<Mark>,
}

/// Turns RGBA pictures into indexed ones over a palette that grows as colours appear, and
/// starts afresh (a new epoch) when a picture's colours do not fit in what is left of it.
#[derive(Debug, Default)]
pub struct Indexer {
    pictures: u64,
    epoch: u64,
    palette: Vec<[u8; 3]>,
    lookup: HashMap<[u8; 3], u8>,
}

impl Indexer {
    pub fn index(&mut self, raw: &RawPicture) -> IndexedPicture {
        let indices = if let Some(indices) = self.indices(raw, false) {
            indices
        } else {
            // Its colours do not fit beside the palette's: start a new one.
            self.epoch += 1;
            self.palette.clear();
            self.lookup.clear();
            self.indices(raw, true).unwrap_or_default()
        };
        self.pictures += 1;
        IndexedPicture {
            number: self.pictures,
            frame: raw.frame,
            epoch: self.epoch,
            palette: Arc::from(self.palette.as_slice()),
            indices,
            marks: raw.marks.iter().take(MOST_MARKS).cloned().collect(),
        }
    }

    /// The picture's indices, adding its colours to the palette; `None` when they do not fit,
    /// unless `nearest` allows the nearest colour's index for those past 256 (a picture of
    /// the NES has 64 colours at most; only plug-ins' drawings add more).
    fn indices(&mut self, raw: &RawPicture, nearest: bool) -> Option<Vec<u8>> {
        let mut indices = Vec::with_capacity(SCREEN_WIDTH * SCREEN_HEIGHT);
        // Runs of one colour are the rule: look a colour up once a run.
        let mut last: Option<([u8; 3], u8)> = None;
        for pixel in raw.rgba.chunks_exact(4).take(SCREEN_WIDTH * SCREEN_HEIGHT) {
            let colour = [pixel[0], pixel[1], pixel[2]];
            let index = match last {
                Some((c, i)) if c == colour => i,
                _ => self.index_of(colour, nearest)?,
            };
            last = Some((colour, index));
            indices.push(index);
        }
        indices.resize(SCREEN_WIDTH * SCREEN_HEIGHT, 0);
        Some(indices)
    }

    fn index_of(&mut self, colour: [u8; 3], nearest: bool) -> Option<u8> {
        if let Some(&index) = self.lookup.get(&colour) {
            return Some(index);
        }
        let index = if self.palette.len() < 256 {
            self.palette.push(colour);
            (self.palette.len() - 1) as u8
        } else if nearest {
            self::nearest(&self.palette, colour)
        } else {
            return None;
        };
        self.lookup.insert(colour, index);
        Some(index)
    }
}

fn nearest(palette: &[[u8; 3]], colour: [u8; 3]) -> u8 {
    let distance = |p: &[u8; 3]| {
        p.iter()
            .zip(colour)
            .map(|(&a, b)| (i32::from(a) - i32::from(b)).pow(2))
            .sum::<i32>()
    };
    palette
        .iter()
        .enumerate()
        .min_by_key(|(_, p)| distance(p))
        .map_or(0, |(i, _)| i as u8)
}

/// One viewer's encoder: what it was last sent, so the next message carries only the change.
#[derive(Debug, Default)]
pub struct Encoder {
    last: Option<Arc<IndexedPicture>>,
}

impl Encoder {
    /// The message that brings this viewer from its last picture to `picture`.
    pub fn encode(&mut self, picture: &Arc<IndexedPicture>) -> Vec<u8> {
        let message = delta(self.last.as_deref(), picture);
        self.last = Some(Arc::clone(picture));
        message
    }

    /// The picture this viewer has, to look up a message made for another viewer who had it.
    pub fn last(&self) -> Option<&Arc<IndexedPicture>> {
        self.last.as_ref()
    }

    /// This viewer now has `picture` (sent as a message made for another).
    pub fn sent(&mut self, picture: &Arc<IndexedPicture>) {
        self.last = Some(Arc::clone(picture));
    }
}

/// The message that brings a viewer who has `last` (or nothing) to `picture`.
pub fn delta(last: Option<&IndexedPicture>, picture: &IndexedPicture) -> Vec<u8> {
    let same_epoch = last.filter(|l| l.epoch == picture.epoch);
    let (flags, palette_from) = match same_epoch {
        Some(last) => (0, last.palette.len()),
        None => (FLAG_NEW_PALETTE | FLAG_EVERY_ROW, 0),
    };
    let rows: Vec<usize> = (0..SCREEN_HEIGHT)
        .filter(|&r| {
            same_epoch.is_none_or(|last| row(&last.indices, r) != row(&picture.indices, r))
        })
        .collect();
    let entries = &picture.palette[palette_from.min(picture.palette.len())..];
    let mut out = Vec::with_capacity(
        16 + 3 * entries.len() + 12 * picture.marks.len() + ROW_BITS + rows.len() * 256,
    );
    out.push(PICTURE);
    out.push(flags);
    out.extend_from_slice(&picture.frame.to_le_bytes());
    out.extend_from_slice(&(palette_from as u16).to_le_bytes());
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    for entry in entries {
        out.extend_from_slice(entry);
    }
    out.extend_from_slice(&(picture.marks.len() as u16).to_le_bytes());
    for mark in &picture.marks {
        for value in [mark.x, mark.y, mark.width, mark.height] {
            out.extend_from_slice(&value.to_le_bytes());
        }
        out.extend_from_slice(&mark.color);
    }
    let mut bits = [0u8; ROW_BITS];
    for &r in &rows {
        bits[r / 8] |= 1 << (r % 8);
    }
    out.extend_from_slice(&bits);
    for &r in &rows {
        out.extend_from_slice(row(&picture.indices, r));
    }
    out
}

fn row(indices: &[u8], r: usize) -> &[u8] {
    &indices[r * SCREEN_WIDTH..(r + 1) * SCREEN_WIDTH]
}

/// Why a picture message does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("the message ends early")]
    Short,
    #[error("not a picture message")]
    Kind,
    #[error("the palette entries do not follow on from the ones held")]
    Palette,
}

/// What a page does with picture messages, for tests and other clients: the palette and the
/// picture so far.
#[derive(Debug, Clone)]
pub struct Decoder {
    pub palette: Vec<[u8; 3]>,
    pub indices: Vec<u8>,
    pub marks: Vec<Mark>,
    pub frame: u64,
}

impl Default for Decoder {
    fn default() -> Self {
        Self {
            palette: Vec::new(),
            indices: vec![0; SCREEN_WIDTH * SCREEN_HEIGHT],
            marks: Vec::new(),
            frame: 0,
        }
    }
}

impl Decoder {
    /// Applies one message; returns how many rows it carried.
    pub fn apply(&mut self, message: &[u8]) -> Result<usize, DecodeError> {
        let mut read = Reader(message);
        if read.u8()? != PICTURE {
            return Err(DecodeError::Kind);
        }
        let flags = read.u8()?;
        let frame = read.u64()?;
        let from = usize::from(read.u16()?);
        let count = usize::from(read.u16()?);
        if flags & FLAG_NEW_PALETTE != 0 {
            self.palette.clear();
        }
        if from != self.palette.len() {
            return Err(DecodeError::Palette);
        }
        for _ in 0..count {
            let rgb = read.take(3)?;
            self.palette.push([rgb[0], rgb[1], rgb[2]]);
        }
        let marks = read.u16()?;
        self.marks.clear();
        for _ in 0..marks {
            let (x, y, width, height) = (read.u16()?, read.u16()?, read.u16()?, read.u16()?);
            let c = read.take(4)?;
            self.marks.push(Mark {
                x,
                y,
                width,
                height,
                color: [c[0], c[1], c[2], c[3]],
            });
        }
        let bits = read.take(ROW_BITS)?.to_vec();
        let mut rows = 0;
        for r in 0..SCREEN_HEIGHT {
            if bits[r / 8] & (1 << (r % 8)) != 0 {
                let data = read.take(SCREEN_WIDTH)?;
                self.indices[r * SCREEN_WIDTH..(r + 1) * SCREEN_WIDTH].copy_from_slice(data);
                rows += 1;
            }
        }
        self.frame = frame;
        Ok(rows)
    }

    /// The picture as RGBA.
    pub fn rgba(&self) -> Vec<u8> {
        self.indices
            .iter()
            .flat_map(|&i| {
                let [r, g, b] = self.palette.get(usize::from(i)).copied().unwrap_or([0; 3]);
                [r, g, b, 255]
            })
            .collect()
    }
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        if self.0.len() < n {
            return Err(DecodeError::Short);
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }
    fn u8(&mut self) -> Result<u8, DecodeError> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, DecodeError> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn u64(&mut self) -> Result<u64, DecodeError> {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(frame: u64, colour_of: impl Fn(usize, usize) -> [u8; 3]) -> RawPicture {
        let mut rgba = Vec::with_capacity(SCREEN_WIDTH * SCREEN_HEIGHT * 4);
        for y in 0..SCREEN_HEIGHT {
            for x in 0..SCREEN_WIDTH {
                let [r, g, b] = colour_of(x, y);
                rgba.extend_from_slice(&[r, g, b, 255]);
            }
        }
        RawPicture {
            frame,
            rgba,
            marks: vec![],
        }
    }

    #[test]
    fn a_viewer_is_sent_the_rows_that_changed_and_sees_the_picture() {
        let mut indexer = Indexer::default();
        let mut encoder = Encoder::default();
        let mut decoder = Decoder::default();
        let first = raw(1, |x, y| [(x % 4) as u8 * 60, (y % 3) as u8 * 80, 10]);
        let message = encoder.encode(&Arc::new(indexer.index(&first)));
        assert_eq!(decoder.apply(&message), Ok(SCREEN_HEIGHT));
        assert_eq!(decoder.rgba(), first.rgba);
        // Two rows change, one to a colour not seen before.
        let second = raw(2, |x, y| match y {
            10 => [1, 2, 3],
            200 => [0, 0, 10],
            _ => [(x % 4) as u8 * 60, (y % 3) as u8 * 80, 10],
        });
        let message = encoder.encode(&Arc::new(indexer.index(&second)));
        assert_eq!(decoder.apply(&message), Ok(2));
        assert_eq!(decoder.rgba(), second.rgba);
        assert_eq!(decoder.frame, 2);
        // 2 + 8 + 4 + one entry + marks + row bits + two rows.
        assert_eq!(message.len(), 14 + 3 + 2 + ROW_BITS + 2 * SCREEN_WIDTH);
    }

    #[test]
    fn a_viewer_that_missed_pictures_gets_everything_it_lacks() {
        let mut indexer = Indexer::default();
        let (mut early, mut late) = (Encoder::default(), Encoder::default());
        let (mut seen_early, mut seen_late) = (Decoder::default(), Decoder::default());
        for frame in 0..5u64 {
            let picture = Arc::new(indexer.index(&raw(frame, |x, _| {
                [(x as u64 * frame % 7) as u8 * 30, frame as u8, 0]
            })));
            seen_early.apply(&early.encode(&picture)).unwrap();
            if frame % 2 == 0 {
                seen_late.apply(&late.encode(&picture)).unwrap();
            }
            if frame == 4 {
                assert_eq!(seen_late.rgba(), seen_early.rgba());
            }
        }
    }

    #[test]
    fn more_colours_than_a_palette_holds_start_a_new_one() {
        let mut indexer = Indexer::default();
        let mut encoder = Encoder::default();
        let mut decoder = Decoder::default();
        for shift in [0u8, 100, 200] {
            // 120 colours a picture: the third picture's do not fit beside the first two's.
            let picture = raw(u64::from(shift), |x, _| {
                [(x % 120) as u8 + shift / 2, shift, 0]
            });
            let indexed = Arc::new(indexer.index(&picture));
            decoder.apply(&encoder.encode(&indexed)).unwrap();
            assert_eq!(decoder.rgba(), picture.rgba);
        }
        assert_eq!(indexer.epoch, 1);
        // A picture of more than 256 colours keeps its first 256 and the nearest for the rest.
        let many = raw(9, |x, y| [x as u8, y as u8, 7]);
        let indexed = indexer.index(&many);
        assert_eq!(indexed.palette.len(), 256);
        assert!(indexed.indices.contains(&255));
    }

    #[test]
    fn marks_travel_with_their_picture() {
        let mut picture = raw(3, |_, _| [0, 0, 0]);
        picture.marks = vec![Mark {
            x: 10,
            y: 20,
            width: 16,
            height: 48,
            color: [255, 0, 0, 255],
        }];
        let mut decoder = Decoder::default();
        let message = Encoder::default().encode(&Arc::new(Indexer::default().index(&picture)));
        decoder.apply(&message).unwrap();
        assert_eq!(decoder.marks, picture.marks);
    }

    #[test]
    fn broken_messages_are_refused() {
        let mut decoder = Decoder::default();
        assert_eq!(decoder.apply(&[]), Err(DecodeError::Short));
        assert_eq!(decoder.apply(&[2, 0]), Err(DecodeError::Kind));
        let message =
            Encoder::default().encode(&Arc::new(Indexer::default().index(&raw(1, |_, _| [1; 3]))));
        assert_eq!(
            decoder.apply(&message[..message.len() - 1]),
            Err(DecodeError::Short)
        );
    }
}
