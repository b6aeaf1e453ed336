//! A signal that asks jewelbot to stop ends a script whatever it is doing, even in work the
//! instruction count does not see. Its own test binary: the stop flag is the process's, set
//! once and never cleared.

mod common;

use common::Console;

#[test]
fn a_signal_stops_a_script_in_uncounted_work() {
    jewelbot_plugin::stop_flag().store(true, std::sync::atomic::Ordering::Relaxed);
    // Each `..` copies and compares a MiB that Lua already holds: one instruction, no
    // allocation, so the count alone would take hours to stop it.
    let mut console =
        Console::new("local s = string.rep('x', 2^20)\nwhile true do local t = s .. 'y' end");
    console.frames(1);
    let why = console.plugin.stopped().expect("stopped");
    assert!(why.contains("asked to stop"), "{why}");
}
