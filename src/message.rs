//! An error as the user reads it: one line, and no word of it longer than a screen can show
//! (a 100,000-character path or a movie line quoted back is cut short, with its length).

/// Words longer than this are cut.
const LONGEST_WORD: usize = 120;
/// Characters kept of a word that is cut.
const KEPT: usize = 60;

/// `text` on one line (its lines joined by spaces), every over-long word cut short.
pub fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .flat_map(|line| line.split(' '))
        .map(cut_short)
        .collect::<Vec<_>>()
        .join(" ")
}

fn cut_short(word: &str) -> String {
    let length = word.chars().count();
    if length <= LONGEST_WORD {
        return word.to_owned();
    }
    let kept: String = word.chars().take(KEPT).collect();
    format!("{kept}... ({length} characters)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_become_one_line_with_long_words_cut() {
        assert_eq!(one_line("a: b\n  c\n\nd"), "a: b c d");
        let long = "x".repeat(100_000);
        let line = one_line(&format!("could not read {long}: File name too long"));
        assert_eq!(
            line,
            format!(
                "could not read {}... (100001 characters) File name too long",
                "x".repeat(60)
            )
        );
        let path = "/a/fairly/long/but/ordinary/path/to/a/rom/file/that/someone/keeps/in/a/deep/folder.nes";
        assert_eq!(one_line(path), path);
    }
}
