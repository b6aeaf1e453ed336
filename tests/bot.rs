//! `--bot CMD`: a bot in another process plays through the command line, and one that fails
//! stops alone with a message while the run goes on and writes everything it was asked to.

mod common;

use common::jewelbot;
use serde_json::Value;

fn summary(stdout: &str) -> Value {
    serde_json::from_str(stdout).expect("a JSON summary")
}

fn temp_dir(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("jewelbot-bot-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    dir
}

/// The Python example plays; `run --json` reports its decision times and the frames waited,
/// and the AI, out of control, decides nothing.
#[test]
fn the_python_example_plays_and_the_summary_reports_its_answers() {
    let bot = format!(
        "python3 {}/examples/bots/columns.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let (code, stdout, stderr) = jewelbot(&[
        "run",
        "--headless",
        "--json",
        "--frames",
        "2000",
        "--bot",
        &bot,
    ]);
    assert_eq!(code, 0, "{stderr}");
    let run = summary(&stdout);
    assert_eq!(run["decisions"], 0, "the AI pressed: {run}");
    assert_eq!(run["bot_stopped"], "no");
    let answers = run["bot_answers"].as_i64().expect("bot_answers");
    // Power-on, then one answer a spawn: pinned, a changed count is a changed game.
    assert_eq!(
        (answers, run["columns_placed"].as_i64().unwrap()),
        (24, 23),
        "{run}"
    );
    assert_eq!(
        run["bot_frames_waited"], answers,
        "lockstep: a frame held for each answer"
    );
    let median = run["bot_decision_ms_median"].as_f64().expect("a median");
    let max = run["bot_decision_ms_max"].as_f64().expect("a max");
    assert!(
        0.0 < median && median <= max,
        "{median} ms, at most {max} ms"
    );
}

/// A bot that exits at its third message: the run plays all its frames, the AI takes over,
/// and the movie holds every frame.
#[test]
fn a_bot_that_fails_loses_nothing_of_the_run() {
    let dir = temp_dir("fails");
    let movie = dir.join("run.fm2");
    let bot = "python3 -c \"import sys, json\n\
               sys.stdin.readline()\n\
               print(json.dumps({'type': 'hello', 'protocol': 1, 'events': ['power_on', 'spawn']}), flush=True)\n\
               for n, line in enumerate(sys.stdin):\n\
               \x20   if n == 2: sys.exit('giving up')\n\
               \x20   print(json.dumps({'type': 'answer', 'frame': json.loads(line)['frame'], 'buttons': ['-*8', 'S'] if n == 0 else []}), flush=True)\n\"";
    let (code, stdout, stderr) = jewelbot(&[
        "run",
        "--headless",
        "--json",
        "--frames",
        "1500",
        "--bot",
        bot,
        "--record-movie",
        movie.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("bot: the bot exited (exit status: 1); its last words: giving up"),
        "{stderr}"
    );
    let run = summary(&stdout);
    assert_eq!(run["run_frames"], 1500);
    assert!(
        run["decisions"].as_i64().unwrap() > 0,
        "the AI plays: {run}"
    );
    let text = std::fs::read_to_string(&movie).expect("the movie is written");
    assert_eq!(text.lines().filter(|l| l.starts_with('|')).count(), 1500);
    let _ = std::fs::remove_dir_all(dir);
}

/// A bot that ends the run at the first game over it hears of (a bot that drops every column
/// straight down): the run stops there, and says why.
#[test]
fn a_bot_can_end_the_run() {
    let bot = "python3 -c \"import sys, json\n\
               sys.stdin.readline()\n\
               print(json.dumps({'type': 'hello', 'protocol': 1, 'events': ['power_on', 'game_over']}), flush=True)\n\
               for line in sys.stdin:\n\
               \x20   m = json.loads(line)\n\
               \x20   if m['type'] == 'bye': break\n\
               \x20   a = {'type': 'answer', 'frame': m['frame'], 'buttons': ['-*8', 'S']}\n\
               \x20   if 'game_over' in m['events']: a = {'type': 'answer', 'frame': m['frame'], 'end': 'game over'}\n\
               \x20   print(json.dumps(a), flush=True)\n\"";
    let (code, stdout, stderr) = jewelbot(&[
        "run",
        "--headless",
        "--json",
        "--frames",
        "20000",
        "--bot",
        bot,
    ]);
    assert_eq!(code, 0, "{stderr}");
    let run = summary(&stdout);
    assert_eq!(
        run["ended"]["plugin"], "the bot ended the run: game over",
        "{run}"
    );
    assert_eq!(run["game_overs"], 1);
    assert!(run["run_frames"].as_i64().unwrap() < 20000, "{run}");
}

/// A bot that cannot start: the run goes on with the AI, saying why, on standard error and in
/// `bot_stopped` as for any bot that is stopped.
#[test]
fn a_bot_that_cannot_start_is_said_so() {
    let (code, stdout, stderr) = jewelbot(&[
        "run",
        "--headless",
        "--json",
        "--frames",
        "300",
        "--bot",
        "/nonexistent/bot",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("cannot start the bot `/nonexistent/bot`"),
        "{stderr}"
    );
    let run = summary(&stdout);
    assert_eq!(run["run_frames"], 300);
    assert!(
        run["bot_stopped"]
            .as_str()
            .is_some_and(|why| why.starts_with("cannot start the bot `/nonexistent/bot`: ")),
        "{run}"
    );
}

/// Options that cannot work are refused before anything runs.
#[test]
fn bad_bot_options_are_refused() {
    for (args, why) in [
        (vec!["--bot", ""], "no command given for the bot"),
        (vec!["--bot", "python3 'unclosed"], "not a command line"),
        (vec!["--bot", "tcp://nowhere"], "tcp://HOST:PORT"),
        (vec!["--bot-realtime"], "--bot"),
        (
            vec!["--bot", "x", "--bot-timeout", "0"],
            "outside 0.01 to 86400",
        ),
        (vec!["--bot", "x", "--lua", "y.lua"], "cannot be used with"),
    ] {
        let mut all = vec!["run", "--headless", "--frames", "10"];
        all.extend(args);
        let (code, _, stderr) = jewelbot(&all);
        assert_ne!(code, 0, "{all:?} accepted");
        assert!(stderr.contains(why), "{all:?}: {stderr}");
    }
}
