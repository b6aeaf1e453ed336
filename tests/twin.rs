//! The differential test: the open cartridge is the real game's twin. Each scripted recording
//! of Magic Jewelry (`plugins/magic-jewelry/traces`) is replayed from its script on the
//! cartridge from power-on with `jewelbot record`'s recorder, and the two recordings must agree:
//! the same events within 2 frames, the same board at every lock, the same generator, columns,
//! board and counters at every spawn. The player's 60,000-frame recording is replayed from its
//! inputs for as long as the two games stay in step.

mod differential;

use differential::{cartridge_session, compare, schedule_seeds, Options, Recorder};
use jewelbot::record::{record_trace, Driver};
use jewelbot_plugin::{Machine, Script};
use magic_jewelry::recordings::load as load_trace;
use magic_jewelry::recordings::Recording;

/// Frames of the player's recording the cartridge follows in step. The first difference is
/// the Down-release race (`docs/magic-jewelry.md`, "Controls"): at frame 8,858 Down is released
/// on the frame the soft-drop timer expires and the real game still drops the column, as it
/// does about a third of the time; the cartridge, like the majority, does not, and the real
/// game's lock at frame 8,868 comes a row early. A lower number is a regression.
const PLAYER_FRAMES_IN_STEP: u64 = 8_867;

/// Plays a scripted recording's script on the cartridge and compares with the recording,
/// which holds the events, locks and spawns the manifest gives.
fn scripted(recording: &Recording) {
    let name = recording.name.as_str();
    let real = recording.load();
    let script = Script::parse(&recording.script_text()).expect("a valid script");
    let mut session = cartridge_session();
    // At a warm reset the real game seeds its generator from RAM pages the recording does not
    // hold: the cartridge takes the real seed the frame after it appears.
    schedule_seeds(&mut session, &real);
    let twin = record_trace(&mut session, &Driver::Script(&script), name).expect("records");
    assert_eq!(
        twin.frames.len(),
        real.frames.len(),
        "{name}: the script ran {} frames on the cartridge and {} on the real game (an `until` waited differently)",
        twin.frames.len(),
        real.frames.len()
    );
    let report = compare(&real, &twin, &Options::default());
    println!("{name}: {report}");
    assert!(report.is_clean(), "{name}:\n{report}");
    assert_eq!(report.events_matched, report.events, "{name}:\n{report}");
    assert_eq!(report.events_extra, 0, "{name}:\n{report}");
    let [events, locks, spawns] = recording
        .twin
        .expect("the manifest gives the twin's counts");
    assert_eq!(
        (report.events, report.locks, report.spawns),
        (events, locks, spawns),
        "{name}: events, locks and spawns compared"
    );
}

/// Every scripted recording of the real game (`traces/manifest.json`), on the cartridge.
#[test]
fn every_scripted_recording() {
    let recordings = magic_jewelry::recordings::scripted();
    assert!(
        recordings.len() >= 5,
        "{} scripted recordings",
        recordings.len()
    );
    for recording in &recordings {
        scripted(recording);
    }
}

/// The comparison itself: a recording agrees with itself, and a changed board byte or a late
/// event is reported with its frame and byte.
#[test]
fn the_comparison_sees_a_changed_byte_and_a_late_event() {
    let real = load_trace("start-and-controls");
    let report = compare(&real, &real, &Options::default());
    assert!(report.is_clean() && report.locks == 5, "{report}");

    let lock = real.find("lock", 1).expect("a lock").number;
    let mut changed = real.clone();
    // A jewel the real game never had, from the frame before the first lock on.
    changed.frames[lock as usize - 2].changes.push((0x03F6, 6));
    let report = compare(&real, &changed, &Options::default());
    assert_eq!(report.first_divergence(), Some(lock), "{report}");
    assert_eq!(report.first_byte, Some((0x03F6, 0, 6)), "{report}");
    assert!(
        report.to_string().contains("$03F6 real 00, cartridge 06"),
        "{report}"
    );

    let mut late = real.clone();
    let events = std::mem::take(&mut late.frames[lock as usize - 1].events);
    late.frames[lock as usize + 2].events.extend(events);
    let report = compare(&real, &late, &Options::default());
    assert_eq!(report.first_divergence(), Some(lock), "{report}");
    assert!(report.to_string().contains("`lock`"), "{report}");
}

/// The player's inputs, frame by frame, on the cartridge: stopped once the two games have
/// parted (checked every 500 frames), so only the frames in step and a margin are emulated.
#[test]
fn player_inputs_stay_in_step() {
    const CHECK_EVERY: u64 = 500;
    /// Frames run past a difference before it is taken as final (events may be 2 frames late).
    const MARGIN: u64 = 10;
    let real = load_trace("player-fast-60k");
    let mut session = cartridge_session();
    schedule_seeds(&mut session, &real);
    let routines = session
        .plugins()
        .recording()
        .expect("the plug-in runs on its cartridge")
        .routines;
    session.watch_routines(&routines);
    let mut recorder = Recorder::default();
    let mut report = None;
    for frame in &real.frames {
        for &(address, value) in &frame.pokes {
            session.poke(address, value);
        }
        session.step(frame.buttons).expect("the cartridge runs");
        let events = session.take_events();
        recorder.frame(frame.buttons, events, session.ram());
        let done = recorder.len() == real.frames.len() as u64;
        if recorder.len() % CHECK_EVERY == 0 || done {
            let options = Options {
                frames: recorder.len(),
                ..Options::default()
            };
            let partial = compare(&real, &recorder.trace(), &options);
            let parted = partial
                .first_divergence()
                .is_some_and(|f| f + MARGIN < recorder.len());
            if parted || done {
                report = Some(partial);
                break;
            }
        }
    }
    let report = report.expect("compared");
    println!("player-fast-60k: {report}");
    let in_step = report.frames_in_step();
    assert!(
        in_step >= PLAYER_FRAMES_IN_STEP,
        "the cartridge followed the player's inputs for {in_step} frames ({PLAYER_FRAMES_IN_STEP} before):\n{report}"
    );
    // Up to the first difference, every lock and spawn agreed.
    assert_eq!(report.locks_matched, report.locks, "{report}");
    assert_eq!(report.spawns_columns, report.spawns, "{report}");
    assert_eq!(report.spawns_board, report.spawns, "{report}");
}
