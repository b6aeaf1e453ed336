//! Bots that behave: the example bots play the open cartridge, the same game every time in
//! lockstep; every part of an answer does what the protocol says; real time and TCP work.

mod common;

use common::run;
use jewelbot_bot::Target;
use jewelbot_host::session::Session;
use std::path::PathBuf;
use std::time::Duration;

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/bots")
}

fn session(target: Target, realtime: bool) -> Session {
    common::session(target, realtime, Duration::from_secs(10))
}

fn stat(session: &Session, key: &str) -> i64 {
    session.plugins().stat(key).unwrap_or(-1)
}

/// The game's RAM and counters after a bot's `frames` frames.
fn game_of(words: &[&str], frames: u32) -> (Vec<u8>, i64, i64, i64) {
    let mut session = session(
        Target::Command(words.iter().map(|&w| w.to_owned()).collect()),
        false,
    );
    run(&mut session, frames);
    assert_eq!(
        session.plugins().holder(),
        Some("bot"),
        "the bot still plays"
    );
    (
        session.ram().to_vec(),
        stat(&session, "columns_placed"),
        stat(&session, "game_overs"),
        stat(&session, "score"),
    )
}

#[test]
fn the_python_example_plays_the_same_game_twice() {
    let script = examples().join("columns.py");
    let words = ["python3", script.to_str().unwrap()];
    let first = game_of(&words, 4000);
    let (_, columns, game_overs, score) = first.clone();
    // The game starts at frame 15; a column takes some 30 frames to drop and lock, and each
    // match step 86 more. A changed count is a changed bot, host or cartridge.
    assert_eq!(columns, 41, "columns placed in 4,000 frames");
    assert_eq!(game_overs, 0);
    assert!(score > 0);
    assert_eq!(
        game_of(&words, 4000),
        first,
        "lockstep: the same game again"
    );
}

#[test]
fn the_shell_example_plays() {
    let script = examples().join("lowest.sh");
    let (_, columns, _, _) = game_of(&["bash", script.to_str().unwrap()], 3000);
    assert!(columns >= 50, "{columns} columns");
}

/// A bot that tries each part of an answer at set frames and reports what it saw in its
/// status lines.
const PROBE: &str = r##"
import sys, json
def say(m): print(json.dumps(m), flush=True)
sys.stdin.readline()
say({"type": "hello", "protocol": 1, "name": "probe", "events": ["power_on", "reset"],
     "ram": [[1024, 1025], [65532, 65533]], "views": True})
seen = []
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "bye": break
    a = {"type": "answer", "frame": m["frame"]}
    f = m["frame"]
    if "power_on" in m["events"]:
        seen.append("power_on at %d, reset vector %s" % (f, m["ram"][1]))
        a.update(save="boot", wake=5, buttons=["-*8", "S"])
    elif "reset" in m["events"]:
        seen.append("reset at %d, $0400 = %s" % (f, m["ram"][0][:2]))
    elif f == 5:
        seen.append("woke at 5, phase %s" % m["views"]["magic-jewelry"]["phase"])
        a.update(poke=[[1024, 66]], wake=1,
                 draw=[{"box": [10, 10, 20, 20], "outline": "#ff0000"},
                       {"text": "hi", "at": [0, 0]}])
    elif f == 6:
        seen.append("$0400 = %s" % m["ram"][0][:2])
        a.update(wake=100)
    elif f == 106:
        a.update(load="boot")
    a["status"] = seen[-4:]
    say(a)
"##;

#[test]
fn an_answer_reads_pokes_draws_wakes_saves_and_loads() {
    let mut session = session(
        Target::Command(vec!["python3".into(), "-c".into(), PROBE.into()]),
        false,
    );
    run(&mut session, 6);
    let bot = &session.plugins().slots()[1];
    assert_eq!(bot.status().drawings.len(), 2, "the box and the text");
    run(&mut session, 110);
    let lines = session.plugins().slots()[1].status().lines.clone();
    assert!(
        lines[0].starts_with("bot probe (lockstep): 5 answers, the last in "),
        "{}",
        lines[0]
    );
    let lines = lines[1..].to_vec();
    let cartridge_reset_vector = {
        let prg =
            &jewelbot_cartridge::ROM[16..16 + 0x4000 * usize::from(jewelbot_cartridge::ROM[4])];
        let at = prg.len() - 4;
        format!("{:02x}{:02x}", prg[at], prg[at + 1])
    };
    assert_eq!(
        lines,
        vec![
            format!("power_on at 0, reset vector {cartridge_reset_vector}"),
            "woke at 5, phase setup".to_owned(),
            "$0400 = 42".to_owned(),
            // Back to frame 0's state (the next frame shown is 1): the poke is undone, and the bot
            // hears of it.
            "reset at 1, $0400 = 00".to_owned(),
        ]
    );
    assert_eq!(
        session.frame_number(),
        10,
        "frame 0's state, then 10 frames more"
    );
}

#[test]
fn in_real_time_the_game_runs_on_while_the_bot_thinks() {
    // Answers every frame, a tenth of a second late.
    let slow = r#"
import sys, json, time
sys.stdin.readline()
print(json.dumps({"type": "hello", "protocol": 1, "events": ["frame"]}), flush=True)
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "bye": break
    time.sleep(0.1)
    print(json.dumps({"type": "answer", "frame": m["frame"], "buttons": ["S"]}), flush=True)
"#;
    let mut session = session(
        Target::Command(vec!["python3".into(), "-c".into(), slow.into()]),
        true,
    );
    run(&mut session, 300);
    let messages = stat(&session, "bot_messages");
    let waited = stat(&session, "bot_frames_waited");
    // A frame takes far less than the bot: it is sent a frame only when it has answered.
    assert!((1..150).contains(&messages), "{messages} messages");
    assert!(waited > 150, "{waited} frames waited");
    assert_eq!(
        session.plugins().holder(),
        Some("bot"),
        "the bot still plays"
    );
}

#[test]
fn a_bot_listening_on_tcp_plays() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let port = listener.local_addr().unwrap().port();
    let server = std::thread::spawn(move || {
        use std::io::{BufRead, BufReader, Write};
        let (stream, _) = listener.accept().expect("jewelbot connects");
        let mut out = stream.try_clone().unwrap();
        let mut lines = BufReader::new(stream).lines();
        let welcome = lines.next().unwrap().unwrap();
        assert!(welcome.contains(r#""type":"welcome""#), "{welcome}");
        writeln!(
            out,
            r#"{{"type":"hello","protocol":1,"events":["power_on","spawn"]}}"#
        )
        .unwrap();
        let mut answered = 0;
        for line in lines {
            let line = line.unwrap();
            if line.contains(r#""type":"bye""#) {
                break;
            }
            let frame: u64 = line
                .split(r#""frame":"#)
                .nth(1)
                .and_then(|rest| rest.split(',').next())
                .and_then(|n| n.parse().ok())
                .expect("a frame number");
            writeln!(
                out,
                r#"{{"type":"answer","frame":{frame},"buttons":["-*8","S"]}}"#
            )
            .unwrap();
            answered += 1;
        }
        answered
    });
    let mut session = session(Target::Tcp(format!("127.0.0.1:{port}")), false);
    run(&mut session, 200);
    assert_eq!(session.plugins().holder(), Some("bot"));
    drop(session);
    let answered = server.join().expect("the server ran");
    // Power-on, and the first spawn of the game its Start began.
    assert!(answered >= 2, "{answered} answers");
}
