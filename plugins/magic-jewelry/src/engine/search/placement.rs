//! Every place the falling column can lock, found by a breadth-first search over button taps.
//!
//! Gravity does not depend on the buttons: while the column is alive, every fall tick moves it
//! down a row (if it could not fall, it would lock). So its row is a function of time alone,
//! and being at (x, rotation) earlier dominates being there later: from the earlier state the
//! player can wait. The search therefore visits each (x, rotation) once, at its earliest tap,
//! and the lock results are exactly the visited states, each resting on its column's stack.

use super::input::{InputModel, Move, SpawnState, Timeline};
use crate::engine::rules::board::{Board, WIDTH};
use jewelbot_plugin::Buttons;

/// Most distinct lock results: 6 columns x 3 rotations.
pub const MAX_PLACEMENTS: usize = WIDTH * 3;

const NO_PARENT: u8 = u8::MAX;

/// Where a column can lock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Placement {
    /// Column 0-5.
    pub x: u8,
    /// Presses of A/B from the spawn arrangement (0-2).
    pub rotations: u8,
    /// Row of the bottom jewel when it locks.
    pub y: i8,
    /// Taps needed from the search's start.
    pub taps: u8,
}

#[derive(Debug, Clone, Copy, Default)]
struct Node {
    parent: u8,
    /// The move that led here (`None` at the start).
    tap: Option<Move>,
    y: i8,
    timer: u8,
    alive: bool,
}

/// The reachable lock results of one column, with what is needed to rebuild their paths.
#[derive(Debug, Clone)]
pub struct Placements {
    list: [Placement; MAX_PLACEMENTS],
    nodes: [Node; MAX_PLACEMENTS],
    len: usize,
    interval: u8,
    soft_drop: bool,
}

impl Placements {
    /// The lock results, in order of discovery (fewest taps first).
    pub fn as_slice(&self) -> &[Placement] {
        &self.list[..self.len]
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The placement at (x, rotations), if reachable.
    pub fn find(&self, x: u8, rotations: u8) -> Option<usize> {
        self.as_slice()
            .iter()
            .position(|p| p.x == x && p.rotations == rotations)
    }

    /// The buttons, frame by frame from the search's start, that bring the column to placement
    /// `index` and lock it there.
    pub fn timeline(&self, index: usize) -> Timeline {
        let mut taps = Vec::new();
        let mut node = index;
        while node < self.len && self.nodes[node].parent != NO_PARENT {
            taps.extend(self.nodes[node].tap);
            node = self.nodes[node].parent as usize;
        }
        let mut frames = Vec::with_capacity(taps.len() * self.interval as usize);
        for tap in taps.iter().rev() {
            frames.push(tap.button());
            // The last tap's release frames are not needed before holding the finish button,
            // but a released frame keeps Down from landing on the same frame as a move.
            frames.extend(std::iter::repeat_n(
                Buttons::NONE,
                self.interval as usize - 1,
            ));
        }
        Timeline {
            frames,
            finish: if self.soft_drop {
                Buttons::DOWN
            } else {
                Buttons::NONE
            },
        }
    }
}

/// Every (x, rotations) where the column can lock from `start` on `board`, pressing buttons as
/// `input` allows. Empty when the start itself is blocked.
pub fn reachable(board: &Board, start: SpawnState, input: InputModel) -> Placements {
    let interval = input.interval();
    let mut out = Placements {
        list: [Placement::default(); MAX_PLACEMENTS],
        nodes: [Node::default(); MAX_PLACEMENTS],
        len: 0,
        interval,
        soft_drop: input.soft_drop,
    };
    let x0 = start.x as usize;
    if x0 >= WIDTH || start.y < 0 || start.y > board.rest_row(x0) {
        return out;
    }
    let speed = start.speed();
    let mut rest = [0i8; WIDTH];
    for (x, r) in rest.iter_mut().enumerate() {
        *r = board.rest_row(x);
    }
    let mut visited = [[false; 3]; WIDTH];
    visited[x0][0] = true;
    out.list[0] = Placement {
        x: start.x,
        rotations: 0,
        y: rest[x0],
        taps: 0,
    };
    out.nodes[0] = Node {
        parent: NO_PARENT,
        tap: None,
        y: start.y,
        timer: start.fall_timer,
        alive: true,
    };
    out.len = 1;
    let mut head = 0;
    while head < out.len {
        let node = out.nodes[head];
        let here = out.list[head];
        head += 1;
        if !node.alive {
            continue;
        }
        for tap in [Move::Left, Move::Right, Move::Rotate] {
            let (x, rotations) = match tap {
                Move::Left if here.x > 0 => (here.x - 1, here.rotations),
                Move::Right if (here.x as usize) < WIDTH - 1 => (here.x + 1, here.rotations),
                Move::Rotate => (here.x, (here.rotations + 1) % 3),
                _ => continue,
            };
            // A move into taken cells is refused.
            if visited[x as usize][rotations as usize] || node.y > rest[x as usize] {
                continue;
            }
            visited[x as usize][rotations as usize] = true;
            let (y, timer, alive) =
                run_frames(node.y, node.timer, speed, interval, rest[x as usize]);
            let index = out.len;
            out.list[index] = Placement {
                x,
                rotations,
                y: rest[x as usize],
                taps: here.taps + 1,
            };
            out.nodes[index] = Node {
                parent: (head - 1) as u8,
                tap: Some(tap),
                y,
                timer,
                alive,
            };
            out.len += 1;
        }
    }
    out
}

/// Gravity over `frames` frames in a column whose rest row is `rest`: the new row and timer,
/// and whether the column is still falling.
#[inline]
fn run_frames(mut y: i8, mut timer: u8, speed: u8, frames: u8, rest: i8) -> (i8, u8, bool) {
    for _ in 0..frames {
        timer += 1;
        if timer >= speed {
            timer = 0;
            if y < rest {
                y += 1;
            } else {
                return (y, timer, false);
            }
        }
    }
    (y, timer, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::LEVEL0_FALL_SPEED;

    fn count(text: &str, speed: u8, input: InputModel) -> usize {
        reachable(
            &Board::from_text(text).unwrap(),
            SpawnState::spawn(speed),
            input,
        )
        .len()
    }

    /// Replays a path frame by frame with the same rules, returning where the column locks.
    fn replay(board: &Board, start: SpawnState, timeline: &Timeline) -> (u8, u8, i8) {
        let (mut x, mut rot, mut y, mut timer) = (start.x, 0u8, start.y, start.fall_timer);
        let mut previous = Buttons::NONE;
        let mut soft = 0u8;
        for frame in 0.. {
            let buttons = timeline.buttons_at(frame);
            let pressed = Buttons::from_bits(buttons.bits() & !previous.bits());
            previous = buttons;
            if pressed.contains(Buttons::LEFT) && x > 0 && y <= board.rest_row(x as usize - 1) {
                x -= 1;
            }
            if pressed.contains(Buttons::RIGHT) && x < 5 && y <= board.rest_row(x as usize + 1) {
                x += 1;
            }
            if pressed.contains(Buttons::A) {
                rot = (rot + 1) % 3;
            }
            let rest = board.rest_row(x as usize);
            if buttons.contains(Buttons::DOWN) {
                soft += 1;
                if soft == 2 {
                    soft = 0;
                    if y < rest {
                        y += 1;
                    }
                    if y == rest {
                        return (x, rot, y);
                    }
                }
            }
            timer += 1;
            if timer >= start.speed() {
                timer = 0;
                if y < rest {
                    y += 1;
                } else {
                    return (x, rot, y);
                }
            }
        }
        unreachable!()
    }

    #[test]
    fn every_path_replays_to_its_placement() {
        let boards = [
            "",
            "......\n..1...\n.222..\n.333.4",
            "1.....\n2.....\n3.....\n4....5\n5....6\n6....1\n1....2\n2....3\n3....4\n4....5",
        ];
        for text in boards {
            let board = Board::from_text(text).unwrap();
            for speed in [1, 2, 5, 20, 63] {
                for input in [InputModel::FAST, InputModel::NORMAL, InputModel::normal(12)] {
                    let start = SpawnState::spawn(speed);
                    let found = reachable(&board, start, input);
                    for (i, p) in found.as_slice().iter().enumerate() {
                        let got = replay(&board, start, &found.timeline(i));
                        assert_eq!(
                            got,
                            (p.x, p.rotations, p.y),
                            "{text} speed {speed} {input:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn pinned_counts() {
        let fast = InputModel::FAST;
        let slow = InputModel::NORMAL;
        // Column 2 stacked up to row 1: at high speed the column cannot get past it.
        let wall = "..1...\n..2...\n..3...\n..4...\n..5...\n..6...\n..1...\n..2...\n..3...\n..4...\n..5...\n..6...";
        // (board, fall speed, placements tapping every 2 frames, every 10 frames)
        let table = [
            ("", 1, 18, 9),
            ("", 2, 18, 14),
            ("", 3, 18, 17),
            ("", 4, 18, 18),
            ("", LEVEL0_FALL_SPEED, 18, 18),
            (wall, 1, 10, 7),
            (wall, 2, 10, 9),
            (wall, 3, 17, 10),
            (wall, 8, 18, 10),
            (wall, 20, 18, 17),
            (wall, LEVEL0_FALL_SPEED, 18, 18),
        ];
        for (board, speed, tapping, normal) in table {
            assert_eq!(count(board, speed, fast), tapping, "{board} at {speed}");
            assert_eq!(count(board, speed, slow), normal, "{board} at {speed}");
        }
        // Towers of 12 either side of the spawn at speed 2: a step aside locks at once.
        let towers = wall.replace("..1...", "..1.1.").replace("..2...", "..2.2.");
        let towers = towers
            .replace("..3...", "..3.3.")
            .replace("..4...", "..4.4.");
        let towers = towers
            .replace("..5...", "..5.5.")
            .replace("..6...", "..6.6.");
        assert_eq!(count(&towers, 2, fast), 5);
        assert_eq!(count(&towers, 20, fast), 18);
    }

    #[test]
    fn blocked_spawn_has_no_placement() {
        let full = "...1..\n...2..\n...3..\n...4..\n...5..\n...6..\n...1..\n...2..\n...3..\n...4..\n...5..\n...6..\n...1..";
        assert_eq!(count(full, 63, InputModel::FAST), 0);
    }
}
