//! Power-on, the title, the column generator, the spawn, gravity and the controls: positions
//! and frame counts as the real game's recordings show them.

use super::driver::{ensure, Check, Driver, Fact, FIRST_SPEED};
use crate::game_view::Grid;
use crate::memory_map as map;
use jewelbot_plugin::Buttons;
use magic_jewelry_engine::GameGenerator;

/// The first columns (top, middle, bottom) after an all-zero power-on.
pub const FIRST_COLUMNS: [[u8; 3]; 5] = [[5, 1, 2], [2, 4, 3], [3, 2, 1], [4, 4, 1], [1, 2, 4]];

fn both(a: Buttons, b: Buttons) -> Buttons {
    Buttons::from_bits(a.bits() | b.bits())
}

/// A stack in `column` from row `top` to the floor, in colours that make no line with
/// anything of the same pattern (see [`filler`]).
pub fn stack(column: usize, top: i8) -> Grid {
    let mut board = Grid::default();
    for row in top..=12 {
        board.set(row, column, filler(row, column));
    }
    board
}

/// A colour for (row, column) from a pattern with no three equal cells in any line: 4, 5 on
/// even rows, 6, 2 on odd rows, alternating across.
pub fn filler(row: i8, column: usize) -> u8 {
    [[4, 5], [6, 2]][row.rem_euclid(2) as usize][column % 2]
}

pub fn title_ignores_early_start(d: &mut Driver<'_>) -> Check {
    let mut title = None;
    for _ in 1..=6 {
        d.step(Buttons::START)?;
        if title.is_none() && d.on_title() {
            title = Some(d.frame());
        }
    }
    d.idle_until_frame(60)?;
    // (first frame of the title, still the title on frame 60, level speed)
    Ok(Fact::compare(
        (Some(6), true, 0),
        (title, d.on_title(), d.fall_speed()),
    ))
}

pub fn start_on_frame_7(d: &mut Driver<'_>) -> Check {
    let spawn = d.start_game()?;
    let column = d.column();
    Ok(Fact::compare(
        (13, (3, 0), [5, 1, 2], [2, 4, 3]),
        (spawn, (column.x, column.y), column.jewels, d.next_jewels()),
    ))
}

pub fn automatic_start(d: &mut Driver<'_>) -> Check {
    d.until("the title", 10, Buttons::NONE, Driver::on_title)?;
    let setup = d.until("the automatic start", 1400, Buttons::NONE, |d| {
        !d.on_title()
    })?;
    let spawn = d.until_spawn(30, Buttons::NONE)?;
    Ok(Fact::compare((1224, 1230), (setup, spawn)))
}

/// A generator state, shown as `$ADAD`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct State(pub u16);

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "${:04X}", self.0)
    }
}

fn generator(d: &Driver<'_>) -> State {
    State(u16::from_le_bytes([
        d.byte(map::GENERATOR),
        d.byte(map::GENERATOR + 1),
    ]))
}

pub fn first_columns(d: &mut Driver<'_>) -> Check {
    d.idle_until_frame(6)?;
    let seed = generator(d);
    let spawn = d.start_game()?;
    ensure!(spawn == 13, "the first column came on frame {spawn}");
    let mut states = vec![generator(d)];
    let mut columns = vec![d.column().jewels, d.next_jewels()];
    for x in [0, 2, 4] {
        d.move_to(x)?;
        let resolution = d.drop_and_resolve(200)?;
        ensure!(
            resolution.spawn.is_some() && resolution.steps.is_empty(),
            "a column dropped at x={x} did not lock quietly: {resolution:?}"
        );
        states.push(generator(d));
        columns.push(d.next_jewels());
    }
    // Three steps of the generator per column, one per jewel.
    let steps: Vec<bool> = states
        .windows(2)
        .map(|w| {
            let mut generator = GameGenerator::new(w[0].0);
            generator.next_column();
            generator.state() == w[1].0
        })
        .collect();
    Ok(Fact::compare(
        (
            State(GameGenerator::POWER_ON_STATE),
            State(0x1297),
            vec![true; 3],
            FIRST_COLUMNS.to_vec(),
        ),
        (seed, states[0], steps, columns),
    ))
}

pub fn spawn(d: &mut Driver<'_>) -> Check {
    let column = d.column();
    let cells = [-2, -1, 0].map(|row| d.cell(row, 3));
    let counters = (d.score()?, d.jewel_counter()?, d.level()?);
    Ok(Fact::compare(
        (
            (3, 0),
            column.jewels,
            [0, 0, FIRST_SPEED, FIRST_SPEED, 0, 0, 0],
            (0, 0, 0),
        ),
        (
            (column.x, column.y),
            cells,
            [
                d.byte(map::LANDED),
                d.byte(map::FALL_TIMER),
                d.byte(map::SPEED_IN_FORCE),
                d.fall_speed(),
                d.byte(map::SOFT_DROP),
                d.byte(map::LEVEL_INDEX),
                d.byte(map::COMBO),
            ],
            counters,
        ),
    ))
}

pub fn gravity(d: &mut Driver<'_>) -> Check {
    let spawn = d.frame();
    let mut drops = Vec::new();
    let mut y = d.column().y;
    let mut timer_ok = true;
    let mut timer = d.byte(map::FALL_TIMER);
    while drops.len() < 3 && d.frame() < spawn + 200 {
        d.step(Buttons::NONE)?;
        let (now_y, now_timer) = (d.column().y, d.byte(map::FALL_TIMER));
        if now_y == y {
            timer_ok &= now_timer == timer + 1;
        } else {
            drops.push(d.frame() - spawn);
            timer_ok &= now_timer == 0;
        }
        (y, timer) = (now_y, now_timer);
    }
    Ok(Fact::compare(
        (vec![63, 126, 189], true, 3),
        (drops, timer_ok, d.column().y),
    ))
}

pub fn taps_and_walls(d: &mut Driver<'_>) -> Check {
    let mut path = Vec::new();
    for button in [Buttons::LEFT; 4].into_iter().chain([Buttons::RIGHT; 6]) {
        d.step(button)?;
        path.push(d.column().x);
        d.step(Buttons::NONE)?;
    }
    Ok(Fact::compare(vec![2, 1, 0, 0, 1, 2, 3, 4, 5, 5], path))
}

pub fn one_action_a_frame(d: &mut Driver<'_>) -> Check {
    d.idle(2)?;
    d.set_current([1, 2, 3]);
    let mut seen = Vec::new();
    for button in [
        Buttons::LEFT,
        Buttons::B,
        Buttons::LEFT,
        Buttons::A,
        Buttons::LEFT,
    ] {
        d.step(button)?;
        let column = d.column();
        seen.push((column.x, column.jewels));
    }
    Ok(Fact::compare(
        vec![
            (2, [1, 2, 3]),
            (2, [3, 1, 2]),
            (1, [3, 1, 2]),
            (1, [2, 3, 1]),
            (0, [2, 3, 1]),
        ],
        seen,
    ))
}

pub fn one_press_per_frame(d: &mut Driver<'_>) -> Check {
    d.idle(2)?;
    d.set_current([1, 2, 3]);
    d.step(both(Buttons::A, Buttons::LEFT))?;
    let rotate = (d.column().x, d.column().jewels);
    d.step(Buttons::NONE)?;
    d.step(both(Buttons::LEFT, Buttons::DOWN))?;
    let moved = (d.column().x, d.column().y, d.byte(map::SOFT_DROP));
    d.step(Buttons::NONE)?;
    d.step(both(Buttons::RIGHT, Buttons::LEFT))?;
    let right = d.column().x;
    Ok(Fact::compare(
        ((3, [3, 1, 2]), (2, 0, 0), 3),
        (rotate, moved, right),
    ))
}

pub fn moves_blocked(d: &mut Driver<'_>) -> Check {
    d.idle(2)?;
    // A jewel beside the middle cell on the left, one beside the bottom cell on the right.
    d.set_cell(-1, 2, 4);
    d.set_cell(0, 4, 4);
    d.step(Buttons::LEFT)?;
    let left = d.column().x;
    d.step(Buttons::NONE)?;
    d.step(Buttons::RIGHT)?;
    let right = d.column().x;
    d.step(Buttons::NONE)?;
    d.set_cell(-1, 2, 0);
    d.step(Buttons::LEFT)?;
    let freed = d.column().x;
    d.set_cell(0, 4, 0);
    Ok(Fact::compare((3, 3, 2), (left, right, freed)))
}

/// Frames, from `from`, on which the column moved while `button` was held for `frames`.
fn held_moves(d: &mut Driver<'_>, button: Buttons, frames: u64, from: u64) -> Check<Vec<u64>> {
    let mut moves = Vec::new();
    let mut x = d.column().x;
    for _ in 0..frames {
        d.step(button)?;
        let now = d.column().x;
        if now != x {
            moves.push(d.frame() - from);
            x = now;
        }
    }
    Ok(moves)
}

pub fn auto_repeat(d: &mut Driver<'_>) -> Check {
    d.move_to(5)?;
    d.idle(2)?;
    let moves = held_moves(d, Buttons::LEFT, 34, d.frame() + 1)?;
    Ok(Fact::compare(vec![0, 6, 14, 22, 30], moves))
}

pub fn auto_repeat_after_spawn(d: &mut Driver<'_>) -> Check {
    let resolution = d.drop_and_resolve(100)?;
    let Some(spawn) = resolution.spawn else {
        return Err(super::driver::Failure(
            "no column came after a soft drop".into(),
        ));
    };
    // Left pressed on the first frame after the spawn.
    let moves = held_moves(d, Buttons::LEFT, 17, spawn + 1)?;
    Ok(Fact::compare(vec![0, 7, 15], moves))
}

pub fn auto_repeat_through_spawn(d: &mut Driver<'_>) -> Check {
    d.set_board(&Grid::from_rows(&["11...."]));
    d.set_current([2, 3, 1]);
    d.move_to(2)?;
    d.step(Buttons::NONE)?;
    d.until("the lock", 40, Buttons::DOWN, Driver::clearing)?;
    d.hold(40, Buttons::NONE)?;
    // Right held from the middle of the clear animation, through the spawn.
    let spawn = d.until_spawn(100, Buttons::RIGHT)?;
    let moves = held_moves(d, Buttons::RIGHT, 17, spawn)?;
    Ok(Fact::compare((vec![8, 16], 5), (moves, d.column().x)))
}

pub fn rotation(d: &mut Driver<'_>) -> Check {
    d.set_current([2, 4, 3]);
    let mut seen = Vec::new();
    for button in [Buttons::A, Buttons::B] {
        d.step(button)?;
        seen.push(d.column().jewels);
        d.step(Buttons::NONE)?;
    }
    d.hold(4, Buttons::A)?;
    d.step(Buttons::NONE)?;
    seen.push(d.column().jewels);
    Ok(Fact::compare(vec![[3, 2, 4], [4, 3, 2], [2, 4, 3]], seen))
}

pub fn select_swap(d: &mut Driver<'_>) -> Check {
    d.set_current([1, 2, 5]);
    let mut seen = Vec::new();
    for button in [Buttons::A, Buttons::B] {
        d.step(Buttons::SELECT)?;
        d.step(both(Buttons::SELECT, button))?;
        d.step(Buttons::SELECT)?;
        d.step(Buttons::NONE)?;
        seen.push(d.column().jewels);
    }
    Ok(Fact::compare(vec![[5, 2, 1], [1, 2, 5]], seen))
}

pub fn up_does_nothing(d: &mut Driver<'_>) -> Check {
    let before = d.column();
    d.hold(30, Buttons::UP)?;
    // The column where it was, the fall timer counting as without Up.
    Ok(Fact::compare(
        (before, 30),
        (d.column(), d.byte(map::FALL_TIMER)),
    ))
}

pub fn soft_drop(d: &mut Driver<'_>) -> Check {
    d.idle(20)?;
    let press = d.frame() + 1;
    let mut drops = Vec::new();
    let mut y = d.column().y;
    for _ in 0..7 {
        d.step(Buttons::DOWN)?;
        if d.column().y != y {
            drops.push(d.frame() - press);
            y = d.column().y;
        }
    }
    let armed = d.byte(map::SOFT_DROP) != 0;
    let held_speed = d.byte(map::SPEED_IN_FORCE);
    d.step(Buttons::NONE)?;
    let released_speed = d.byte(map::SPEED_IN_FORCE);
    let last = press + drops.last().copied().unwrap_or_default();
    let next = d.until("the next drop", 80, Buttons::NONE, |d| d.column().y != y)?;
    Ok(Fact::compare(
        (vec![0, 2, 4, 6], true, 2, FIRST_SPEED, 63),
        (drops, armed, held_speed, released_speed, next - last),
    ))
}

pub fn soft_drop_lock(d: &mut Driver<'_>) -> Check {
    d.idle(20)?;
    let jewels = d.column().jewels;
    let press = d.frame() + 1;
    let landed = d.until("the landing", 40, Buttons::DOWN, |d| d.column().y == 12)?;
    let spawn = d.until_spawn(10, Buttons::DOWN)?;
    let locked = [10, 11, 12].map(|row| d.cell(row, 3));
    Ok(Fact::compare(
        (22, 3, jewels),
        (landed - press, spawn - landed, locked),
    ))
}

pub fn down_through_spawn(d: &mut Driver<'_>) -> Check {
    d.idle(20)?;
    d.until_spawn(60, Buttons::DOWN)?;
    d.hold(30, Buttons::DOWN)?;
    let held = (d.column().y, d.byte(map::SOFT_DROP));
    d.step(Buttons::NONE)?;
    d.step(Buttons::DOWN)?;
    let pressed = (d.column().y, d.byte(map::SOFT_DROP) != 0);
    Ok(Fact::compare(((0, 0), (1, true)), (held, pressed)))
}

/// Brings the column down onto a 3-high stack in column 3 and lets it land there without
/// Down: the frame it landed (on row 9).
fn land_on_stack(d: &mut Driver<'_>) -> Check<u64> {
    d.set_board(&stack(3, 10));
    d.step(Buttons::NONE)?;
    d.until("the soft drop to row 8", 30, Buttons::DOWN, |d| {
        d.column().y == 8
    })?;
    let landed = d.until("the landing on row 9", 70, Buttons::NONE, |d| {
        d.column().y == 9
    })?;
    ensure!(
        d.byte(map::LANDED) != 0,
        "the column on the stack does not show as resting ($58 = 0)"
    );
    Ok(landed)
}

pub fn down_locks_resting(d: &mut Driver<'_>) -> Check {
    let jewels = d.column().jewels;
    let landed = land_on_stack(d)?;
    d.idle(9)?;
    let press = d.frame() + 1;
    let spawn = d.until_spawn(5, Buttons::DOWN)?;
    let locked = [7, 8, 9].map(|row| d.cell(row, 3));
    Ok(Fact::compare(
        (10, 1, jewels),
        (press - landed, spawn - press, locked),
    ))
}

pub fn rest_one_fall_period(d: &mut Driver<'_>) -> Check {
    let landed = land_on_stack(d)?;
    // The lock: the fall timer wraps to 0 with the column where it was.
    let lock = d.until("the lock", 70, Buttons::NONE, |d| {
        d.byte(map::FALL_TIMER) == 0
    })?;
    let spawn = if d.at_spawn() {
        lock
    } else {
        d.until_spawn(3, Buttons::NONE)?
    };
    Ok(Fact::compare(
        (63, "the next column on the lock frame or the frame after"),
        (
            lock - landed,
            if spawn - lock <= 1 {
                "the next column on the lock frame or the frame after"
            } else {
                "the next column later"
            },
        ),
    ))
}

pub fn slide_over_gap(d: &mut Driver<'_>) -> Check {
    let landed = land_on_stack(d)?;
    d.idle(9)?;
    // Right 10 frames after landing, far from the frame the fall timer expires (a move on that
    // very frame races the lock).
    d.step(Buttons::RIGHT)?;
    let slid = (d.column().x, d.column().y);
    let fell = d.until("the next fall", 70, Buttons::NONE, |d| d.column().y != 9)?;
    Ok(Fact::compare(
        ((4, 9), 63, 10),
        (slid, fell - landed, d.column().y),
    ))
}
