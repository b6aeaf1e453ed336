//! The decoder and the tracker replayed over the real game's RAM traces (`traces/`): every frame
//! decodes to a state of the game, and the spawns, locks, game starts and game overs the tracker
//! sees are the ones the CPU went through.

use jewelbot_plugin::{Trace, TraceFrame};
use magic_jewelry::game_view::{GameView, Phase};
use magic_jewelry::play::tracker::Tracker;
use magic_jewelry::recordings;

/// Every recording of the real game, from the manifest.
fn traces() -> Vec<(String, Trace)> {
    recordings::all()
        .into_iter()
        .map(|r| {
            let trace = r.load();
            (r.name, trace)
        })
        .collect()
}

/// What the tracker saw, frame numbers per event.
#[derive(Debug, Default, PartialEq, Eq)]
struct Seen {
    spawns: Vec<u64>,
    locks: Vec<u64>,
    starts: Vec<u64>,
    game_overs: Vec<u64>,
}

/// The CPU's events of one kind.
fn cpu(trace: &Trace, event: &str) -> Vec<u64> {
    trace
        .frames
        .iter()
        .filter(|f| f.has(event))
        .map(|f| f.number)
        .collect()
}

struct Replayed {
    seen: Seen,
    phases: Vec<(u64, Phase)>,
    inconsistent: Vec<(u64, String)>,
    final_jewels: u32,
    jewels_counted: u64,
}

fn replay(trace: &Trace) -> Replayed {
    let mut tracker = Tracker::default();
    let mut seen = Seen::default();
    let mut phases = Vec::new();
    let mut inconsistent = Vec::new();
    let mut final_jewels = 0;
    let mut frames = trace.replay();
    while let Some((frame, ram)) = frames.next() {
        match GameView::decode(ram) {
            Ok(view) => {
                let events = tracker.observe(&view);
                let k = frame.number;
                if events.spawned {
                    seen.spawns.push(k);
                }
                if events.locked.is_some() {
                    seen.locks.push(k);
                }
                if events.game_started {
                    seen.starts.push(k);
                }
                if events.game_over {
                    seen.game_overs.push(k);
                }
                phases.push((k, view.phase));
                final_jewels = view.jewels;
            }
            Err(error) => {
                tracker.note_inconsistent();
                inconsistent.push((frame.number, error.to_string()));
            }
        }
    }
    Replayed {
        seen,
        phases,
        inconsistent,
        final_jewels,
        jewels_counted: tracker.stats().jewels_cleared,
    }
}

/// Each of `expected` seen at the same frame or, where a frame tore, the one after; nothing
/// seen that the CPU did not do.
fn assert_events(name: &str, what: &str, expected: &[u64], seen: &[u64], late: u64) {
    let missing: Vec<u64> = expected
        .iter()
        .copied()
        .filter(|&k| !seen.iter().any(|&s| s >= k && s <= k + late))
        .collect();
    let extra: Vec<u64> = seen
        .iter()
        .copied()
        .filter(|&s| !expected.iter().any(|&k| s >= k && s <= k + late))
        .collect();
    assert!(
        missing.is_empty() && extra.is_empty() && expected.len() == seen.len(),
        "{name}: {what}: {} by the CPU, {} seen; missed at {missing:?}, invented at {extra:?}",
        expected.len(),
        seen.len()
    );
}

#[test]
fn every_frame_of_every_trace_decodes_to_a_state_of_the_game() {
    for (name, trace) in traces() {
        let name = name.as_str();
        let replayed = replay(&trace);
        assert!(
            replayed.inconsistent.is_empty(),
            "{name}: {} inconsistent frames, the first {:?}",
            replayed.inconsistent.len(),
            replayed.inconsistent.first()
        );
        assert_eq!(replayed.phases.len(), trace.frames.len());
    }
}

#[test]
fn the_tracker_sees_what_the_cpu_did() {
    for (name, trace) in traces() {
        let name = name.as_str();
        let Replayed { seen, .. } = replay(&trace);
        assert_events(name, "spawns", &cpu(&trace, "spawn"), &seen.spawns, 0);
        assert_events(name, "locks", &cpu(&trace, "lock"), &seen.locks, 0);
        assert_events(
            name,
            "game starts",
            &cpu(&trace, "game-setup"),
            &seen.starts,
            1,
        );
        assert_events(
            name,
            "game overs",
            &cpu(&trace, "game-over"),
            &seen.game_overs,
            0,
        );
    }
}

/// The phases the CPU's events imply, frame by frame, where they imply one.
fn implied_phase(frame: &TraceFrame, state: &mut Option<Phase>) -> Option<Phase> {
    if frame.has("game-over") {
        *state = Some(Phase::GameOver);
    } else if frame.has("reset") || frame.has("game-setup") {
        *state = None;
    } else if frame.has("wild-generated") {
        *state = Some(Phase::WildPending);
    } else if frame.has("spawn") {
        *state = Some(Phase::Falling);
    } else if frame.has("lock") {
        *state = None;
    }
    *state
}

#[test]
fn the_decoder_agrees_with_the_cpu_on_every_frame() {
    let mut checked = 0;
    for (name, trace) in traces() {
        let name = name.as_str();
        let replayed = replay(&trace);
        let mut state = None;
        let mut poked = false;
        for (frame, &(k, phase)) in trace.frames.iter().zip(&replayed.phases) {
            // A poke writes RAM behind the game's back (over a drawn column, say): until the
            // game's next event the RAM need not look like any state of it.
            poked = (poked || !frame.pokes.is_empty()) && frame.events.is_empty();
            let Some(expected) = implied_phase(frame, &mut state) else {
                continue;
            };
            if poked {
                continue;
            }
            let agrees = match expected {
                // A frame can end with only the top of the new column drawn; play may pause.
                Phase::Falling => matches!(phase, Phase::Falling | Phase::Spawning | Phase::Paused),
                // The continue has no event of its own: its logo follows the game over until
                // the next spawn.
                Phase::GameOver => matches!(phase, Phase::GameOver | Phase::Continue),
                other => phase == other,
            };
            assert!(
                agrees,
                "{name} frame {k}: decoded {phase}, the CPU was in {expected}"
            );
            checked += 1;
        }
    }
    assert!(checked > 40_000, "only {checked} frames had a known state");
}

#[test]
fn counted_jewels_match_the_counter() {
    for name in ["player-fast-60k", "player-normal-20k", "start-and-controls"] {
        let trace = recordings::load(name);
        let replayed = replay(&trace);
        assert_eq!(
            replayed.jewels_counted,
            u64::from(replayed.final_jewels),
            "{name}"
        );
    }
}

/// The input rules the search and the injector plan with ([`FallState::step`]) predict the
/// real game's falling column frame by frame: position, arrangement, timer, soft drop and lock.
/// Left out are a direction held two frames running (its auto-repeat the plans never use) and
/// Down released in the middle of a soft drop (which the plans never do: it races the game's
/// interrupt).
#[test]
fn the_input_rules_predict_the_real_column_frame_by_frame() {
    use jewelbot_plugin::Buttons;
    use magic_jewelry_engine::{Board, Column, FallState};
    let mut predicted = 0;
    let mut locks = 0;
    // Frames of the lock-frame race, which no rule predicts.
    let mut races = Vec::new();
    for (name, trace) in traces() {
        let name = name.as_str();
        let mut frames = trace.replay();
        let mut before: Option<(GameView, Buttons)> = None;
        // Whether the frame before spawned a column, and the buttons held the frame before it.
        let (mut spawned_before, mut held_earlier) = (false, Buttons::NONE);
        while let Some((frame, ram)) = frames.next() {
            let (spawned_last, earlier) = (spawned_before, held_earlier);
            spawned_before = frame.has("spawn");
            held_earlier = before.as_ref().map_or(frame.buttons, |b| b.1);
            let Ok(view) = GameView::decode(ram) else {
                before = None;
                continue;
            };
            if let Some((last, held)) = before.take() {
                let repeat = (held.contains(Buttons::LEFT)
                    && frame.buttons.contains(Buttons::LEFT))
                    || (held.contains(Buttons::RIGHT) && frame.buttons.contains(Buttons::RIGHT));
                let released = last.soft_drop
                    && held.contains(Buttons::DOWN)
                    && !frame.buttons.contains(Buttons::DOWN);
                let paused = frame.buttons.contains(Buttons::START) || view.phase == Phase::Paused;
                let clean = frame.pokes.is_empty()
                    && !frame.has("spawn")
                    && !repeat
                    && !released
                    && !paused;
                if let (Some(column), Ok(board), true) =
                    (last.falling, Board::from_grid(&last.board.0), clean)
                {
                    let mut rest = [0i8; 6];
                    for (x, r) in rest.iter_mut().enumerate() {
                        *r = board.rest_row(x);
                    }
                    // On its spawn frame a column is armed only by a Down newly pressed then:
                    // where the spawn came in the lock's own frame, $65 may still hold the
                    // locked column's (6 of 85 such spawns in the score game).
                    let armed = if spawned_last {
                        held.contains(Buttons::DOWN) && !earlier.contains(Buttons::DOWN)
                    } else {
                        last.soft_drop
                    };
                    let mut state = FallState {
                        x: column.x,
                        y: column.y as i8,
                        arrangement: 0,
                        timer: last.fall_timer,
                        speed: last.fall_speed,
                        armed,
                        held,
                    };
                    // A move pressed as the timer expires on a resting column races the lock
                    // (docs: "Race on the lock frame"): either side may come.
                    let new = Buttons::from_bits(frame.buttons.bits() & !held.bits());
                    let moves = [Buttons::A, Buttons::B, Buttons::LEFT, Buttons::RIGHT]
                        .iter()
                        .any(|&b| new.contains(b));
                    if moves && state.locks_next_frame(&rest, frame.buttons) {
                        races.push(frame.number);
                        before = (view.phase == Phase::Falling).then_some((view, frame.buttons));
                        continue;
                    }
                    let locked = state.step(&rest, frame.buttons);
                    let k = frame.number;
                    assert_eq!(locked, frame.has("lock"), "{name} frame {k}: lock");
                    if locked {
                        locks += 1;
                    } else {
                        let jewels = Column(column.jewels).arranged(state.arrangement);
                        let Some(now) = view.falling else {
                            panic!(
                                "{name} frame {k}: {} after {held}, now {}",
                                frame.buttons, view.phase
                            );
                        };
                        assert_eq!(
                            (
                                now.x,
                                now.y as i8,
                                Column(now.jewels),
                                view.fall_timer,
                                view.soft_drop
                            ),
                            (state.x, state.y, jewels, state.timer, state.armed),
                            "{name} frame {k} with {} after {held}",
                            frame.buttons
                        );
                        predicted += 1;
                    }
                }
            }
            before = (view.phase == Phase::Falling).then_some((view, frame.buttons));
        }
    }
    assert!(
        predicted > 35_000 && locks > 500,
        "{predicted} frames, {locks} locks"
    );
    // Two frames of the score game raced the lock: Left as the soft drop's timer expired on a
    // resting column at 977, which acted (the column slid off and fell), and Right in the same
    // way over a full spawn column at 18931, which was lost: the column locked at the spawn
    // point, and the game was over.
    assert_eq!(races, [977, 18931], "frames of the lock-frame race");
}

/// The continue's logo is a state of its own: from the frame Select, Start and Right are held
/// after the fill to the frame before the new Start press spawns the next column.
#[test]
fn the_continue_logo_is_decoded_as_such() {
    let trace = recordings::load("continue");
    let replayed = replay(&trace);
    let logo: Vec<u64> = replayed
        .phases
        .iter()
        .filter(|(_, phase)| *phase == Phase::Continue)
        .map(|&(k, _)| k)
        .collect();
    assert_eq!(logo, (283..=407).collect::<Vec<u64>>());
    assert!(
        replayed.inconsistent.is_empty(),
        "{:?}",
        replayed.inconsistent
    );
}
