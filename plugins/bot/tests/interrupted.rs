//! A signal that asks the run to end (SIGINT, SIGTERM: `jewelbot_plugin::stop_flag`) ends the
//! host's wait for a bot at once, whatever the bot is doing, and the bot's process goes. Alone
//! in its test binary: the flag is the whole process's, and stays set.

mod common;

use jewelbot_bot::Target;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

#[test]
fn a_signal_ends_the_wait_for_a_bot_that_never_answers_and_ignores_sigterm() {
    let dir = std::env::temp_dir().join(format!("jewelbot-bot-interrupted-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pid_file = dir.join("pid");
    // Says hello, then neither answers nor dies of SIGTERM.
    let bot = vec![
        "sh".into(),
        "-c".into(),
        format!(
            "trap '' TERM INT; echo $$ > '{}'; read welcome\n\
             echo '{{\"type\": \"hello\", \"protocol\": 1, \"events\": [\"frame\"]}}'\n\
             while :; do sleep 1; done",
            pid_file.display()
        ),
    ];
    // The bot is waited for up to a minute a frame.
    let mut session = common::session(Target::Command(bot), false, Duration::from_secs(60));
    let flag = jewelbot_plugin::stop_flag();
    let signal = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(500));
        flag.store(true, Ordering::SeqCst);
    });
    let started = Instant::now();
    common::run(&mut session, 1);
    let waited = started.elapsed();
    signal.join().unwrap();
    assert!(
        waited < Duration::from_secs(5),
        "the host waited {waited:?} for the bot after the signal"
    );
    let bot = &session.plugins().slots()[1];
    let stopped = bot.status().lines.join(" / ");
    assert!(
        stopped.contains(
            "bot stopped: jewelbot was told to stop while it waited for its answer to frame 0"
        ),
        "{stopped}"
    );
    let pid = std::fs::read_to_string(&pid_file).expect("the bot wrote its process id");
    let proc = format!("/proc/{}", pid.trim());
    assert!(!Path::new(&proc).exists(), "{proc} is still there");
    let _ = std::fs::remove_dir_all(dir);
}
