//! The rules against the real game. The recordings in `traces/` hold the game's RAM frame by
//! frame; every lock in them is replayed through the engine (the board before it and the locked
//! column read from RAM) and compared with what RAM shows once the next column has spawned:
//! the settled board, the score, the jewels, the combo counter, the cells towards the next wild
//! column, the level and speed, and the columns the generator made. And foresight: from every
//! spawn, the generator state in RAM and the counters predict the columns that come.

use jewelbot_plugin::Trace;
use magic_jewelry::memory_map as map;
use magic_jewelry::recordings::{self, load};
use magic_jewelry_engine::rules::board::{ROWS, WIDTH};
use magic_jewelry_engine::{Board, Column, Counters, GameGenerator, RuleSet};

/// The 8-digit counters roll over.
const COUNTER_MODULUS: u64 = 100_000_000;

/// What the traces record of one frame: the zero page and the playfield.
#[derive(Clone)]
struct Snapshot {
    zero: [u8; 256],
    field: [u8; 8 * ROWS],
}

impl Snapshot {
    fn all(trace: &Trace) -> Vec<Self> {
        let mut replay = trace.replay();
        let mut out = Vec::with_capacity(trace.frames.len());
        while let Some((_, ram)) = replay.next() {
            let mut snapshot = Self {
                zero: [0; 256],
                field: [0; 8 * ROWS],
            };
            snapshot.zero.copy_from_slice(&ram[..256]);
            snapshot
                .field
                .copy_from_slice(&ram[usize::from(map::PLAYFIELD)..][..8 * ROWS]);
            out.push(snapshot);
        }
        out
    }

    /// Cell (grid row 0-14, i.e. row -2 to 12; column 0-5).
    fn cell(&self, grid_row: usize, x: usize) -> u8 {
        self.field[8 * grid_row + x + 1]
    }

    fn byte(&self, address: u16) -> u8 {
        self.zero[usize::from(address)]
    }

    fn bytes<const N: usize>(&self, address: u16) -> [u8; N] {
        let at = usize::from(address);
        self.zero[at..at + N].try_into().expect("in the zero page")
    }

    /// A decimal counter of 8 digits, lowest first.
    fn counter(&self, at: u16) -> u64 {
        self.bytes::<8>(at)
            .iter()
            .rev()
            .fold(0, |n, &digit| n * 10 + u64::from(digit))
    }

    fn generator(&self) -> u16 {
        u16::from_le_bytes(self.bytes::<2>(map::GENERATOR))
    }

    fn position(&self) -> (usize, i8) {
        (
            usize::from(self.byte(map::COLUMN_X)),
            self.byte(map::COLUMN_Y) as i8,
        )
    }

    /// Grid rows of the falling column's cells.
    fn column_rows(&self) -> std::ops::RangeInclusive<usize> {
        let (_, y) = self.position();
        let bottom = (y + 2) as usize;
        bottom.saturating_sub(2)..=bottom
    }

    /// The falling column is drawn in full where $56/$57 say (the wild column flashes: all X's
    /// or all empty).
    fn column_drawn(&self) -> bool {
        let (x, y) = self.position();
        let jewels = self.bytes::<3>(map::CURRENT_COLUMN);
        if x >= WIDTH || !(0..=12).contains(&y) || !Column(jewels).is_valid() {
            return false;
        }
        let cells: Vec<u8> = self.column_rows().map(|r| self.cell(r, x)).collect();
        cells == jewels || (Column(jewels) == Column::WILD && cells == [0; 3])
    }

    /// The playfield without the falling column.
    fn settled(&self) -> Board {
        let (x, _) = self.position();
        let mut grid = [[0; WIDTH]; ROWS];
        for (r, line) in grid.iter_mut().enumerate() {
            for (c, cell) in line.iter_mut().enumerate() {
                *cell = self.cell(r, c);
            }
        }
        for r in self.column_rows() {
            grid[r][x] = 0;
        }
        Board::from_grid(&grid).expect("a settled board")
    }
}

/// The same jewels in the order some presses of A/B give.
fn same_column(a: [u8; 3], b: [u8; 3]) -> bool {
    (0..3).any(|r| Column(a).rotated(r) == Column(b))
}

/// What the replay of one trace found.
#[derive(Debug, Default, PartialEq, Eq)]
struct Replayed {
    /// Locks whose board, counters and columns all matched.
    locks: usize,
    wild_columns: usize,
    /// Jewels the engine erased without a match (row -2 at a collapse, (3, 0) under a spawn).
    erased: usize,
    game_overs: usize,
    /// Locks left out because the script poked RAM between the column's spawn and the next.
    poked: usize,
    /// Locks whose next column the recording ends before.
    unfinished: usize,
    mismatches: Vec<String>,
}

fn replay(name: &str) -> Replayed {
    let trace = load(name);
    let frames = &trace.frames;
    let ram = Snapshot::all(&trace);
    let mut result = Replayed::default();
    for i in 1..frames.len() {
        if !frames[i].has("lock") {
            continue;
        }
        let spawned = (0..i).rev().find(|&j| frames[j].has("spawn")).unwrap_or(0);
        let next_spawn = (i..frames.len()).find(|&j| frames[j].has("spawn"));
        let until = next_spawn.map_or(frames.len(), |j| j + 2).min(frames.len());
        if frames[spawned..until].iter().any(|f| !f.pokes.is_empty()) {
            result.poked += 1;
            continue;
        }
        let before = &ram[i - 1];
        let (x, y) = before.position();
        let jewels = before.bytes::<3>(map::CURRENT_COLUMN);
        let column = Column(jewels);
        assert!(before.column_drawn(), "{name} frame {}", frames[i].number);
        let mut board = before.settled();
        assert_eq!(y, board.rest_row(x), "{name} frame {}", frames[i].number);
        let mut counters = Counters {
            since_wild: u32::from(before.byte(map::REMOVED)),
            combo: before.byte(map::COMBO),
            level: before.byte(map::LEVEL_INDEX),
            ..Counters::default()
        };
        let before_board = board;
        let resolution = counters
            .lock(RuleSet::Real, &mut board, column, x)
            .expect("the locked column fits");
        // The next spawn, or the game over.
        let Some(spawn) = (i..frames.len()).find(|&j| {
            frames[j].has("spawn") || frames[j].has("game-over") || frames[j].has("reset")
        }) else {
            result.unfinished += 1;
            continue;
        };
        if !frames[spawn].has("spawn") {
            assert!(
                resolution.outcome.game_over,
                "{name} frame {}",
                frames[i].number
            );
            result.game_overs += 1;
            continue;
        }
        let Some(after) = (spawn + 1..frames.len()).find(|&k| ram[k].column_drawn()) else {
            result.unfinished += 1;
            continue;
        };
        let shown = &ram[after];
        let mut wrong = Vec::new();
        if resolution.outcome.game_over {
            wrong.push("the engine ends the game".to_owned());
        }
        if shown.settled() != board {
            wrong.push(format!("board {board:?} shown {:?}", shown.settled()));
        }
        let gained =
            |at: u16| (shown.counter(at) + COUNTER_MODULUS - before.counter(at)) % COUNTER_MODULUS;
        let counted = [
            ("points", gained(map::SCORE), resolution.points),
            (
                "jewels",
                gained(map::JEWEL_COUNTER),
                u64::from(resolution.outcome.removed),
            ),
            (
                "combo",
                u64::from(shown.byte(map::COMBO)),
                u64::from(counters.combo),
            ),
            (
                "since wild",
                u64::from(shown.byte(map::REMOVED)),
                u64::from(counters.since_wild),
            ),
            (
                "level",
                u64::from(shown.byte(map::LEVEL_INDEX)),
                u64::from(counters.level),
            ),
            (
                "speed",
                u64::from(shown.byte(map::FALL_SPEED)),
                u64::from(RuleSet::Real.fall_speed(counters.level)),
            ),
        ];
        for (what, game, engine) in counted {
            if game != engine {
                wrong.push(format!("{what}: game {game}, engine {engine}"));
            }
        }
        // The columns: the wild column takes the turn and the next shown stays, or the next
        // becomes the current one and the generator makes a new next.
        let (current, next) = (
            shown.bytes::<3>(map::CURRENT_COLUMN),
            shown.bytes::<3>(map::NEXT_COLUMN),
        );
        let previous_next = before.bytes::<3>(map::NEXT_COLUMN);
        let mut generator = GameGenerator::new(before.generator());
        let expected = if resolution.wild_due {
            ([7; 3], previous_next, before.generator())
        } else {
            (previous_next, generator.next_column().0, generator.state())
        };
        if !same_column(current, expected.0)
            || next != expected.1
            || shown.generator() != expected.2
        {
            wrong.push(format!(
                "columns {current:?} {next:?} at {:04X}, expected {expected:?}",
                shown.generator()
            ));
        }
        if column == Column::WILD {
            result.wild_columns += 1;
        }
        result.erased += usize::from(resolution.outcome.erased);
        if wrong.is_empty() {
            result.locks += 1;
        } else {
            result.mismatches.push(format!(
                "{name} frame {}: {column} at x {x} on {before_board:?}{}",
                frames[i].number,
                wrong.join("; ")
            ));
        }
    }
    result
}

/// Every lock of the 60,000-frame game: board, counters and columns, all predicted.
#[test]
fn every_lock_of_the_fast_game() {
    let result = replay("player-fast-60k");
    assert!(result.mismatches.is_empty(), "{:#?}", result.mismatches);
    // The last of the 531 locks comes as the recording ends.
    assert_eq!((result.locks, result.unfinished, result.poked), (530, 1, 0));
    assert_eq!((result.wild_columns, result.game_overs), (22, 0));
    // One lock leaves a jewel in row -2 for a collapse to erase.
    assert_eq!(result.erased, 1);
}

/// Every lock of the score objective's game with foresight, chains of up to 18 steps over tall
/// stacks, to its game over.
#[test]
fn every_lock_of_the_score_game() {
    let result = replay("score-foresight-loss");
    assert!(result.mismatches.is_empty(), "{:#?}", result.mismatches);
    assert_eq!((result.locks, result.unfinished, result.poked), (222, 0, 0));
    assert_eq!((result.wild_columns, result.game_overs), (8, 1));
}

/// The player at d75c35b, 60,000 frames of the survival objective: its locks, a spawn in the
/// lock's own frame 22 frames after the one before (frame 37,850) among them.
#[test]
fn every_lock_of_the_second_fast_game() {
    let result = replay("player-fast-60k-2");
    assert!(result.mismatches.is_empty(), "{:#?}", result.mismatches);
    assert_eq!((result.locks, result.unfinished, result.poked), (614, 1, 0));
    assert_eq!(result.game_overs, 0);
}

/// The player for points at d75c35b, 12,000 frames: its first wild column spawns in a frame
/// that ends before the column's timer is reset (frame 2,714).
#[test]
fn every_lock_of_the_score_game_without_foresight() {
    let result = replay("score-fast-12k");
    assert!(result.mismatches.is_empty(), "{:#?}", result.mismatches);
    assert_eq!((result.locks, result.unfinished, result.poked), (145, 1, 0));
    assert_eq!(result.game_overs, 0);
}

#[test]
fn every_lock_of_the_normal_game() {
    let result = replay("player-normal-20k");
    assert!(result.mismatches.is_empty(), "{:#?}", result.mismatches);
    assert_eq!((result.locks, result.unfinished, result.poked), (25, 1, 0));
}

/// The scripted recordings: the wild column on the floor, the level forced to 48, the game
/// overs (locks after a poke are left out).
#[test]
fn every_lock_of_the_scripted_games() {
    let mut total = Replayed::default();
    for recording in recordings::scripted() {
        let result = replay(&recording.name);
        assert!(result.mismatches.is_empty(), "{:#?}", result.mismatches);
        total.locks += result.locks;
        total.wild_columns += result.wild_columns;
        total.erased += result.erased;
        total.game_overs += result.game_overs;
        total.poked += result.poked;
        total.unfinished += result.unfinished;
    }
    let expected = Replayed {
        locks: 17,
        wild_columns: 1,
        erased: 1,
        game_overs: 1,
        poked: 6,
        unfinished: 0,
        mismatches: Vec::new(),
    };
    assert_eq!(total, expected);
}

/// After an all-zero power-on the generator starts at $ADAD: the game's first two columns are
/// the generator's first two.
#[test]
fn the_first_columns_after_power_on() {
    for name in ["player-fast-60k", "wild-and-levels", "boot-autostart"] {
        let trace = load(name);
        let ram = Snapshot::all(&trace);
        let first = trace
            .frames
            .iter()
            .position(|f| f.has("spawn"))
            .expect("a spawn");
        let mut generator = GameGenerator::new(GameGenerator::POWER_ON_STATE);
        let (current, next) = (generator.next_column(), generator.next_column());
        assert_eq!(
            Column(ram[first].bytes::<3>(map::CURRENT_COLUMN)),
            current,
            "{name}"
        );
        assert_eq!(
            Column(ram[first].bytes::<3>(map::NEXT_COLUMN)),
            next,
            "{name}"
        );
        assert_eq!(ram[first].generator(), generator.state(), "{name}");
        assert_eq!(
            (current, next),
            (Column::new(5, 1, 2), Column::new(2, 4, 3))
        );
    }
}

/// Columns ahead predicted from each spawn.
const HORIZON: usize = 40;

/// Foresight against the real game: at every spawn of every recording, the generator state in
/// RAM and the counters predict the columns that really come next, the wild column (from the
/// cells the locks remove, counted by the engine from that spawn on) included, as far as the
/// game goes on unpoked.
#[test]
fn the_generator_in_ram_predicts_the_columns_to_come() {
    let mut checked = [0usize; 2];
    for recording in recordings::all() {
        let name = recording.name.as_str();
        let trace = recording.load();
        let frames = &trace.frames;
        let ram = Snapshot::all(&trace);
        // Pokes, game overs and resets end what a spawn can predict.
        let mut epoch = Vec::with_capacity(frames.len());
        let mut current_epoch = 0;
        for frame in frames {
            if !frame.pokes.is_empty() || frame.has("game-over") || frame.has("reset") {
                current_epoch += 1;
            }
            epoch.push(current_epoch);
        }
        // Each spawn: the first frame that shows the column, and the lock that ends its turn.
        let spawns: Vec<usize> = (0..frames.len())
            .filter(|&j| frames[j].has("spawn"))
            .collect();
        let mut turns = Vec::new();
        for (n, &s) in spawns.iter().enumerate() {
            let Some(shown) = (s + 1..frames.len()).find(|&k| ram[k].column_drawn()) else {
                continue;
            };
            let until = spawns.get(n + 1).copied().unwrap_or(frames.len());
            let lock = (s + 1..frames.len()).find(|&l| frames[l].has("lock"));
            turns.push((shown, lock.filter(|&l| l <= until)));
        }
        for (j, &(from, _)) in turns.iter().enumerate() {
            let at = &ram[from];
            let mut generator = GameGenerator::new(at.generator());
            let mut queue =
                std::collections::VecDeque::from([Column(at.bytes::<3>(map::NEXT_COLUMN))]);
            let mut counters = Counters {
                since_wild: u32::from(at.byte(map::REMOVED)),
                combo: at.byte(map::COMBO),
                level: at.byte(map::LEVEL_INDEX),
                ..Counters::default()
            };
            for t in j + 1..(j + 1 + HORIZON).min(turns.len()) {
                let (shown, _) = turns[t];
                let Some(lock) = turns[t - 1].1 else { break };
                if epoch[shown] != epoch[from] {
                    break;
                }
                let before = &ram[lock - 1];
                let (x, _) = before.position();
                let mut board = before.settled();
                let column = Column(before.bytes::<3>(map::CURRENT_COLUMN));
                let resolution = counters
                    .lock(RuleSet::Real, &mut board, column, x)
                    .expect("the locked column fits");
                while queue.len() < 2 {
                    queue.push_back(generator.next_column());
                }
                let predicted = if resolution.wild_due {
                    Column::WILD
                } else {
                    queue.pop_front().expect("filled")
                };
                let game = &ram[shown];
                let context = format!(
                    "{name}: spawn at frame {} predicted from frame {}",
                    frames[shown].number, frames[from].number
                );
                assert!(
                    same_column(game.bytes::<3>(map::CURRENT_COLUMN), predicted.0),
                    "{context}: current {:?}, predicted {predicted}",
                    game.bytes::<3>(map::CURRENT_COLUMN)
                );
                assert_eq!(
                    Column(game.bytes::<3>(map::NEXT_COLUMN)),
                    queue[0],
                    "{context}: next"
                );
                checked[usize::from(predicted.is_wild())] += 1;
            }
        }
    }
    // Columns predicted (each up to 40 spawns ahead), and wild columns among them: 27,724 and
    // 1,180 of them in the recordings before `player-fast-60k-2` and `score-fast-12k`.
    assert_eq!(checked, [55_258, 2_446]);
}
