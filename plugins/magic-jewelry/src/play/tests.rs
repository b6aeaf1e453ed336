//! The player on hand-made frames: the title, clears, pauses, foresight's trust, a dying
//! search, decisions made ahead.

use super::*;
use crate::game_view::FallingColumn;
use crate::memory_map as map;
use magic_jewelry_engine::{self as engine, AnyEvaluator, ForesightConfig, StrategySpec};
use std::time::Instant;

fn view(phase_bytes: &[(u16, u8)]) -> GameView {
    let mut ram = [0u8; 0x800];
    ram[map::FALL_SPEED as usize] = 63;
    ram[map::SPEED_IN_FORCE as usize] = 63;
    ram[map::CURRENT_COLUMN as usize..][..3].copy_from_slice(&[1, 2, 3]);
    ram[map::NEXT_COLUMN as usize..][..3].copy_from_slice(&[4, 5, 6]);
    for &(address, value) in phase_bytes {
        ram[address as usize] = value;
    }
    GameView::decode(&ram).expect("consistent")
}

fn player() -> Player {
    let spec = PlayerSpec {
        strategy: StrategySpec::Simple,
        ..PlayerSpec::default()
    };
    Player::new(&spec, Mode::Fast)
}

fn presses(player: &mut Player, view: &GameView, frames: u32) -> Vec<Buttons> {
    (0..frames)
        .map(|_| player.on_frame(view, Events::default()))
        .collect()
}

#[test]
fn the_title_gets_start_at_once_and_every_other_frame() {
    let title = view(&[(map::TITLE, map::TITLE_SHOWN)]);
    assert_eq!(title.phase, Phase::Title);
    let pressed = presses(&mut player(), &title, 4);
    assert_eq!(
        pressed,
        [Buttons::START, Buttons::NONE, Buttons::START, Buttons::NONE]
    );
}

#[test]
fn clears_never_get_a_press() {
    let clearing = view(&[(map::CLEARING, 4), (map::ANIMATION, 12)]);
    assert_eq!(clearing.phase, Phase::Clearing);
    assert!(presses(&mut player(), &clearing, 2000)
        .iter()
        .all(|b| b.is_empty()));
}

/// A column just spawned at (3, 0) on an empty board, with the generator state `state`.
fn spawned(current: Column, next: Column, state: u16) -> GameView {
    let mut ram = [0u8; 0x800];
    ram[map::FALL_SPEED as usize] = 63;
    ram[map::SPEED_IN_FORCE as usize] = 63;
    ram[map::COLUMN_X as usize] = 3;
    ram[map::CURRENT_COLUMN as usize..][..3].copy_from_slice(&current.0);
    ram[map::NEXT_COLUMN as usize..][..3].copy_from_slice(&next.0);
    for (row, jewel) in (-2..=0).zip(current.0) {
        ram[map::cell_address(row, 3) as usize] = jewel;
    }
    ram[map::GENERATOR as usize..][..2].copy_from_slice(&state.to_le_bytes());
    let view = GameView::decode(&ram).expect("consistent");
    assert_eq!(view.phase, Phase::Falling);
    view
}

fn foresight_at(view: &GameView) -> (ForesightStatus, bool) {
    let mut player = player();
    player.set_foresight(true);
    let spawn = Events {
        spawned: true,
        ..Events::default()
    };
    player.on_frame(view, spawn);
    (player.foresight_status(), player.plan().is_some())
}

#[test]
fn foresight_trusts_the_generator_only_when_it_made_the_next_column() {
    let mut generator = engine::GameGenerator::new(0x5A17);
    let (current, next) = (generator.next_column(), generator.next_column());
    let state = generator.state();
    let depth = ForesightConfig::default().depth;
    assert_eq!(
        foresight_at(&spawned(current, next, state)),
        (ForesightStatus::Checked(depth), true)
    );
    // $44/$45 poked: the two columns seen pin the offset they came from, or nothing.
    let poked = foresight_at(&spawned(current, next, state ^ 0x0300)).0;
    assert!(
        matches!(poked, ForesightStatus::Pinned(_) | ForesightStatus::Unknown),
        "{poked}"
    );
    // Columns no state of the generator made in a row: fair play, and still a plan.
    let (one, two) = (Column::new(1, 1, 1), Column::new(1, 1, 1));
    let (status, planned) = foresight_at(&spawned(one, two, state));
    assert_eq!((status, planned), (ForesightStatus::Unknown, true));
    assert_eq!(
        status.to_string(),
        "fair play (foresight: generator state does not match the next column)"
    );
    // Off: never read.
    let mut fair = player();
    fair.on_frame(&spawned(current, next, state), Events::default());
    assert_eq!(fair.foresight_status(), ForesightStatus::Off);
}

#[test]
fn a_pause_is_lifted() {
    let paused = view(&[(map::PAUSE, 0xFF)]);
    assert_eq!(paused.phase, Phase::Paused);
    assert_eq!(presses(&mut player(), &paused, 1), [Buttons::START]);
}

/// A column at the spawn, falling: y = 2, x = 2.
fn falling() -> GameView {
    let mut bytes = vec![(map::COLUMN_X, 2), (map::COLUMN_Y, 2)];
    for (row, jewel) in (0i8..3).zip([1, 2, 3]) {
        bytes.push((map::cell_address(row, 2), jewel));
    }
    let view = view(&bytes);
    assert_eq!(view.phase, Phase::Falling);
    view
}

/// `simple`, except that the first one made panics in its first search.
struct Fragile {
    inner: Box<dyn Strategy>,
    panics: bool,
}

impl Strategy for Fragile {
    fn name(&self) -> &'static str {
        "fragile"
    }
    fn choose(&mut self, question: &Question) -> Option<engine::Choice> {
        assert!(!self.panics, "the search broke");
        self.inner.choose(question)
    }
    fn set_rules(&mut self, rules: RuleSet) {
        self.inner.set_rules(rules);
    }
    fn seat(&self) -> engine::SeatView<'_> {
        self.inner.seat()
    }
}

/// A search that panics kills its thread, not the player: the worker is started again
/// with a fresh strategy and the column is still steered.
#[test]
fn a_panicking_search_is_restarted() {
    use std::sync::atomic::{AtomicU32, Ordering};
    let made = Arc::new(AtomicU32::new(0));
    let counter = Arc::clone(&made);
    let mut player = Player::with_search(
        move || {
            let first = counter.fetch_add(1, Ordering::Relaxed) == 0;
            Box::new(Fragile {
                inner: engine::strategy_with("simple", AnyEvaluator::default())
                    .expect("simple exists"),
                panics: first,
            })
        },
        Mode::Fast,
        1,
    );
    let view = falling();
    let pressed = presses(&mut player, &view, 3);
    assert!(pressed.iter().any(|b| !b.is_empty()), "{pressed:?}");
    let stats = player.stats();
    assert_eq!(stats.worker_restarts, 1);
    assert_eq!(made.load(Ordering::Relaxed), 2);
    assert!(player.plan().is_some());
}

/// With a time budget the player never waits: the first frame of a column has no plan and
/// presses nothing; a later one carries out the decision made meanwhile.
#[test]
fn with_a_time_budget_the_player_does_not_wait() {
    let mut player = player();
    player.set_budget(Budget::PLAYER);
    let view = falling();
    assert_eq!(presses(&mut player, &view, 1), [Buttons::NONE]);
    assert!(player.plan().is_none());
    let began = Instant::now();
    while player.plan().is_none() && began.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(1));
        player.on_frame(&view, Events::default());
    }
    assert!(player.plan().is_some());
    assert!(player.stats().waiting_frames >= 1);
    assert_eq!(player.stats().blocked, Duration::ZERO);
}

/// A column `current` falling at the spawn over `board`, with `next` shown and the
/// generator at `generator`.
fn spawned_over(board: &Board, current: [u8; 3], next: [u8; 3], generator: u16) -> GameView {
    let mut bytes = vec![(map::COLUMN_X, 2), (map::COLUMN_Y, 2)];
    for row in -2i8..13 {
        for x in 0..6u8 {
            bytes.push((map::cell_address(row, x), board.get(row, usize::from(x))));
        }
    }
    for (row, jewel) in (0i8..3).zip(current) {
        bytes.push((map::cell_address(row, 2), jewel));
    }
    bytes.extend((0..3).map(|i| (map::CURRENT_COLUMN + i, current[usize::from(i)])));
    bytes.extend((0..3).map(|i| (map::NEXT_COLUMN + i, next[usize::from(i)])));
    bytes.extend(
        generator
            .to_le_bytes()
            .into_iter()
            .zip(0..)
            .map(|(b, i)| (map::GENERATOR + i, b)),
    );
    let view = view(&bytes);
    assert_eq!(view.phase, Phase::Falling);
    view
}

/// Once a plan is made, the next column is searched for on the board it will leave, and
/// that decision is used when the column spawns there; a column that spawns on another
/// board is searched for again.
#[test]
fn the_next_column_is_decided_before_it_spawns() {
    let generator = 0x1234;
    let shown = [4, 5, 6];
    let then = GameGenerator::new(generator).next_column().0;
    let first = spawned_over(&Board::empty(), [1, 2, 3], shown, generator);
    for foreseen in [true, false] {
        let mut player = player();
        presses(&mut player, &first, 1);
        let plan = player.plan().expect("a plan").clone();
        let mut after = Board::empty();
        engine::lock(&mut after, plan.target_jewels, usize::from(plan.target_x)).expect("locks");
        if !foreseen {
            // Not the board predicted.
            engine::lock(&mut after, Column([1, 1, 2]), 5).expect("locks");
        }
        let second = spawned_over(&after, shown, then, 0);
        let spawned = Events {
            spawned: true,
            ..Events::default()
        };
        player.on_frame(&second, spawned);
        assert!(player.plan().is_some());
        let stats = player.stats();
        assert_eq!(stats.foreseen, u64::from(foreseen));
        // Searches come back: the first column's, the prediction, and when it missed, the
        // second column's own (the next prediction is still out).
        assert_eq!(stats.decisions, 3 - u64::from(foreseen));
    }
}

/// Every lock is counted once: where it was planned, elsewhere, or with no plan at all.
#[test]
fn every_lock_is_accounted_for() {
    let lock_at = |x: u8, jewels: [u8; 3]| Events {
        locked: Some(FallingColumn {
            x,
            y: 12,
            jewels,
            drawn: true,
            landed: true,
        }),
        ..Events::default()
    };
    let mut player = player();
    let view = falling();
    // Control passes to the player as a column locks: there was no plan for it.
    player.on_frame(&view, lock_at(2, [1, 2, 3]));
    let plan = player
        .plan()
        .expect("a plan for the column in hand")
        .clone();
    player.on_frame(&view, lock_at(plan.target_x, plan.target_jewels.0));
    player.on_frame(
        &view,
        lock_at((plan.target_x + 1) % 6, plan.target_jewels.0),
    );
    let stats = player.stats();
    assert_eq!(
        (
            stats.locked_as_planned,
            stats.locked_off_plan,
            stats.locked_without_plan
        ),
        (1, 1, 1)
    );
}
