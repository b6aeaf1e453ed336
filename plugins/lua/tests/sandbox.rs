//! What a script cannot do, whatever it tries: load bytecode, run for ever (in the main chunk,
//! a callback, a memory hook, a finalizer, a pattern, under `pcall`), or hold memory past its
//! limits. Each stops the script with one message; the game goes on.

mod common;

use common::{stops_with, Console};
use jewelbot_lua::{LuaOptions, LuaPlugin};
use jewelbot_plugin::{ConsoleRequest, MemoryAccess, MemoryHit, MemoryWatch};

const STOPPED: &str = "without emu.frameadvance()";

fn open() -> LuaOptions {
    LuaOptions { os_and_io: true }
}

/// A script stopped within `frames` frames whose reason holds `expected`, with `options`.
fn stops_with_options(script: &str, options: LuaOptions, frames: usize, expected: &str) {
    let mut console = Console::with(script, options);
    console.frames(frames);
    let why = console
        .plugin
        .stopped()
        .unwrap_or_else(|| panic!("{script}: not stopped"));
    assert!(why.contains(expected), "{script}: {why}");
}

/// A folder of the test's own, emptied first.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("jewelbot-lua-{name}-{}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

#[test]
fn binary_chunks_are_refused_by_loadstring_and_load() {
    stops_with(
        "assert(loadstring(string.dump(function() return 1 end)))",
        1,
        "binary",
    );
    stops_with(
        "local f, why = loadstring('\\27Lua junk')\nassert(f == nil)\nerror(why)",
        1,
        "bot.lua:3: binary",
    );
    stops_with(
        "local dumped, given = string.dump(function() end), false
         assert(load(function()
           if given then return nil end
           given = true
           return dumped
         end))",
        1,
        "binary",
    );
    // Source still loads, from a string and from a reader, and runs in the script's globals.
    let mut console = Console::new(
        "x = 0
         assert(loadstring('x = x + 1'))()
         local parts = {'x = x ', '+ 2'}
         assert(load(function() return table.remove(parts, 1) end))()
         assert(x == 3)
         local f, why = loadstring('syntax error here', 'mine')
         assert(f == nil and why:find('mine'))
         memory.writebyte(0, x)",
    );
    console.frames(1);
    assert_eq!(console.plugin.stopped(), None);
    assert_eq!(console.ram[0], 3);
}

#[test]
fn a_script_file_of_bytecode_is_refused() {
    for options in [LuaOptions::default(), open()] {
        let plugin =
            LuaPlugin::new("bot.luac", b"\x1bLuaQ\x00\x01\x04\x08\x04\x08\x00", options).unwrap();
        let why = plugin.stopped().expect("refused");
        assert!(why.contains("bot.luac") && why.contains("binary"), "{why}");
    }
}

#[test]
fn binary_chunks_are_refused_from_files_with_os_and_io_too() {
    let dir = scratch("bytecode");
    let script = format!(
        "local dir = '{}'
         local f = assert(io.open(dir .. '/mod.lua', 'wb'))
         f:write(string.dump(function() return 1 end))
         f:close()
         local fn, why = loadfile(dir .. '/mod.lua')
         assert(fn == nil and why:find('binary'), why)
         local ok, why = pcall(dofile, dir .. '/mod.lua')
         assert(not ok and why:find('binary'), why)
         package.path = dir .. '/?.lua'
         local ok, why = pcall(require, 'mod')
         assert(not ok and why:find('binary'), why)
         -- Source files still load, the first line `#!` skipped as FCEUX does.
         f = assert(io.open(dir .. '/text.lua', 'w'))
         f:write('#!/usr/bin/lua\\nreturn 7\\n')
         f:close()
         assert(dofile(dir .. '/text.lua') == 7)
         assert(loadfile(dir .. '/text.lua')() == 7)
         assert(require('text') == 7)
         memory.writebyte(0, 1)",
        dir.display()
    );
    let mut console = Console::with(&script, open());
    console.frames(1);
    assert_eq!(console.plugin.stopped(), None);
    assert_eq!(console.ram[0], 1);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn endless_callbacks_are_stopped() {
    for script in [
        "emu.registerbefore(function() while true do end end)",
        "emu.registerafter(function() while true do end end)",
        "gui.register(function() while true do end end)",
        "emu.registerbefore(function() while true do pcall(function() for i = 1, 1e5 do end end) end end)",
        "while true do pcall(function() for i = 1, 1e5 do end end) end",
        "while true do xpcall(function() for i = 1, 1e5 do end end, print) end",
        "while true do xpcall(error, function() while true do end end) end",
        "while true do coroutine.resume(coroutine.create(function() for i = 1, 1e5 do end end)) end",
        "local e = setmetatable({}, {__tostring = function() while true do end end})
         while true do pcall(error, e) error(e) end",
    ] {
        stops_with(script, 3, STOPPED);
    }
}

#[test]
fn an_endless_memory_hook_is_stopped() {
    let mut console = Console::new("memory.registerwrite(0x10, function() while true do end end)");
    console.frames(1);
    console.hits = vec![MemoryHit {
        address: 0x10,
        access: MemoryAccess::Write,
        value: 1,
        pc: 0x8000,
    }];
    console.frames(1);
    let why = console.plugin.stopped().expect("stopped");
    assert!(why.contains(STOPPED), "{why}");
}

#[test]
fn an_endless_exit_function_is_stopped() {
    let mut console = Console::new("emu.registerexit(function() while true do end end)");
    console.frames(2);
    // Dropping the plug-in (the run's end) calls the exit function; it must come back.
    drop(console);
}

#[test]
fn finalizers_cannot_run_script_code() {
    stops_with(
        "local p = newproxy(true)
         getmetatable(p).__gc = function() while true do end end
         p = nil
         collectgarbage()",
        1,
        "newproxy",
    );
    // With io, its files' finalizer is out of reach too.
    stops_with_options(
        "getmetatable(io.stdout).__gc = function() while true do end end",
        open(),
        1,
        "bot.lua:1:",
    );
}

#[test]
fn endless_patterns_are_stopped() {
    stops_with(
        "string.find(string.rep('a', 5000), string.rep('a-', 30) .. 'b')",
        1,
        STOPPED,
    );
    stops_with(
        "while true do pcall(string.find, string.rep('a', 5000), string.rep('a-', 30) .. 'b') end",
        1,
        STOPPED,
    );
}

#[test]
fn drawn_and_shown_text_is_bounded() {
    stops_with("gui.text(0, 0, string.rep('x', 2^20))", 1, "gui.text");
    stops_with("emu.message(string.rep('x', 2^20))", 1, "emu.message");
    // Text that fits is drawn.
    let mut console = Console::new("gui.text(0, 0, string.rep('x', 200))");
    console.frames(1);
    assert_eq!(console.plugin.stopped(), None);
}

#[test]
fn many_memory_hooks_cost_one_watch_list_a_frame() {
    let mut console = Console::new(
        "local function hook(a, size, v) memory.writebyte(0, memory.readbyte(0) + 1) end
         for a = 0, 0xFFFF do memory.registerwrite(a, hook) end
         memory.registerread(0x300, 0x100, hook)
         memory.registerread(0x380, nil)
         emu.frameadvance()",
    );
    console.frames(1);
    assert_eq!(console.plugin.stopped(), None);
    let watches: Vec<&Vec<MemoryWatch>> = console
        .requests
        .iter()
        .filter_map(|r| match r {
            ConsoleRequest::Watch(w) => Some(w),
            _ => None,
        })
        .collect();
    assert_eq!(
        watches.len(),
        1,
        "one watch list for the frame's registrations"
    );
    let watch = |start, end, access| MemoryWatch { start, end, access };
    assert_eq!(
        *watches[0],
        [
            watch(0x0000, 0xFFFF, MemoryAccess::Write),
            watch(0x0300, 0x037F, MemoryAccess::Read),
            watch(0x0381, 0x03FF, MemoryAccess::Read),
        ]
    );
    // Every hooked address fires once per access, however many hooks there are.
    console.hits = (0..1000u16)
        .map(|i| MemoryHit {
            address: i * 60,
            access: MemoryAccess::Write,
            value: 0,
            pc: 0x8000,
        })
        .collect();
    console.frames(1);
    assert_eq!(console.plugin.stopped(), None);
    assert_eq!(console.ram[0], (1000 % 256) as u8);
}

#[test]
fn registering_hooks_counts_as_work() {
    stops_with(
        "local function hook() end
         while true do memory.registerwrite(0, 0x10000, hook) end",
        1,
        STOPPED,
    );
}

#[test]
fn script_files_that_are_not_regular_files_are_refused() {
    let error = LuaPlugin::from_file(std::path::Path::new("/dev/zero"), LuaOptions::default())
        .err()
        .expect("refused");
    assert!(error.to_string().contains("/dev/zero"), "{error}");
    let dir = scratch("fifo");
    let fifo = dir.join("script.lua");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let error = LuaPlugin::from_file(&fifo, LuaOptions::default())
            .err()
            .expect("refused");
        assert!(error.to_string().contains("FIFO"), "{error}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_shebang_line_is_skipped() {
    let mut console = Console::new("#!/usr/bin/env fceux\nmemory.writebyte(0, 5)\nerror('line 3')");
    console.frames(1);
    let why = console.plugin.stopped().expect("stopped");
    assert!(why.contains("bot.lua:3: line 3"), "{why}");
    assert_eq!(console.ram[0], 5);
}

#[test]
fn printed_values_read_as_lua_writes_them() {
    let mut console = Console::new(
        "local ok, why = pcall(error, setmetatable({}, {__tostring = function() return 'mine' end}))
         emu.message(1/3, 2^53, 1e100, -0.5, 1e14, 12345678901234, 5, 0/0 ~= 0/0, why, nil)",
    );
    console.frames(1);
    assert_eq!(console.plugin.stopped(), None);
    let expected = "0.33333333333333\t9.007199254741e+15\t1e+100\t-0.5\t1e+14\t12345678901234\t5\ttrue\tmine\tnil";
    assert!(
        console.status.lines.iter().any(|l| l == expected),
        "{:?}",
        console.status.lines
    );
}
