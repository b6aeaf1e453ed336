//! 8x8 bitmap text for the overlay, the help box and the RAM inspector.

use font8x8::{UnicodeFonts, BASIC_FONTS};

/// Width and height of one glyph at scale 1.
pub const GLYPH: usize = 8;

/// The rows of `c`, bit 0 leftmost; characters outside ASCII show as `?`.
pub fn glyph(c: char) -> [u8; 8] {
    let table = ASCII.get_or_init(|| std::array::from_fn(|i| lookup(char::from(i as u8))));
    match u8::try_from(c) {
        Ok(byte) if byte.is_ascii() => table[usize::from(byte)],
        _ => lookup(c),
    }
}

/// The ASCII glyphs, looked up once: text is drawn every frame the window shows.
static ASCII: std::sync::OnceLock<[[u8; 8]; 128]> = std::sync::OnceLock::new();

fn lookup(c: char) -> [u8; 8] {
    BASIC_FONTS
        .get(c)
        .or_else(|| BASIC_FONTS.get('?'))
        .unwrap_or([0; 8])
}

/// Width in pixels of `text` drawn at `scale`.
pub fn text_width(text: &str, scale: usize) -> usize {
    text.chars().count() * GLYPH * scale
}

/// `text` cut to `max` characters, marking the cut with `~`.
pub fn fit(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else if max == 0 {
        String::new()
    } else {
        let mut out: String = text.chars().take(max - 1).collect();
        out.push('~');
        out
    }
}

/// `text` broken into lines of at most `max` characters, at spaces where possible.
pub fn wrap(text: &str, max: usize) -> Vec<String> {
    let max = max.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let needed = line.chars().count() + usize::from(!line.is_empty()) + word.chars().count();
        if needed > max && !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
        while line.chars().count() > max {
            let rest: String = line.chars().skip(max).collect();
            line = line.chars().take(max).collect();
            lines.push(std::mem::replace(&mut line, rest));
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyphs_have_ink_and_unknown_characters_fall_back() {
        assert!(glyph('A').iter().any(|row| *row != 0));
        assert_eq!(glyph(' '), [0; 8]);
        assert_eq!(glyph('\u{2603}'), glyph('?'));
    }

    #[test]
    fn fits_and_wraps() {
        assert_eq!(fit("abcdef", 4), "abc~");
        assert_eq!(fit("abc", 4), "abc");
        assert_eq!(wrap("one two three", 7), vec!["one two", "three"]);
        assert_eq!(wrap("abcdefghij", 4), vec!["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 4), vec![""]);
        assert_eq!(text_width("ab", 2), 32);
    }
}
