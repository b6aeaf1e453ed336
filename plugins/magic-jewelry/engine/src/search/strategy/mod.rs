//! Search strategies, selected by name: `simple`, `smart` and `deep`; [`Foresight`] wraps any of
//! them to search the known column sequence when it is given one. Each values its paths by a
//! [`Goal`] (what the objective makes of the last board and of what the locks did), so every
//! strategy plays every objective.

mod deep;
mod foresight;
mod greedy;
mod ranking;
mod seat;
mod spec;

pub use deep::{Deep, DeepConfig};
pub use foresight::{Foresight, ForesightConfig};
pub use greedy::Greedy;
pub use ranking::{Ranking, RANKED};
pub use seat::{Seat, SeatView};
pub use spec::{StrategySpec, UnknownStrategy, MAX_CANDIDATES, MAX_SAMPLES};

use super::input::{FallState, InputModel, Timeline};
use super::placement::{reachable, Placement};
use super::question::Question;
use crate::eval::score::Objective;
use crate::eval::weights::Weights;
use crate::eval::{AnyEvaluator, Evaluator, Goal, Tally};
use crate::rules::board::{Board, Column};
use crate::rules::resolve::{lock_unchecked, LockOutcome};
use crate::rules::RuleSet;
use std::time::{Duration, Instant};

/// Score of a board where the game is lost: below anything an evaluation returns.
pub const LOSS: f64 = -1.0e9;

/// Strategy names [`strategy_by_name`] knows without settings.
pub const STRATEGY_NAMES: [&str; 3] = StrategySpec::NAMES;

/// Where to put the current column, as found by a strategy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Choice {
    pub x: u8,
    /// Arrangement of the jewels from the current one (0-2 rotations, 3-5 a swap then
    /// rotations).
    pub arrangement: u8,
    /// Row of the bottom jewel when it locks.
    pub y: i8,
    /// The strategy's score for it (higher is better; [`LOSS`] or below when the game is lost).
    pub score: f64,
}

impl Choice {
    /// `placement` with the score a strategy gave it.
    pub fn of(placement: &Placement, score: f64) -> Self {
        Self {
            x: placement.x,
            arrangement: placement.arrangement,
            y: placement.y,
            score,
        }
    }
}

/// A choice with the buttons that carry it out.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub x: u8,
    /// Arrangement of the jewels (0-2 rotations, 3-5 a swap then rotations).
    pub arrangement: u8,
    /// Row of the bottom jewel when it locks.
    pub y: i8,
    /// The buttons that carry it out, frame by frame from the decision on.
    pub timeline: Timeline,
    pub score: f64,
    /// The placement chosen, then the best others the search weighed (its seat's ranking),
    /// at most [`RANKED`] in all.
    pub candidates: Vec<Choice>,
    /// Where the next column would go on the board this one leaves, judged on its own board.
    pub next: Option<Choice>,
    /// How long the search took.
    pub elapsed: Duration,
}

/// How much one decision may cost, for strategies that can stop early: it stops at whichever
/// limit comes first. A work limit gives the same choices on any machine under any load; a
/// time limit does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Budget {
    /// Wall-clock time of one decision.
    pub time: Option<Duration>,
    /// Boards scored in one decision (as chess engines count nodes).
    pub work: Option<u64>,
}

impl Budget {
    /// No limit: results depend only on the inputs.
    pub const UNLIMITED: Self = Self {
        time: None,
        work: None,
    };

    /// The player's limit unless told otherwise
    /// ([`parameters::PLAYER_TIME`](crate::search::parameters::PLAYER_TIME)).
    pub const PLAYER: Self = Self {
        time: Some(crate::search::parameters::PLAYER_TIME),
        work: None,
    };

    /// The player's limit when the host waits for it unless told otherwise
    /// ([`parameters::LOCKSTEP_WORK`](crate::search::parameters::LOCKSTEP_WORK)).
    pub const LOCKSTEP: Self = Self {
        time: None,
        work: Some(crate::search::parameters::LOCKSTEP_WORK),
    };

    /// Only a work limit (`None`: none at all).
    pub const fn work(work: Option<u64>) -> Self {
        Self { time: None, work }
    }

    /// The same inputs give the same choices: no time limit.
    pub const fn is_deterministic(self) -> bool {
        self.time.is_none()
    }
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.work, self.time) {
            (None, None) => f.write_str("no limit"),
            (Some(work), None) => write!(f, "{work} boards a decision"),
            (None, Some(time)) => write!(f, "{} us a decision", time.as_micros()),
            (Some(work), Some(time)) => write!(
                f,
                "{work} boards or {} us a decision, whichever comes first",
                time.as_micros()
            ),
        }
    }
}

/// A way to choose where each column goes: one [`Question`] in, one [`Choice`] out.
pub trait Strategy: Send {
    fn name(&self) -> &'static str;

    /// Chooses a placement for the question's current column. `None` when the column cannot
    /// move at all (spawn blocked).
    fn choose(&mut self, question: &Question) -> Option<Choice>;

    /// Limits the cost of one decision, for strategies that can stop early
    /// ([`Budget::UNLIMITED`]: no limit, results depend only on the inputs).
    fn set_budget(&mut self, _budget: Budget) {}

    /// The limit it decides within ([`Budget::UNLIMITED`] for those that cannot stop early).
    fn budget(&self) -> Budget {
        Budget::UNLIMITED
    }

    /// Plays by `rules`: how locks resolve, the odds of the columns not yet shown, and the speed
    /// after a wild column. Strategies start with the real game's rules, the player's.
    fn set_rules(&mut self, rules: RuleSet);

    /// What it plays with: its goal, rules and last ranking (the best placements the last
    /// [`Strategy::choose`] weighed, best first by the score it ranks first placements with;
    /// `deep`: current + next, before its look-ahead decides).
    fn seat(&self) -> SeatView<'_>;

    /// [`Strategy::choose`] with the input path and the time it took.
    fn decide(&mut self, question: &Question) -> Option<Decision> {
        let began = Instant::now();
        let choice = self.choose(question)?;
        let placements = reachable(&question.board, question.start, question.input);
        let index = placements.find(choice.x, choice.arrangement)?;
        let seat = self.seat();
        // Every candidate on the ranking's scale, the chosen one too (`deep` decides on
        // another).
        let same = |c: &&Choice| (c.x, c.arrangement) == (choice.x, choice.arrangement);
        let chosen = seat.ranking.iter().find(same).copied().unwrap_or(choice);
        let others = seat.ranking.iter().filter(|c| !same(c)).copied();
        let candidates = std::iter::once(chosen).chain(others).take(RANKED).collect();
        let next = follow_up(&seat, question, &choice);
        Some(Decision {
            x: choice.x,
            arrangement: choice.arrangement,
            y: choice.y,
            timeline: placements.timeline(index),
            score: choice.score,
            candidates,
            next,
            elapsed: began.elapsed(),
        })
    }
}

/// Where the question's next column would go, judged on its own board for safety, once the
/// current one is placed as `choice` (`None` when it cannot be placed or none is shown).
fn follow_up(seat: &SeatView<'_>, question: &Question, choice: &Choice) -> Option<Choice> {
    let next = question.next?;
    let mut after = question.board;
    let outcome = seat
        .rules
        .lock(
            &mut after,
            question.current.arranged(choice.arrangement),
            usize::from(choice.x),
        )
        .ok()?;
    if outcome.game_over {
        return None;
    }
    let spawn = question.start.after(seat.rules, question.current);
    let boards = seat.goal.boards();
    best_placement(seat.rules, boards, &after, next, spawn, question.input)
}

/// Builds a strategy from its name ([`StrategySpec`]: `simple`, `smart`, `deep`,
/// `deep:K:S[:M]`) with the weighted features of `weights`.
pub fn strategy_by_name(
    name: &str,
    weights: &Weights,
) -> Result<Box<dyn Strategy>, UnknownStrategy> {
    strategy_with(name, AnyEvaluator::from(weights))
}

/// [`strategy_by_name`] with any evaluator (weighted features, a learned value, or one of the
/// lab's wrappers).
pub fn strategy_with<E: Evaluator + Send + Sync + 'static>(
    name: &str,
    evaluation: E,
) -> Result<Box<dyn Strategy>, UnknownStrategy> {
    strategy_for(name, evaluation, Objective::Survive)
}

/// [`strategy_with`] playing for `objective` ([`StrategySpec::build`]).
pub fn strategy_for<E: Evaluator + Send + Sync + 'static>(
    name: &str,
    evaluation: E,
    objective: Objective,
) -> Result<Box<dyn Strategy>, UnknownStrategy> {
    Ok(name.parse::<StrategySpec>()?.build(evaluation, objective))
}

/// Calls `visit` for every placement of `column` that gives a distinct board (arrangements
/// that repeat another's jewels at the same x are skipped), with the board after the lock under
/// `rules`. `placements` must be reachable on `board` (from [`reachable`]).
#[inline]
pub fn for_each_result(
    rules: RuleSet,
    board: &Board,
    column: Column,
    placements: &[Placement],
    mut visit: impl FnMut(&Placement, &Board, &LockOutcome),
) {
    let arranged: [Column; 6] = std::array::from_fn(|a| column.arranged(a as u8));
    let distinct = column.distinct_arrangements(6);
    let mut seen = 0u64;
    for p in placements {
        // The first arrangement giving these jewels stands for all.
        let jewels = arranged[p.arrangement as usize % 6];
        let canonical = (0..6)
            .find(|&a| distinct >> a & 1 == 1 && arranged[a] == jewels)
            .unwrap_or(p.arrangement as usize);
        let bit = 1u64 << (p.x as usize * 6 + canonical);
        if seen & bit != 0 {
            continue;
        }
        seen |= bit;
        let mut after = *board;
        let outcome = lock_unchecked(rules, &mut after, jewels, p.x as usize);
        visit(p, &after, &outcome);
    }
}

/// The path after a lock that did `outcome`, counted only when `goal` sees locks.
#[inline]
pub(crate) fn count<G: Goal + ?Sized>(
    goal: &G,
    rules: RuleSet,
    tally: &Tally,
    outcome: &LockOutcome,
    bottom_row: i8,
    column: Column,
) -> Tally {
    if goal.sees_locks() {
        tally.after(rules, outcome, bottom_row, column.is_wild())
    } else {
        *tally
    }
}

/// The column a path places after one that did `tally`: the wild column when its lock brought
/// it, else `shown` (the next column, when shown).
#[inline]
pub(crate) fn column_after(tally: &Tally, shown: Option<Column>) -> Option<Column> {
    if tally.wild_due {
        Some(Column::WILD)
    } else {
        shown
    }
}

/// The best value of any placement of `column` on `board` from a fresh spawn, as the last
/// column of a path whose locks did `tally` (`LOSS` when every one loses).
#[inline]
pub(crate) fn best_last<G: Goal + ?Sized>(
    rules: RuleSet,
    goal: &G,
    board: &Board,
    column: Column,
    tally: &Tally,
    start: FallState,
    input: InputModel,
) -> f64 {
    let placements = reachable(board, start, input);
    let mut best = LOSS;
    for_each_result(rules, board, column, &placements, |p, after, outcome| {
        if !outcome.game_over {
            let tally = count(goal, rules, tally, outcome, p.y, column);
            best = best.max(goal.value(rules, after, &tally));
        }
    });
    best
}

/// The placement of `column` with the best board on its own (`None` when every one loses).
fn best_placement(
    rules: RuleSet,
    evaluator: &(impl Evaluator + ?Sized),
    board: &Board,
    column: Column,
    start: FallState,
    input: InputModel,
) -> Option<Choice> {
    let placements = reachable(board, start, input);
    let mut best: Option<Choice> = None;
    for_each_result(rules, board, column, &placements, |p, after, outcome| {
        if outcome.game_over {
            return;
        }
        let score = evaluator.score(after);
        if best.is_none_or(|b| score > b.score) {
            best = Some(Choice::of(p, score));
        }
    });
    best
}

#[cfg(test)]
mod objective_tests;

/// `job` on a thread pool of its own with `threads` threads: what runs on "every core" there
/// runs on these.
#[cfg(test)]
pub(crate) fn on_threads<T: Send>(threads: usize, job: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
        .install(job)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::LEVEL0_FALL_SPEED;

    fn decide(name: &str, text: &str, current: [u8; 3], next: [u8; 3]) -> Decision {
        let mut s = strategy_by_name(name, &Weights::PUBLISHED).unwrap();
        s.set_budget(Budget::UNLIMITED);
        s.decide(&Question::new(
            Board::from_text(text).unwrap(),
            Column(current),
            Some(Column(next)),
            FallState::spawn(LEVEL0_FALL_SPEED),
            InputModel::FAST,
        ))
        .unwrap()
    }

    #[test]
    fn names() {
        for name in STRATEGY_NAMES {
            assert_eq!(
                strategy_by_name(name, &Weights::PUBLISHED).unwrap().name(),
                name
            );
        }
        assert_eq!(
            strategy_by_name("deep:3:5", &Weights::PUBLISHED)
                .unwrap()
                .name(),
            "deep"
        );
        assert!(strategy_by_name("deep:3:5:1", &Weights::PUBLISHED).is_ok());
        assert!(strategy_by_name("deep:3:all", &Weights::PUBLISHED).is_ok());
        for bad in [
            "deep:3:0",
            "deep:all:3",
            "deep:2:all:all",
            "clever",
            "deep:",
            "deep:0:3",
            "deep:x:1",
            "deep:1:2:3:4",
            "deep:2:2:0",
        ] {
            assert!(strategy_by_name(bad, &Weights::PUBLISHED).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_strategy_takes_an_obvious_clear() {
        // Two 4s on the floor of columns 0 and 1: a column with a 4 at the bottom clears them
        // at column 2 (the 4 must be rotated to the bottom).
        for name in STRATEGY_NAMES.into_iter().chain(["deep:3:all"]) {
            let d = decide(name, "\n\n44....", [4, 1, 2], [5, 6, 1]);
            let placed = Column([4, 1, 2]).arranged(d.arrangement);
            assert_eq!((d.x, placed.bottom()), (2, 4), "{name}: {d:?}");
            assert_eq!(d.y, 12);
            assert!(!d.timeline.frames.is_empty());
        }
    }

    #[test]
    fn the_rules_decide_what_a_full_spawn_cell_costs() {
        // Column 3 at 10 jewels: a column locked on it fills row 0 of the spawn column. The
        // reference's game is then lost; the real game spawns the next column over it.
        let text = "1.....\n2.....\n1.....\n2.....\n1.....\n2.....\n1.....\n2.....\n1.....\n2.....";
        let text = text.replace("1.....", "...1..").replace("2.....", "...2..");
        let board = Board::from_text(&text).unwrap();
        let placements = reachable(&board, FallState::spawn(8), InputModel::FAST);
        let lost = RuleSet::ALL.map(|rules| {
            let mut lost = Vec::new();
            for_each_result(
                rules,
                &board,
                Column::new(4, 5, 6),
                &placements,
                |p, after, o| {
                    if o.game_over {
                        lost.push((p.x, after.height(3)));
                    }
                },
            );
            lost
        });
        assert_eq!(lost, [vec![(3, 13); 3], vec![]]);
    }

    #[test]
    fn after_a_wild_column_the_next_spawn_is_faster() {
        let start = FallState::spawn(63);
        assert_eq!(start.after(RuleSet::Real, Column::WILD).speed, 52);
        assert_eq!(start.after(RuleSet::Real, Column::new(1, 2, 3)).speed, 63);
        assert_eq!(start.after(RuleSet::Reference, Column::WILD).speed, 63);
    }

    #[test]
    fn wild_column_lands_where_it_clears_most() {
        // Landing on a 2 removes four 2s, then the 3s of column 0 line up: 3 jewels left.
        // Landing on a 3 leaves 4 (which the next column can clear further), on the floor 10.
        let text = "3.....\n3.....\n23.2.2\n32.3.3";
        for name in STRATEGY_NAMES {
            let d = decide(name, text, [7, 7, 7], [1, 2, 4]);
            let mut b = Board::from_text(text).unwrap();
            crate::lock(&mut b, Column::WILD, d.x as usize).unwrap();
            let best = if name == "simple" { 3 } else { 4 };
            assert!(b.jewels() <= best, "{name}: {d:?}\n{b}");
        }
    }
}
