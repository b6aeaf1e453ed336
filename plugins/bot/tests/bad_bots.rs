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

#[test]
fn a_bot_that_cannot_start_is_not_running_and_the_ai_plays() {
    let session = play(vec!["/nonexistent/bot".into()], 900);
    let bot = &session.plugins().slots()[1];
    let state = format!("{:?}", bot.state());
    assert!(
        state.contains("cannot start the bot `/nonexistent/bot`"),
        "{state}"
    );
    assert!(session.plugins().stat("columns_placed").unwrap_or(0) >= 2);
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
