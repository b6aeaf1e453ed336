//! The open cartridge against the real game's recordings: a recording of the cartridge is
//! compared with a recording of Magic Jewelry made from the same inputs.
//!
//! - Events: both sequences of the eight CPU events, in order (within a frame in a fixed order),
//!   must agree name by name, with frames at most [`Options::tolerance`] apart.
//! - At every pair of matched locks, the playfield ($0380-$03F7).
//! - At every pair of matched spawns: the generator ($44-$45) and both columns ($5C-$61), the
//!   settled playfield, and the counters (score, jewels, level, $5B, $6D, $6E, $A0).
//!
//! A difference is reported with the real game's frame and the first differing byte.

use jewelbot_host::session::{Control, Session, SessionConfig};
use jewelbot_plugin::{Buttons, Ram, Trace, TraceFrame, TraceHeader, RAM_SIZE};
use magic_jewelry::dumps::TRACE_RANGES;
use magic_jewelry::memory_map as map;
use magic_jewelry::plugin::MagicJewelryPlugin;
use std::collections::{BTreeSet, HashMap};
use std::fmt;

/// The open cartridge from power-on, with the plug-in attached only to name the routines a
/// recording watches (it does not hold the controller).
pub fn cartridge_session() -> Session {
    let rom =
        jewelbot_host::rom::RomImage::from_bytes(jewelbot_cartridge::NAME, jewelbot_cartridge::ROM)
            .expect("the open cartridge parses");
    let mut session = Session::new(
        rom,
        vec![Box::new(MagicJewelryPlugin::default())],
        SessionConfig::default(),
    )
    .expect("the open cartridge loads");
    session.set_control(Control::Manual);
    session
}

/// Where the real game seeds its generator at each warm reset: the first frame after a `reset`
/// (past frame 1) whose $44/$45 change, and the seed. The seed comes from RAM pages the
/// recordings do not hold, so the cartridge is given the same one on the frame after.
pub fn warm_seeds(real: &Trace) -> Vec<(u64, u8, u8)> {
    let mut seeds = Vec::new();
    let mut after_reset = false;
    let mut replay = real.replay();
    while let Some((frame, ram)) = replay.next() {
        if frame.number > 1 && frame.has("reset") {
            after_reset = true;
            continue;
        }
        if after_reset && frame.changes.iter().any(|&(a, _)| a == 0x44 || a == 0x45) {
            seeds.push((frame.number, ram[0x44], ram[0x45]));
            after_reset = false;
        }
    }
    seeds
}

/// Gives `session` the real game's warm-reset seeds, written just before the frame after each.
pub fn schedule_seeds(session: &mut Session, real: &Trace) {
    for (frame, low, high) in warm_seeds(real) {
        session.schedule_poke(frame + 1, 0x44, low);
        session.schedule_poke(frame + 1, 0x45, high);
    }
}

/// The open cartridge's race hooks (`cartridge/README.md`): written before a frame, each makes
/// the cartridge take the real game's rarer side of a race on that frame.
pub const RACE_FALL: u16 = 0x07E0;
pub const RACE_SPAWN: u16 = 0x07E1;
pub const RACE_LATE: u16 = 0x07E2;

/// Where the real game's recording shows the side it took of a race that its CPU timing
/// decides (`docs/magic-jewelry.md`, "Races"), as (frame, hook, value) to write before that
/// frame. Nothing in RAM tells these sides in advance: the test gives them to the cartridge
/// from the recording, as it gives it the warm-reset seeds.
///
/// - The Down-release race: Down let go on the frame the soft-drop timer expires (on the frame
///   before, a controllable column with the soft drop armed, 2 frames a row, the timer at 1,
///   Down held), and the column still dropped or locked.
/// - The next column after a quiet lock: on the lock frame (1) or the next (2), or the next with
///   its fall timer already a tick on (3: the spawn raced the NMI's tick), or on the lock frame
///   with none, one or two of its jewels drawn by the frame's end (4-6: the rest of its drawing
///   raced the NMI).
/// - A first match step that starts a frame late: its collapse 86 frames after the lock, not 85.
pub fn races(real: &Trace) -> Vec<(u64, u16, u8)> {
    use magic_jewelry::game_view::{GameView, Phase};
    let down = |b: Buttons| b.contains(Buttons::DOWN);
    let mut races = Vec::new();
    let mut replay = real.replay();
    let mut before: Option<(Ram, Buttons)> = None;
    // The fall timer at the end of each frame.
    let mut timers = Vec::new();
    // The jewels of a new column drawn by the end of its lock's frame, where it spawned there.
    let mut drawn_in_lock_frame = HashMap::new();
    while let Some((frame, ram)) = replay.next() {
        timers.push(ram[usize::from(map::FALL_TIMER)]);
        if frame.has("lock") && frame.has("spawn") {
            let drawn = SPAWN_CELLS
                .iter()
                .zip(&ram[usize::from(map::CURRENT_COLUMN)..][..3])
                .take_while(|&(&cell, &jewel)| ram[usize::from(cell)] == jewel && jewel != 0)
                .count();
            drawn_in_lock_frame.insert(frame.number, drawn as u8);
        }
        if let Some((prev, held)) = &before {
            let racing = GameView::decode(prev).is_ok_and(|v| v.phase == Phase::Falling)
                && prev[0x65] != 0
                && prev[0x5A] == 2
                && prev[0x59] == 1
                && down(*held)
                && !down(frame.buttons);
            let fell = ram[0x56] == prev[0x56] && ram[0x57] == prev[0x57].wrapping_add(1);
            if racing && (fell || frame.has("lock")) {
                races.push((frame.number, RACE_FALL, 1));
            }
        }
        before = Some((*ram, frame.buttons));
    }
    let at = |k: u64| real.frames.get(k.wrapping_sub(1) as usize);
    for lock in real
        .frames
        .iter()
        .filter(|f| f.has("lock"))
        .map(|f| f.number)
    {
        let spawned_at = |k: u64| at(k).is_some_and(|f| f.has("spawn"));
        if spawned_at(lock) {
            let drawn = drawn_in_lock_frame.get(&lock).copied().unwrap_or(3);
            races.push((lock, RACE_SPAWN, if drawn == 3 { 1 } else { 4 + drawn }));
        } else if spawned_at(lock + 1) {
            let ticked = timers.get(lock as usize) == Some(&1);
            races.push((lock, RACE_SPAWN, if ticked { 3 } else { 2 }));
        } else if at(lock + 86).is_some_and(|f| f.has("match-check"))
            && !at(lock + 85).is_some_and(|f| f.has("match-check"))
        {
            races.push((lock, RACE_LATE, 1));
        }
    }
    races.sort_unstable();
    races
}

/// The side the cartridge takes by itself of the next column's race after a quiet lock, from
/// RAM on the frame before the lock (the locking column drawn): the lock frame (1) on a board
/// of 21 jewels or more in rows -1..12, or at the first level's speed when column 3 holds a
/// jewel in row 6; otherwise the next frame (2). The cartridge's rule (`cartridge/src/game.s`),
/// predicting the real game's side (`docs/magic-jewelry.md`, "Races").
pub fn predicted_spawn_side(before_lock: &Ram) -> u8 {
    let cell = |row: i8, column: u8| before_lock[usize::from(map::cell_address(row, column))];
    let jewels = (-1..=12)
        .flat_map(|row| (0..6).map(move |column| (row, column)))
        .filter(|&(row, column)| cell(row, column) != 0)
        .count();
    let first_speed = before_lock[usize::from(map::SPEED_IN_FORCE)] == 63;
    if jewels >= 21 || (first_speed && cell(6, 3) != 0) {
        1
    } else {
        2
    }
}

/// The races of `real` the cartridge does not take the real game's side of by itself: every
/// Down-release race and late first step, and the quiet locks whose next column came on
/// another frame than [`predicted_spawn_side`] says.
pub fn unpredicted_races(real: &Trace) -> Vec<(u64, u16, u8)> {
    let mut before_lock = HashMap::new();
    let mut replay = real.replay();
    let mut previous: Option<Ram> = None;
    while let Some((frame, ram)) = replay.next() {
        if frame.has("lock") {
            if let Some(prev) = &previous {
                before_lock.insert(frame.number, predicted_spawn_side(prev));
            }
        }
        previous = Some(*ram);
    }
    races(real)
        .into_iter()
        .filter(|&(frame, hook, value)| {
            hook != RACE_SPAWN || before_lock.get(&frame) != Some(&value)
        })
        .collect()
}

/// Gives `session` the real game's side of every race in `real` the cartridge does not take
/// by itself ([`unpredicted_races`]).
pub fn schedule_races(session: &mut Session, real: &Trace) {
    for (frame, hook, value) in unpredicted_races(real) {
        session.schedule_poke(frame, hook, value);
    }
}

/// Builds a trace frame by frame, RAM kept as changes like the recordings.
pub struct Recorder {
    frames: Vec<TraceFrame>,
    previous: Box<Ram>,
}

impl Default for Recorder {
    fn default() -> Self {
        Self {
            frames: Vec::new(),
            previous: Box::new([0; RAM_SIZE]),
        }
    }
}

impl Recorder {
    pub fn frame(&mut self, buttons: Buttons, events: Vec<String>, ram: &Ram) {
        let mut changes = Vec::new();
        for &(lo, hi) in &TRACE_RANGES {
            for address in lo..=hi {
                let i = usize::from(address);
                if ram[i] != self.previous[i] {
                    changes.push((address, ram[i]));
                }
            }
        }
        self.previous.copy_from_slice(ram);
        self.frames.push(TraceFrame {
            number: self.frames.len() as u64 + 1,
            buttons,
            events,
            pokes: Vec::new(),
            notes: Vec::new(),
            changes,
        });
    }

    pub fn trace(&self) -> Trace {
        Trace {
            header: TraceHeader {
                rom_crc32: None,
                ranges: TRACE_RANGES.to_vec(),
                power_on_ram: "zeros".into(),
                source: "inputs on the open cartridge".into(),
            },
            frames: self.frames.clone(),
        }
    }
}

/// What to compare.
#[derive(Debug, Clone)]
pub struct Options {
    /// Largest frame difference between matching events.
    pub tolerance: u64,
    /// Frames compared from power-on (the rest of both recordings is ignored).
    pub frames: u64,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            tolerance: 2,
            frames: u64::MAX,
        }
    }
}

/// The kind of a difference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The event sequences part.
    Event,
    /// The playfield at a lock.
    LockBoard,
    /// The generator or a column at a spawn.
    SpawnColumns,
    /// The settled playfield at a spawn.
    SpawnBoard,
    /// A counter at a spawn.
    Counters,
}

/// One difference.
#[derive(Debug, Clone)]
pub struct Mismatch {
    /// The real game's frame.
    pub frame: u64,
    /// The cartridge's frame, where there is one.
    pub twin_frame: Option<u64>,
    pub kind: Kind,
    pub detail: String,
}

/// The result of a comparison.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Frames compared.
    pub frames: u64,
    /// Events in the real recording, and how many the cartridge matched.
    pub events: usize,
    pub events_matched: usize,
    /// Events the cartridge had that the real game did not.
    pub events_extra: usize,
    /// Matched locks, and how many had the same playfield.
    pub locks: usize,
    pub locks_matched: usize,
    /// Matched spawns, and how many had the same generator and columns / playfield / counters.
    pub spawns: usize,
    pub spawns_columns: usize,
    pub spawns_board: usize,
    pub spawns_counters: usize,
    /// Every difference, in real-frame order.
    pub mismatches: Vec<Mismatch>,
    /// On the first differing frame, the first byte of the RAM map that differs on the same
    /// frame number: (address, real, cartridge).
    pub first_byte: Option<(u16, u8, u8)>,
}

impl Report {
    /// The real frame of the first difference, if any.
    pub fn first_divergence(&self) -> Option<u64> {
        self.mismatches.iter().map(|m| m.frame).min()
    }

    /// Frames from power-on during which the cartridge stayed in step with the real game.
    pub fn frames_in_step(&self) -> u64 {
        self.first_divergence()
            .map_or(self.frames, |f| f.saturating_sub(1))
    }

    /// True when nothing differed.
    pub fn is_clean(&self) -> bool {
        self.mismatches.is_empty()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "events {}/{} matched ({} extra), lock boards {}/{}, spawns {} (generator and columns {}, boards {}, counters {}), in step {}/{} frames",
            self.events_matched,
            self.events,
            self.events_extra,
            self.locks_matched,
            self.locks,
            self.spawns,
            self.spawns_columns,
            self.spawns_board,
            self.spawns_counters,
            self.frames_in_step(),
            self.frames
        )?;
        if let Some(m) = self.mismatches.first() {
            writeln!(
                f,
                "first difference: real frame {}{}: {:?}: {}",
                m.frame,
                m.twin_frame
                    .map_or(String::new(), |t| format!(" (cartridge frame {t})")),
                m.kind,
                m.detail
            )?;
            match self.first_byte {
                Some((address, real, twin)) => writeln!(
                    f,
                    "on real frame {}, the first differing byte: ${address:04X} real {real:02X}, cartridge {twin:02X}",
                    m.frame
                )?,
                None => writeln!(f, "on real frame {} no byte of the RAM map differs", m.frame)?,
            }
            for m in self.mismatches.iter().skip(1).take(7) {
                writeln!(
                    f,
                    "  then real frame {}: {:?}: {}",
                    m.frame, m.kind, m.detail
                )?;
            }
        }
        Ok(())
    }
}

/// The events compared, in their order within a frame.
const ORDER: [&str; 8] = [
    "reset",
    "game-setup",
    "lock",
    "match-check",
    "game-over",
    "wild-landed",
    "wild-generated",
    "spawn",
];

const PLAYFIELD: std::ops::RangeInclusive<u16> = 0x0380..=0x03F7;
/// The new column's cells (x = 3, rows -2..0), written by a spawn.
const SPAWN_CELLS: [u16; 3] = [0x0384, 0x038C, 0x0394];
const GENERATOR_AND_COLUMNS: [u16; 8] = [0x44, 0x45, 0x5C, 0x5D, 0x5E, 0x5F, 0x60, 0x61];

/// The playfield addresses of the falling column's cells ($56 = x, $57 = bottom row).
fn column_cells(ram: &Ram) -> [u16; 3] {
    let (x, y) = (u16::from(ram[0x56].min(5)), u16::from(ram[0x57].min(12)));
    let bottom = 0x0380 + 8 * (y + 2) + x + 1;
    [bottom, bottom - 8, bottom - 16]
}

fn counters() -> impl Iterator<Item = u16> {
    (0x77..=0x8E).chain([0x5B, 0x6D, 0x6E, 0xA0])
}

/// The bytes of the RAM map the recordings hold.
fn documented() -> impl Iterator<Item = u16> {
    [0x1A]
        .into_iter()
        .chain(0x33..=0x3B)
        .chain([0x3D, 0x3E, 0x3F])
        .chain(0x44..=0x47)
        .chain(0x56..=0x61)
        .chain([0x65, 0x66, 0x6C, 0x6D, 0x6E])
        .chain(0x77..=0x8E)
        .chain([0xA0])
        .chain(PLAYFIELD)
}

fn events(trace: &Trace, last: u64) -> Vec<(u64, usize)> {
    let mut list = Vec::new();
    for frame in trace.frames.iter().take_while(|f| f.number <= last) {
        for (rank, name) in ORDER.iter().enumerate() {
            if frame.has(name) {
                list.push((frame.number, rank));
            }
        }
    }
    list
}

/// RAM at the end of each frame in `wanted`.
fn snapshots(trace: &Trace, wanted: &BTreeSet<u64>) -> HashMap<u64, Box<Ram>> {
    let mut out = HashMap::new();
    let Some(&last) = wanted.last() else {
        return out;
    };
    let mut replay = trace.replay();
    while let Some((frame, ram)) = replay.next() {
        if wanted.contains(&frame.number) {
            out.insert(frame.number, Box::new(*ram));
        }
        if frame.number >= last {
            break;
        }
    }
    out
}

fn first_difference(
    real: &Ram,
    twin: &Ram,
    addresses: impl Iterator<Item = u16>,
) -> Option<(u16, u8, u8)> {
    addresses
        .map(|a| (a, real[usize::from(a)], twin[usize::from(a)]))
        .find(|&(_, r, t)| r != t)
}

fn describe(what: &str, (address, real, twin): (u16, u8, u8)) -> String {
    format!("{what}: first difference at ${address:04X}: real {real:02X}, cartridge {twin:02X}")
}

/// Pairs the two event sequences; the unpaired ones become mismatches.
fn pair_events(
    real_events: &[(u64, usize)],
    twin_events: &[(u64, usize)],
    tolerance: u64,
    report: &mut Report,
) -> Vec<(u64, u64, usize)> {
    let mut pairs = Vec::new();
    let (mut i, mut j) = (0, 0);
    loop {
        match (real_events.get(i).copied(), twin_events.get(j).copied()) {
            (Some((rf, rn)), Some((tf, tn))) if rn == tn && rf.abs_diff(tf) <= tolerance => {
                pairs.push((rf, tf, rn));
                i += 1;
                j += 1;
            }
            (Some((rf, rn)), Some((tf, tn))) => {
                // One side has an event the other lacks: the earlier one if they are far apart;
                // on close frames, the cartridge's unless it has the real one nearby.
                let twin_has_it = twin_events[j..]
                    .iter()
                    .take_while(|e| e.0 <= rf + tolerance)
                    .any(|e| e.1 == rn && e.0.abs_diff(rf) <= tolerance);
                if tf + tolerance < rf || (tf <= rf + tolerance && twin_has_it) {
                    report.events_extra += 1;
                    report.mismatches.push(Mismatch {
                        frame: tf.min(rf),
                        twin_frame: Some(tf),
                        kind: Kind::Event,
                        detail: format!(
                            "the cartridge had `{}` at frame {tf}, which the real game did not (its next: `{}` at frame {rf})",
                            ORDER[tn], ORDER[rn]
                        ),
                    });
                    j += 1;
                } else {
                    report.mismatches.push(Mismatch {
                        frame: rf,
                        twin_frame: Some(tf),
                        kind: Kind::Event,
                        detail: format!(
                            "the real game had `{}` at frame {rf}, which the cartridge did not (its next: `{}` at frame {tf})",
                            ORDER[rn], ORDER[tn]
                        ),
                    });
                    i += 1;
                }
            }
            (Some((rf, rn)), None) => {
                report.mismatches.push(Mismatch {
                    frame: rf,
                    twin_frame: None,
                    kind: Kind::Event,
                    detail: format!(
                        "the real game had `{}` at frame {rf}; the cartridge had no more events",
                        ORDER[rn]
                    ),
                });
                i += 1;
            }
            (None, Some((tf, tn))) => {
                report.events_extra += 1;
                report.mismatches.push(Mismatch {
                    frame: tf,
                    twin_frame: Some(tf),
                    kind: Kind::Event,
                    detail: format!(
                        "the cartridge had `{}` at frame {tf} after the real game's last event",
                        ORDER[tn]
                    ),
                });
                j += 1;
            }
            (None, None) => break,
        }
    }
    pairs
}

/// The spawns that both games made in the lock's own frame, frame for frame (`real` and `twin`
/// recorded from the same inputs), and those whose new column's cells (x = 3, rows -2..0)
/// differ on that frame or the next: the real game draws the column only on the next frame.
pub fn lock_frame_spawn_cells(real: &Trace, twin: &Trace) -> (usize, Vec<u64>) {
    let in_lock_frame = |f: &TraceFrame| f.has("lock") && f.has("spawn");
    let (mut real_replay, mut twin_replay) = (real.replay(), twin.replay());
    let mut checked = 0;
    let mut differing = Vec::new();
    // The frame's spawn cells on both sides, and whether it was such a spawn on both.
    let mut last: Option<([u8; 3], [u8; 3], bool)> = None;
    while let (Some((rf, r)), Some((tf, t))) = (real_replay.next(), twin_replay.next()) {
        let cells = |ram: &Ram| SPAWN_CELLS.map(|a| ram[usize::from(a)]);
        let (real_cells, twin_cells) = (cells(r), cells(t));
        if let Some((real_before, twin_before, true)) = last {
            checked += 1;
            if (real_before, real_cells) != (twin_before, twin_cells) {
                differing.push(rf.number - 1);
            }
        }
        last = Some((
            real_cells,
            twin_cells,
            in_lock_frame(rf) && in_lock_frame(tf),
        ));
    }
    (checked, differing)
}

/// Compares the cartridge's recording `twin` with the real game's `real`.
pub fn compare(real: &Trace, twin: &Trace, options: &Options) -> Report {
    let last = options.frames.min(real.frames.len() as u64);
    let mut report = Report {
        frames: last,
        ..Report::default()
    };
    let real_events = events(real, last);
    let twin_events = events(twin, last);
    report.events = real_events.len();
    let pairs = pair_events(&real_events, &twin_events, options.tolerance, &mut report);
    report.events_matched = pairs.len();

    let lock = ORDER.iter().position(|&e| e == "lock").unwrap_or_default();
    let spawn = ORDER.iter().position(|&e| e == "spawn").unwrap_or_default();
    // RAM at the matched locks and spawns, and on the frame before each lock.
    let frames_of = |side: usize, before: u64| -> BTreeSet<u64> {
        pairs
            .iter()
            .filter(|p| p.2 == lock || (before == 0 && p.2 == spawn))
            .map(|p| if side == 0 { p.0 } else { p.1 } - before)
            .collect()
    };
    let mut real_wanted = frames_of(0, 0);
    real_wanted.extend(frames_of(0, 1));
    let mut twin_wanted = frames_of(1, 0);
    twin_wanted.extend(frames_of(1, 1));
    let real_ram = snapshots(real, &real_wanted);
    let twin_ram = snapshots(twin, &twin_wanted);
    let zero: Box<Ram> = Box::new([0; RAM_SIZE]);
    let at = |map: &'_ HashMap<u64, Box<Ram>>, frame: u64| -> Box<Ram> {
        map.get(&frame).cloned().unwrap_or_else(|| zero.clone())
    };
    let spawned = |trace: &Trace, frame: u64| {
        trace
            .frames
            .get(frame as usize - 1)
            .is_some_and(|f| f.has("spawn"))
    };
    for &(rf, tf, kind) in &pairs {
        let (r, t) = (at(&real_ram, rf), at(&twin_ram, tf));
        if kind == lock {
            report.locks += 1;
            // A spawn in the lock's own frame has already written the new column; and matched
            // cells may be emptied on the lock frame by one side and a frame later by the
            // other: a cell emptied on one side only still matches when that side held the
            // other side's value the frame before.
            let skip_spawn_cells = spawned(real, rf) || spawned(twin, tf);
            let (rp, tp) = (at(&real_ram, rf - 1), at(&twin_ram, tf - 1));
            let cells = PLAYFIELD.filter(|&a| {
                let i = usize::from(a);
                let spawn_cell = skip_spawn_cells && SPAWN_CELLS.contains(&a);
                let emptied_by_real = r[i] == 0 && rp[i] == t[i];
                let emptied_by_twin = t[i] == 0 && tp[i] == r[i];
                !spawn_cell && !emptied_by_real && !emptied_by_twin
            });
            match first_difference(&r, &t, cells) {
                None => report.locks_matched += 1,
                Some(d) => report.mismatches.push(Mismatch {
                    frame: rf,
                    twin_frame: Some(tf),
                    kind: Kind::LockBoard,
                    detail: describe("playfield at the lock", d),
                }),
            }
        } else if kind == spawn {
            report.spawns += 1;
            match first_difference(&r, &t, GENERATOR_AND_COLUMNS.into_iter()) {
                None => report.spawns_columns += 1,
                Some(d) => report.mismatches.push(Mismatch {
                    frame: rf,
                    twin_frame: Some(tf),
                    kind: Kind::SpawnColumns,
                    detail: describe("generator and columns at the spawn", d),
                }),
            }
            // The settled board: each side's falling column masked out (a spawn may be torn,
            // or the column may already have moved on the spawn frame); its colours are
            // compared above.
            let (rc, tc) = (column_cells(&r), column_cells(&t));
            let cells = PLAYFIELD
                .filter(|a| !rc.contains(a) && !tc.contains(a) && !SPAWN_CELLS.contains(a));
            match first_difference(&r, &t, cells) {
                None => report.spawns_board += 1,
                Some(d) => report.mismatches.push(Mismatch {
                    frame: rf,
                    twin_frame: Some(tf),
                    kind: Kind::SpawnBoard,
                    detail: describe("playfield at the spawn", d),
                }),
            }
            match first_difference(&r, &t, counters()) {
                None => report.spawns_counters += 1,
                Some(d) => report.mismatches.push(Mismatch {
                    frame: rf,
                    twin_frame: Some(tf),
                    kind: Kind::Counters,
                    detail: describe("counters at the spawn", d),
                }),
            }
        }
    }
    report.mismatches.sort_by_key(|m| m.frame);
    if let Some(first) = report.first_divergence() {
        let wanted = BTreeSet::from([first]);
        let (r, t) = (snapshots(real, &wanted), snapshots(twin, &wanted));
        if let (Some(r), Some(t)) = (r.get(&first), t.get(&first)) {
            report.first_byte = first_difference(r, t, documented());
        }
    }
    report
}
