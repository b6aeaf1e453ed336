//! Plug-ins hear of every access to the addresses they watch, however many addresses and
//! however many accesses a frame (up to the documented 65,536): past the emulator core's 64
//! breakpoints and its 256 logged accesses between two drains. Watching changes nothing of the
//! game.

mod common;

use jewelbot_host::session::{Session, SessionConfig};
use jewelbot_plugin::{
    ConsoleRequest, FrameContext, MemoryAccess, MemoryWatch, Plugin, RomIdentity,
};
use std::sync::{Arc, Mutex};

/// Asks for `watches` at power-on and keeps the number of hits of each frame.
struct Counter {
    watches: Vec<MemoryWatch>,
    seen: Arc<Mutex<Vec<usize>>>,
}

impl Plugin for Counter {
    fn name(&self) -> &'static str {
        "counter"
    }
    fn attach(&mut self, _: &RomIdentity<'_>) -> Result<String, String> {
        Ok("any ROM".into())
    }
    fn on_frame(&mut self, ctx: &mut FrameContext<'_>) {
        let hits = ctx.console().memory_hits().len();
        self.seen.lock().expect("not poisoned").push(hits);
        if ctx.frame_number() == 0 {
            ctx.request(ConsoleRequest::Watch(std::mem::take(&mut self.watches)));
        }
    }
}

/// The hits of each of `frames` frames of the cartridge with `watches`, and its RAM at the end.
fn run(watches: Vec<MemoryWatch>, frames: usize) -> (Vec<usize>, Vec<u8>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let counter = Counter {
        watches,
        seen: Arc::clone(&seen),
    };
    let rom = common::cartridge().expect("the cartridge");
    let mut session =
        Session::new(rom, vec![Box::new(counter)], SessionConfig::default()).expect("a session");
    for _ in 0..frames {
        session.run_frame().expect("a frame");
    }
    let seen = seen.lock().expect("not poisoned").clone();
    (seen, session.ram().to_vec())
}

fn watch(start: u16, end: u16, access: MemoryAccess) -> MemoryWatch {
    MemoryWatch { start, end, access }
}

#[test]
fn every_access_arrives_past_the_cores_limits() {
    const FRAMES: usize = 120;
    let (unwatched, ram) = run(Vec::new(), FRAMES);
    assert!(unwatched.iter().all(|&n| n == 0));
    // Every instruction the program runs, and every read and write of RAM: thousands of
    // accesses a frame, in one watch of each kind.
    let whole = vec![
        watch(0x8000, 0xFFFF, MemoryAccess::Execute),
        watch(0x0000, 0x07FF, MemoryAccess::Read),
        watch(0x0000, 0x07FF, MemoryAccess::Write),
    ];
    let (by_range, ram_watched) = run(whole, FRAMES);
    assert_eq!(ram_watched, ram, "watching changed the game");
    let most = by_range.iter().copied().max().unwrap_or(0);
    assert!(most > 2_000, "{most} accesses in the busiest frame");
    // The same addresses as 34,816 watches of one address each: the same hits.
    let singles: Vec<MemoryWatch> = (0x8000..=0xFFFF)
        .map(|a| watch(a, a, MemoryAccess::Execute))
        .chain((0..0x800).map(|a| watch(a, a, MemoryAccess::Read)))
        .chain((0..0x800).map(|a| watch(a, a, MemoryAccess::Write)))
        .collect();
    let (by_address, _) = run(singles, FRAMES);
    assert_eq!(by_address, by_range);
    // Every other address only: exactly the hits on those (merged ranges drop the rest).
    let even: Vec<MemoryWatch> = (0..0x400)
        .map(|a| watch(a * 2, a * 2, MemoryAccess::Read))
        .collect();
    let (by_even, _) = run(even, FRAMES);
    let (reads, _) = run(vec![watch(0, 0x7FF, MemoryAccess::Read)], FRAMES);
    assert!(by_even.iter().zip(&reads).all(|(even, all)| even <= all));
    assert!(by_even.iter().sum::<usize>() > 0);
    assert!(by_even.iter().sum::<usize>() < reads.iter().sum::<usize>());
}
