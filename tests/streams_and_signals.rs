//! What a closed pipe, a full disk and a signal do to a command: the conventional exit status,
//! at most one line on standard error, and every file the command was asked for, whole.
#![cfg(target_os = "linux")]

mod common;

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Longer than any of these commands takes to end once told to.
const TIME_LIMIT: Duration = Duration::from_secs(120);

fn jewelbot() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_jewelbot"));
    command.stdin(Stdio::null());
    command
}

/// The exit status, or a failed test when the child does not end in time.
fn wait(child: &mut Child) -> i32 {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("waiting") {
            return status.code().unwrap_or(-1);
        }
        if started.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            panic!("the command did not end within {TIME_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits until process `pid` catches `signal` (Linux lists caught signals in
/// `/proc/PID/status`), so a signal sent then reaches the command's handler and not the
/// default action.
fn wait_for_handler(pid: u32, signal: u32) {
    let started = Instant::now();
    while started.elapsed() < TIME_LIMIT {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let caught = status
            .lines()
            .find_map(|line| line.strip_prefix("SigCgt:"))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .unwrap_or(0);
        if caught & (1 << (signal - 1)) != 0 {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("process {pid} never caught signal {signal}");
}

fn send(signal: &str, pid: u32) {
    let sent = Command::new("kill")
        .args([format!("-{signal}"), pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "kill -{signal} {pid}");
}

fn stderr_of(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

#[test]
fn a_closed_pipe_ends_quietly_with_the_conventional_status() {
    for args in [
        &["run", "--headless", "--frames", "600", "--json"][..],
        &["sim", "--columns", "300", "--quiet"][..],
    ] {
        let mut child = jewelbot()
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        // The reader goes away before the command writes a word.
        drop(child.stdout.take());
        let code = wait(&mut child);
        let mut stderr = String::new();
        if let Some(mut pipe) = child.stderr.take() {
            let _ = pipe.read_to_string(&mut stderr);
        }
        // 128 + SIGPIPE, as a shell's own commands end on a closed pipe; and nothing said.
        assert_eq!(code, 141, "{args:?}: {stderr}");
        assert_eq!(stderr, "", "{args:?}");
    }
}

#[test]
fn a_full_disk_is_one_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    for args in [
        &["run", "--headless", "--frames", "60", "--json"][..],
        &["sim", "--columns", "50", "--quiet"][..],
        &[
            "rom-info",
            concat!(env!("CARGO_MANIFEST_DIR"), "/cartridge/columns.nes"),
        ][..],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full opens");
        let err = dir.path().join("stderr");
        let mut child = jewelbot()
            .args(args)
            .stdout(full)
            .stderr(std::fs::File::create(&err).expect("created"))
            .spawn()
            .expect("the binary runs");
        let code = wait(&mut child);
        let stderr = stderr_of(&err);
        assert_eq!(code, 1, "{args:?}: {stderr}");
        assert_eq!(
            stderr,
            "error: cannot write to standard output: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
}

/// jewelbot with `args` (shell words), no file it writes allowed past `bytes` (as on a full
/// disk; the signal that limit raises ignored, so that the write fails instead).
#[cfg(unix)]
fn with_file_size_limit(bytes: u64, args: &str) -> std::process::Output {
    let script = format!("trap '' XFSZ; exec prlimit --fsize={bytes} \"$0\" {args}");
    Command::new("sh")
        .args(["-c", &script, env!("CARGO_BIN_EXE_jewelbot")])
        .output()
        .expect("sh runs")
}

/// A file that cannot grow (here past a file-size limit in bytes, `prlimit`'s, as on a full
/// disk) is named in the one line that says so, and nothing half-written is left.
#[cfg(unix)]
#[test]
fn an_output_that_cannot_grow_is_named() {
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("ram.log");
    let output = with_file_size_limit(
        8192,
        &format!(
            "run --headless --frames 400 --ram-log '{}' --ram-log-every 1",
            log.display()
        ),
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(
        errors[0].contains(&log.display().to_string()) && errors[0].contains("too large"),
        "{stderr}"
    );
    // Nothing half-written is left under the log's name.
    assert!(!log.exists(), "{stderr}");

    // An output written at the end that cannot be: the summary is printed all the same, and
    // the other outputs are written.
    let movie = dir.path().join("run.fm2");
    let state = dir.path().join("end.state");
    let output = with_file_size_limit(
        25_000,
        &format!(
            "run --headless --frames 2000 --json --record-movie '{}' --save-state '{}'",
            movie.display(),
            state.display()
        ),
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let summary: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("the summary, as JSON");
    assert_eq!(summary["last_frame"], 2000, "{summary}");
    assert!(stderr.contains(&movie.display().to_string()), "{stderr}");
    assert!(state.exists(), "{stderr}");
    assert!(!movie.exists(), "{stderr}");
}

/// A run stopped by `signal` after it has played a while: the exit status, and each output
/// whole (the movie a valid fm2 of every frame played, the GIF closed, the state and the
/// last checkpoint loadable, the summary printed).
fn interrupted_run(signal: &str, number: u32, status: i32) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = |name: &str| dir.path().join(name);
    let arg = |name: &str| path(name).to_string_lossy().into_owned();
    let mut child = jewelbot()
        .args(["run", "--headless", "--frames", "100000000", "--json"])
        .args(["--mode", "fast", "--gif-every", "20"])
        .args([
            "--record-movie",
            &arg("movie.fm2"),
            "--gif",
            &arg("run.gif"),
        ])
        .args(["--save-state", &arg("end.state")])
        .args([
            "--checkpoint",
            &arg("run.checkpoint"),
            "--checkpoint-every",
            "300",
        ])
        .stdout(std::fs::File::create(path("stdout")).expect("created"))
        .stderr(std::fs::File::create(path("stderr")).expect("created"))
        .spawn()
        .expect("the binary runs");
    wait_for_handler(child.id(), number);
    // Past the first checkpoint, so there is one to resume.
    let started = Instant::now();
    while !path("run.checkpoint").exists() && started.elapsed() < TIME_LIMIT {
        std::thread::sleep(Duration::from_millis(50));
    }
    send(signal, child.id());
    let code = wait(&mut child);
    let stderr = stderr_of(&path("stderr"));
    assert_eq!(code, status, "SIG{signal}: {stderr}");

    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path("stdout")).expect("stdout"))
            .unwrap_or_else(|e| panic!("SIG{signal}: the summary is JSON: {e}\n{stderr}"));
    assert_eq!(
        summary["ended"]["interrupted"],
        format!("SIG{signal}"),
        "{summary}"
    );
    let frames = summary["last_frame"].as_u64().expect("a last frame");
    assert!(frames >= 300, "SIG{signal}: {frames} frames");

    let movie = std::fs::read_to_string(path("movie.fm2")).expect("the movie was written");
    let movie = jewelbot_host::movie::Movie::parse(&movie).expect("the movie is valid fm2");
    assert_eq!(movie.frames.len() as u64, frames, "SIG{signal}");

    let gif = std::fs::read(path("run.gif")).expect("the GIF was written");
    assert_eq!(
        gif.last(),
        Some(&0x3B),
        "SIG{signal}: the GIF has its trailer"
    );
    let mut decoder = gif::DecodeOptions::new()
        .read_info(gif.as_slice())
        .expect("a GIF header");
    let mut pictures = 0;
    while decoder
        .read_next_frame()
        .expect("a picture decodes")
        .is_some()
    {
        pictures += 1;
    }
    assert!(pictures >= 15, "SIG{signal}: {pictures} pictures");

    // The state and the checkpoint both start a run.
    for state in ["end.state", "run.checkpoint"] {
        let (code, _, stderr) = common::jewelbot(&[
            "run",
            "--headless",
            "--state",
            &arg(state),
            "--frames",
            &(frames + 60).to_string(),
        ]);
        assert_eq!(code, 0, "SIG{signal}: {state}: {stderr}");
    }
}

/// A signal before the first checkpoint is due still leaves one: at the first frame from the
/// signal on where the plug-ins can give their state, and the run ends there.
#[test]
fn a_stopped_run_writes_a_last_checkpoint() {
    let dir = tempfile::tempdir().expect("temp dir");
    let checkpoint = dir.path().join("run.checkpoint");
    let stdout = dir.path().join("stdout");
    let mut child = jewelbot()
        .args(["run", "--headless", "--frames", "100000000", "--json"])
        .args(["--mode", "fast", "--checkpoint-every", "10000000"])
        .arg("--checkpoint")
        .arg(&checkpoint)
        .stdout(std::fs::File::create(&stdout).expect("created"))
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    wait_for_handler(child.id(), 2);
    std::thread::sleep(Duration::from_millis(1500));
    send("INT", child.id());
    assert_eq!(wait(&mut child), 130);
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stdout).expect("stdout")).expect("JSON");
    let last = summary["last_frame"].as_u64().expect("a last frame");
    assert!(last > 100, "{summary}");
    assert_eq!(summary["checkpoints"], 1, "{summary}");
    assert_eq!(
        summary["last_checkpoint_frame"].as_u64(),
        Some(last),
        "{summary}"
    );
    let (code, _, stderr) = common::jewelbot(&[
        "run",
        "--headless",
        "--state",
        checkpoint.to_str().expect("UTF-8"),
        "--frames",
        "60",
    ]);
    assert_eq!(code, 0, "{stderr}");
}

/// A signal stops a `horizon` of hours where it is: its checkpoint holds every column played,
/// so that nothing is lost, and its report names the start as stopped.
#[test]
fn a_stopped_horizon_keeps_every_column_in_its_checkpoint() {
    let dir = tempfile::tempdir().expect("temp dir");
    let checkpoints = dir.path().join("ck");
    let stdout = dir.path().join("stdout");
    let mut child = jewelbot()
        .args([
            "horizon",
            "--ai",
            "simple",
            "--max-columns",
            "100000000",
            "--json",
        ])
        .args(["--threads", "1", "--checkpoint-every", "86400"])
        .arg("--checkpoint")
        .arg(&checkpoints)
        .stdout(std::fs::File::create(&stdout).expect("created"))
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    wait_for_handler(child.id(), 15);
    std::thread::sleep(Duration::from_millis(1500));
    send("TERM", child.id());
    assert_eq!(wait(&mut child), 143);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stdout).expect("stdout")).expect("JSON");
    let result = &report["results"][0];
    assert_eq!(result["outcome"], "stopped", "{report}");
    assert_eq!(report["stopped"], 1, "{report}");
    let columns = result["columns"].as_u64().expect("columns");
    assert!(columns > 0, "{report}");
    let head: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(checkpoints.join("start-adad.json")).expect("the head"),
    )
    .expect("JSON");
    assert_eq!(head["columns"].as_u64(), Some(columns), "{head}");
}

#[test]
fn sigint_ends_a_run_with_every_output_whole() {
    interrupted_run("INT", 2, 130);
}

#[test]
fn sigterm_ends_a_run_with_every_output_whole() {
    interrupted_run("TERM", 15, 143);
}

#[test]
fn sigterm_ends_a_recording_with_the_trace_so_far() {
    let dir = tempfile::tempdir().expect("temp dir");
    let trace = dir.path().join("run.trace.gz");
    let err = dir.path().join("stderr");
    let mut child = jewelbot()
        .args(["record", "--frames", "10000000", "--out"])
        .arg(&trace)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&err).expect("created"))
        .spawn()
        .expect("the binary runs");
    wait_for_handler(child.id(), 15);
    std::thread::sleep(Duration::from_millis(1500));
    send("TERM", child.id());
    let code = wait(&mut child);
    let stderr = stderr_of(&err);
    assert_eq!(code, 143, "{stderr}");
    assert!(stderr.contains("SIGTERM stopped the recording"), "{stderr}");
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&trace).expect("the trace was written"))
        .read_to_string(&mut text)
        .expect("whole gzip");
    let parsed = jewelbot_plugin::Trace::parse(&text).expect("a valid trace");
    assert!(!parsed.frames.is_empty(), "{stderr}");
}

#[test]
fn pokes_past_the_last_frame_are_named() {
    let (code, _, stderr) = common::jewelbot(&[
        "run",
        "--headless",
        "--frames",
        "10",
        "--poke",
        "500:$80=01",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("--poke 500:$0080=01 was not applied: the run ended at frame 10"),
        "{stderr}"
    );
}

/// A signal ends a bot's run like any other, with its movie whole, and the bot's process goes
/// with it: told the run is over, it exits, and nothing of it is left.
#[test]
fn sigterm_ends_a_bots_run_and_leaves_no_bot_behind() {
    let dir = tempfile::tempdir().expect("temp dir");
    let movie = dir.path().join("movie.fm2");
    let bot = format!(
        "python3 {}/examples/bots/columns.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut child = jewelbot()
        .args(["run", "--headless", "--frames", "100000000", "--json"])
        .args(["--bot", &bot, "--record-movie"])
        .arg(&movie)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    wait_for_handler(child.id(), 15);
    // The bot is the command's child once the ROM is loaded.
    let children = format!("/proc/{0}/task/{0}/children", child.id());
    let started = Instant::now();
    let bot_pid = loop {
        let listed = std::fs::read_to_string(&children).unwrap_or_default();
        if let Some(pid) = listed.split_whitespace().next() {
            break pid.to_owned();
        }
        assert!(started.elapsed() < TIME_LIMIT, "no bot process started");
        std::thread::sleep(Duration::from_millis(20));
    };
    std::thread::sleep(Duration::from_millis(500));
    send("TERM", child.id());
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut stdout)
        .expect("the summary");
    assert_eq!(wait(&mut child), 143);
    let summary: serde_json::Value = serde_json::from_str(&stdout).expect("a JSON summary");
    assert_eq!(summary["ended"]["interrupted"], "SIGTERM", "{summary}");
    let frames = summary["last_frame"].as_u64().expect("a last frame");
    let movie = std::fs::read_to_string(&movie).expect("the movie was written");
    let movie = jewelbot_host::movie::Movie::parse(&movie).expect("the movie is valid fm2");
    assert_eq!(movie.frames.len() as u64, frames);
    assert!(
        gone_soon(&bot_pid).is_none(),
        "the bot's process {bot_pid} is still there"
    );
}

/// `None` once process `pid` is gone (or a zombie), or what `/proc` still says of it after a
/// few seconds: a process killed with SIGKILL dies when it is next scheduled, which on a busy
/// machine may come after the run that killed it has ended.
fn gone_soon(pid: &str) -> Option<String> {
    let began = Instant::now();
    loop {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let zombie = stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z'));
        if stat.is_empty() || zombie {
            return None;
        }
        if began.elapsed() > Duration::from_secs(5) {
            return Some(stat);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A bot stuck in any way ends with the run: one that never answers (waited for up to ten
/// minutes a frame) and ignores SIGTERM, with a child of its own. SIGTERM to jewelbot ends the
/// wait at once, the run writes its summary, and the bot's whole process group is killed.
#[test]
fn sigterm_ends_a_run_whose_bot_never_answers_and_leaves_nothing_of_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pids = dir.path().join("pids");
    let bot = format!(
        "sh -c \"trap '' TERM INT; sleep 1000 & echo $$ $! > '{}'; read welcome; \
         echo '{{\\\"type\\\": \\\"hello\\\", \\\"protocol\\\": 1, \\\"events\\\": [\\\"frame\\\"]}}'; \
         while :; do sleep 1; done\"",
        pids.display()
    );
    let mut child = jewelbot()
        .args(["run", "--headless", "--frames", "100000000", "--json"])
        .args(["--bot", &bot, "--bot-timeout", "600"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    wait_for_handler(child.id(), 15);
    let started = Instant::now();
    while std::fs::read_to_string(&pids)
        .unwrap_or_default()
        .split_whitespace()
        .count()
        < 2
    {
        assert!(started.elapsed() < TIME_LIMIT, "the bot never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Past its hello: the host waits for its answer to frame 0.
    std::thread::sleep(Duration::from_millis(300));
    send("TERM", child.id());
    let signalled = Instant::now();
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut stdout)
        .expect("the summary");
    let code = wait(&mut child);
    let took = signalled.elapsed();
    let mut stderr = String::new();
    let _ = child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr);
    assert_eq!(code, 143, "{stderr}");
    // The wait ends at once; the bot, told the run is over, has a second to exit.
    assert!(
        took < Duration::from_secs(10),
        "{took:?} after SIGTERM: {stderr}"
    );
    let summary: serde_json::Value = serde_json::from_str(&stdout).expect("a JSON summary");
    assert_eq!(summary["ended"]["interrupted"], "SIGTERM", "{summary}");
    assert!(
        summary["bot_stopped"].as_str().is_some_and(
            |why| why.contains("told to stop while it waited for its answer to frame 0")
        ),
        "{summary}"
    );
    let pids = std::fs::read_to_string(&pids).expect("the bot wrote its pids");
    for pid in pids.split_whitespace() {
        if let Some(stat) = gone_soon(pid) {
            panic!("process {pid} of the bot is still there: {stat}");
        }
    }
}

/// The sockets among process `pid`'s open files.
fn sockets_of(pid: u32) -> Vec<String> {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|entry| std::fs::read_link(entry.path()).ok())
                .map(|target| target.display().to_string())
                .filter(|target| target.starts_with("socket:"))
                .collect()
        })
        .unwrap_or_default()
}

/// A script or a bot over pipes gives no way in from outside: the command holds no socket
/// while it runs one (and so listens on none).
#[test]
fn a_run_with_a_script_or_a_bot_opens_no_socket() {
    let dir = tempfile::tempdir().expect("temp dir");
    let script = dir.path().join("loop.lua");
    std::fs::write(&script, "while true do emu.frameadvance() end\n").expect("the script");
    let bot = format!(
        "python3 {}/examples/bots/columns.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let script = script.display().to_string();
    for player in [["--lua", script.as_str()], ["--bot", bot.as_str()]] {
        let mut child = jewelbot()
            .args(["run", "--headless", "--frames", "100000000"])
            .args(player)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary runs");
        wait_for_handler(child.id(), 15);
        std::thread::sleep(Duration::from_millis(500));
        let sockets = sockets_of(child.id());
        send("TERM", child.id());
        assert_eq!(wait(&mut child), 143);
        assert!(sockets.is_empty(), "{player:?}: {sockets:?}");
    }
}
