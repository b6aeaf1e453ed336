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

/// `script`, with `os` and `io` on, runs its frame without being stopped and writes 1 to $0000
/// as its last act.
fn runs_to_its_end_with_io(script: &str) {
    let mut console = Console::with(script, open());
    console.frames(1);
    assert_eq!(console.plugin.stopped(), None);
    assert_eq!(console.ram[0], 1);
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
    runs_to_its_end_with_io(&script);
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

/// One instruction or one library call can copy, walk or compare a whole string or table,
/// which the instruction count does not see: what Lua allocates is counted (`..`, a string
/// made again and again), and the library functions that loop in C are charged for the work
/// they are asked to do, so each of these loops stops at a frame's limit.
#[test]
fn allocation_counts_as_work() {
    for script in [
        "local s, i = string.rep('x', 2^20), 0
         while true do i = i + 1 local t = s .. i end",
        "while true do local t = {} for i = 1, 1e3 do t[i] = {} end end",
    ] {
        stops_with(script, 3, STOPPED);
    }
}

#[test]
fn string_functions_are_charged() {
    for script in [
        "while true do pcall(string.rep, 'x', 1e5) end",
        "while true do local t = string.rep('x', 2^20) end",
        "local s = string.rep('x', 2^20) while true do local t = s:upper() end",
        "local s = string.rep('x', 2^20) while true do local t = s:sub(2) end",
        "local s = string.rep('7', 2^20) while true do local n = tonumber(s) end",
        "local s = string.rep('x', 2^20) while true do local t = string.format('%q', s) end",
        "local s = string.rep(' ', 2^20) while true do loadstring(s) end",
    ] {
        stops_with(script, 3, STOPPED);
    }
}

#[test]
fn table_functions_are_charged() {
    for script in [
        "local t = {} for i = 1, 1e5 do t[i] = i end
         while true do table.sort(t) end",
        "local t = {} for i = 1, 1e5 do t[i] = i end
         while true do table.insert(t, 1, 0) table.remove(t, 1) end",
        "local t = {} for i = 1, 1e5 do t[i] = '' end
         while true do local s = table.concat(t) end",
        "local t = {} for i = 1, 7000 do t[i] = i end
         while true do unpack(t) end",
        "local t = {} for i = 1, 1e5 do t[i] = i end
         while true do table.foreach(t, rawequal) end",
        "local t = {} for i = 1, 1e5 do t[i] = {} end
         while true do collectgarbage() end",
    ] {
        stops_with(script, 3, STOPPED);
    }
}

/// A call that asks for more than a frame's work stops before it starts.
#[test]
fn a_call_asking_for_more_than_a_frame_stops_at_once() {
    for script in [
        "string.rep('', 2^31)",
        "while true do local t = string.rep('x', 2^27) end",
        "local t = {1, 2, 3} table.remove(t, -2^30)",
        "local t = {1, 2, 3} table.insert(t, -2^30, 0)",
    ] {
        stops_with(script, 1, STOPPED);
    }
}

/// What bots do with tables and strings is charged as little as it costs.
#[test]
fn common_table_and_string_work_is_not_overcharged() {
    let mut console = Console::new(
        "local t = {}
         for i = 1, 5e4 do table.insert(t, i) end
         local s = table.concat(t, ',')
         local commas = 0
         for i = 1, #s do if s:sub(i, i) == ',' and s:byte(i) == 44 then commas = commas + 1 end end
         assert(commas == 5e4 - 1)
         table.sort(t, function(a, b) return a > b end)
         assert(t[1] == 5e4 and table.remove(t) == 1 and #t == 5e4 - 1)
         assert(string.rep('ab', 3, nil) == 'ababab' and select('#', table.remove({})) == 0)
         assert(tonumber('0x10') == 16 and tonumber('z', 36) == 35 and unpack({1, 2}) == 1)
         memory.writebyte(0, 1)",
    );
    console.frames(1);
    assert_eq!(console.plugin.stopped(), None);
    assert_eq!(console.ram[0], 1);
}

/// The charged functions raise the library's own errors, at the script's line.
#[test]
fn charged_functions_raise_the_librarys_errors() {
    for (script, expected) in [
        (
            "table.sort(nil)",
            "bot.lua:1: bad argument #1 to 'sort' (table expected, got nil)",
        ),
        (
            "table.insert({}, 1, 2, 3)",
            "bot.lua:1: wrong number of arguments to 'insert'",
        ),
        (
            "local t = {}\ntable.remove()",
            "bot.lua:2: bad argument #1 to 'remove' (table expected, got no value)",
        ),
        (
            "table.sort({3, 1, 2}, 5)",
            "bot.lua:1: bad argument #2 to 'sort' (function expected, got number)",
        ),
        (
            "local s = 'x'\ns:rep()",
            "bot.lua:2: bad argument #1 to 'rep' (number expected, got no value)",
        ),
        (
            "tonumber('1', 99)",
            "bot.lua:1: bad argument #2 to 'tonumber' (base out of range)",
        ),
        (
            "table.foreach({1}, 5)",
            "bot.lua:1: bad argument #2 to 'foreach' (function expected, got number)",
        ),
        (
            "table.concat({{}})",
            "bot.lua:1: invalid value (table) at index 1 in table for 'concat'",
        ),
    ] {
        stops_with(script, 1, expected);
    }
}

/// A script that holds all the memory it may and then yields: mlua's own small allocations
/// outside a protected call still succeed (one that failed there would end the process).
#[test]
fn a_script_holding_all_it_may_leaves_the_emulator_running() {
    let mut console = Console::new(
        "local keep, size = {}, 2^20
         local piece = string.rep('x', size)
         while size >= 16 do
           pcall(function()
             while true do keep[#keep + 1] = piece:sub(1, size) .. #keep end
           end)
           size = size / 2
         end
         emu.frameadvance()
         memory.writebyte(0, 1)
         emu.frameadvance()",
    );
    console.frames(3);
    // Stopped for memory at some point, or finished: either way the game goes on.
    if let Some(why) = console.plugin.stopped() {
        assert!(why.contains("not enough memory"), "{why}");
    }
    // Small allocations past the limit stop the script at its next check (made over frames:
    // a frame's work does not make 256 MiB of them).
    stops_with(
        "local list
         while true do
           for i = 1, 1e6 do list = {list} end
           emu.frameadvance()
         end",
        8,
        "not enough memory: a script may hold 256 MiB",
    );
}

/// With `os` and `io`, `require` loads Lua source and nothing else: no C modules.
#[test]
fn no_c_modules_with_os_and_io() {
    let dir = scratch("cmodules");
    std::fs::write(dir.join("native.so"), b"\x7fELF").expect("a file");
    let script = format!(
        "assert(package.loadlib == nil)
         package.cpath = '{}/?.so'
         package.path = ''
         local ok, why = pcall(require, 'native')
         assert(not ok and not package.loaded.native, why)
         memory.writebyte(0, 1)",
        dir.display()
    );
    runs_to_its_end_with_io(&script);
    std::fs::remove_dir_all(&dir).ok();
}

/// Work the count cannot see (`..` on strings Lua already holds copies them whole, in one
/// instruction) is stopped by the last resort, one frame's script work taking more than
/// [`jewelbot_lua::WALL_LIMIT`]: the run never hangs. Takes that long, so in the long tier.
#[test]
#[ignore = "takes jewelbot_lua::WALL_LIMIT (30 s)"]
fn uncounted_work_is_stopped_by_the_last_resort() {
    stops_with(
        "local s = string.rep('x', 2^20)\nwhile true do local t = s .. 'y' end",
        1,
        "work the instruction count does not see",
    );
}
