//! Scripts written for FCEUX's API, run frame by frame through the plug-in as the host runs
//! it: what they read, press, write and draw, and how bad scripts stop without stopping the
//! game.

mod common;

use common::{stops_with, Console};
use jewelbot_lua::LuaOptions;
use jewelbot_plugin::{Buttons, ConsoleRequest, Drawing, Plugin};

#[test]
fn frameadvance_hands_over_a_frame_at_a_time() {
    let mut console = Console::new(
        "while true do
           local f = emu.framecount()
           if f % 2 == 0 then joypad.set(1, {A = true, right = true, B = false}) end
           memory.writebyte(0x10, f * 3)
           emu.frameadvance()
         end",
    );
    let pressed = console.frames(6);
    let both = Buttons::A | Buttons::RIGHT;
    assert_eq!(
        pressed,
        [
            Buttons::NONE,
            both,
            Buttons::NONE,
            both,
            Buttons::NONE,
            both
        ]
    );
    // The write of frame 6, kept to 8 bits.
    assert_eq!(console.ram[0x10], 18);
    assert!(console.plugin.running());
}

#[test]
fn memory_reads_ram_its_mirrors_its_own_writes_and_the_bus() {
    let mut console = Console::new(
        "memory.writebyte(0x0801, 0xAB)     -- a mirror of $0001
         memory.writebyte(0x0002, -1)       -- FCEUX keeps the low 8 bits
         assert(memory.readbyte(0x0001) == 0xAB)
         assert(memory.readbyte(0x1801) == 0xAB)
         assert(memory.readbytesigned(0x0002) == -1)
         assert(memory.readword(0x0001) == 0xFFAB)
         assert(memory.readword(0x0002, 0x0001) == 0xABFF)
         assert(memory.readwordsigned(0x0001) == -85)
         assert(memory.readbyterange(0x0001, 2) == string.char(0xAB, 0xFF))
         assert(rom.readbyte(16 + 0x4000) == 0xC4)       -- CHR after PRG in the file
         assert(bit.band(0xF0F0, 0xFF00) == 0xF000)
         assert(bit.lshift(1, 31) == -2147483648)
         assert(bit.rshift(-1, 28) == 15)
         assert(bit.tohex(255, 2) == 'ff' and bit.tohex(255, -4) == '00FF')
         assert(bit.bxor(5, 3, 1) == 7)
         memory.writebyte(0x20, 1)
         emu.frameadvance()
         -- The rest of the bus, from the first frame on.
         assert(memory.readbyte(0x8000) == 0)
         assert(memory.readbyte(0xC001) == 1)           -- 16 KiB PRG mirrored
         assert(memory.readword(0xFFFE) == 0x4443)
         memory.writebyte(0x21, memory.readbyte(0x20) + 1)
         emu.frameadvance()",
    );
    console.frames(3);
    assert_eq!(console.plugin.stopped(), None);
    assert_eq!((console.ram[1], console.ram[2]), (0xAB, 0xFF));
    assert_eq!((console.ram[0x20], console.ram[0x21]), (1, 2));
    assert!(!console.plugin.running(), "the script returned");
}

#[test]
fn callbacks_run_around_the_script_and_at_the_end() {
    let dir = std::env::temp_dir().join(format!("jewelbot-lua-exit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("exit.txt");
    let script = format!(
        "local order = {{}}
         emu.registerafter(function() order[#order + 1] = 'after' end)
         emu.registerbefore(function() order[#order + 1] = 'before' end)
         gui.register(function() gui.box(1, 2, 10, 20, 'red') gui.text(0, 0, 'hi') end)
         emu.registerexit(function()
           local f = io.open({path:?}, 'w') f:write(table.concat(order, ',')) f:close()
         end)
         while true do order[#order + 1] = 'main' emu.frameadvance() end"
    );
    let mut console = Console::with(&script, LuaOptions { os_and_io: true });
    console.frames(2);
    // Drawn onto the picture with FCEUX's defaults: the box's edge in its fill's colour, the
    // text white on dark blue.
    let red = [255, 0, 0, 255];
    assert_eq!(
        console.status.drawings,
        [
            Drawing::Rect {
                from: (1, 2),
                to: (10, 20),
                fill: red,
                outline: red
            },
            Drawing::Text {
                at: (0, 0),
                text: "hi".into(),
                color: [255, 255, 255, 255],
                background: [27, 18, 105, 255]
            }
        ]
    );
    drop(console);
    // The script's first part ran before the first frame, then every frame: after, main,
    // before.
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "main,after,main,before,after,main,before"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_scripts_stop_with_their_file_and_line() {
    stops_with("while true do\n  emu.frameadvance(\nend", 3, "bot.lua:3:");
    stops_with(
        "joypad.set(1, {A = true})\nwhile emu.framecount() < 500 do emu.frameadvance() end\nerror('at 500')",
        600,
        "bot.lua:3: at 500",
    );
    stops_with("while true do end", 2, "without emu.frameadvance()");
    stops_with("os.execute('true')", 1, "os");
    stops_with("io.open('x')", 1, "io");
    stops_with("dofile('x')", 1, "dofile");
    stops_with(
        "local s = string.rep('x', 2^30)",
        1,
        "bot.lua: not enough memory",
    );
    stops_with("local t = {} for i = 1, 1e9 do t[i] = i end", 1, "memory");
    stops_with(
        "local a = 1\nmemory.writebyte(0x8000, a)",
        1,
        "bot.lua:2: memory.writebyte: $8000 is not RAM",
    );
    stops_with("memory.readbyte(0x10000)", 1, "not one of the CPU's");
    stops_with("memory.readbyte(0x2002)", 1, "from power-on on");
    stops_with("joypad.set(2, {})", 1, "controller 2");
    stops_with(
        "savestate.load(savestate.object(1))",
        1,
        "savestate.load: the object holds no state",
    );
    stops_with("savestate.object(11)", 1, "slot 11 is not 0 to 10");
    stops_with(
        "memory.registerwrite(0x10, 5)",
        1,
        "memory.registerwrite: the hook must be a function or nil, not integer",
    );
    stops_with(
        "memory.registerexec(0xFFFF, 2, print)",
        1,
        "size 2 does not fit from $FFFF",
    );
}

/// The console beyond RAM: the person's buttons, lag, states, resets and power cycles reach
/// the host as requests after the script's part of the frame.
#[test]
fn states_resets_lag_and_the_persons_buttons() {
    let mut console = Console::new(
        "emu.frameadvance()
         assert(emu.lagged() and emu.lagcount() == 7)
         assert(joypad.get(1).select and not joypad.get(1).A)
         joypad.set(1, {select = 'invert', A = 'invert'})
         local slot = savestate.object(3)
         assert(savestate.object(3) == slot and savestate.create() ~= slot)
         memory.writebyte(5, 9)
         savestate.save(slot)
         savestate.load(slot)
         emu.softreset()
         emu.poweron()
         emu.frameadvance()",
    );
    let pressed = console.frames(2);
    assert_eq!(console.plugin.stopped(), None);
    // The person holds Select: inverted, it is released; A is pressed.
    assert_eq!(pressed[0], Buttons::A);
    // The state is the console's as the frame left it: the write comes after.
    let saved = [0u8; 0x800];
    assert_eq!(
        console.requests,
        [
            ConsoleRequest::LoadState(saved.to_vec()),
            ConsoleRequest::Reset,
            ConsoleRequest::PowerOn
        ]
    );
}

/// `os.exit` ends the run (the host asks [`Plugin::ended`]) rather than the process, and only
/// with `os` turned on.
#[test]
fn os_exit_asks_the_run_to_end() {
    let script =
        "emu.registerafter(function()\n  if emu.framecount() == 3 then os.exit(3) end\nend)";
    let mut console = Console::with(script, LuaOptions { os_and_io: true });
    console.frames(2);
    assert_eq!(console.plugin.ended(), None);
    console.frames(1);
    assert_eq!(
        console.plugin.ended().as_deref(),
        Some("the Lua script called os.exit(3)")
    );
    let mut closed = Console::new(script);
    closed.frames(3);
    assert_eq!(closed.plugin.ended(), None);
    assert!(closed
        .plugin
        .stopped()
        .is_some_and(|why| why.contains("'os'")));
}
