//! `--lua SCRIPT`: a bot written for FCEUX's Lua API plays the cartridge while the AI watches,
//! and a script that fails stops alone, with its file and line, while the run goes on.

mod common;

use common::jewelbot;
use serde_json::Value;
use std::path::PathBuf;

fn summary(stdout: &str) -> Value {
    serde_json::from_str(stdout).expect("a JSON summary")
}

/// A script file `name` holding `text`, in a folder of its own for the test `test`: the
/// folder (removed by the test) and the script's path.
fn script_file(test: &str, name: &str, text: &str) -> (PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("jewelbot-lua-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let script = dir.join(name);
    std::fs::write(&script, text).expect("a script");
    (dir, script.display().to_string())
}

fn int(summary: &Value, key: &str) -> i64 {
    summary[key]
        .as_i64()
        .unwrap_or_else(|| panic!("no {key} in {summary}"))
}

/// The example bot starts games and places columns (it loses its first); the AI, out of
/// control, decides nothing.
/// Pinned on 4,000 frames so that a change in the script's view shows as a changed number.
#[test]
fn the_example_bot_plays_the_cartridge() {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/lua/magic-jewelry-bot.lua"
    );
    let args = [
        "run",
        "--headless",
        "--json",
        "--frames",
        "4000",
        "--lua",
        script,
    ];
    let (code, stdout, stderr) = jewelbot(&args);
    assert_eq!(code, 0, "{stderr}");
    let run = summary(&stdout);
    assert_eq!(int(&run, "decisions"), 0, "the AI pressed: {run}");
    assert_eq!(
        (int(&run, "games_started"), int(&run, "columns_placed")),
        (2, 33),
        "{run}"
    );
}

/// A run-time error at frame 300 stops the script; the run plays its frames to the end.
#[test]
fn a_failing_script_stops_alone() {
    let (dir, script) = script_file(
        "fails",
        "bot.lua",
        "while emu.framecount() < 300 do emu.frameadvance() end\nlocal t = nil\nprint(t.x)\n",
    );
    let args = [
        "run",
        "--headless",
        "--json",
        "--frames",
        "600",
        "--lua",
        &script,
    ];
    let (code, stdout, stderr) = jewelbot(&args);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("bot.lua:3: attempt to index local 't' (a nil value)"),
        "{stderr}"
    );
    assert_eq!(summary(&stdout)["frames"], 600, "{stdout}");
    // A script that is not there is refused before anything runs.
    let missing = dir.join("missing.lua").display().to_string();
    let (code, _, stderr) = jewelbot(&["run", "--headless", "--frames", "10", "--lua", &missing]);
    assert_ne!(code, 0);
    assert!(stderr.contains("cannot read Lua script"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `os.exit` (with `--lua-os-io`) ends a headless run and a recording after its frame.
#[test]
fn os_exit_ends_the_run_and_the_recording_with_its_status() {
    let (dir, script) = script_file(
        "exit",
        "exit.lua",
        "emu.registerafter(function() if emu.framecount() == 300 then os.exit(3) end end)\n",
    );
    let lua = ["--lua", script.as_str(), "--lua-os-io"];
    let mut run = vec!["run", "--headless", "--json", "--frames", "1000"];
    run.extend(lua);
    // The process exits with the script's status, as FCEUX does, its outputs written.
    let (code, stdout, stderr) = jewelbot(&run);
    assert_eq!(code, 3, "{stderr}");
    let summary = summary(&stdout);
    assert_eq!(summary["frames"], 300, "{stdout}");
    assert!(
        summary["ended"].to_string().contains("os.exit(3)"),
        "{stdout}"
    );
    let trace = dir.join("exit.trace.gz").display().to_string();
    let mut record = vec!["record", "--frames", "1000", "--out", trace.as_str()];
    record.extend(lua);
    let (code, stdout, stderr) = jewelbot(&record);
    assert_eq!(code, 3, "{stderr}");
    assert!(
        format!("{stdout}{stderr}").contains("300 frames recorded"),
        "{stdout}{stderr}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// FCEUX's console functions through the host: the bus beyond RAM (the cartridge's reset
/// vector), a state saved and loaded, lag frames, a power cycle; the run counts the frames it
/// ran, whatever the frame numbers do.
#[test]
fn a_script_saves_loads_and_powers_the_console() {
    let (dir, script) = script_file(
        "states",
        "states.lua",
        "local slot, loaded, powered = savestate.create(), false, false
         while true do
           local f = emu.framecount()
           if f == 60 and not loaded then
             print(string.format('vector %04X lags %d', memory.readword(0xFFFC), emu.lagcount()))
             savestate.save(slot)
           elseif f == 120 and not loaded then
             loaded = true
             savestate.load(slot)
           elseif f == 61 and loaded and not powered then
             print('back at ' .. f)
           elseif f == 100 and loaded and not powered then
             powered = true
             emu.poweron()
           elseif f == 1 and powered then
             print('powered on at ' .. f)
           end
           emu.frameadvance()
         end",
    );
    let (code, stdout, stderr) = jewelbot(&[
        "run",
        "--headless",
        "--json",
        "--frames",
        "200",
        "--lua",
        &script,
    ]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 0, "{stderr}");
    let printed: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("vector") || l.starts_with("back") || l.starts_with("powered"))
        .collect();
    // The open cartridge's reset vector, as its file holds it (the last PRG bank's $FFFC); its
    // first six frames poll no controller (FCEUX 2.6.5's emu.lagcount() says 6 at frame 60 too).
    let rom = jewelbot_cartridge::ROM;
    let prg_end = 16 + usize::from(rom[4]) * 0x4000;
    let vector = u16::from_le_bytes([rom[prg_end - 4], rom[prg_end - 3]]);
    let read = format!("vector {vector:04X} lags 6");
    assert_eq!(
        printed,
        [read.as_str(), "back at 61", "powered on at 1"],
        "{stderr}"
    );
    // 120 frames, back to 60, 40 more to 100, then power-on and the last 40.
    let run = summary(&stdout);
    assert_eq!(
        (
            int(&run, "frames"),
            int(&run, "run_frames"),
            int(&run, "last_frame")
        ),
        (200, 200, 40),
        "{run}"
    );
}

/// `--ai off` turns off the built-in AI only: a script given on the command line plays as it
/// does with the AI on (its buttons reach the console: the same movie).
#[test]
fn a_script_plays_with_the_ai_off() {
    let (dir, script) = script_file(
        "ai-off",
        "presser.lua",
        "while true do\n  if emu.framecount() % 3 == 0 then joypad.set(1, {left = true, A = true}) end\n  emu.frameadvance()\nend\n",
    );
    let movie = |name: &str, ai: &str| {
        let path = dir.join(name).display().to_string();
        let args = [
            "run",
            "--headless",
            "--frames",
            "400",
            "--lua",
            script.as_str(),
            "--ai",
            ai,
            "--record-movie",
            path.as_str(),
        ];
        let (code, _, stderr) = jewelbot(&args);
        assert_eq!(code, 0, "{stderr}");
        let text = std::fs::read_to_string(&path).expect("the movie");
        text.lines()
            .filter(|line| line.starts_with('|'))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let on = movie("on.fm2", "on");
    let off = movie("off.fm2", "off");
    assert_eq!(off, on);
    let pressed = off.iter().filter(|line| line.contains('L')).count();
    assert!(pressed >= 100, "{pressed} frames with Left held");
    std::fs::remove_dir_all(&dir).ok();
}
