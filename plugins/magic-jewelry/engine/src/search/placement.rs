//! Every place the falling column can lock, found by a search over frame-by-frame presses under
//! the game's input rules ([`super::input`]), and the exact [`Timeline`] that takes the column
//! to each.
//!
//! Until the soft drop is armed, gravity does not depend on the presses: every expiry of the
//! timer moves a live column down a row (a column that could not fall would have locked). So
//! a live column's row is a function of time alone, and reaching an arrangement at a column
//! earlier dominates reaching it later: the earlier column can wait. The search therefore
//! keeps the earliest frame of each (column, arrangement, last button), and the lock results
//! are the (column, arrangement) pairs it reaches, each resting on its column's stack.
//!
//! In fast mode the soft drop is armed as early as the moves allow: the timeline for the chosen
//! placement tries each frame for the Down press and keeps the one that locks soonest, checked
//! frame by frame with [`FallState::step`], among those that press no move on the lock's frame
//! (a column that spawns resting locks two frames after an early Down press, on the frame a
//! rotation planned for the next frame would race the lock).

use super::input::{FallState, InputModel, Move, Timeline};
use crate::memo::{mix_in, Memo, MemoKey};
use crate::rules::board::{Board, WIDTH};
use jewelbot_controller::Buttons;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

/// Most distinct lock results: 6 columns x 6 arrangements.
pub const MAX_PLACEMENTS: usize = WIDTH * 6;

/// Frames a column can take to lock, at most (13 rows at the slowest speed, with room).
const FRAME_LIMIT: usize = 4096;

/// Where a column can lock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Placement {
    /// Column 0-5.
    pub x: u8,
    /// Arrangement of its jewels from the start (0-2 rotations, 3-5 a swap then rotations;
    /// see [`crate::rules::board::ARRANGEMENTS`]).
    pub arrangement: u8,
    /// Row of the bottom jewel when it locks.
    pub y: i8,
    /// Frames from the start until the last press that brings it there.
    pub frames: u16,
}

/// The last press before a search state, as far as it limits the next press.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Last {
    #[default]
    Nothing,
    Left,
    Right,
    Rotate,
    Swap,
}

impl Last {
    const ALL: usize = 5;

    fn of(action: Move) -> Self {
        match action {
            Move::Left => Self::Left,
            Move::Right => Self::Right,
            Move::Rotate => Self::Rotate,
            Move::Swap => Self::Swap,
        }
    }

    /// Frames after this press before `next` can be pressed, tapping as fast as the game takes
    /// presses: the same direction needs a released frame; a swap needs Select held on the
    /// frame before, which must not itself rotate.
    fn gap(self, next: Move) -> usize {
        match (self, next) {
            (Self::Left, Move::Left) | (Self::Right, Move::Right) | (Self::Rotate, Move::Swap) => 2,
            _ => 1,
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Node {
    /// The state after the frame of the press that led here.
    state: FallState,
    /// The frame of that press (`None` at the start).
    frame: Option<usize>,
    action: Option<Move>,
    last: Last,
    parent: Option<usize>,
}

/// The reachable lock results of one column, with what is needed to rebuild their timelines.
#[derive(Debug, Clone)]
pub struct Placements {
    list: Vec<Placement>,
    /// For each placement, its node.
    ends: Vec<usize>,
    nodes: Vec<Node>,
    rest: [i8; WIDTH],
    start: FallState,
    input: InputModel,
}

/// The lock results, as a slice: what the searches walk.
impl std::ops::Deref for Placements {
    type Target = [Placement];

    fn deref(&self) -> &[Placement] {
        &self.list
    }
}

impl Placements {
    /// The lock results, in order of discovery (soonest first).
    pub fn as_slice(&self) -> &[Placement] {
        &self.list
    }

    /// The placement at (x, arrangement), if reachable.
    pub fn find(&self, x: u8, arrangement: u8) -> Option<usize> {
        self.list
            .iter()
            .position(|p| p.x == x && p.arrangement == arrangement)
    }

    /// The presses that bring the column to placement `index`, frame by frame from the search's
    /// start, as (frame, move).
    fn schedule(&self, index: usize) -> Vec<(usize, Move)> {
        let mut schedule = Vec::new();
        let mut node = self.ends.get(index).copied();
        while let Some(n) = node {
            let Node {
                frame,
                action,
                parent,
                ..
            } = self.nodes[n];
            if let (Some(frame), Some(action)) = (frame, action) {
                schedule.push((frame, action));
            }
            node = parent;
        }
        schedule.reverse();
        schedule
    }

    /// The buttons, frame by frame from the search's start, that bring the column to placement
    /// `index` and lock it there: in fast mode with the soft drop armed as early as the moves
    /// allow.
    pub fn timeline(&self, index: usize) -> Timeline {
        let schedule = self.schedule(index);
        let Some(target) = self.list.get(index).copied() else {
            return Timeline::default();
        };
        let held_down = self.start.held.contains(Buttons::DOWN);
        if !self.input.soft_drop {
            return buttons_for(&schedule, None, self.start.held, false);
        }
        if self.start.armed && held_down {
            // Mid soft drop: keep Down held, the search already counted on its speed.
            return buttons_for(&schedule, None, self.start.held, true);
        }
        // Down held already (through a spawn in the lock's own frame) is pressed anew after a
        // released frame: with no move to make, on the second frame.
        let end = schedule
            .last()
            .map_or(0, |&(f, _)| f + 1)
            .max(usize::from(held_down));
        let mut best: Option<(usize, Timeline)> = None;
        for arm in 0..=end {
            // Down must be newly pressed: not on the first frame if it is held already.
            if arm == 0 && held_down {
                continue;
            }
            let shifted: Vec<(usize, Move)> = schedule
                .iter()
                .map(|&(f, m)| (if f >= arm { f + 1 } else { f }, m))
                .collect();
            let timeline = buttons_for(&shifted, Some(arm), self.start.held, false);
            let Some((state, frame)) =
                timeline.lock_without_race(self.start, &self.rest, FRAME_LIMIT)
            else {
                continue;
            };
            let on_target =
                (state.x, state.arrangement, state.y) == (target.x, target.arrangement, target.y);
            if on_target && best.as_ref().is_none_or(|(f, _)| frame < *f) {
                best = Some((frame, timeline));
            }
        }
        best.map_or_else(
            // Never reached: arming after the last press always works, so this is a column the
            // search could not simulate (a corrupt start); press the moves and let it fall.
            || buttons_for(&schedule, None, self.start.held, false),
            |(_, timeline)| timeline,
        )
    }
}

/// The buttons for a schedule of presses: rotations alternate A and B so consecutive ones are
/// new presses, a swap holds Select from the frame before, and Down is pressed at `arm` (or held
/// throughout with `keep_down`) and then held to the lock.
fn buttons_for(
    schedule: &[(usize, Move)],
    arm: Option<usize>,
    start_held: Buttons,
    keep_down: bool,
) -> Timeline {
    let end = schedule
        .last()
        .map_or(0, |&(f, _)| f + 1)
        .max(arm.map_or(0, |a| a + 1));
    let mut frames = vec![Buttons::NONE; end];
    let mut previous_turn = if start_held.contains(Buttons::A) {
        Buttons::A
    } else {
        Buttons::B
    };
    for &(frame, action) in schedule {
        let button = match action {
            Move::Left => Buttons::LEFT,
            Move::Right => Buttons::RIGHT,
            Move::Rotate | Move::Swap => {
                previous_turn = if previous_turn == Buttons::A {
                    Buttons::B
                } else {
                    Buttons::A
                };
                previous_turn
            }
        };
        frames[frame].insert(button);
        if action == Move::Swap {
            frames[frame].insert(Buttons::SELECT);
            if frame > 0 {
                frames[frame - 1].insert(Buttons::SELECT);
            }
        }
    }
    let down = keep_down || arm.is_some();
    if down {
        let from = arm.unwrap_or(0);
        for buttons in &mut frames[from..] {
            buttons.insert(Buttons::DOWN);
        }
    }
    Timeline {
        frames,
        finish: if down { Buttons::DOWN } else { Buttons::NONE },
    }
}

/// The placements of columns from the starts and stacks met lately: a search meets the same
/// stacks' heights far more often than the same colours. Clones share what was found.
#[derive(Debug, Clone)]
pub(crate) struct ReachMemo(Arc<Memo<ReachKey, Arc<[Placement]>>>);

/// Starts and stacks kept: a few thousand, where a search meets some hundreds.
const REACH_KEPT_LOG2: u32 = 12;

/// What a column's reach depends on: where each stack's column would rest, where the column
/// starts, how the buttons are pressed.
#[derive(Clone, Copy, PartialEq, Eq)]
struct ReachKey {
    rest: [i8; WIDTH],
    start: FallState,
    input: InputModel,
}

impl MemoKey for ReachKey {
    /// No stack rests above row -2.
    const UNUSED: Self = Self {
        rest: [i8::MIN; WIDTH],
        start: FallState {
            x: 0,
            y: 0,
            arrangement: 0,
            timer: 0,
            speed: 0,
            armed: false,
            held: Buttons::NONE,
        },
        input: InputModel::FAST,
    };

    #[inline]
    fn mix(&self) -> u64 {
        let bytes = |bytes: &[u8]| bytes.iter().fold(0, |word, &b| word << 8 | u64::from(b));
        let rest = bytes(&self.rest.map(|r| r as u8));
        let FallState {
            x,
            y,
            arrangement,
            timer,
            speed,
            armed,
            held,
        } = self.start;
        let start = bytes(&[
            x,
            y as u8,
            arrangement,
            timer,
            speed,
            u8::from(armed),
            held.bits(),
        ]);
        let InputModel {
            tap_interval,
            soft_drop,
            swap,
        } = self.input;
        let input = bytes(&[tap_interval, u8::from(soft_drop), u8::from(swap)]);
        mix_in(mix_in(mix_in(0, rest), start), input)
    }
}

impl Default for ReachMemo {
    fn default() -> Self {
        Self(Arc::new(Memo::new(REACH_KEPT_LOG2)))
    }
}

impl ReachMemo {
    /// The placements [`reachable`] finds (without their timelines).
    pub(crate) fn reachable(
        &self,
        board: &Board,
        start: FallState,
        input: InputModel,
    ) -> Arc<[Placement]> {
        let key = ReachKey {
            rest: std::array::from_fn(|x| board.rest_row(x)),
            start,
            input,
        };
        self.0
            .get_or(&key, || reachable(board, start, input).as_slice().into())
    }
}

/// Every (x, arrangement) where the column can lock from `start` on `board`, pressing buttons as
/// `input` allows. Empty when the start itself is blocked.
pub fn reachable(board: &Board, start: FallState, input: InputModel) -> Placements {
    let mut rest = [0i8; WIDTH];
    for (x, r) in rest.iter_mut().enumerate() {
        *r = board.rest_row(x);
    }
    let mut out = Placements {
        list: Vec::with_capacity(MAX_PLACEMENTS),
        ends: Vec::with_capacity(MAX_PLACEMENTS),
        nodes: Vec::with_capacity(MAX_PLACEMENTS * 2),
        rest,
        start,
        input,
    };
    let x0 = start.x as usize;
    if x0 >= WIDTH || start.y < 0 || start.y > rest[x0] {
        return out;
    }
    // Until the Down press the column falls at the level's speed; mid soft drop it keeps
    // falling at the soft drop's.
    let mut gravity = start;
    let soft = input.soft_drop && start.armed && start.held.contains(Buttons::DOWN);
    let held_between = if soft { Buttons::DOWN } else { Buttons::NONE };
    if !soft {
        gravity.held = Buttons::NONE;
    }
    let mut earliest = [[[usize::MAX; Last::ALL]; 6]; WIDTH];
    let mut reached = [[false; 6]; WIDTH];
    let mut queue = BinaryHeap::new();
    out.nodes.push(Node {
        state: gravity,
        frame: None,
        action: None,
        last: Last::Nothing,
        parent: None,
    });
    queue.push(Reverse((0usize, 0usize)));
    let interval = usize::from(input.interval());
    let moves: &[Move] = if input.swap {
        &[Move::Left, Move::Right, Move::Rotate, Move::Swap]
    } else {
        &[Move::Left, Move::Right, Move::Rotate]
    };
    while let Some(Reverse((_, index))) = queue.pop() {
        let node = out.nodes[index];
        let here = node.state;
        if !reached[here.x as usize][here.arrangement as usize] {
            reached[here.x as usize][here.arrangement as usize] = true;
            out.list.push(Placement {
                x: here.x,
                arrangement: here.arrangement,
                y: rest[here.x as usize],
                frames: node.frame.map_or(0, |f| f as u16 + 1),
            });
            out.ends.push(index);
        }
        for &action in moves {
            let gap = if interval > 1 {
                interval
            } else {
                node.last.gap(action)
            };
            // A swap needs Select held on the frame before, which the start's frame cannot be.
            // A direction still held from before the start is not a new press on its first
            // frame either.
            let first = match (node.frame, action) {
                (None, Move::Swap) => 1,
                (None, Move::Left) if start.held.contains(Buttons::LEFT) => 1,
                (None, Move::Right) if start.held.contains(Buttons::RIGHT) => 1,
                (None, _) => 0,
                (Some(f), _) => f + gap,
            };
            // Wait until that frame, then press.
            let mut state = here;
            let mut alive = true;
            let mut frame = node.frame.map_or(0, |f| f + 1);
            while frame < first {
                if state.step(&rest, held_between) {
                    alive = false;
                    break;
                }
                frame += 1;
            }
            if !alive || state.locks_next_frame(&rest, held_between) {
                continue;
            }
            let before = (state.x, state.arrangement);
            let press = match action {
                Move::Left => Buttons::LEFT,
                Move::Right => Buttons::RIGHT,
                Move::Rotate => Buttons::A,
                Move::Swap => Buttons::A | Buttons::SELECT,
            };
            state.held = held_between;
            if action == Move::Swap {
                state.held.insert(Buttons::SELECT);
            }
            let locked = state.step(&rest, press | held_between);
            state.held = held_between;
            if locked || (state.x, state.arrangement) == before {
                continue;
            }
            let last = Last::of(action);
            let slot = &mut earliest[state.x as usize][state.arrangement as usize][last as usize];
            if frame >= *slot {
                continue;
            }
            *slot = frame;
            out.nodes.push(Node {
                state,
                frame: Some(frame),
                action: Some(action),
                last,
                parent: Some(index),
            });
            queue.push(Reverse((frame, out.nodes.len() - 1)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::LEVEL0_FALL_SPEED;

    fn count(text: &str, speed: u8, input: InputModel) -> usize {
        reachable(
            &Board::from_text(text).unwrap(),
            FallState::spawn(speed),
            input,
        )
        .len()
    }

    #[test]
    fn every_timeline_replays_to_its_placement() {
        let boards = [
            "",
            "......\n..1...\n.222..\n.333.4",
            "1.....\n2.....\n3.....\n4....5\n5....6\n6....1\n1....2\n2....3\n3....4\n4....5",
            SPAWN_RESTING,
        ];
        for text in boards {
            let board = Board::from_text(text).unwrap();
            let mut rest = [0i8; WIDTH];
            for (x, r) in rest.iter_mut().enumerate() {
                *r = board.rest_row(x);
            }
            for speed in [1, 2, 5, 8, 20, 63] {
                for input in [
                    InputModel::FAST,
                    InputModel::FAST.with_swap(true),
                    InputModel::NORMAL,
                    InputModel::normal(12),
                ] {
                    let start = FallState::spawn(speed);
                    let found = reachable(&board, start, input);
                    for (i, p) in found.as_slice().iter().enumerate() {
                        let timeline = found.timeline(i);
                        let (end, _) = timeline
                            .lock_without_race(start, &rest, FRAME_LIMIT)
                            .expect("the column locks with no move on its lock frame");
                        assert_eq!(
                            (end.x, end.arrangement, end.y),
                            (p.x, p.arrangement, p.y),
                            "{text} speed {speed} {input:?} {timeline:?}"
                        );
                    }
                }
            }
        }
    }

    /// Column 3 stacked to row 1: a column spawns resting on it.
    const SPAWN_RESTING: &str = "...1..\n...2..\n...3..\n...4..\n...5..\n...6..\n...1..\n...2..\n...3..\n...4..\n...5..\n...6..";

    /// A column that spawns resting locks on the frame after an early Down press: a rotation
    /// pressed then races the lock and was lost in the emulator (the column locked unrotated,
    /// off plan). The rotation comes first and Down after it, which locks as soon.
    #[test]
    fn no_move_is_pressed_on_the_lock_frame_of_a_column_that_spawns_resting() {
        let board = Board::from_text(SPAWN_RESTING).unwrap();
        let start = FallState::spawn(8);
        let found = reachable(&board, start, InputModel::FAST);
        let index = found.find(3, 1).expect("one rotation where it spawned");
        let timeline = found.timeline(index);
        assert!(
            [Buttons::A, Buttons::B].contains(&timeline.frames[0]),
            "{timeline:?}"
        );
        assert!(
            timeline.buttons_at(1).contains(Buttons::DOWN),
            "{timeline:?}"
        );
        let mut rest = [0i8; WIDTH];
        for (x, r) in rest.iter_mut().enumerate() {
            *r = board.rest_row(x);
        }
        let (end, frame) = timeline
            .lock_without_race(start, &rest, FRAME_LIMIT)
            .expect("locks");
        assert_eq!((end.x, end.arrangement, end.y, frame), (3, 1, 0, 1));
        // Down first, then the rotation, locks as soon but presses on the lock frame.
        let racing = Timeline {
            frames: vec![Buttons::DOWN, Buttons::DOWN | Buttons::B],
            finish: Buttons::DOWN,
        };
        assert_eq!(
            racing.lock(start, &rest, FRAME_LIMIT).map(|(_, f)| f),
            Some(1)
        );
        assert_eq!(racing.lock_without_race(start, &rest, FRAME_LIMIT), None);
    }

    /// The score game's frame 8,905 on the open cartridge: a column spawned in the lock's own
    /// frame with Down still held from the column before, to be placed where it spawned. The
    /// timeline once found no frame to press Down anew on (it tried only the first, where Down
    /// was held) and let the column fall at the level's speed; it releases Down, presses it on
    /// the second frame and soft-drops, as on the real game (frame 8,907).
    #[test]
    fn down_held_through_the_spawn_is_pressed_anew_with_no_move_to_make() {
        let board = Board::empty();
        let start = FallState {
            held: Buttons::DOWN,
            ..FallState::spawn(29)
        };
        let found = reachable(&board, start, InputModel::FAST);
        let index = found.find(3, 0).expect("where it spawned");
        let timeline = found.timeline(index);
        assert_eq!(timeline.buttons_at(0), Buttons::NONE, "{timeline:?}");
        assert!(
            timeline.buttons_at(1).contains(Buttons::DOWN),
            "{timeline:?}"
        );
        let rest = [board.rest_row(0); WIDTH];
        let (end, frame) = timeline
            .lock_without_race(start, &rest, FRAME_LIMIT)
            .expect("locks");
        assert_eq!((end.x, end.arrangement, end.y), (3, 0, 12));
        // 12 rows at 2 frames each from the second frame on, and the lock 2 frames after
        // landing, where the level's speed takes 12 x 29.
        assert_eq!(frame, 25, "{timeline:?}");
    }

    #[test]
    fn fast_play_arms_the_soft_drop_early() {
        // Three columns left on an empty board at level 0: press Left, arm Down on the released
        // frame between, and lock long before the level's speed would.
        let board = Board::empty();
        let start = FallState::spawn(LEVEL0_FALL_SPEED);
        let found = reachable(&board, start, InputModel::FAST);
        let index = found.find(0, 0).expect("reachable");
        let timeline = found.timeline(index);
        let mut rest = [0i8; WIDTH];
        for (x, r) in rest.iter_mut().enumerate() {
            *r = board.rest_row(x);
        }
        let (_, frame) = timeline.lock(start, &rest, FRAME_LIMIT).expect("locks");
        // Down is pressed within the first two frames and held; the three Left presses
        // come on frames of their own.
        assert!(
            timeline.frames[..2].contains(&Buttons::DOWN),
            "{timeline:?}"
        );
        assert_eq!(timeline.moves(Buttons::NONE).count(), 3);
        // 12 rows at 2 frames each, plus the lock 2 frames after landing: 26 frames; at the
        // level's speed it would take 12 x 63.
        assert_eq!(frame, 25, "{timeline:?}");
    }

    #[test]
    fn pinned_counts() {
        let fast = InputModel::FAST;
        let slow = InputModel::NORMAL;
        // Column 2 stacked up to row 1: at high speed the column cannot get past it.
        let wall = "..1...\n..2...\n..3...\n..4...\n..5...\n..6...\n..1...\n..2...\n..3...\n..4...\n..5...\n..6...";
        // (board, fall speed, placements pressing every frame, every 10 frames)
        let table = [
            ("", 1, 18, 9),
            ("", 2, 18, 14),
            ("", 8, 18, 18),
            ("", LEVEL0_FALL_SPEED, 18, 18),
            (wall, 1, 9, 6),
            (wall, 2, 10, 9),
            (wall, 8, 18, 10),
            (wall, LEVEL0_FALL_SPEED, 18, 18),
        ];
        for (board, speed, fast_count, normal_count) in table {
            assert_eq!(count(board, speed, fast), fast_count, "{board} at {speed}");
            assert_eq!(
                count(board, speed, slow),
                normal_count,
                "{board} at {speed}"
            );
        }
        assert_eq!(count("", 63, fast.with_swap(true)), 36);
    }

    #[test]
    fn blocked_spawn_has_no_placement() {
        let full = "...1..\n...2..\n...3..\n...4..\n...5..\n...6..\n...1..\n...2..\n...3..\n...4..\n...5..\n...6..\n...1..";
        assert_eq!(count(full, 63, InputModel::FAST), 0);
    }

    /// A board whose columns stand `heights` high (colours that never matter to a search).
    fn board_of_heights(heights: [u8; WIDTH]) -> Board {
        use crate::rules::board::ROWS;
        let mut grid = [[0u8; WIDTH]; ROWS];
        for (x, &height) in heights.iter().enumerate() {
            for k in 0..usize::from(height) {
                grid[ROWS - 1 - k][x] = 1 + ((k + x) % 6) as u8;
            }
        }
        Board::from_grid(&grid).expect("heights within the rows")
    }

    /// The boards among `heights` (each column's height drawn from the list, the spawn column
    /// kept below the top) where the fast input model reaches other placements at some speed
    /// of the table than at the top speed: none, or the first few.
    fn speed_dependent(heights: &[u8], spawn_heights: &[u8]) -> Vec<[u8; WIDTH]> {
        use crate::rules::speed::fall_speed;
        let mut speeds: Vec<u8> = (0..=u8::MAX).map(fall_speed).collect();
        speeds.sort_unstable();
        speeds.dedup();
        let per_column = heights.len();
        let profiles = per_column.pow(WIDTH as u32 - 1) * spawn_heights.len();
        let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let found = std::sync::Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for t in 0..threads {
                let (found, speeds) = (&found, &speeds);
                scope.spawn(move || {
                    for mut i in (t..profiles).step_by(threads) {
                        let mut profile = [0u8; WIDTH];
                        for (x, h) in profile.iter_mut().enumerate() {
                            if x == usize::from(crate::rules::SPAWN_X) {
                                continue;
                            }
                            *h = heights[i % per_column];
                            i /= per_column;
                        }
                        profile[usize::from(crate::rules::SPAWN_X)] = spawn_heights[i];
                        let board = board_of_heights(profile);
                        let at =
                            |speed| reachable(&board, FallState::spawn(speed), InputModel::FAST);
                        let top = at(speeds[0]);
                        if speeds[1..]
                            .iter()
                            .any(|&s| at(s).as_slice() != top.as_slice())
                        {
                            let mut found = found.lock().expect("no panic while held");
                            if found.len() < 5 {
                                found.push(profile);
                            }
                        }
                    }
                });
            }
        });
        found.into_inner().expect("no panic while held")
    }

    /// Near the top, where a column could be caught: every column 0, 9-12 or 13 (a column of
    /// 13 or more cannot be entered from row 0, the highest a column can be, so 14 and 15 are
    /// the same to the search), the spawn column 0 or 9-12 (13 and it is blocked at any speed).
    #[test]
    fn the_fast_input_model_reaches_the_same_placements_at_every_speed_near_the_top() {
        let found = speed_dependent(&[0, 9, 10, 11, 12, 13], &[0, 9, 10, 11, 12]);
        assert!(found.is_empty(), "{found:?}");
    }

    /// Every board: what `horizon` relies on to tell states apart without their level (the level
    /// reaches a player without foresight only as this speed). Some 7,000,000 height profiles
    /// at 17 speeds: minutes.
    #[test]
    #[ignore = "long: every height profile"]
    fn the_fast_input_model_reaches_the_same_placements_at_every_speed() {
        let every: Vec<u8> = (0..=13).collect();
        let found = speed_dependent(&every, &every[..13]);
        assert!(found.is_empty(), "{found:?}");
    }
}
