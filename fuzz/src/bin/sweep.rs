//! Runs a fuzz harness over many generated inputs, deterministically from a seed, and counts
//! what happened: outcomes, panics (caught or not, anywhere in the process) and hangs.
//!
//! ```text
//! sweep TARGET CASES [SEED]     TARGET: rom, state, ram, plugin_frames, eval_files
//! ```
//!
//! Exits 1 when anything went wrong (a panic, a silent wrong load, a refused state that changed
//! the console) and 2 on a hang, after writing the input that caused it to `artifacts/`.

use jewelbot_fuzz::input::Rng;
use jewelbot_fuzz::{corpus, eval_files, plugin_frames, ram, rom, state};
use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// An input that makes no progress for this long is a hang.
const HANG_AFTER: Duration = Duration::from_secs(30);

static PANICS: AtomicU64 = AtomicU64::new(0);
/// Panics of the emulator core on a forged state while the state was tried on a copy of the
/// console: contained by design (the state is refused), counted apart.
static TRIAL_PANICS: AtomicU64 = AtomicU64::new(0);
/// The thread on which a state is tried (`src/session/state_trial.rs`).
const TRIAL_THREAD: &str = "state-trial";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(target), Some(cases)) = (args.get(1), args.get(2).and_then(|n| n.parse().ok()))
    else {
        eprintln!("usage: sweep rom|state|ram|plugin_frames|eval_files CASES [SEED]");
        return ExitCode::from(64);
    };
    let seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let target = target.clone();
    let artifacts = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("artifacts");

    // Every panic counts, also those the host or the state trial catch; the first few are shown.
    let default_hook = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        if std::thread::current().name() == Some(TRIAL_THREAD) {
            if TRIAL_PANICS.fetch_add(1, Ordering::SeqCst) < 3 {
                eprintln!("contained in the state trial: {info}");
            }
            return;
        }
        if PANICS.fetch_add(1, Ordering::SeqCst) < 5 {
            default_hook(info);
        }
    }));

    let current = Arc::new(Mutex::new(Vec::<u8>::new()));
    let progress = Arc::new(AtomicU64::new(0));
    watchdog(&target, &artifacts, current.clone(), progress.clone());

    // Load the corpora before the clock starts.
    let _ = corpus::game_ram().len();
    let mut rng = Rng::new(seed);
    let mut outcomes: BTreeMap<String, u64> = BTreeMap::new();
    let mut failures = 0u64;
    let mut frames_shown = 0u64;
    let start = Instant::now();
    for case in 0..cases {
        let input = generate(&target, &mut rng);
        if let Ok(mut slot) = current.lock() {
            slot.clone_from(&input);
        }
        let panics_before = PANICS.load(Ordering::SeqCst);
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| run(&target, &input)));
        let (outcome, frames) = outcome.unwrap_or_else(|_| ("escaped panic".to_owned(), 0));
        frames_shown += frames;
        if PANICS.load(Ordering::SeqCst) != panics_before || is_failure(&outcome) {
            failures += 1;
            save(&artifacts, &target, case, &input);
        }
        *outcomes.entry(outcome).or_default() += 1;
        progress.fetch_add(1, Ordering::SeqCst);
    }
    let panics = PANICS.load(Ordering::SeqCst);
    println!(
        "{target}: {cases} inputs (seed {seed}) in {:.1} s: {panics} panics, 0 hangs",
        start.elapsed().as_secs_f64()
    );
    let trial_panics = TRIAL_PANICS.load(Ordering::SeqCst);
    if trial_panics > 0 {
        println!(
            "  core panics on forged states, contained by the state trial (state refused): \
             {trial_panics}"
        );
    }
    for (outcome, count) in &outcomes {
        println!("  {outcome}: {count}");
    }
    if target == "plugin_frames" {
        println!("  RAM images through the whole plug-in: {frames_shown}");
    }
    if panics > 0 || failures > 0 {
        println!(
            "  {failures} failing inputs written to {}",
            artifacts.display()
        );
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

fn is_failure(outcome: &str) -> bool {
    outcome.starts_with("Silent") || outcome.starts_with("TouchedOnRefusal")
}

/// One input for `target`.
fn generate(target: &str, rng: &mut Rng) -> Vec<u8> {
    match target {
        "rom" => rom::mutate(rng),
        "ram" => {
            // Half the real game's RAM with bytes changed, half noise.
            let frames = corpus::game_ram();
            if rng.below(2) == 0 {
                let mut ram = frames[rng.below(frames.len())].to_vec();
                for _ in 0..=rng.below(8) {
                    let at = if rng.below(2) == 0 {
                        rng.below(0x100)
                    } else {
                        0x380 + rng.below(0x78)
                    };
                    ram[at] = [0, 7, 8, 9, 10, 0xFF, rng.next_u64() as u8][rng.below(7)];
                }
                ram
            } else {
                rng.bytes(0x800)
            }
        }
        "eval_files" => {
            let len = rng.below(512);
            rng.bytes(len)
        }
        _ => {
            let len = 16 + rng.below(240);
            rng.bytes(len)
        }
    }
}

/// Runs the harness: the outcome's name, and the frames shown to the plug-in.
fn run(target: &str, input: &[u8]) -> (String, u64) {
    match target {
        "rom" => (format!("{:?}", rom::run(input)), 0),
        "state" => (format!("{:?}", state::run(input)), 0),
        "ram" => {
            ram::run(input);
            ("decoded".to_owned(), 0)
        }
        "plugin_frames" => {
            let frames = plugin_frames::run(input);
            (format!("frames shown {}", bucket(frames)), frames as u64)
        }
        "eval_files" => {
            eval_files::run(input);
            ("read".to_owned(), 0)
        }
        other => (format!("unknown target {other}"), 0),
    }
}

/// Frame counts grouped so the report stays short; the total is what matters.
fn bucket(frames: usize) -> String {
    format!("{:>2}-{:>2}", frames / 8 * 8, frames / 8 * 8 + 7)
}

fn save(dir: &std::path::Path, target: &str, case: u64, input: &[u8]) {
    let _ = std::fs::create_dir_all(dir);
    let _ = std::fs::write(dir.join(format!("{target}-{case}.bin")), input);
}

/// Ends the process with code 2 when no input finishes for [`HANG_AFTER`], saving the input.
fn watchdog(
    target: &str,
    dir: &std::path::Path,
    current: Arc<Mutex<Vec<u8>>>,
    progress: Arc<AtomicU64>,
) {
    let target = target.to_owned();
    let dir = dir.to_owned();
    std::thread::spawn(move || {
        let mut last = progress.load(Ordering::SeqCst);
        let mut since = Instant::now();
        loop {
            std::thread::sleep(Duration::from_secs(1));
            let now = progress.load(Ordering::SeqCst);
            if now != last {
                last = now;
                since = Instant::now();
            } else if since.elapsed() > HANG_AFTER {
                let input = current.lock().map(|i| i.clone()).unwrap_or_default();
                save(&dir, &target, now, &input);
                println!(
                    "{target}: input {now} hangs (no progress for {} s); saved",
                    HANG_AFTER.as_secs()
                );
                std::process::exit(2);
            }
        }
    });
}
