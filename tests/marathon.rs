//! Long runs: `run --until` stops on the first frame its condition holds, a run resumed from a
//! checkpoint plays the game the uninterrupted run plays (its movie too), a killed run leaves
//! its last checkpoint whole, a run with no picture consumer draws none and plays the same
//! game, and bad marathon arguments are refused before the first frame.

mod common;
use common::cartridge;

use common::{arg, jewelbot};
use jewelbot_host::session::{Session, SessionConfig};
use jewelbot_plugin::Plugin;
use magic_jewelry::plugin::MagicJewelryPlugin;
use serde_json::Value;
use std::path::Path;

/// The player every run here uses: fast, and with a work budget and no time budget, so that
/// it decides the same on any machine under any load.
const PLAYER: [&str; 4] = ["--mode", "fast", "--work", "3000"];

/// `run --headless` with the player and `args`, its summary as JSON.
fn run(args: &[&str]) -> Value {
    let mut all = vec!["run", "--headless", "--json"];
    all.extend(PLAYER);
    all.extend(args);
    let (code, stdout, stderr) = jewelbot(&all);
    assert_eq!(code, 0, "{all:?}: {stderr}");
    serde_json::from_str(&stdout).expect("a JSON summary")
}

fn int(summary: &Value, key: &str) -> i64 {
    summary[key]
        .as_i64()
        .unwrap_or_else(|| panic!("no {key} in {summary}"))
}

/// Pokes at frame 100, in the first game: counters near their displays' rollover and the
/// cells-removed counter near the wild column.
const NEAR_ROLLOVER: [&str; 12] = [
    // score 9,999,000: the 7-digit display rolls over after 1,000 points
    "--poke",
    "100:$7D=9",
    "--poke",
    "100:$7C=9",
    "--poke",
    "100:$7B=9",
    // jewels 99,995: the 5-digit display rolls over after 5 jewels
    "--poke",
    "100:$83=9",
    // level 999: the 3-digit display rolls over at the next wild column, soon
    "--poke",
    "100:$87=9",
    "--poke",
    "100:$6E=66",
];

/// Stops on the first frame each condition holds: it holds there, and not a frame before.
#[test]
fn until_stops_on_the_first_frame_its_condition_holds() {
    let mut pokes: Vec<&str> = NEAR_ROLLOVER.to_vec();
    // Digits of score and jewels below the ones poked above.
    for poke in [
        "100:$7A=9",
        "100:$79=9",
        "100:$78=9",
        "100:$82=9",
        "100:$81=9",
        "100:$80=9",
        "100:$7F=5",
        "100:$88=9",
        "100:$89=9",
    ] {
        pokes.extend(["--poke", poke]);
    }
    for (until, stat, at_least) in [
        ("rollover", "rollover_progress", 1000),
        ("jewels>=100002", "jewels", 100_002),
        ("score>=10000000", "score", 10_000_000),
        ("level>=1000", "level", 1000),
        ("columns>=12", "columns_placed", 12),
    ] {
        let mut args = vec!["--until", until, "--frames", "20000"];
        args.extend(&pokes);
        let stopped = run(&args);
        assert_eq!(stopped["ended"]["until"], until, "{until}: {stopped}");
        let frame = int(&stopped, "last_frame");
        assert!(int(&stopped, stat) >= at_least, "{until}: {stopped}");
        let before = (frame - 1).to_string();
        let mut args = vec!["--frames", before.as_str()];
        args.extend(&pokes);
        let earlier = run(&args);
        assert!(
            int(&earlier, stat) < at_least,
            "{until} held before frame {frame}"
        );
        if until == "rollover" {
            // Each display's rollover frame is in the summary; the last one ended the run.
            let frames: Vec<i64> = ["score", "jewels", "level"]
                .map(|d| int(&stopped, &format!("{d}_rollover_frame")))
                .to_vec();
            assert!(frames.iter().all(|&f| f > 100), "{frames:?}");
            assert_eq!(frames.iter().max(), Some(&frame), "{frames:?}");
            assert_eq!(stopped["milestones"].as_array().map(Vec::len), Some(3));
        }
    }
}

/// A board filled at a spawn: the game ends, and `--until game-over` stops on that frame.
#[test]
fn until_game_over() {
    let mut args = vec!["--until", "game-over", "--frames", "5000"];
    let pokes: Vec<String> = (1..=12)
        .flat_map(|row| {
            (0..6).map(move |column| {
                let address = 0x0380 + 8 * (row + 2) + column + 1;
                // A 2x2 tile of four colours: no three alike in any line.
                format!("200:${address:04X}={}", 1 + row % 2 * 2 + column % 2)
            })
        })
        .collect();
    for poke in &pokes {
        args.extend(["--poke", poke.as_str()]);
    }
    let stopped = run(&args);
    assert_eq!(stopped["ended"]["until"], "game-over", "{stopped}");
    assert_eq!(int(&stopped, "game_overs"), 1);
    let frame = (int(&stopped, "last_frame") - 1).to_string();
    let mut args = vec!["--frames", frame.as_str()];
    for poke in &pokes {
        args.extend(["--poke", poke.as_str()]);
    }
    assert_eq!(int(&run(&args), "game_overs"), 0);
}

/// Run 2,000 frames; run 1,000 with checkpoints, then resume from the last checkpoint to
/// frame 2,000: the same console at the end, and the resumed leg's movie from power-on is the
/// uninterrupted run's.
#[test]
fn a_resumed_run_plays_the_uninterrupted_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = |name: &str| dir.path().join(name);
    let whole = run(&[
        "--frames",
        "2000",
        "--save-state",
        arg(&path("whole.state")),
        "--record-movie",
        arg(&path("whole.fm2")),
    ]);
    let first = run(&[
        "--frames",
        "1000",
        "--checkpoint",
        arg(&path("run.checkpoint")),
        "--checkpoint-every",
        "230",
        "--record-movie",
        arg(&path("first.fm2")),
    ]);
    let at = int(&first, "last_checkpoint_frame");
    assert!((920..=1000).contains(&at), "{first}");
    assert_eq!(int(&first, "checkpoints"), 4, "{first}");
    let rest = (2000 - at).to_string();
    let resumed = run(&[
        "--state",
        arg(&path("run.checkpoint")),
        "--frames",
        &rest,
        "--save-state",
        arg(&path("resumed.state")),
        "--record-movie",
        arg(&path("resumed.fm2")),
    ]);
    assert_eq!(int(&resumed, "last_frame"), 2000);
    assert_eq!(int(&resumed, "run_frames"), 2000, "{resumed}");
    assert_eq!(int(&resumed, "legs"), 2);
    // Counts carry over the checkpoint.
    for key in ["columns_placed", "score", "jewels_cleared", "game_overs"] {
        assert_eq!(int(&resumed, key), int(&whole, key), "{key}");
    }
    let ram = |name: &str| {
        let rom = cartridge().expect("parses");
        let mut session = Session::new(rom, Vec::new(), SessionConfig::default()).expect("loads");
        session.load_state_file(&path(name)).expect("a state");
        session.ram().to_vec()
    };
    assert!(ram("whole.state") == ram("resumed.state"), "another game");
    let frames = |name: &str| {
        let text = std::fs::read_to_string(path(name)).expect("a movie");
        text.lines()
            .filter(|l| l.starts_with('|'))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(frames("resumed.fm2").len(), 2000);
    assert!(
        frames("resumed.fm2") == frames("whole.fm2"),
        "another movie"
    );
}

/// A run killed at any moment leaves its last checkpoint whole: it loads and resumes.
#[cfg(unix)]
#[test]
fn a_killed_run_leaves_its_last_checkpoint_whole() {
    let dir = tempfile::tempdir().expect("temp dir");
    let checkpoint = dir.path().join("run.checkpoint");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_jewelbot"))
        .args(["run", "--headless", "--frames", "1000000", "--checkpoint"])
        .arg(&checkpoint)
        .args(["--checkpoint-every", "300"])
        .args(PLAYER)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("starts");
    let waited = std::time::Instant::now();
    while !checkpoint.exists() && waited.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // Killed while it writes checkpoints every few hundred milliseconds.
    std::thread::sleep(std::time::Duration::from_millis(1_300));
    child.kill().expect("killed");
    child.wait().expect("ended");
    let rom = cartridge().expect("parses");
    let plugins: Vec<Box<dyn Plugin>> = vec![Box::new(MagicJewelryPlugin::default())];
    let mut session = Session::new(rom, plugins, SessionConfig::default()).expect("loads");
    let record = session
        .load_state_file(&checkpoint)
        .expect("the last checkpoint is whole");
    assert!(record.is_some(), "a checkpoint, not a plain state");
    assert!(session.frame_number() >= 300);
    let resumed = run(&["--state", arg(&checkpoint), "--frames", "200"]);
    assert_eq!(int(&resumed, "legs"), 2);
}

/// Without a picture to keep, the PPU draws none: the game is the same, frame for frame.
#[test]
fn a_run_without_pictures_plays_the_same_game() {
    let session = |video: bool| {
        let rom = cartridge().expect("parses");
        let mut plugin = MagicJewelryPlugin::default();
        plugin.set_option("mode", "fast").expect("a mode");
        plugin.set_option("work", "3000").expect("a budget");
        let config = SessionConfig {
            video,
            ..SessionConfig::default()
        };
        Session::new(rom, vec![Box::new(plugin)], config).expect("loads")
    };
    let (mut drawn, mut blind) = (session(true), session(false));
    for _ in 0..1500 {
        drawn.run_frame().expect("frame");
        blind.run_frame().expect("frame");
        assert!(
            drawn.ram() == blind.ram(),
            "frame {}: RAM differs without pictures",
            drawn.frame_number()
        );
    }
    // The game got going: columns fell and were cleared.
    assert!(
        drawn.ram()[0x7F] != 0 || drawn.ram()[0x80] != 0,
        "no jewels cleared"
    );
}

/// Refused before the first frame, in one line: unknown and malformed conditions, a zero
/// interval, a checkpoint in a missing folder or on another output's path, a checkpoint of
/// another ROM or a damaged one.
#[test]
fn bad_marathon_arguments_are_refused_before_the_first_frame() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = |name: &str| dir.path().join(name);
    let checkpoint = path("run.checkpoint");
    let missing = path("missing/run.checkpoint");
    let good = run(&[
        "--frames",
        "400",
        "--checkpoint",
        arg(&checkpoint),
        "--checkpoint-every",
        "200",
    ]);
    assert!(int(&good, "checkpoints") >= 1);
    let mut damaged = std::fs::read(&checkpoint).expect("written");
    let last = damaged.len() - 1;
    damaged[last] ^= 0x55;
    std::fs::write(path("damaged.checkpoint"), damaged).expect("written");
    let tiny = path("tiny.nes");
    std::fs::write(&tiny, common::tiny_rom()).expect("written");
    let (same, damaged) = (path("a.out"), path("damaged.checkpoint"));
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--until", "rolover"], "unknown condition `rolover`"),
        (vec!["--until", "jewels>=lots"], "is not a count"),
        (vec!["--until", "jewels"], "needs a value"),
        (
            vec![
                "--frames",
                "10",
                "--checkpoint",
                arg(&checkpoint),
                "--checkpoint-every",
                "0",
            ],
            "0",
        ),
        (
            vec!["--frames", "10", "--checkpoint", arg(&missing)],
            "does not exist",
        ),
        (
            vec![
                "--frames",
                "10",
                "--checkpoint",
                arg(&same),
                "--gif",
                arg(&same),
            ],
            "also the path of",
        ),
        (vec!["--frames", "10", "--state", arg(&damaged)], "damaged"),
        (vec!["--frames", "10", "--stall-limit", "0"], "0"),
        (
            vec![
                "--frames",
                "10",
                "--rom",
                arg(&tiny),
                "--state",
                arg(&checkpoint),
            ],
            "another ROM",
        ),
    ];
    for (args, says) in cases {
        let mut all = vec!["run", "--headless"];
        all.extend(&args);
        let (code, stdout, stderr) = jewelbot(&all);
        assert_ne!(code, 0, "{args:?} ran");
        assert!(stdout.is_empty(), "{args:?} ran: {stdout}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        let errors = stderr.lines().filter(|l| l.starts_with("error")).count();
        assert_eq!(errors, 1, "{args:?}: {stderr}");
    }
    assert!(!missing.exists() && !same.exists());
}

#[test]
fn a_report_holds_the_summary_and_a_plot_of_each_series() {
    let dir = tempfile::tempdir().expect("temp dir");
    let report = dir.path().join("report");
    run(&["--frames", "1500", "--report", arg(&report)]);
    let summary: Value = serde_json::from_str(
        &std::fs::read_to_string(report.join("summary.json")).expect("summary.json"),
    )
    .expect("JSON");
    assert_eq!(int(&summary, "last_frame"), 1500);
    for plot in [
        "jewels_on_board",
        "level",
        "fall_speed",
        "points_per_column",
        "decision_us",
    ] {
        let png = std::fs::read(report.join(format!("{plot}.png"))).expect("a plot");
        assert!(png.starts_with(b"\x89PNG"), "{plot}");
    }
    assert!(Path::new(&report).is_dir());
}

/// `--after-game-over continue`: a board filled at a spawn ends the game; the player takes the
/// hidden continue, so the score and the level are kept and play goes on (no new game).
#[test]
fn the_player_continues_after_a_game_over_when_told() {
    let mut pokes: Vec<String> = (1..=12)
        .flat_map(|row| {
            (0..6).map(move |column| {
                let address = 0x0380 + 8 * (row + 2) + column + 1;
                format!("200:${address:04X}={}", 1 + row % 2 * 2 + column % 2)
            })
        })
        .collect();
    // Score 12,345 and level 7 before the game ends.
    pokes.extend(
        [
            "200:$77=5",
            "200:$78=4",
            "200:$79=3",
            "200:$7A=2",
            "200:$7B=1",
            "200:$87=7",
        ]
        .map(String::from),
    );
    let mut args = vec!["--frames", "2500", "--after-game-over", "continue"];
    for poke in &pokes {
        args.extend(["--poke", poke.as_str()]);
    }
    let summary = run(&args);
    assert_eq!(int(&summary, "game_overs"), 1, "{summary}");
    assert_eq!(int(&summary, "games_started"), 1, "a new game was started");
    assert!(int(&summary, "score") > 12_345, "{summary}");
    assert!(int(&summary, "level") >= 7, "{summary}");
    assert!(
        int(&summary, "columns_placed") > 10,
        "play went on: {summary}"
    );
    // Without it the player restarts: a second game, the counters from 0.
    let restarted = run(&args[..2]
        .iter()
        .chain(&args[4..])
        .copied()
        .collect::<Vec<_>>());
    assert_eq!(int(&restarted, "games_started"), 2, "{restarted}");
    assert!(int(&restarted, "level") < 7, "{restarted}");
}

/// The run's chain figures over `frames` frames of the score objective, from the match steps'
/// clear animations: they agree with each other. Returns the clearing locks, the longest chain
/// and the histogram's first three bins.
fn chains_of_a_score_run(frames: u64) -> (i64, i64, Vec<i64>) {
    let frames = frames.to_string();
    let summary = run(&["--objective", "score", "--frames", &frames]);
    let clearing = int(&summary, "clearing_locks");
    let histogram: Vec<i64> = (1..16)
        .map(|steps| int(&summary, &format!("chains_{steps}")))
        .chain([int(&summary, "chains_16_or_more")])
        .collect();
    assert_eq!(histogram.iter().sum::<i64>(), clearing, "{histogram:?}");
    assert!(clearing <= int(&summary, "columns_placed"));
    let longest = int(&summary, "longest_chain");
    assert_eq!(
        histogram.iter().rposition(|&n| n > 0).map(|i| i as i64 + 1),
        Some(longest)
    );
    let steps: i64 = histogram.iter().zip(1..).map(|(n, s)| n * s).sum();
    let mean = summary["steps_per_clearing_lock"].as_f64().expect("a mean");
    assert!(
        (mean - steps as f64 / clearing as f64).abs() < 1e-9,
        "{mean}"
    );
    assert!(int(&summary, "best_lock_points") >= int(&summary, "longest_chain_points"));
    // Counted up to the last column's spawn, so at most the counter (which has not wrapped).
    let scored = int(&summary, "points_scored");
    assert!(scored >= int(&summary, "best_lock_points"));
    assert!(scored <= int(&summary, "score"), "{scored}");
    // Every step of a chain scores, so the longest chain's lock brought points.
    assert!(int(&summary, "longest_chain_points") > 0);
    assert!(int(&summary, "tallest_stack") <= 13);
    (clearing, longest, histogram[..3].to_vec())
}

/// Pinned on a fixed game so that a change in play shows as a changed number. (15, 7, [10, 2,
/// 0]) until a column spawned in the lock's frame with Down held and no move to make was soft-
/// dropped rather than left to fall: the same placements, one lock more in the 4,000 frames.
#[test]
fn a_run_reports_its_chains() {
    assert_eq!(chains_of_a_score_run(4_000), (16, 7, vec![11, 2, 0]));
}

/// The score objective builds chains: 20,000 frames, pinned ((106, 7, [81, 12, 4]) before the
/// soft drop of a lock-frame spawn with Down held and no move to make).
#[test]
#[ignore = "long tier: cargo test --workspace -- --ignored"]
fn a_long_score_run_reports_its_chains() {
    assert_eq!(chains_of_a_score_run(20_000), (115, 7, vec![89, 12, 4]));
}

/// Without `--stall-limit` a run waits for its plug-ins: none of their frames is thrown away,
/// however long one takes, and the summary says how long the slowest took.
#[test]
fn a_headless_run_waits_for_its_plugins() {
    let summary = run(&["--frames", "600"]);
    let plugin = &summary["plugins"][0];
    assert_eq!(plugin["name"], "magic-jewelry");
    assert_eq!(plugin["stalls"].as_i64(), Some(0), "{plugin}");
    let slowest = plugin["slowest_frame_ms"].as_f64().expect("a duration");
    assert!(slowest > 0.0, "{plugin}");
}

/// With no budget given a headless run plays by work, not by time: the same command plays the
/// same game, press for press, on an idle machine and on one whose every core is kept busy.
#[test]
fn a_headless_run_plays_the_same_game_under_any_load() {
    let dir = tempfile::tempdir().expect("temp dir");
    let game = |name: &str| {
        let movie = dir.path().join(name);
        let args = [
            "run",
            "--headless",
            "--json",
            "--mode",
            "fast",
            "--frames",
            "2000",
            "--record-movie",
            arg(&movie),
        ];
        let (code, stdout, stderr) = jewelbot(&args);
        assert_eq!(code, 0, "{stderr}");
        let summary: Value = serde_json::from_str(&stdout).expect("a JSON summary");
        let presses: Vec<String> = std::fs::read_to_string(&movie)
            .expect("a movie")
            .lines()
            .filter(|l| l.starts_with('|'))
            .map(str::to_owned)
            .collect();
        (summary, presses)
    };
    let (quiet, quiet_presses) = game("quiet.fm2");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let cores = std::thread::available_parallelism().map_or(2, usize::from);
    let spinners: Vec<_> = (0..cores)
        .map(|_| {
            let stop = std::sync::Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut x = 1u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005) + 1);
                }
            })
        })
        .collect();
    let (busy, busy_presses) = game("busy.fm2");
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for spinner in spinners {
        spinner.join().expect("a spinner ends");
    }
    assert_eq!(
        quiet["budget"], "3000 boards a decision (lockstep pacing's default)",
        "{quiet}"
    );
    assert_eq!(quiet_presses.len(), 2000);
    assert!(quiet_presses == busy_presses, "another game under load");
    for key in ["columns_placed", "score", "jewels_cleared", "decisions"] {
        assert_eq!(int(&quiet, key), int(&busy, key), "{key}");
    }
    assert!(int(&quiet, "columns_placed") >= 15, "{quiet}");
}

/// The summary says which budget played: the pacing's default, a work budget, none at all.
#[test]
fn the_summary_says_which_budget_played() {
    for (args, budget) in [
        (vec![], "3000 boards a decision (lockstep pacing's default)"),
        (vec!["--work", "0"], "no limit (given)"),
        (vec!["--work", "500"], "500 boards a decision (given)"),
        (vec!["--time-budget", "1800"], "1800 us a decision (given)"),
        (
            vec!["--stall-limit", "500"],
            "1800 us a decision (real-time pacing's default)",
        ),
    ] {
        let mut all = vec!["run", "--headless", "--json", "--frames", "30"];
        all.extend(&args);
        let (code, stdout, stderr) = jewelbot(&all);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        let summary: Value = serde_json::from_str(&stdout).expect("JSON");
        assert_eq!(summary["budget"], budget, "{args:?}");
    }
}

/// `--until score>=N` counts past the 8-digit counter's wrap: poked near 99,999,999, the score
/// wraps and the run still stops once it has gone past N.
#[test]
fn until_counts_past_the_counters_wraps() {
    let mut args = vec!["--until", "score>=100000300", "--frames", "20000"];
    let pokes: Vec<String> = (0..8)
        .map(|digit| {
            format!(
                "100:${:02X}={}",
                0x77 + digit,
                if digit < 2 { 0 } else { 9 }
            )
        })
        .collect();
    for poke in &pokes {
        args.extend(["--poke", poke.as_str()]);
    }
    let stopped = run(&args);
    assert_eq!(stopped["ended"]["until"], "score>=100000300", "{stopped}");
    assert!(int(&stopped, "score_total") >= 100_000_300, "{stopped}");
    assert!(
        int(&stopped, "score") < 1_000_000,
        "the counter wrapped: {stopped}"
    );
}

/// A checkpoint resumes with the options it was taken with: the same game as the run that did
/// not stop, without giving them again; given otherwise, they are refused, named.
#[test]
fn a_checkpoint_resumes_with_its_own_options() {
    let dir = tempfile::tempdir().expect("temp dir");
    let checkpoint = dir.path().join("score.checkpoint");
    let score = ["--objective", "score"];
    let mut whole_args = vec!["--frames", "2000"];
    whole_args.extend(score);
    let whole = run(&whole_args);
    let mut first_args = vec![
        "--frames",
        "1000",
        "--checkpoint",
        arg(&checkpoint),
        "--checkpoint-every",
        "250",
    ];
    first_args.extend(score);
    let first = run(&first_args);
    let rest = (2000 - int(&first, "last_checkpoint_frame")).to_string();
    let resumed = run(&["--state", arg(&checkpoint), "--frames", &rest]);
    assert_eq!(int(&resumed, "last_frame"), 2000);
    for key in ["columns_placed", "score", "clearing_locks"] {
        assert_eq!(int(&resumed, key), int(&whole, key), "{key}");
    }
    let (code, _, stderr) = jewelbot(&[
        "run",
        "--headless",
        "--mode",
        "fast",
        "--frames",
        "10",
        "--state",
        arg(&checkpoint),
        "--objective",
        "survive",
    ]);
    assert_ne!(code, 0);
    assert!(
        stderr.contains("--objective survive") && stderr.contains("--objective score"),
        "{stderr}"
    );
}

/// A checkpoint taken while a movie plays carries the movie and its place: the resumed run
/// goes on playing it, to the RAM the movie played whole makes.
#[test]
fn a_checkpoint_carries_the_movie_it_plays() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    let (movie, checkpoint) = (path("ai.fm2"), path("movie.checkpoint"));
    let (whole, resumed) = (path("whole.state"), path("resumed.state"));
    run(&["--frames", "1500", "--record-movie", &movie]);
    let played = ["--ai", "off", "--movie", &movie];
    let mut whole_args = vec!["--frames", "1500", "--save-state", &whole];
    whole_args.extend(played);
    run(&whole_args);
    let mut first_args = vec![
        "--frames",
        "800",
        "--checkpoint",
        &checkpoint,
        "--checkpoint-every",
        "300",
    ];
    first_args.extend(played);
    let first = run(&first_args);
    let rest = (1500 - int(&first, "last_checkpoint_frame")).to_string();
    run(&[
        "--ai",
        "off",
        "--state",
        &checkpoint,
        "--frames",
        &rest,
        "--save-state",
        &resumed,
    ]);
    let ram = |name: &str| {
        let rom = cartridge().expect("parses");
        let mut session = Session::new(rom, Vec::new(), SessionConfig::default()).expect("loads");
        session.load_state_file(Path::new(name)).expect("a state");
        session.ram().to_vec()
    };
    assert!(ram(&whole) == ram(&resumed), "another game");
}

/// A file that appears at the checkpoint's path after the run started is someone else's: the
/// run does not write over it, and says so.
#[test]
fn a_checkpoint_never_replaces_a_file_that_appeared_meanwhile() {
    let dir = tempfile::tempdir().expect("temp dir");
    let checkpoint = dir.path().join("run.checkpoint");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_jewelbot"))
        .args(["run", "--headless", "--frames", "20000", "--checkpoint"])
        .arg(&checkpoint)
        .args(["--checkpoint-every", "3000"])
        .args(PLAYER)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("starts");
    std::thread::sleep(std::time::Duration::from_millis(300));
    std::fs::write(&checkpoint, b"another run's checkpoint").expect("written");
    let output = child.wait_with_output().expect("ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(stderr.contains("replaced by another program"), "{stderr}");
    assert_eq!(
        std::fs::read(&checkpoint).expect("kept"),
        b"another run's checkpoint"
    );
}

/// A board poked full at a spawn, then again during the game-over fill (which overwrites the
/// fill): RAM holds no state of the game, and the game-over screen waits for Start. The player
/// presses its way out, after either kind of game over, says so, and plays on.
#[test]
fn the_player_finds_its_way_back_from_a_game_over_poked_over() {
    let board = |frame: u64| -> Vec<String> {
        (1..=12)
            .flat_map(|row| {
                (0..6).map(move |column| {
                    let address = 0x0380 + 8 * (row + 2) + column + 1;
                    format!("{frame}:${address:04X}={}", 1 + row % 2 * 2 + column % 2)
                })
            })
            .collect()
    };
    // The first board ends the game at frame 1212; the second lands on its 7-fill.
    let pokes: Vec<String> = board(560).into_iter().chain(board(1240)).collect();
    for (after, started) in [("restart", 2), ("continue", 1)] {
        let mut args = vec!["--frames", "3000", "--after-game-over", after];
        for poke in &pokes {
            args.extend(["--poke", poke.as_str()]);
        }
        let summary = run(&args);
        assert_eq!(int(&summary, "game_overs"), 1, "{after}: {summary}");
        assert_eq!(
            int(&summary, "games_started"),
            started,
            "{after}: {summary}"
        );
        assert!(int(&summary, "recoveries") >= 1, "{after}: {summary}");
        assert!(
            int(&summary, "inconsistent_frames") <= 250,
            "{after}: {summary}"
        );
        assert!(int(&summary, "columns_placed") > 20, "{after}: {summary}");
    }
}
