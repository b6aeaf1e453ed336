//! Bad command lines, as an unlucky user or an attacker types them: every one ends within a
//! time limit, with a non-zero exit code and a message, never a panic, and the files named on
//! them are never changed.

mod common;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The published weights, as a weights file holds them.
const GOOD_WEIGHTS: &str = r#"{"adjacent": [43.0, 12.7, 1.5, 2.8, 0.5], "jewels": 33.6,
"edge": 4.2, "spawn_distance": 1.6, "danger": 0.0, "bumpiness": 0.0, "interim_jewels": 0.0}"#;

/// An fm2 header any ROM's movie starts with.
const MOVIE_HEADER: &str = "version 3\nemuVersion 20605\nromFilename columns\n\
    romChecksum base64:AAAAAAAAAAAAAAAAAAAAAA==\nguid 00000000-0000-0000-0000-000000000000\n";

/// Far more than any refusal takes; a command still running then hangs.
const TIME_LIMIT: Duration = Duration::from_secs(60);

/// Files the invocations name, made fresh in a temporary directory.
struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let write = |name: &str, bytes: &[u8]| {
            std::fs::write(dir.path().join(name), bytes).expect("fixture written");
        };
        let rom = common::tiny_rom();
        write("tiny.nes", &rom);
        write("empty", b"");
        write("garbage.nes", &[0x5A; 3000]);
        write("truncated.nes", &rom[..5000]);
        let mut chr256 = rom.clone();
        chr256[7] = 0x08;
        chr256[9] = 0x10;
        chr256[5] = 0;
        write("chr256.nes", &chr256);
        write("script.txt", b"hold 5 A\nfrobnicate\n");
        write("poke.txt", b"poke 9000 01\n");
        write("zero.txt", b"hold 0 A\n");
        write("not-utf8.txt", &[0xFF, 0xFE, 0x00, 0x80]);
        write("infinite.json", b"{\"jewels\": 1e999}");
        write("weights.json", b"{\"jewels\": \"many\"}");
        write("value.jwl", b"JWLVALUE\x01\x00\x00\x00garbage");
        write("existing.out", b"the user's file");
        write("state.garbage", &[0x33; 5000]);
        write("misspelt-event.txt", b"hold 10 -\nuntil spwan 100 S\n");
        write("good-script.txt", b"hold 3 A\n");
        write("good-weights.json", GOOD_WEIGHTS.as_bytes());
        write("huge.json", GOOD_WEIGHTS.replace("33.6", "3e38").as_bytes());
        write(
            "negative-huge.json",
            GOOD_WEIGHTS.replace("33.6", "-1e308").as_bytes(),
        );
        let movie = |extra: &str| format!("{MOVIE_HEADER}{extra}|0|........|||\n");
        write("pal.fm2", movie("palFlag 1\n").as_bytes());
        write("fourscore.fm2", movie("fourscore 1\n").as_bytes());
        write("twice.fm2", movie("romFilename again\n").as_bytes());
        write("ram-option-9.fm2", movie("RAMInitOption 9\n").as_bytes());
        write(
            "ram-option-256.fm2",
            movie("RAMInitOption 256\n").as_bytes(),
        );
        write(
            "ram-option-minus-1.fm2",
            movie("RAMInitOption -1\n").as_bytes(),
        );
        write("garbage-line.fm2", (movie("") + "hello\n").as_bytes());
        write(
            "empty-line.fm2",
            (movie("") + "\n|0|........|||\n").as_bytes(),
        );
        let cr_only =
            (movie("") + &"|0|R.......|||\n".repeat(5000) + "garbage\n").replace('\n', "\r");
        write("cr-only-garbage.fm2", cr_only.as_bytes());
        std::fs::create_dir(dir.path().join("a-directory")).expect("dir");
        std::fs::create_dir(dir.path().join("out-dir")).expect("dir");
        write("out-dir/report.json", GOOD_WEIGHTS.as_bytes());
        std::fs::create_dir(dir.path().join("empty-dir")).expect("dir");
        std::fs::create_dir(dir.path().join("report-dir")).expect("dir");
        write("report-dir/level.png", b"the user's plot");
        std::fs::create_dir(dir.path().join("full-dir")).expect("dir");
        write("full-dir/histogram.csv", b"the user's data");
        let fifo = dir.path().join("fifo");
        let _ = Command::new("mkfifo").arg(&fifo).status();
        #[cfg(unix)]
        for (link, target) in [
            ("link-to-tiny.nes", "tiny.nes"),
            ("link-to-weights.json", "good-weights.json"),
        ] {
            std::os::unix::fs::symlink(dir.path().join(target), dir.path().join(link))
                .expect("linked");
        }
        Self { dir }
    }

    fn path(&self, name: &str) -> String {
        self.dir.path().join(name).to_string_lossy().into_owned()
    }

    /// A movie of the tiny ROM, recorded by the binary.
    fn movie(&self) {
        let (code, _, stderr) = run(&[
            "run",
            "--rom",
            &self.path("tiny.nes"),
            "--frames",
            "3",
            "--record-movie",
            &self.path("good.fm2"),
        ]);
        assert_eq!(code, Some(0), "{stderr}");
        // A report's folder whose summary is that movie (the user's own file, by chance).
        std::fs::copy(self.path("good.fm2"), self.path("report-dir/summary.json")).expect("copied");
    }

    /// A real state of the tiny ROM, and one with a byte changed.
    fn states(&self) {
        use jewelbot_plugin::Machine;
        let rom = jewelbot_host::rom::RomImage::from_bytes("tiny.nes", &common::tiny_rom())
            .expect("ROM parses");
        let mut session = jewelbot_host::session::Session::new(
            rom,
            Vec::new(),
            jewelbot_host::session::SessionConfig::default(),
        )
        .expect("ROM loads");
        for _ in 0..3 {
            session
                .step(jewelbot_plugin::Buttons::NONE)
                .expect("frame runs");
        }
        let mut bytes = session.save_state().expect("a state");
        std::fs::write(self.path("good.state"), &bytes).expect("written");
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0x40;
        std::fs::write(self.path("damaged.state"), bytes).expect("written");
    }

    /// Every file in the fixture with its contents, to prove none was changed.
    fn contents(&self) -> Vec<(PathBuf, Vec<u8>)> {
        let mut files = Vec::new();
        walk(self.dir.path(), &mut files);
        files.sort();
        files
    }
}

fn walk(dir: &Path, files: &mut Vec<(PathBuf, Vec<u8>)>) {
    for entry in std::fs::read_dir(dir).expect("dir").flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            walk(&path, files);
        } else if kind.is_file() {
            let bytes = std::fs::read(&path).expect("readable");
            files.push((path, bytes));
        }
    }
}

/// Runs the binary with a time limit: exit code (`None` when it hung and was killed), stdout,
/// stderr.
fn run<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> (Option<i32>, String, String) {
    // Output goes to files, not pipes: a long message must not block the child while it is
    // waited for.
    let out = tempfile::tempfile().expect("temp file");
    let err = tempfile::tempfile().expect("temp file");
    // JEWELBOT_UNDER_TEST runs the sweep against another build of the binary.
    let binary = std::env::var_os("JEWELBOT_UNDER_TEST")
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_jewelbot").into());
    let mut child = Command::new(binary)
        .args(args)
        .stdin(Stdio::null())
        .stdout(out.try_clone().expect("a handle"))
        .stderr(err.try_clone().expect("a handle"))
        // No window can open: a command that would try fails instead of waiting for a person.
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .spawn()
        .expect("the binary runs");
    let started = Instant::now();
    let hung = loop {
        match child.try_wait() {
            Ok(Some(_)) => break false,
            Ok(None) if started.elapsed() > TIME_LIMIT => break true,
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(error) => panic!("waiting for the binary: {error}"),
        }
    };
    if hung {
        let _ = child.kill();
    }
    let status = child.wait().expect("the child ends");
    let read = |mut file: std::fs::File| {
        use std::io::{Read, Seek};
        let mut text = Vec::new();
        let _ = file.rewind().and_then(|()| file.read_to_end(&mut text));
        String::from_utf8_lossy(&text).into_owned()
    };
    (
        if hung { None } else { status.code() },
        read(out),
        read(err),
    )
}

/// The bad invocations: the lines of `tests/data/bad-invocations.txt` (its head says how they
/// are written), then those a text file cannot hold.
fn invocations(f: &Fixture) -> Vec<Vec<OsString>> {
    let table = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bad-invocations.txt");
    let text = std::fs::read_to_string(&table).expect("the table is part of the source");
    let mut all: Vec<Vec<OsString>> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut lines: Vec<Vec<String>> = vec![Vec::new()];
        for token in line.split_whitespace() {
            let words = alternatives(token)
                .unwrap_or_else(|| panic!("{}:{}: unbalanced group", table.display(), number + 1));
            lines = lines
                .iter()
                .flat_map(|start| {
                    words.iter().map(move |word| {
                        let mut line = start.clone();
                        line.push(word.clone());
                        line
                    })
                })
                .collect();
        }
        all.extend(lines.into_iter().map(|words| {
            words
                .iter()
                .map(|word| OsString::from(resolve(word, f)))
                .collect()
        }));
    }
    // A name far longer than a path may be.
    all.push(vec!["rom-info".into(), "x".repeat(100_000).into()]);
    // Not UTF-8 at all.
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        all.push(vec![
            OsString::from("rom-info"),
            OsString::from_vec(vec![0xFF, 0xFE, b'x']),
        ]);
        all.push(vec![
            OsString::from("--rom"),
            OsString::from_vec(vec![0x80; 10]),
        ]);
    }
    all
}

/// An error is said once, on one line a terminal shows whole (notes may come before it).
fn one_clear_line(stderr: &str) -> bool {
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|line| !line.starts_with("note:") && !line.starts_with("warning:"))
        .collect();
    matches!(errors[..], [line] if line.starts_with("error: ") && line.chars().count() <= 300)
}

/// The words one token of the table stands for: each `(a|b)` group replaced by each of its
/// alternatives, every combination (`None` when a group is not closed).
fn alternatives(token: &str) -> Option<Vec<String>> {
    let Some(open) = token.find('(') else {
        return Some(vec![token.to_owned()]);
    };
    let close = open + token[open..].find(')')?;
    let rest = alternatives(&token[close + 1..])?;
    Some(
        token[open + 1..close]
            .split('|')
            .flat_map(|choice| {
                rest.iter()
                    .map(move |tail| format!("{}{choice}{tail}", &token[..open]))
            })
            .collect(),
    )
}

/// A word of the table as the command line gets it: `''` empty, `@NAME` the fixture's file,
/// and in `AI@@NAME` too (an AI with its file).
fn resolve(word: &str, f: &Fixture) -> String {
    let word = word.replace("''", "");
    if let Some((head, name)) = word.split_once("@@") {
        return format!("{head}@{}", f.path(name));
    }
    match word.strip_prefix('@') {
        Some(name) => f.path(name),
        None => word,
    }
}

#[test]
fn the_table_expands_groups_and_names_files() {
    assert_eq!(
        alternatives("@(a|b)x(1|'')"),
        Some(vec![
            "@ax1".to_owned(),
            "@ax''".to_owned(),
            "@bx1".to_owned(),
            "@bx''".to_owned(),
        ])
    );
    assert_eq!(alternatives("(a|b"), None);
    let fixture = Fixture::new();
    assert_eq!(resolve("''", &fixture), "");
    assert!(resolve("@tiny.nes", &fixture).ends_with("/tiny.nes"));
    assert_eq!(resolve("/dev/zero", &fixture), "/dev/zero");
}

#[test]
fn bad_invocations_end_with_a_message_never_a_panic_or_a_hang() {
    let fixture = Fixture::new();
    fixture.states();
    fixture.movie();
    let before = fixture.contents();
    let invocations = invocations(&fixture);
    assert!(
        invocations.len() >= 110,
        "{} invocations",
        invocations.len()
    );
    let mut failures = Vec::new();
    for args in &invocations {
        let (code, _, stderr) = run(args);
        let shown: Vec<String> = args
            .iter()
            .map(|a| {
                let a = a.to_string_lossy();
                if a.len() > 60 {
                    format!("{}...", &a[..60])
                } else {
                    a.into_owned()
                }
            })
            .collect();
        // Shown with --nocapture: what each refusal said.
        println!(
            "{} -> {code:?}: {}",
            shown.join(" "),
            stderr
                .lines()
                .find(|line| line.starts_with("error"))
                .or_else(|| stderr.lines().next())
                .unwrap_or_default()
        );
        match code {
            None => failures.push(format!("{shown:?}: hung")),
            Some(0) => failures.push(format!("{shown:?}: accepted")),
            Some(101) => failures.push(format!("{shown:?}: exit 101\n{stderr}")),
            Some(_) if stderr.contains("panicked") => {
                failures.push(format!("{shown:?}: panicked\n{stderr}"));
            }
            Some(_) if stderr.trim().is_empty() => {
                failures.push(format!("{shown:?}: refused without a word"));
            }
            Some(_) if !one_clear_line(&stderr) => {
                failures.push(format!("{shown:?}: not one clear line\n{stderr}"));
            }
            Some(_) => {}
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} invocations went wrong:\n{}",
        failures.len(),
        invocations.len(),
        failures.join("\n")
    );
    // Nothing named on those command lines was changed, and nothing was written beside them.
    assert_eq!(fixture.contents(), before);
    println!("{} bad invocations: 0 panics, 0 hangs", invocations.len());
}

/// Worker threads the system will not start (here, for want of memory for their stacks) are
/// one line, with the system's reason said once.
#[cfg(unix)]
#[test]
fn worker_threads_the_system_refuses_are_said_once() {
    let script = "ulimit -v 1500000; exec \"$0\" sim --columns 10 --threads 4096 --quiet";
    let output = Command::new("sh")
        .args(["-c", script, env!("CARGO_BIN_EXE_jewelbot")])
        .output()
        .expect("sh runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(one_clear_line(&stderr), "{stderr}");
    assert!(
        stderr.contains("cannot start 4096 worker threads"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("os error").count(), 1, "{stderr}");
}
