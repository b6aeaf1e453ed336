//! Screenshots as PNG files, never overwriting an earlier one.

use anyhow::Context;
use std::fs::File;
use std::path::{Path, PathBuf};

/// Writes RGBA pixels as an 8-bit RGBA PNG, replacing a file at `path` only once it is whole.
pub fn write_png(path: &Path, width: usize, height: usize, rgba: &[u8]) -> anyhow::Result<()> {
    anyhow::ensure!(
        rgba.len() == width * height * 4,
        "picture of {} bytes is not {width}x{height} RGBA",
        rgba.len()
    );
    let mut file = crate::files::PendingFile::create(path, true)?;
    let mut encoder = png::Encoder::new(&mut file, width as u32, height as u32);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder
        .write_header()
        .with_context(|| format!("cannot write {}", path.display()))?;
    writer
        .write_image_data(rgba)
        .with_context(|| format!("cannot write {}", path.display()))?;
    writer
        .finish()
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(file.commit()?)
}

/// Reads an 8-bit RGBA PNG: (width, height, pixels).
pub fn read_png(path: &Path) -> anyhow::Result<(usize, usize, Vec<u8>)> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .with_context(|| format!("{} is not a PNG", path.display()))?;
    let mut data = vec![0; reader.output_buffer_size()];
    let info = reader
        .next_frame(&mut data)
        .with_context(|| format!("cannot decode {}", path.display()))?;
    anyhow::ensure!(
        info.color_type == png::ColorType::Rgba && info.bit_depth == png::BitDepth::Eight,
        "{} is not 8-bit RGBA",
        path.display()
    );
    data.truncate(info.buffer_size());
    Ok((info.width as usize, info.height as usize, data))
}

/// A path in `dir` named after the game and frame that does not exist yet, ending in
/// `.extension`.
pub fn fresh_path(dir: &Path, game: &str, frame: u64, what: &str, extension: &str) -> PathBuf {
    let base = format!("{}-{what}-frame{frame}", file_stem(game));
    let mut path = dir.join(format!("{base}.{extension}"));
    let mut n = 2;
    while path.exists() {
        path = dir.join(format!("{base}-{n}.{extension}"));
        n += 1;
    }
    path
}

/// A name safe for a file: the ROM name without extension or unusual characters.
pub fn file_stem(name: &str) -> String {
    let stem = Path::new(name)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("game");
    let mut clean = String::new();
    for c in stem.chars() {
        let c = if c.is_ascii_alphanumeric() || c == '-' {
            c
        } else {
            '_'
        };
        // One underscore for any run of spaces and punctuation.
        if c != '_' || !clean.ends_with('_') {
            clean.push(c);
        }
    }
    let clean = clean.trim_matches('_');
    if clean.is_empty() {
        "game".to_owned()
    } else {
        clean.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_reads_back() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = fresh_path(dir.path(), "Magic Jewelry (Asia).nes", 12, "game", "png");
        assert!(path.ends_with("Magic_Jewelry_Asia-game-frame12.png"));
        let rgba: Vec<u8> = (0..2 * 3 * 4).map(|i| i as u8 * 10).collect();
        write_png(&path, 2, 3, &rgba).expect("write");
        assert_eq!(read_png(&path).expect("read"), (2, 3, rgba));
        let again = fresh_path(dir.path(), "Magic Jewelry (Asia).nes", 12, "game", "png");
        assert_ne!(again, path);
        assert!(write_png(&again, 5, 5, &[0; 4]).is_err());
    }
}
