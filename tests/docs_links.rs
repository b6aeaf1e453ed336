//! Every link and picture of the README, `roms-readme.md` and `docs/` leads somewhere: a
//! relative target names a file that exists, an `#anchor` names a heading of its page (by
//! GitHub's slugs), and an external address is at least well formed (nothing is fetched).
//!
//! The parser is small and hand-written: it knows fenced code blocks, code spans (which hold
//! no links), inline links and pictures, reference-style links with their definitions, and
//! `<https://...>` autolinks; and headings in the ATX (`## Title`) and setext forms.

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::{Component, Path, PathBuf};

/// One link found in a page: where it is and what it points at.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Link {
    line: usize,
    target: String,
}

/// A link that leads nowhere, with the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Problem {
    file: PathBuf,
    line: usize,
    target: String,
    why: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}: ({}) {}",
            self.file.display(),
            self.line,
            self.target,
            self.why
        )
    }
}

/// The page's lines outside fenced code blocks, each with its line number (from 1); the lines
/// inside a fence come back empty so that paragraphs keep their bounds.
fn prose_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let run = |c: char| trimmed.chars().take_while(|&x| x == c).count();
        if let Some((c, n)) = fence {
            if indent < 4 && run(c) >= n && trimmed.trim_start_matches(c).trim().is_empty() {
                fence = None;
            }
            out.push((index + 1, String::new()));
        } else if let Some(c) = ['`', '~'].into_iter().find(|&c| indent < 4 && run(c) >= 3) {
            fence = Some((c, run(c)));
            out.push((index + 1, String::new()));
        } else {
            out.push((index + 1, line.to_string()));
        }
    }
    out
}

/// The text with every code span's content blanked (backticks and all replaced by spaces, the
/// newlines kept), so that what a span holds is never read as a link. A run of backticks
/// without its closing run is left as it is.
fn blank_code_spans(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = chars.clone();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '\\' {
            i += 2;
            continue;
        }
        if chars[i] != '`' {
            i += 1;
            continue;
        }
        let open = chars[i..].iter().take_while(|&&c| c == '`').count();
        let mut j = i + open;
        let mut close = None;
        while j < chars.len() {
            if chars[j] == '`' {
                let run = chars[j..].iter().take_while(|&&c| c == '`').count();
                if run == open {
                    close = Some(j);
                    break;
                }
                j += run;
            } else {
                j += 1;
            }
        }
        match close {
            Some(end) => {
                for c in &mut out[i..end + open] {
                    if *c != '\n' {
                        *c = ' ';
                    }
                }
                i = end + open;
            }
            None => i += open,
        }
    }
    out.into_iter().collect()
}

/// The paragraphs (runs of non-blank lines outside fences) of a page, each with the number of
/// its first line.
fn paragraphs(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (number, line) in prose_lines(text) {
        if line.trim().is_empty() {
            out.extend(current.take());
        } else if let Some((_, body)) = &mut current {
            body.push('\n');
            body.push_str(&line);
        } else {
            current = Some((number, line));
        }
    }
    out.extend(current);
    out
}

/// The index just past the `]` that closes the `[` at `open`, brackets nested, escapes skipped.
fn closing_bracket(chars: &[char], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The destination of an inline link whose `(` is at `open`: the text up to the matching `)`,
/// without an optional title, and the index past the `)`.
fn inline_destination(chars: &[char], open: usize) -> Option<(String, usize)> {
    let mut depth = 0usize;
    let mut i = open;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    let inside: String = chars[open + 1..i].iter().collect();
                    let inside = inside.trim();
                    let target = if let Some(rest) = inside.strip_prefix('<') {
                        rest.split('>').next().unwrap_or_default().to_string()
                    } else {
                        inside
                            .split_whitespace()
                            .next()
                            .unwrap_or_default()
                            .to_string()
                    };
                    return Some((target, i + 1));
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// A reference definition's label and target, if the line is one (`[label]: target`).
fn reference_definition(line: &str) -> Option<(String, String)> {
    let trimmed = line.trim_start();
    if line.len() - trimmed.len() > 3 || trimmed.starts_with("[^") {
        return None;
    }
    let rest = trimmed.strip_prefix('[')?;
    let (label, rest) = rest.split_once("]:")?;
    let target = rest.split_whitespace().next()?;
    let target = target
        .strip_prefix('<')
        .and_then(|t| t.strip_suffix('>'))
        .unwrap_or(target);
    Some((normalise_label(label), target.to_string()))
}

fn normalise_label(label: &str) -> String {
    label
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Every link of a page: inline links and pictures, autolinks, reference links (whose labels
/// must be defined: an undefined one is returned with an empty target and its label in
/// `undefined`), and the definitions' own targets.
fn links(text: &str) -> (Vec<Link>, Vec<(usize, String)>) {
    let mut definitions = BTreeMap::new();
    let mut found = Vec::new();
    let mut undefined = Vec::new();
    for (number, line) in prose_lines(text) {
        if let Some((label, target)) = reference_definition(&blank_code_spans(&line)) {
            definitions.insert(label, target.clone());
            found.push(Link {
                line: number,
                target,
            });
        }
    }
    for (first, paragraph) in paragraphs(text) {
        let blanked = blank_code_spans(&paragraph);
        if blanked
            .lines()
            .all(|l| reference_definition(l).is_some() || l.trim().is_empty())
        {
            continue;
        }
        let chars: Vec<char> = blanked.chars().collect();
        let line_of = |index: usize| first + chars[..index].iter().filter(|&&c| c == '\n').count();
        let mut i = 0;
        while i < chars.len() {
            match chars[i] {
                '\\' => i += 2,
                '<' => {
                    let end = chars[i + 1..].iter().position(|&c| c == '>' || c == '\n');
                    let inside: String = chars[i + 1..i + 1 + end.unwrap_or(0)].iter().collect();
                    if end.is_some_and(|e| chars[i + 1 + e] == '>')
                        && (inside.starts_with("http://") || inside.starts_with("https://"))
                    {
                        found.push(Link {
                            line: line_of(i),
                            target: inside,
                        });
                        i += end.unwrap_or(0) + 2;
                    } else {
                        i += 1;
                    }
                }
                '[' => {
                    let Some(after) = closing_bracket(&chars, i) else {
                        i += 1;
                        continue;
                    };
                    let label: String = chars[i + 1..after - 1].iter().collect();
                    if chars.get(after) == Some(&'(') {
                        if let Some((target, end)) = inline_destination(&chars, after) {
                            found.push(Link {
                                line: line_of(i),
                                target,
                            });
                            // A picture inside a link's text is a link of its own.
                            let inner = links(&label).0;
                            found.extend(inner.into_iter().map(|l| Link {
                                line: line_of(i) + l.line - 1,
                                target: l.target,
                            }));
                            i = end;
                            continue;
                        }
                    } else if chars.get(after) == Some(&'[') {
                        if let Some(end) = closing_bracket(&chars, after) {
                            let reference: String = chars[after + 1..end - 1].iter().collect();
                            let key = if reference.trim().is_empty() {
                                normalise_label(&label)
                            } else {
                                normalise_label(&reference)
                            };
                            match definitions.get(&key) {
                                Some(target) => found.push(Link {
                                    line: line_of(i),
                                    target: target.clone(),
                                }),
                                None => undefined.push((line_of(i), key)),
                            }
                            i = end;
                            continue;
                        }
                    } else if let Some(target) = definitions.get(&normalise_label(&label)) {
                        // A shortcut reference, `[label]`, is a link only when defined.
                        found.push(Link {
                            line: line_of(i),
                            target: target.clone(),
                        });
                    }
                    i += 1;
                }
                _ => i += 1,
            }
        }
    }
    (found, undefined)
}

/// GitHub's anchor for a heading's text: the rendered text (links to their text, code spans
/// and emphasis marks dropped) lowercased, every character but letters, digits, spaces, `-`
/// and `_` removed, spaces turned into `-`.
fn slug(heading: &str) -> String {
    let mut rendered = String::new();
    let chars: Vec<char> = heading.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '[' {
            if let Some(after) = closing_bracket(&chars, i) {
                if chars.get(after) == Some(&'(') {
                    if let Some((_, end)) = inline_destination(&chars, after) {
                        rendered.extend(&chars[i + 1..after - 1]);
                        i = end;
                        continue;
                    }
                }
            }
        }
        rendered.push(chars[i]);
        i += 1;
    }
    rendered
        .trim()
        .to_lowercase()
        .chars()
        .filter(|&c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors a page offers: its headings' slugs (a repeated one numbered `-1`, `-2`... as
/// GitHub does) and any HTML `id="..."` or `name="..."`.
fn anchors(text: &str) -> HashSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = HashSet::new();
    let mut add = |heading: &str, out: &mut HashSet<String>| {
        let base = slug(heading);
        let count = seen.entry(base.clone()).or_insert(0);
        let anchor = if *count == 0 {
            base.clone()
        } else {
            format!("{base}-{count}")
        };
        *count += 1;
        out.insert(anchor);
    };
    let lines = prose_lines(text);
    for (index, (_, line)) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let hashes = trimmed.chars().take_while(|&c| c == '#').count();
        if line.len() - trimmed.len() < 4
            && (1..=6).contains(&hashes)
            && trimmed[hashes..]
                .chars()
                .next()
                .is_none_or(char::is_whitespace)
        {
            let title = trimmed[hashes..].trim();
            let title = title.trim_end_matches('#').trim_end();
            add(title, &mut out);
            continue;
        }
        let underline = line.trim();
        let is_setext = !underline.is_empty()
            && (underline.chars().all(|c| c == '=') || underline.chars().all(|c| c == '-'));
        if is_setext && index > 0 {
            let previous = lines[index - 1].1.trim();
            if !previous.is_empty() && !previous.starts_with('#') && !previous.starts_with('|') {
                add(previous, &mut out);
            }
        }
        for key in ["id=\"", "name=\""] {
            let mut rest = line.as_str();
            while let Some(at) = rest.find(key) {
                rest = &rest[at + key.len()..];
                if let Some(end) = rest.find('"') {
                    out.insert(rest[..end].to_string());
                }
            }
        }
    }
    out
}

/// Whether an external address is well formed: `http(s)://`, a host of letters, digits, dots
/// and dashes with at least one dot (or `localhost`), an optional port, and no spaces.
fn well_formed_url(url: &str) -> bool {
    let Some(rest) = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
    else {
        return false;
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let host = match authority.rsplit_once(':') {
        Some((host, port)) if !port.is_empty() && port.chars().all(|c| c.is_ascii_digit()) => host,
        Some(_) => return false,
        None => authority,
    };
    let host_ok = !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
        && (host.contains('.') || host == "localhost")
        && !host.starts_with(['.', '-'])
        && !host.ends_with(['.', '-']);
    host_ok && !url.chars().any(char::is_whitespace)
}

/// `%20` and the like decoded, as a browser would before asking for a relative file.
fn percent_decode(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let digits = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("zz");
            if let Ok(value) = u8::from_str_radix(digits, 16) {
                out.push(value);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `a/./b/../c` as `a/c`, without touching the file system; `None` if it climbs above `root`.
fn normalise(path: &Path, root: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            other => out.push(other),
        }
    }
    out.starts_with(root).then_some(out)
}

/// Checks every link of one page, `file` (a path under `root`, the repository), whose text is
/// `text`. Pages linked to with an anchor are read from the file system.
fn check_page(root: &Path, file: &Path, text: &str) -> (Vec<Problem>, usize) {
    let (found, undefined) = links(text);
    let mut problems: Vec<Problem> = undefined
        .into_iter()
        .map(|(line, label)| Problem {
            file: file.to_path_buf(),
            line,
            target: format!("[{label}]"),
            why: "a reference with no definition".to_string(),
        })
        .collect();
    let count = found.len();
    let mut problem = |link: &Link, why: String| {
        problems.push(Problem {
            file: file.to_path_buf(),
            line: link.line,
            target: link.target.clone(),
            why,
        });
    };
    for link in &found {
        let target = link.target.as_str();
        if target.is_empty() {
            problem(link, "an empty target".to_string());
            continue;
        }
        if target.starts_with("http://") || target.starts_with("https://") {
            if !well_formed_url(target) {
                problem(link, "not a well-formed address".to_string());
            }
            continue;
        }
        if target.starts_with("mailto:") {
            continue;
        }
        if target.contains("://") || target.starts_with("//") {
            problem(link, "an address of an unknown kind".to_string());
            continue;
        }
        let (path, anchor) = match target.split_once('#') {
            Some((path, anchor)) => (path, Some(anchor)),
            None => (target, None),
        };
        let page = if path.is_empty() {
            file.to_path_buf()
        } else {
            let decoded = percent_decode(path.split('?').next().unwrap_or_default());
            let joined = match decoded.strip_prefix('/') {
                Some(from_root) => root.join(from_root),
                None => file.parent().unwrap_or(root).join(decoded),
            };
            let Some(resolved) = normalise(&joined, root) else {
                problem(link, "leads out of the repository".to_string());
                continue;
            };
            if !resolved.exists() {
                problem(link, format!("no such file: {}", resolved.display()));
                continue;
            }
            resolved
        };
        let Some(anchor) = anchor else { continue };
        let is_markdown = page
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("md"));
        if !is_markdown {
            // Line anchors of source files (`#L10`) are GitHub's own; others cannot be checked.
            continue;
        }
        let body = if page == file {
            text.to_string()
        } else {
            match fs::read_to_string(&page) {
                Ok(body) => body,
                Err(error) => {
                    problem(link, format!("cannot read {}: {error}", page.display()));
                    continue;
                }
            }
        };
        let wanted = percent_decode(anchor).to_lowercase();
        if !anchors(&body).contains(&wanted) {
            problem(
                link,
                format!("no heading of {} has the anchor #{wanted}", page.display()),
            );
        }
    }
    (problems, count)
}

/// The pages the repository's documentation is: the README, `roms-readme.md`, `docs/*.md`.
fn documentation_pages(root: &Path) -> Vec<PathBuf> {
    let mut pages = vec![root.join("README.md"), root.join("roms-readme.md")];
    let mut docs: Vec<PathBuf> = fs::read_dir(root.join("docs"))
        .expect("docs/ is readable")
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

#[test]
fn every_link_of_the_readme_and_the_docs_leads_somewhere() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    let mut readme_links = 0;
    for page in documentation_pages(root) {
        let text = fs::read_to_string(&page).unwrap_or_else(|e| panic!("{}: {e}", page.display()));
        let (found, count) = check_page(root, &page, &text);
        if page.ends_with("README.md") && page.parent() == Some(root) {
            readme_links = count;
        }
        problems.extend(found);
    }
    assert!(
        readme_links >= 10,
        "the README has {readme_links} links: the parser has lost them"
    );
    let report: Vec<String> = problems
        .iter()
        .map(|p| {
            let mut p = p.clone();
            p.file = p.file.strip_prefix(root).unwrap_or(&p.file).to_path_buf();
            p.to_string()
        })
        .collect();
    assert!(report.is_empty(), "broken links:\n{}", report.join("\n"));
}

#[test]
fn the_checker_reports_a_missing_file_and_a_missing_anchor() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let root = dir.path();
    fs::create_dir(root.join("docs")).expect("docs/");
    fs::write(
        root.join("docs/other.md"),
        "# Other page\n\n## The model's game\n\nText.\n\nSetext title\n---\n",
    )
    .expect("written");
    fs::write(root.join("docs/picture.png"), b"png").expect("written");
    let text = "\
# Made up

## A section

See [the other page](docs/other.md), [its section](docs/other.md#the-models-game),
[the setext one](docs/other.md#setext-title), [here](#a-section) and
![a picture](docs/picture.png), [a site](https://example.org/a/b?c=d#e) and a
reference, [the page][other].

`[not a link](nowhere.md)` and

```sh
[nor this](nowhere.md)
```

Broken: [a file](docs/missing.md), [an anchor](docs/other.md#no-such-heading),
[a local anchor](#nowhere), ![a picture](docs/missing.png), [a site](https://exa mple.org),
[a wrapped
target](docs/gone.md) and [undefined][nothing].

[other]: docs/other.md
";
    let page = root.join("README.md");
    fs::write(&page, text).expect("written");
    let (problems, count) = check_page(root, &page, text);
    let broken: Vec<(&str, usize)> = problems
        .iter()
        .map(|p| (p.target.as_str(), p.line))
        .collect();
    assert_eq!(
        broken,
        [
            ("[nothing]", 19),
            ("docs/missing.md", 16),
            ("docs/other.md#no-such-heading", 16),
            ("#nowhere", 17),
            ("docs/missing.png", 17),
            ("https://exa", 17),
            ("docs/gone.md", 18),
        ],
        "{problems:#?}"
    );
    // The definition, the seven good links and the six broken ones with a target.
    assert_eq!(count, 1 + 7 + 6, "{problems:#?}");
}

#[test]
fn slugs_follow_github() {
    assert_eq!(
        slug("The emulator plays the model's game"),
        "the-emulator-plays-the-models-game"
    );
    assert_eq!(
        slug("Trace files (`*.trace`, or gzip'd `*.trace.gz`)"),
        "trace-files-trace-or-gzipd-tracegz"
    );
    assert_eq!(slug("The example: `ram-watch`"), "the-example-ram-watch");
    assert_eq!(
        slug("The bot protocol (version 1)"),
        "the-bot-protocol-version-1"
    );
    assert_eq!(slug("[Linked](x.md) title"), "linked-title");
    let page = "# A\n\n## Run\n\n## Run\n\n```\n# Not a heading\n```\n";
    let found = anchors(page);
    assert!(
        found.contains("run") && found.contains("run-1"),
        "{found:?}"
    );
    assert!(!found.contains("not-a-heading"), "{found:?}");
}
