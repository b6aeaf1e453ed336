//! The plug-in's statistics against what the game did: over every recording of the real game
//! (`traces/`), the chains (their steps, the longest and its points, the best lock, the
//! points) and the jewels cleared that the tracker and the history count from RAM equal the
//! engine's replay of the same locks, each from the board and column RAM shows before it.

use jewelbot_plugin::Trace;
use magic_jewelry::game_view::GameView;
use magic_jewelry::play::history::History;
use magic_jewelry::play::tracker::Tracker;
use magic_jewelry::recordings;
use magic_jewelry::stats::Chains;
use magic_jewelry_engine::{Board, Column, Counters, RuleSet};

/// What the plug-in counted, and what the engine's replay of the same locks counts.
#[derive(Debug, PartialEq, Eq)]
struct Counted {
    chains: Chains,
    jewels: u64,
}

/// The plug-in's counts over a recording, frame by frame as `on_frame` keeps them (the jewels
/// as the last resolution seen whole left them), and the jewels it counted in all.
fn counted_by_the_plugin(trace: &Trace) -> (Counted, u64) {
    let (mut tracker, mut history) = (Tracker::default(), History::default());
    let mut replay = trace.replay();
    // The jewels when the last resolution seen whole ended.
    let mut jewels = 0;
    while let Some((frame, ram)) = replay.next() {
        match GameView::decode(ram) {
            Ok(view) => {
                let events = tracker.observe(&view);
                history.observe(frame.number, &view, events, 0);
                if events.spawned || events.game_over {
                    jewels = tracker.stats().jewels_cleared;
                }
            }
            Err(_) => tracker.note_inconsistent(),
        }
    }
    let counted = Counted {
        chains: *history.chains(),
        jewels,
    };
    (counted, tracker.stats().jewels_cleared)
}

/// The engine's replay of every lock whose resolution the recording holds whole (the next
/// spawn or the game over comes): its steps, points and cells removed, from the board, the
/// column and the counters RAM shows when the column was last seen falling.
fn counted_by_the_engine(trace: &Trace) -> Counted {
    let frames = &trace.frames;
    let mut counted = Counted {
        chains: Chains::default(),
        jewels: 0,
    };
    let mut replay = trace.replay();
    let mut before: Option<GameView> = None;
    let mut index = 0;
    while let Some((frame, ram)) = replay.next() {
        let view = GameView::decode(ram).ok();
        if frame.has("lock") {
            let ended = frames[index..]
                .iter()
                .skip(1)
                .find(|f| f.has("spawn") || f.has("game-over") || f.has("reset"));
            let whole = ended.is_some_and(|f| !f.has("reset"))
                || frames[index].has("spawn")
                || frames[index].has("game-over");
            let last = before.as_ref().expect("a column seen before the lock");
            let column = last
                .falling
                .unwrap_or_else(|| panic!("frame {}: no column before its lock", frame.number));
            let mut board = Board::from_grid(&last.board.0).expect("a settled board");
            let mut counters = Counters {
                since_wild: u32::from(last.removed),
                combo: last.combo,
                level: last.level_index,
                ..Counters::default()
            };
            let resolution = counters
                .lock(
                    RuleSet::Real,
                    &mut board,
                    Column(column.jewels),
                    usize::from(column.x),
                )
                .expect("the locked column fits");
            if whole {
                counted
                    .chains
                    .record(resolution.outcome.chains, resolution.points);
                counted.jewels += u64::from(resolution.outcome.removed);
            }
        }
        // The column as last seen falling (a pause may come between it and its lock).
        if view.as_ref().is_some_and(|v| v.falling.is_some()) {
            before = view;
        }
        index += 1;
    }
    counted
}

/// Every recording: the plug-in's figures are the engine's. Among them the survival player's
/// 60,000 frames, whose jewels counter once shows a carry halfway (1,309, 1,300, 1,310) and
/// whose steps' jewels are sometimes counted over two frames: read as the counter's rises,
/// they made 332/70/19/4 chains of 1 to 4 steps and 1,846 jewels.
#[test]
fn the_statistics_are_the_engines_replay_of_the_same_locks() {
    for recording in recordings::all() {
        let trace = recording.load();
        let (plugin, _) = counted_by_the_plugin(&trace);
        let engine = std::panic::catch_unwind(|| counted_by_the_engine(&trace))
            .unwrap_or_else(|_| panic!("{}", recording.name));
        assert_eq!(plugin, engine, "{}", recording.name);
    }
}

/// The survival player's game as the dashboard shows it: the same figures as the open
/// cartridge's same game (334/85/6 chains of 1 to 3 steps, 1,837 jewels: the jewels display).
#[test]
fn the_survival_players_game_in_figures() {
    let (counted, jewels) = counted_by_the_plugin(&recordings::load("player-fast-60k-2"));
    assert_eq!(counted.chains.histogram[..4], [334, 85, 6, 0]);
    assert_eq!(counted.chains.longest, 3);
    assert_eq!(jewels, 1_837);
}
