//! A console for the scripts' tests: RAM, an NROM cartridge's PRG, and the plug-in run frame by
//! frame as the host runs it.
#![allow(dead_code)]

use jewelbot_lua::{LuaOptions, LuaPlugin};
use jewelbot_plugin::{
    Buttons, ConsoleRequest, FrameContext, FrameOutputs, MemoryHit, Plugin, Ram, RomIdentity,
    Status,
};

/// What the test console shows of its bus: RAM, and an NROM cartridge's PRG at $8000-$FFFF.
pub struct Bus<'a> {
    ram: &'a Ram,
    prg: &'a [u8],
    hits: &'a [MemoryHit],
}

impl jewelbot_plugin::Console for Bus<'_> {
    fn peek(&self, address: u16) -> u8 {
        match address {
            0x0000..=0x1FFF => self.ram[usize::from(address) % 0x800],
            0x8000..=0xFFFF => self.prg[usize::from(address - 0x8000) % self.prg.len()],
            _ => 0,
        }
    }

    fn save_state(&self) -> Result<Vec<u8>, String> {
        Ok(self.ram.to_vec())
    }

    fn person_buttons(&self) -> Buttons {
        Buttons::SELECT
    }

    fn lagged(&self) -> bool {
        true
    }

    fn lag_count(&self) -> u64 {
        7
    }

    fn memory_hits(&self) -> &[MemoryHit] {
        self.hits
    }
}

/// A console that runs no CPU: RAM changes only by the script's writes (and the test's).
pub struct Console {
    pub plugin: LuaPlugin,
    pub ram: Ram,
    pub frame: u64,
    prg: Vec<u8>,
    /// The accesses to watched addresses the next frame reports.
    pub hits: Vec<MemoryHit>,
    pub status: Status,
    /// What the script asked of the console, every frame so far.
    pub requests: Vec<ConsoleRequest>,
}

impl Console {
    pub fn new(script: &str) -> Self {
        Self::with(script, LuaOptions::default())
    }

    pub fn with(script: &str, options: LuaOptions) -> Self {
        let mut plugin =
            LuaPlugin::new("bot.lua", script.as_bytes(), options).expect("a Lua state");
        let prg: Vec<u8> = (0..0x4000).map(|i| (i % 251) as u8).collect();
        let chr = vec![0xC4; 0x2000];
        plugin
            .attach(&RomIdentity {
                name: "test",
                mapper: 0,
                prg: &prg,
                chr: &chr,
                prg_chr_crc32: 0,
                file_sha1: "",
            })
            .expect("attached");
        Self {
            plugin,
            ram: [0; 0x800],
            frame: 0,
            prg,
            hits: Vec::new(),
            status: Status::default(),
            requests: Vec::new(),
        }
    }

    /// One frame: the plug-in's buttons for the next, its writes applied.
    pub fn frame(&mut self) -> Buttons {
        self.frame += 1;
        let mut pokes = Vec::new();
        let mut buttons = Buttons::NONE;
        let mut events = Vec::new();
        let picture = vec![0u16; 256 * 240];
        let out = FrameOutputs {
            pokes: &mut pokes,
            buttons: &mut buttons,
            status: &mut self.status,
            requests: &mut self.requests,
            events: &mut events,
        };
        let ram = self.ram;
        let console = Bus {
            ram: &ram,
            prg: &self.prg,
            hits: &self.hits,
        };
        let mut ctx = FrameContext::new(self.frame, &self.ram, &picture, &console, out);
        self.plugin.on_frame(&mut ctx);
        for (address, value) in pokes {
            self.ram[usize::from(address)] = value;
        }
        buttons
    }

    pub fn frames(&mut self, n: usize) -> Vec<Buttons> {
        (0..n).map(|_| self.frame()).collect()
    }
}

/// A bad script stops with one clear message, and the plug-in goes on giving frames nothing.
pub fn stops_with(script: &str, frames: usize, expected: &str) {
    let mut console = Console::new(script);
    let pressed = console.frames(frames);
    let why = console
        .plugin
        .stopped()
        .unwrap_or_else(|| panic!("{script}: not stopped"));
    assert!(why.contains(expected), "{script}: {why}");
    assert!(why.contains("the game goes on"), "{why}");
    assert_eq!(pressed.last(), Some(&Buttons::NONE));
    assert!(console.status.lines.iter().any(|l| l.contains(expected)));
}
