//! What watching costs a headless run: `jewelbot run --headless --serve 0` with 20 viewers
//! reading every picture and view it sends, against the same run with none watching and the run
//! without a server, in turns, each turn a fresh process; the medians of the runs' frames a
//! second and their ratios. The run's game is the same in every turn (its figures are checked
//! alike). Run with `cargo bench --bench web_viewers` (`docs/web.md` quotes it).

use std::io::{BufRead, BufReader, Read};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Frames a run plays: half a minute or so of a release build in fast mode.
const FRAMES: &str = "20000";
const VIEWERS: usize = 20;
const TURNS: usize = 9;

/// One run: its frames a second, its columns, and the pictures its viewers took.
fn run(serve: bool, viewers: usize) -> (f64, u64, usize) {
    let mut args = vec![
        "run",
        "--headless",
        "--mode",
        "fast",
        "--frames",
        FRAMES,
        "--json",
    ];
    if serve {
        args.extend(["--serve", "0"]);
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_jewelbot"))
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut watchers = Vec::new();
    if serve {
        let stderr = BufReader::new(child.stderr.take().expect("stderr"));
        let mut lines = stderr.lines().map_while(Result::ok);
        let host = lines
            .find_map(|line| {
                let at = line.find("http://")?;
                let rest = &line[at + "http://".len()..];
                Some(rest.split('/').next().unwrap_or("").to_owned())
            })
            .expect("the run prints its URL");
        std::thread::spawn(move || lines.for_each(drop));
        for _ in 0..viewers {
            let host = host.clone();
            watchers.push(std::thread::spawn(move || {
                let stream = TcpStream::connect(&host).expect("connects");
                stream
                    .set_read_timeout(Some(Duration::from_secs(60)))
                    .expect("a timeout");
                let (mut socket, _) =
                    tungstenite::client(format!("ws://{host}/ws"), stream).expect("a socket");
                let mut pictures = 0;
                while let Ok(message) = socket.read() {
                    if message.is_binary() {
                        pictures += 1;
                    }
                }
                pictures
            }));
        }
    }
    // The process's threads' CPU time, by name, as last seen before it ends.
    let pid = child.id();
    let sampler = std::thread::spawn(move || {
        let mut last = Vec::new();
        loop {
            let threads = thread_times(pid);
            if threads.is_empty() {
                return last;
            }
            last = threads;
            std::thread::sleep(Duration::from_millis(200));
        }
    });
    let mut out = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut out)
        .expect("the summary");
    assert!(
        child.wait().expect("the run ends").success(),
        "the run failed"
    );
    let pictures = watchers
        .into_iter()
        .map(|w| w.join().expect("a viewer"))
        .sum();
    let threads = sampler.join().expect("the sampler");
    if serve {
        let mut by_name: Vec<(String, f64)> = Vec::new();
        for (name, seconds) in threads {
            match by_name.iter_mut().find(|(n, _)| *n == name) {
                Some((_, total)) => *total += seconds,
                None => by_name.push((name, seconds)),
            }
        }
        let listed: Vec<String> = by_name
            .iter()
            .map(|(name, seconds)| format!("{name} {seconds:.2} s"))
            .collect();
        println!("  CPU by thread ({viewers} viewers): {}", listed.join(", "));
    }
    let summary: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let fps = summary["fps"].as_f64().expect("fps");
    let columns = summary["columns_placed"].as_u64().expect("columns");
    (fps, columns, pictures)
}

/// Each thread of process `pid` with its CPU time so far (Linux's `/proc`).
fn thread_times(pid: u32) -> Vec<(String, f64)> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .filter_map(Result::ok)
        .filter_map(|task| {
            let stat = std::fs::read_to_string(task.path().join("stat")).ok()?;
            let (name, rest) = stat.split_once(" (")?.1.rsplit_once(") ")?;
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let ticks: f64 =
                fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
            Some((name.to_owned(), ticks / 100.0))
        })
        .collect()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    // `cargo bench` passes `--bench`; run directly, the bench takes one turn.
    let turns = if std::env::args().any(|a| a == "--bench") {
        TURNS
    } else {
        1
    };
    let (mut plain, mut unwatched, mut watched) = (Vec::new(), Vec::new(), Vec::new());
    let (mut to_unwatched, mut to_plain, mut pictures) = (Vec::new(), Vec::new(), Vec::new());
    for turn in 0..turns {
        // The order turns about, so a drift in the machine's speed favours none.
        let (a, b, c) = if turn % 2 == 0 {
            let a = run(false, 0);
            let b = run(true, 0);
            (a, b, run(true, VIEWERS))
        } else {
            let c = run(true, VIEWERS);
            let b = run(true, 0);
            (run(false, 0), b, c)
        };
        assert!(a.1 == b.1 && b.1 == c.1, "the runs played different games");
        println!(
            "turn {}: {:.0} fps without a server, {:.0} served unwatched, {:.0} with {VIEWERS} \
             viewers ({} pictures, {:.0} a viewer); ratios {:.3} and {:.3}",
            turn + 1,
            a.0,
            b.0,
            c.0,
            c.2,
            c.2 as f64 / VIEWERS as f64,
            c.0 / b.0,
            c.0 / a.0
        );
        plain.push(a.0);
        unwatched.push(b.0);
        watched.push(c.0);
        to_unwatched.push(c.0 / b.0);
        to_plain.push(c.0 / a.0);
        pictures.push(c.2 as f64);
    }
    println!(
        "medians over {turns} turns of {FRAMES} frames: {:.0} fps without a server, {:.0} served \
         unwatched, {:.0} with {VIEWERS} viewers; the turns' ratios, watched to unwatched {:.3} \
         and watched to no server {:.3}; {:.0} pictures a run",
        median(plain),
        median(unwatched),
        median(watched),
        median(to_unwatched),
        median(to_plain),
        median(pictures)
    );
}
