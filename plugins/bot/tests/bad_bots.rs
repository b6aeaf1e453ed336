//! The bad-bot table (`docs/bot-protocol.md`, "When a bot misbehaves"): each way a bot can fail
//! stops it with one message saying how, the game goes on with the controller back to the AI,
//! and its process is gone (reaped, not a zombie).

mod common;

use jewelbot_bot::Target;
use jewelbot_host::session::Session;
use std::path::Path;
use std::time::Duration;

/// A Python bot: its hello, then `body` for each message `m` (`say` writes a line).
fn python_bot(hello: &str, body: &str) -> Vec<String> {
    let code = format!(
        "import sys, json, time\n\
         def say(m): print(m if isinstance(m, str) else json.dumps(m), flush=True)\n\
         welcome = json.loads(sys.stdin.readline())\n\
         say({hello})\n\
         for line in sys.stdin:\n\
         \x20   m = json.loads(line)\n\
         \x20   if m['type'] == 'bye': break\n\
         {body}\n"
    );
    vec!["python3".into(), "-c".into(), code]
}

const HELLO: &str = r#"{"type": "hello", "protocol": 1, "events": ["power_on", "spawn"]}"#;
const EVERY_FRAME: &str = r#"{"type": "hello", "protocol": 1, "events": ["frame"]}"#;

/// The cartridge with the Magic Jewelry plug-in and the bot, run `frames` frames.
fn play(words: Vec<String>, frames: u32) -> Session {
    let mut session = common::session(Target::Command(words), false, Duration::from_secs(2));
    common::run(&mut session, frames);
    session
}

/// Why the bot stopped, from its status line (`None` while it plays).
fn stopped(session: &Session) -> Option<String> {
    let bot = &session.plugins().slots()[1];
    bot.status()
        .lines
        .iter()
        .find_map(|line| line.strip_prefix("bot stopped: "))
        .map(str::to_owned)
}

/// The bot stopped saying `why`, the AI took the controller back and placed columns.
fn assert_stopped_and_the_ai_plays(session: &Session, why: &str) {
    let reason = stopped(session).expect("the bot stopped");
    assert!(reason.contains(why), "stopped for: {reason}");
    assert_eq!(
        session.plugins().holder(),
        None,
        "nobody holds the controller alone"
    );
    let placed = session.plugins().stat("columns_placed").unwrap_or(0);
    assert!(
        placed >= 2,
        "the AI placed {placed} columns after the bot stopped"
    );
}

/// A bot whose program writes its process id to `pid_file` first, then runs `words`.
fn with_pid_file(pid_file: &Path, words: Vec<String>) -> Vec<String> {
    let mut wrapped = vec![
        "sh".into(),
        "-c".into(),
        format!("echo $$ > '{}' && exec \"$@\"", pid_file.display()),
        "sh".into(),
    ];
    wrapped.extend(words);
    wrapped
}

/// The process is gone: neither running nor a zombie waiting to be reaped.
fn assert_reaped(pid_file: &Path) {
    let pid = std::fs::read_to_string(pid_file).expect("the bot wrote its process id");
    let proc = format!("/proc/{}", pid.trim());
    assert!(!Path::new(&proc).exists(), "{proc} is still there");
}

/// The bot's figures as `run --json` prints them.
fn summary(session: &Session) -> serde_json::Map<String, serde_json::Value> {
    jewelbot_host::headless::plugin_summaries(session)
        .into_iter()
        .find(|plugin| plugin.name == "bot")
        .expect("the bot's summary")
        .stats
}

/// Whether process `pid` is gone (reaped, or dead and waiting for whoever adopted it to reap
/// it), looking for up to half a second.
fn gone(pid: &str) -> bool {
    for _ in 0..50 {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // `PID (COMMAND) STATE …`: a zombie is `Z`.
        let state = stat.rsplit_once(") ").map(|(_, rest)| rest.chars().next());
        if stat.is_empty() || state == Some(Some('Z')) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

/// A folder of the test's own, emptied.
fn temp_dir(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("jewelbot-bot-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_bot_that_cannot_start_is_stopped_saying_why_and_the_ai_plays() {
    let session = play(vec!["/nonexistent/bot".into()], 900);
    let bot = &session.plugins().slots()[1];
    let state = format!("{:?}", bot.state());
    assert!(
        state.contains("cannot start the bot `/nonexistent/bot`"),
        "{state}"
    );
    assert_stopped_and_the_ai_plays(&session, "cannot start the bot `/nonexistent/bot`");
    // `run --json` says why in `bot_stopped`, as for any bot that is stopped.
    let stopped = summary(&session)["bot_stopped"].clone();
    assert!(
        stopped
            .as_str()
            .is_some_and(|why| why.starts_with("cannot start the bot `/nonexistent/bot`: ")),
        "{stopped}"
    );
    // A program that is there but cannot be run: the same.
    let dir = temp_dir("not-executable");
    let program = dir.join("bot.sh");
    std::fs::write(&program, "#!/bin/sh\n").unwrap();
    let session = play(vec![program.to_string_lossy().into_owned()], 900);
    assert_stopped_and_the_ai_plays(&session, "Permission denied");
    assert!(summary(&session)["bot_stopped"]
        .as_str()
        .is_some_and(|why| why.contains("cannot start the bot")));
    let _ = std::fs::remove_dir_all(dir);
}

/// A bot's process group goes with it: what it forked is killed when the bot is stopped, and
/// when the run ends (the plug-in dropped) after a bot that said goodbye properly.
#[test]
fn what_a_bot_forks_does_not_outlive_it() {
    let dir = temp_dir("forks");
    let forked = dir.join("forked");
    // A shell bot that leaves a `sleep` behind (holding its pipes open), then plays: it
    // answers each message, and exits at the bye.
    let bot = |forked: &Path, answer: &str| -> Vec<String> {
        vec![
            "sh".into(),
            "-c".into(),
            format!(
                "sleep 1000 & echo $! > '{}'\n\
                 read welcome\n\
                 echo '{{\"type\": \"hello\", \"protocol\": 1, \"events\": [\"power_on\", \"spawn\"]}}'\n\
                 while read line; do\n\
                 \x20 case \"$line\" in *'\"bye\"'*) exit 0;; esac\n\
                 \x20 frame=$(echo \"$line\" | sed 's/.*\"frame\": *\\([0-9]*\\).*/\\1/')\n\
                 \x20 {answer}\n\
                 done\n",
                forked.display()
            ),
        ]
    };
    let plays = play(
        bot(
            &forked,
            r#"echo "{\"type\": \"answer\", \"frame\": $frame}""#,
        ),
        300,
    );
    assert_eq!(stopped(&plays), None, "the shell bot plays");
    let pid = std::fs::read_to_string(&forked).expect("the bot forked");
    let pid = pid.trim();
    assert!(!gone(pid), "the forked process runs while the bot plays");
    drop(plays);
    assert!(
        gone(pid),
        "process {pid}, which the bot forked, outlives the run"
    );

    let stopped_bot = play(bot(&forked, "echo 'LEFT please'"), 900);
    assert_stopped_and_the_ai_plays(&stopped_bot, "the bot wrote a line that is not JSON");
    let pid = std::fs::read_to_string(&forked).expect("the bot forked");
    let pid = pid.trim();
    assert!(
        gone(pid),
        "process {pid}, which the stopped bot forked, is still there"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A bot's standard error is read in bounded pieces: a line of 256 MiB without a newline costs
/// the host a few KiB (the peak of this process, which other tests share, must not grow by
/// anything near it), is shown cut, and the lines after it are still read.
#[test]
fn standard_error_without_end_of_line_is_read_in_bounded_pieces() {
    fn peak_kib() -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmHWM:"))
            .and_then(|kib| kib.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    }
    let before = peak_kib();
    // Waited for as long as the reading takes (the tests' build is not optimised).
    let mut session = common::session(
        Target::Command(vec![
            "sh".into(),
            "-c".into(),
            "head -c 268435456 /dev/zero | tr '\\0' x >&2\n\
             printf '\\nand\\nthen\\nthis\\n' >&2\n\
             exit 3"
                .into(),
        ]),
        false,
        Duration::from_secs(60),
    );
    common::run(&mut session, 10);
    let reason = stopped(&session).expect("the bot stopped");
    assert!(
        reason.contains("the bot exited (exit status: 3); its last words: and / then / this"),
        "{reason}"
    );
    let grown = peak_kib().saturating_sub(before);
    assert!(
        grown < 96 << 10,
        "reading the bot's standard error took {grown} KiB"
    );
}

/// A line of standard error that is not UTF-8 is shown with replacement characters, and the
/// bot's standard error is still read after it: the bot plays on, however much it writes.
#[test]
fn standard_error_that_is_not_utf8_is_shown_and_read_on() {
    let last_words = play(
        vec![
            "sh".into(),
            "-c".into(),
            "printf '\\377\\376 not UTF-8\\n' >&2; sleep 0.2; printf 'leaving\\n' >&2; exit 3"
                .into(),
        ],
        100,
    );
    let reason = stopped(&last_words).expect("the bot stopped");
    assert!(
        reason.contains(
            "the bot exited (exit status: 3); its last words: \u{fffd}\u{fffd} not UTF-8 / leaving"
        ),
        "{reason}"
    );
    // Every 50 frames a bad line and 1 MiB more of standard error: far more than a pipe holds.
    let plays_on = play(
        python_bot(
            EVERY_FRAME,
            "    if m['frame'] % 50 == 0: sys.stderr.buffer.write(b'\\xff bad\\n' + b'more\\n' * 200000); sys.stderr.flush()\n\
             \x20   say({'type': 'answer', 'frame': m['frame']})",
        ),
        300,
    );
    assert_eq!(stopped(&plays_on), None);
    assert_eq!(plays_on.plugins().holder(), Some("bot"));
    // Power-on, then every frame run.
    assert_eq!(plays_on.plugins().stat("bot_answers"), Some(301));
}

/// The states a bot keeps are bounded: a bot saving under a new name every frame is stopped at
/// the bound, saying it; one saving under the same name every frame plays on.
#[test]
fn saved_states_are_bounded() {
    let hoarder = play(
        python_bot(
            EVERY_FRAME,
            "    say({'type': 'answer', 'frame': m['frame'], 'save': 's%d' % m['frame']})",
        ),
        jewelbot_bot::MAX_STATES as u32 + 900,
    );
    assert_stopped_and_the_ai_plays(
        &hoarder,
        &format!(
            "the bot saves a state under a new name, `s{0}`, when it keeps {0} already: at most {0} states are kept",
            jewelbot_bot::MAX_STATES
        ),
    );
    // Saves every frame under one name, and goes back to it now and then.
    let one_name = play(
        python_bot(
            EVERY_FRAME,
            "    say({'type': 'answer', 'frame': m['frame'], 'save': 'here', 'load': 'here' if m['frame'] % 500 == 499 else None})",
        ),
        jewelbot_bot::MAX_STATES as u32 + 100,
    );
    assert_eq!(stopped(&one_name), None);
    assert_eq!(
        one_name.plugins().stat("bot_answers"),
        Some(jewelbot_bot::MAX_STATES as i64 + 101)
    );
}

#[test]
fn a_bot_that_exits_is_reaped_with_its_last_words() {
    let dir = std::env::temp_dir().join(format!("jewelbot-bot-exits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pid_file = dir.join("pid");
    let bot = python_bot(
        HELLO,
        "    sys.stderr.write('out of ideas\\n'); sys.exit(3)",
    );
    let session = play(with_pid_file(&pid_file, bot), 900);
    assert_stopped_and_the_ai_plays(&session, "the bot exited (exit status: 3)");
    assert!(stopped(&session)
        .unwrap()
        .contains("its last words: out of ideas"));
    assert_reaped(&pid_file);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_bot_that_hangs_is_given_up_after_the_timeout_and_killed() {
    let dir = std::env::temp_dir().join(format!("jewelbot-bot-hangs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pid_file = dir.join("pid");
    let bot = python_bot(HELLO, "    time.sleep(3600)");
    let session = play(with_pid_file(&pid_file, bot), 900);
    assert_stopped_and_the_ai_plays(
        &session,
        "the bot did not send its answer to frame 0 within 2 s",
    );
    assert_reaped(&pid_file);
    let silent = play(vec!["sleep".into(), "3600".into()], 900);
    assert_stopped_and_the_ai_plays(&silent, "the bot did not send its hello within 2 s");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_line_that_is_not_json_or_not_the_protocol_stops_the_bot_quoting_it() {
    let cases = [
        (
            "    say('LEFT please')",
            "the bot wrote a line that is not JSON",
        ),
        (
            "    say({'type': 'answer', 'buttons': ['L']})",
            "is not the protocol's (missing field `frame`",
        ),
        (
            "    say({'type': 'answer', 'frame': m['frame'], 'button': ['L']})",
            "unknown field `button`",
        ),
        (
            "    say({'type': 'answer', 'frame': m['frame'], 'buttons': ['Q']})",
            "buttons `Q`",
        ),
        (
            "    say({'type': 'answer', 'frame': m['frame'], 'load': 'nowhere'})",
            "loads the state `nowhere`, which it never saved",
        ),
    ];
    for (body, why) in cases {
        let session = play(python_bot(HELLO, body), 900);
        assert_stopped_and_the_ai_plays(&session, why);
        assert!(stopped(&session).unwrap().contains("it wrote: "), "{body}");
    }
    let wrong_version = play(
        python_bot(r#"{"type": "hello", "protocol": 9}"#, "    pass"),
        900,
    );
    assert_stopped_and_the_ai_plays(&wrong_version, "the bot speaks protocol 9");
}

#[test]
fn addresses_out_of_range_are_refused() {
    let reads = play(
        python_bot(
            r#"{"type": "hello", "protocol": 1, "ram": [[0, 70000]]}"#,
            "    pass",
        ),
        900,
    );
    assert_stopped_and_the_ai_plays(&reads, "the bot asks to read [0, 70000]");
    let pokes = play(
        python_bot(
            HELLO,
            "    say({'type': 'answer', 'frame': m['frame'], 'poke': [[8192, 1]]})",
        ),
        900,
    );
    assert_stopped_and_the_ai_plays(&pokes, "the bot pokes 1 at 8192");
}

#[test]
fn a_bot_that_floods_is_stopped() {
    // Answers every message twice: the second is read as the next message's answer.
    let twice = play(
        python_bot(
            EVERY_FRAME,
            "    say({'type': 'answer', 'frame': m['frame']}); say({'type': 'answer', 'frame': m['frame']})",
        ),
        900,
    );
    assert_stopped_and_the_ai_plays(
        &twice,
        "the bot answered frame 0 where frame 1 was asked (does it answer twice?)",
    );
    // One endless line.
    let endless = play(
        python_bot(
            HELLO,
            "    sys.stdout.write('[' * (3 << 20)); sys.stdout.flush(); time.sleep(60)",
        ),
        900,
    );
    assert_stopped_and_the_ai_plays(&endless, "the bot wrote a line of more than 1024 KiB: [[[[");
    // Lines without end, unasked.
    let dir = std::env::temp_dir().join(format!("jewelbot-bot-floods-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pid_file = dir.join("pid");
    let stream = play(
        with_pid_file(
            &pid_file,
            python_bot(
                EVERY_FRAME,
                "    while True: say({'type': 'answer', 'frame': m['frame']})",
            ),
        ),
        900,
    );
    assert_stopped_and_the_ai_plays(&stream, "does it answer twice?");
    assert_reaped(&pid_file);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_bot_that_never_reads_its_input_cannot_block_the_emulator() {
    // Every frame, the whole bus: 128 KiB lines into a pipe nobody empties.
    let session = play(
        vec![
            "python3".into(),
            "-c".into(),
            "import sys, time\n\
             sys.stdin.readline()\n\
             print('{\"type\": \"hello\", \"protocol\": 1, \"events\": [\"frame\"], \"ram\": [[0, 65535]]}', flush=True)\n\
             time.sleep(3600)\n"
                .into(),
        ],
        900,
    );
    assert_stopped_and_the_ai_plays(
        &session,
        "the bot did not send its answer to frame 0 within 2 s",
    );
}
