//! End-to-end play on the open cartridge with fixed seeds: the AI reads RAM, decides, and
//! presses buttons; nothing here writes the game's state on the AI's behalf.

use jewelbot::cartridge;
use jewelbot::session::{Session, SessionConfig};
use jewelbot_plugin::{Buttons, Machine};
use magic_jewelry::engine::{strategy_with, AnyEvaluator, Column, Strategy};
use magic_jewelry::game_view::{GameView, Phase};
use magic_jewelry::memory_map as map;
use magic_jewelry::play::tracker::{Events, Tracker};
use magic_jewelry::play::{Mode, Player};

/// A column's x and jewels.
type Spot = (u8, Column);

/// The AI outside the plug-in wrapper, so tests can watch its plans and tamper with its
/// presses.
struct Bot {
    tracker: Tracker,
    player: Player,
    /// Where each column locked and where the plan wanted it: (x, jewels) pairs.
    locks: Vec<(Spot, Spot)>,
    /// The falling column last seen and the plan's target then.
    last: Option<(u8, Column, Option<Spot>)>,
    /// What to press next frame (kept between calls to [`play`], so none is lost).
    buttons: Buttons,
}

impl Bot {
    fn new(mode: Mode) -> Self {
        Self {
            tracker: Tracker::default(),
            player: Player::new(default_strategy(), mode),
            locks: Vec::new(),
            last: None,
            buttons: Buttons::NONE,
        }
    }

    /// Reads this frame's RAM and returns the buttons for the next frame.
    fn think(&mut self, session: &Session) -> (GameView, Events, Buttons) {
        let view = GameView::decode(session.ram()).expect("the cartridge's RAM is consistent");
        let events = self.tracker.observe(&view);
        if events.spawned {
            if let Some((x, jewels, Some(target))) = self.last.take() {
                self.locks.push(((x, jewels), target));
            }
        }
        let buttons = self.player.on_frame(&view, events);
        if let Some(falling) = view.falling {
            let target = self.player.plan().map(|p| (p.target_x, p.target_jewels));
            self.last = Some((falling.x, Column(falling.jewels), target));
        }
        (view, events, buttons)
    }
}

/// The strategy the host plays by default (`deep` with the default evaluation), without its
/// time budget so every run makes the same choices.
fn default_strategy() -> Box<dyn Strategy> {
    let mut strategy = strategy_with("deep", AnyEvaluator::default()).expect("deep exists");
    strategy.set_budget(None);
    strategy
}

/// A powered-on cartridge with the column generator seeded (poked on the title screen, as
/// the cartridge documents).
fn seeded_session(seed: u16) -> Session {
    let rom = cartridge::rom().expect("the open cartridge parses");
    let mut session = Session::new(rom, Vec::new(), SessionConfig::default()).expect("loads");
    session.step(Buttons::NONE).expect("frame runs");
    let [low, high] = seed.to_le_bytes();
    session.poke(map::OPEN_CARTRIDGE_SEED, low);
    session.poke(map::OPEN_CARTRIDGE_SEED + 1, high);
    session
}

/// Plays `frames` frames; `tamper` may change the buttons before they reach the console.
fn play(
    session: &mut Session,
    bot: &mut Bot,
    frames: u64,
    mut tamper: impl FnMut(&mut Session, &GameView, Events, Buttons) -> Buttons,
) {
    for _ in 0..frames {
        session.step(bot.buttons).expect("frame runs");
        let (view, events, wanted) = bot.think(session);
        bot.buttons = tamper(session, &view, events, wanted);
    }
}

fn untouched(_: &mut Session, _: &GameView, _: Events, b: Buttons) -> Buttons {
    b
}

fn assert_locked_where_planned(bot: &Bot) {
    assert!(!bot.locks.is_empty());
    for (i, (locked, planned)) in bot.locks.iter().enumerate() {
        assert_eq!(locked, planned, "column {i} locked away from its plan");
    }
}

#[test]
fn fast_mode_plays_a_thousand_columns_without_game_over() {
    let mut session = seeded_session(0x1234);
    let mut bot = Bot::new(Mode::Fast);
    let mut frames = 0u64;
    while bot.tracker.stats().columns_placed < 1000 && frames < 200_000 {
        play(&mut session, &mut bot, 1000, untouched);
        frames += 1000;
    }
    let stats = bot.tracker.stats();
    assert_eq!(stats.games_started, 1);
    assert_eq!(stats.game_overs, 0);
    assert!(
        stats.columns_placed >= 1000,
        "{stats:?} after {frames} frames"
    );
    // Nearly every jewel placed is cleared, or the board would have filled up long ago.
    assert!(
        stats.jewels_cleared >= 5 * stats.columns_placed / 2,
        "{stats:?}"
    );
    assert_eq!(bot.player.stats().missed_presses, 0);
    assert_locked_where_planned(&bot);
}

#[test]
fn normal_mode_places_columns_where_it_planned() {
    let mut session = seeded_session(0x0BAD);
    let mut bot = Bot::new(Mode::Normal);
    play(&mut session, &mut bot, 12_000, untouched);
    let stats = bot.tracker.stats();
    assert!(stats.columns_placed >= 10, "{stats:?}");
    assert_eq!(stats.game_overs, 0);
    assert_locked_where_planned(&bot);
}

#[test]
fn mode_switch_in_the_middle_of_a_column() {
    let mut session = seeded_session(0x7777);
    let mut bot = Bot::new(Mode::Normal);
    let mut toggles = 0;
    let mut previous_y = 0;
    let mut buttons = Buttons::NONE;
    for _ in 0..10_000 {
        session.step(buttons).expect("frame runs");
        let (view, _, wanted) = bot.think(&session);
        buttons = wanted;
        // Switch as the column passes row 3, alternating modes.
        if view.phase == Phase::Falling && view.column_y == 3 && previous_y == 2 {
            let mode = bot.player.mode().toggled();
            bot.player.set_mode(mode);
            toggles += 1;
            let (_, _, replanned) = bot.think(&session);
            buttons = replanned;
        }
        previous_y = view.column_y;
    }
    assert!(toggles >= 10, "only {toggles} switches");
    assert_eq!(bot.tracker.stats().game_overs, 0);
    // Each switch re-plans the column in hand at the new pace.
    assert!(bot.player.stats().decisions >= bot.tracker.stats().columns_placed + toggles / 2);
    assert_locked_where_planned(&bot);
}

#[test]
fn a_dropped_press_is_noticed_and_the_column_still_lands_as_planned() {
    let mut session = seeded_session(0x4242);
    let mut bot = Bot::new(Mode::Fast);
    let mut dropped = 0;
    let mut columns = 0;
    let mut dropped_this_column = false;
    play(&mut session, &mut bot, 6000, |_, _, events, buttons| {
        if events.spawned {
            columns += 1;
            dropped_this_column = false;
        }
        // Lose the first left/right press of every fifth column.
        let lose = dropped < 5
            && columns % 5 == 0
            && !dropped_this_column
            && (buttons.contains(Buttons::LEFT) || buttons.contains(Buttons::RIGHT));
        if lose {
            dropped += 1;
            dropped_this_column = true;
            Buttons::NONE
        } else {
            buttons
        }
    });
    let stats = bot.player.stats();
    assert!(dropped >= 3, "only {dropped} presses dropped");
    assert_eq!(stats.missed_presses, dropped as u64);
    assert!(stats.replans >= dropped as u64);
    assert_eq!(bot.tracker.stats().game_overs, 0);
    assert_locked_where_planned(&bot);
}

#[test]
fn wild_column_is_placed_on_purpose() {
    let mut session = seeded_session(0x5151);
    let mut bot = Bot::new(Mode::Fast);
    // Play until there is a stack, then make the next column wild (the test's doing, not the
    // AI's).
    play(&mut session, &mut bot, 1500, untouched);
    let mut poked = false;
    let mut board_before_wild = None;
    let mut jewels_before = 0;
    play(
        &mut session,
        &mut bot,
        3000,
        |session, view, events, buttons| {
            if !poked && view.phase == Phase::Falling && view.board.visible_jewels() >= 6 {
                for i in 0..3 {
                    session.poke(map::NEXT_COLUMN + i, 7);
                }
                poked = true;
            }
            if events.spawned && view.current_is_wild() && board_before_wild.is_none() {
                board_before_wild = Some(view.board);
                jewels_before = view.jewels;
            }
            buttons
        },
    );
    let board = board_before_wild.expect("the wild column spawned");
    let view = GameView::decode(session.ram()).expect("consistent");
    assert!(
        view.jewels >= jewels_before + 3,
        "the wild column removed jewels: {} -> {}",
        jewels_before,
        view.jewels
    );
    // It landed on a jewel, not on the floor where it does nothing.
    let (locked, _) = bot
        .locks
        .iter()
        .find(|(l, _)| l.1 == Column([7; 3]))
        .expect("wild lock");
    assert!(board.0.iter().any(|row| row[locked.0 as usize] != 0));
    assert_eq!(bot.tracker.stats().game_overs, 0);
}

#[test]
fn counters_near_rollover_do_not_confuse_it() {
    let mut session = seeded_session(0x9999);
    let mut bot = Bot::new(Mode::Fast);
    play(&mut session, &mut bot, 200, untouched);
    let digits = |value, n| map::decimal_bytes(value, n);
    for (address, bytes) in [
        (map::SCORE, digits(99_999_900, map::COUNTER_DIGITS)),
        (map::JEWEL_COUNTER, digits(999_995, map::COUNTER_DIGITS)),
    ] {
        for (i, byte) in bytes.into_iter().enumerate() {
            session.poke(address + i as u16, byte);
        }
    }
    let cleared_before = bot.tracker.stats().jewels_cleared;
    play(&mut session, &mut bot, 5000, untouched);
    let view = GameView::decode(session.ram()).expect("consistent");
    let cleared = bot.tracker.stats().jewels_cleared - cleared_before;
    assert!(
        view.jewels < 999_995,
        "the jewel counter rolled over: {}",
        view.jewels
    );
    assert_eq!(u64::from(view.jewels) + 1_000_000 - 999_995, cleared);
    assert!(
        view.score < 99_999_900,
        "the score rolled over: {}",
        view.score
    );
    assert_eq!(bot.tracker.stats().game_overs, 0);
    assert_eq!(bot.tracker.stats().inconsistent_frames, 0);
}

#[test]
fn survives_the_fastest_level() {
    let mut session = seeded_session(0x3333);
    let mut bot = Bot::new(Mode::Fast);
    let mut fastest = false;
    play(
        &mut session,
        &mut bot,
        30_000,
        |session, view, _, buttons| {
            // The test, not the AI, jumps to the last level once the game runs.
            if view.phase != Phase::Title && view.fall_speed != 3 {
                session.poke(map::LEVEL_INDEX, 19);
                session.poke(map::FALL_SPEED, 3);
                fastest = true;
            }
            buttons
        },
    );
    assert!(fastest);
    let stats = bot.tracker.stats();
    assert!(stats.columns_placed >= 300, "{stats:?}");
    assert_eq!(stats.game_overs, 0, "{stats:?}");
    assert_locked_where_planned(&bot);
}

/// One million frames of fast play (about half an hour in a release build):
/// `cargo test --release --test play -- --ignored`.
#[test]
#[ignore = "soak: run explicitly"]
fn soak_one_million_frames() {
    let mut session = seeded_session(0x50AC);
    let mut bot = Bot::new(Mode::Fast);
    play(&mut session, &mut bot, 1_000_000, untouched);
    let stats = bot.tracker.stats();
    println!("{stats:?} {:?}", bot.player.stats());
    assert_eq!(stats.game_overs, 0);
    assert_eq!(stats.inconsistent_frames, 0);
    assert_eq!(bot.player.stats().missed_presses, 0);
}
