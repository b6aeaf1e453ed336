//! Bad command lines, as an unlucky user or an attacker types them: every one ends within a
//! time limit, with a non-zero exit code and a message, never a panic, and the files named on
//! them are never changed.

mod common;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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
        std::fs::create_dir(dir.path().join("a-directory")).expect("dir");
        std::fs::create_dir(dir.path().join("full-dir")).expect("dir");
        write("full-dir/histogram.csv", b"the user's data");
        let fifo = dir.path().join("fifo");
        let _ = Command::new("mkfifo").arg(&fifo).status();
        Self { dir }
    }

    fn path(&self, name: &str) -> String {
        self.dir.path().join(name).to_string_lossy().into_owned()
    }

    /// A real state of the tiny ROM, and one with a byte changed.
    fn states(&self) {
        use jewelbot_plugin::Machine;
        let rom = jewelbot::rom::RomImage::from_bytes("tiny.nes", &common::tiny_rom())
            .expect("ROM parses");
        let mut session = jewelbot::session::Session::new(
            rom,
            Vec::new(),
            jewelbot::session::SessionConfig::default(),
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

/// The bad invocations, each as words; `{name}` stands for a fixture file.
fn invocations(f: &Fixture) -> Vec<Vec<OsString>> {
    let p = |name: &str| f.path(name);
    let rom = p("tiny.nes");
    let mut lines: Vec<Vec<String>> = Vec::new();
    let mut add = |words: &[&str]| lines.push(words.iter().map(|w| (*w).to_owned()).collect());

    // The command itself.
    add(&["frobnicate"]);
    add(&["--nope"]);
    add(&["run", "--nope"]);
    add(&["rom-info"]);
    add(&["rom-info", &rom, &rom]);
    add(&["run", "--headless"]);
    add(&["help", "frobnicate"]);
    // Numbers: missing, negative, fractional, NaN, infinite, zero where meaningless, too big.
    for frames in [
        "",
        "-1",
        "abc",
        "1.5",
        "NaN",
        "inf",
        "0",
        "99999999999999999999999",
        "0x10",
    ] {
        add(&["run", "--rom", &rom, "--frames", frames]);
    }
    for frame in ["-1", "NaN", "1e3", ""] {
        add(&["ram", "--rom", &rom, "--frame", frame]);
    }
    for scale in ["0", "9", "-3", "NaN"] {
        add(&["--scale", scale]);
    }
    for frames in ["0", "-5", "inf"] {
        add(&[
            "record",
            "--rom",
            &rom,
            "--out",
            &p("new.trace"),
            "--frames",
            frames,
        ]);
    }
    // Plug-in options.
    for mode in ["warp", "", "FAST"] {
        add(&["run", "--rom", &rom, "--frames", "2", "--mode", mode]);
    }
    for strategy in [
        "nope",
        "",
        "deep:0:0",
        "deep:NaN:1",
        "deep:inf",
        "deep:-1:2",
        "deep:99999999999999999999:1",
        "deep:1:1:1:1",
        "deep:",
    ] {
        add(&[
            "run",
            "--rom",
            &rom,
            "--frames",
            "2",
            "--strategy",
            strategy,
        ]);
    }
    for weights in [
        "a-directory",
        "fifo",
        "empty",
        "missing.json",
        "infinite.json",
        "weights.json",
        "value.jwl",
        "not-utf8.txt",
    ] {
        add(&[
            "run",
            "--rom",
            &rom,
            "--frames",
            "2",
            "--weights",
            &p(weights),
        ]);
    }
    add(&[
        "run",
        "--rom",
        &rom,
        "--frames",
        "2",
        "--weights",
        "/dev/zero",
    ]);
    add(&["--ai", "maybe"]);
    // ROMs that are not ROMs.
    for bad in [
        "a-directory",
        "fifo",
        "empty",
        "garbage.nes",
        "truncated.nes",
        "chr256.nes",
        "missing.nes",
    ] {
        add(&["rom-info", &p(bad)]);
        add(&["run", "--rom", &p(bad), "--frames", "2"]);
    }
    for device in ["/dev/null", "/dev/zero", "/dev/urandom"] {
        add(&["rom-info", device]);
        add(&["conform", "--rom", device]);
        add(&["ram", "--rom", device, "--frame", "1"]);
    }
    add(&["rom-info", &"x".repeat(100_000)]);
    add(&["rom-info", "/"]);
    // States that are not this ROM's states.
    for state in [
        "a-directory",
        "fifo",
        "empty",
        "state.garbage",
        "damaged.state",
        "missing.state",
        "tiny.nes",
    ] {
        add(&["run", "--rom", &rom, "--frames", "2", "--state", &p(state)]);
    }
    add(&[
        "run",
        "--rom",
        &rom,
        "--frames",
        "2",
        "--state",
        "/dev/zero",
    ]);
    add(&["run", "--frames", "2", "--state", &p("good.state")]);
    // Outputs that would replace the user's files.
    add(&[
        "run",
        "--rom",
        &rom,
        "--frames",
        "2",
        "--save-state",
        &p("existing.out"),
    ]);
    add(&[
        "run",
        "--rom",
        &rom,
        "--frames",
        "2",
        "--save-state",
        &p("a-directory"),
    ]);
    add(&["run", "--rom", &rom, "--frames", "2", "--force"]);
    add(&[
        "record",
        "--rom",
        &rom,
        "--out",
        &p("existing.out"),
        "--frames",
        "3",
    ]);
    add(&[
        "record",
        "--rom",
        &rom,
        "--out",
        &p("a-directory"),
        "--frames",
        "3",
    ]);
    add(&[
        "record",
        "--rom",
        &rom,
        "--out",
        &p("no-such-dir/x.trace"),
        "--frames",
        "3",
    ]);
    add(&["record", "--rom", &rom, "--frames", "3"]);
    add(&["train", "--out", &p("existing.out")]);
    add(&["learn", "--out", &p("existing.out")]);
    add(&["sim", "--columns", "10", "--out", &p("full-dir")]);
    add(&["sim", "--columns", "10", "--out", &p("existing.out")]);
    // Scripts.
    for script in [
        "script.txt",
        "poke.txt",
        "zero.txt",
        "not-utf8.txt",
        "fifo",
        "a-directory",
        "missing",
    ] {
        add(&[
            "record",
            "--rom",
            &rom,
            "--out",
            &p("new.trace"),
            "--script",
            &p(script),
        ]);
    }
    add(&[
        "record",
        "--rom",
        &rom,
        "--out",
        &p("new.trace"),
        "--script",
        "/dev/zero",
    ]);
    add(&[
        "record",
        "--rom",
        &rom,
        "--out",
        &p("new.trace"),
        "--script",
        &p("script.txt"),
        "--frames",
        "3",
    ]);
    // The lab's numbers.
    for columns in ["0", "-1", "NaN"] {
        add(&["sim", "--columns", columns]);
        add(&[
            "compare",
            "--ai",
            "simple",
            "--ai",
            "smart",
            "--columns",
            columns,
            "--seeds",
            "1",
        ]);
    }
    add(&["sim", "--ai", "nope", "--columns", "10"]);
    add(&["sim", "--columns", "10", "--rules", "arcade"]);
    add(&["sim", "--columns", "10", "--tap-interval", "0"]);
    add(&["sim", "--columns", "10", "--rules", ""]);
    add(&["sim", "--columns", "10", "--objective", "points"]);
    add(&["sim", "--columns", "10", "--objective", ""]);
    // Foresight plays to survive: never quietly in place of the score objective.
    add(&[
        "sim",
        "--columns",
        "10",
        "--foresight",
        "--objective",
        "score",
    ]);
    add(&[
        "compare",
        "--columns",
        "10",
        "--foresight",
        "--foresight-for",
        "b",
        "--objective",
        "survive",
        "--objective",
        "score",
    ]);
    let objectives = ["--objective", "score", "--objective", "survive"];
    add(&[
        &["compare", "--columns", "10"][..],
        &objectives,
        &objectives[..2],
    ]
    .concat());
    add(&[
        "run",
        "--rom",
        &rom,
        "--frames",
        "2",
        "--objective",
        "points",
    ]);
    add(&["sim", "--columns", "10", "--weights", &p("fifo")]);
    add(&[
        "compare",
        "--ai",
        "simple",
        "--columns",
        "10",
        "--seeds",
        "1",
    ]);
    add(&[
        "compare",
        "--ai",
        "simple",
        "--ai",
        "smart",
        "--columns",
        "10",
        "--seeds",
        "0",
    ]);
    add(&["bench", "--columns", "0"]);
    for (flag, value) in [
        ("--alpha", "NaN"),
        ("--alpha", "inf"),
        ("--alpha", "0"),
        ("--gamma", "-1"),
        ("--gamma", "NaN"),
        ("--columns", "0"),
        ("--games", "0"),
    ] {
        add(&[
            "learn",
            "--columns",
            "100",
            flag,
            value,
            "--out",
            &p("new.jwl"),
        ]);
    }
    for (flag, value) in [
        ("--step", "NaN"),
        ("--step", "inf"),
        ("--population", "0"),
        ("--iterations", "0"),
    ] {
        add(&["train", flag, value, "--out", &p("new.json")]);
    }
    add(&[
        "train",
        "--min-columns",
        "100",
        "--max-columns",
        "10",
        "--out",
        &p("new.json"),
    ]);
    let mut all: Vec<Vec<OsString>> = lines
        .into_iter()
        .map(|words| words.into_iter().map(OsString::from).collect())
        .collect();
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

#[test]
fn bad_invocations_end_with_a_message_never_a_panic_or_a_hang() {
    let fixture = Fixture::new();
    fixture.states();
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
