//! Animated GIFs of the picture, headless or from the window. Every other frame is kept, with
//! delays of 3, 3 and 4 hundredths of a second in turn: 30 pictures a second, the NES's 60
//! frames a second in real time. A NES picture holds at most 25 colours, so each frame's own
//! palette is exact.

use crate::files::{FileError, PendingFile};
use jewelbot_plugin::{SCREEN_HEIGHT, SCREEN_WIDTH};
use std::path::{Path, PathBuf};

/// Frames of the emulator per picture kept, unless told otherwise: real time.
const EVERY: u64 = 2;
/// Delays in hundredths of a second, in turn: 10 per 3 pictures, a third of a second per 20
/// frames.
const DELAYS: [u16; 3] = [3, 3, 4];

/// Why a GIF could not be written.
#[derive(Debug, thiserror::Error)]
pub enum GifError {
    #[error(transparent)]
    File(#[from] FileError),
    #[error("cannot write {}: {error}", path.display())]
    Encode {
        path: PathBuf,
        error: gif::EncodingError,
    },
}

/// A GIF being written, a picture at a time, under a hidden name until [`GifCapture::finish`]
/// closes it with its trailer and puts it in place: a run that fails or is dropped midway
/// leaves the old file (if any) as it was.
pub struct GifCapture {
    encoder: gif::Encoder<PendingFile>,
    path: PathBuf,
    /// Frames per picture kept.
    every: u64,
    frames_seen: u64,
    pictures: u64,
}

impl GifCapture {
    /// Starts a GIF at `path`, never over a file that exists unless `force`.
    pub fn create(path: &Path, force: bool) -> Result<Self, GifError> {
        let file = PendingFile::create(path, force)?;
        let mut encoder = gif::Encoder::new(file, SCREEN_WIDTH as u16, SCREEN_HEIGHT as u16, &[])
            .map_err(|error| GifError::Encode {
            path: path.to_owned(),
            error,
        })?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(|error| GifError::Encode {
                path: path.to_owned(),
                error,
            })?;
        Ok(Self {
            encoder,
            path: path.to_owned(),
            every: EVERY,
            frames_seen: 0,
            pictures: 0,
        })
    }

    /// Keeps one picture every `frames` frames (at least 1): 2 is real time, more a
    /// time-lapse.
    pub fn every(mut self, frames: u64) -> Self {
        self.every = frames.max(1);
        self
    }

    /// Offers the emulator's picture of one frame (256x240 RGBA); every other one is kept.
    pub fn frame(&mut self, rgba: &[u8]) -> Result<(), GifError> {
        self.frames_seen += 1;
        if !(self.frames_seen - 1).is_multiple_of(self.every)
            || rgba.len() < SCREEN_WIDTH * SCREEN_HEIGHT * 4
        {
            return Ok(());
        }
        let (palette, indices) = indexed(rgba);
        let mut frame = gif::Frame::from_palette_pixels(
            SCREEN_WIDTH as u16,
            SCREEN_HEIGHT as u16,
            indices,
            palette,
            None,
        );
        frame.delay = DELAYS[(self.pictures % DELAYS.len() as u64) as usize];
        self.pictures += 1;
        self.encoder
            .write_frame(&frame)
            .map_err(|error| GifError::Encode {
                path: self.path.clone(),
                error,
            })
    }

    /// The next frame offered will be kept: only then need it be drawn.
    pub fn wants_next(&self) -> bool {
        self.frames_seen.is_multiple_of(self.every)
    }

    /// Pictures kept so far.
    pub fn pictures(&self) -> u64 {
        self.pictures
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Ends the GIF with its trailer and puts it in place.
    pub fn finish(self) -> Result<(), GifError> {
        let path = self.path;
        let file = self
            .encoder
            .into_inner()
            .map_err(|error| GifError::Encode { path, error })?;
        Ok(file.commit()?)
    }
}

/// The picture's colours (at most 256; any beyond are drawn as the last) and each pixel's
/// index among them.
fn indexed(rgba: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let mut colours: Vec<[u8; 3]> = Vec::with_capacity(32);
    let mut indices = Vec::with_capacity(SCREEN_WIDTH * SCREEN_HEIGHT);
    let mut last: Option<([u8; 3], u8)> = None;
    for px in rgba.chunks_exact(4).take(SCREEN_WIDTH * SCREEN_HEIGHT) {
        let colour = [px[0], px[1], px[2]];
        let index = match last {
            Some((c, i)) if c == colour => i,
            _ => {
                let i = match colours.iter().position(|&c| c == colour) {
                    Some(i) => i,
                    None if colours.len() < 256 => {
                        colours.push(colour);
                        colours.len() - 1
                    }
                    None => 255,
                } as u8;
                last = Some((colour, i));
                i
            }
        };
        indices.push(index);
    }
    let palette = colours.into_iter().flatten().collect();
    (palette, indices)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_every_other_frame_and_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.gif");
        let mut gif = GifCapture::create(&path, false).unwrap();
        for n in 0..10u8 {
            let mut rgba = vec![0u8; SCREEN_WIDTH * SCREEN_HEIGHT * 4];
            rgba[..4].copy_from_slice(&[n * 20, 0, 0, 255]);
            gif.frame(&rgba).unwrap();
        }
        assert_eq!(gif.pictures(), 5);
        gif.finish().unwrap();
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::RGBA);
        let mut decoder = options
            .read_info(std::fs::File::open(&path).unwrap())
            .unwrap();
        let mut firsts = Vec::new();
        while let Some(frame) = decoder.read_next_frame().unwrap() {
            firsts.push((frame.buffer[0], frame.delay));
        }
        assert_eq!(firsts, vec![(0, 3), (40, 3), (80, 4), (120, 3), (160, 3)]);
        // An existing file is kept unless forced, and kept whole until the new one is.
        assert!(matches!(
            GifCapture::create(&path, false),
            Err(GifError::File(FileError::Exists { .. }))
        ));
        let before = std::fs::read(&path).unwrap();
        let unfinished = GifCapture::create(&path, true).unwrap();
        drop(unfinished);
        assert_eq!(std::fs::read(&path).unwrap(), before);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
