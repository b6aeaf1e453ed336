//! Foresight: a beam search over the columns still to come when the sequence is known (the
//! game's generator read from RAM, or the simulator's own), wrapped around a fair strategy that
//! plays whenever it is not.
//!
//! Each beam node is a board after some of the known columns, with the counters that decide
//! when the wild column comes and how fast the columns fall. Every reachable placement of the
//! node's next column is expanded, lost boards are dropped, and the best [`ForesightConfig::beam`]
//! boards by the fair strategy's goal (the value of the path, less the interim cost of the boards
//! on the way, as `smart` and `deep` count it) go on to the next depth. The first placement of
//! the best board at the last depth is the choice. Work is counted in boards evaluated, so a work budget gives the same
//! choices on every machine; a time budget can stop it earlier. Each depth's parents are
//! expanded on every core and taken in the beam's order, as far as the budget allows, as one
//! core would take them (`foresight_decides_alike_on_any_number_of_cores`): the score
//! objective's `horizon --foresight` plays 1,000 columns in 6.2 s on two cores against 9.2 s on
//! one.
//!
//! Consecutive decisions walk much the same boards: of the score objective's leaves, 35% were
//! valued by this decision or the one before, 55% within the last forty. Its board terms are
//! kept ([`ScoreEvaluator`](crate::eval::ScoreEvaluator)), and so are the placements
//! from a spawn, by the stacks' heights (`ReachMemo`): the same choices, and `horizon
//! --objective score --foresight --threads 1 --max-columns 3000` took 11.3 s against 16.1 s
//! without them.

use super::{for_each_result, Budget, Choice, Ranking, SeatView, Strategy, LOSS};
use crate::eval::Tally;
use crate::rules::board::{Board, Column};
use crate::rules::{ColumnGenerator, RuleSet};
use crate::search::input::FallState;
use crate::search::placement::{reachable, Placement, ReachMemo, MAX_PLACEMENTS};
use crate::search::question::Question;
use rayon::prelude::*;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// How far foresight looks and how much work a decision may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct ForesightConfig {
    /// Columns searched, the current one included (wild columns count as columns).
    pub depth: usize,
    /// Boards kept at each depth.
    pub beam: usize,
    /// Boards evaluated per decision at most: the current column's placements are always
    /// expanded, and no further node once this many boards were evaluated.
    pub work: u64,
    /// Stop expanding nodes after this long (`None`: the work budget alone, so results depend
    /// only on the inputs).
    #[serde(skip)]
    pub time: Option<Duration>,
}

impl Default for ForesightConfig {
    /// The player's foresight ([`parameters`](crate::search::parameters)).
    fn default() -> Self {
        use crate::search::parameters as p;
        Self {
            depth: p::FORESIGHT_DEPTH,
            beam: p::FORESIGHT_BEAM,
            work: p::FORESIGHT_WORK,
            time: None,
        }
    }
}

/// One board on the way through the known columns.
#[derive(Debug, Clone, Copy)]
struct Node {
    board: Board,
    /// What the path's locks did.
    tally: Tally,
    /// The column to place now is the wild column.
    wild: bool,
    /// Known (non-wild) columns placed so far.
    used: usize,
    /// The current column's placement that leads here.
    first: Placement,
    /// The fair strategy's goal's value of the path less the interim cost of the boards
    /// before it.
    score: f64,
    /// Interim cost of the boards on the way (the board itself excluded).
    interim: f64,
}

/// What is worth one beam slot: boards reached by different orders of the same placements
/// count once.
type NodeKey = (Board, u32, u8, bool);

fn key(node: &Node) -> NodeKey {
    (
        node.board,
        node.tally.counters.since_wild,
        node.tally.counters.level,
        node.wild,
    )
}

/// A fair strategy that plays the known sequence ahead when it is given one.
pub struct Foresight {
    fair: Box<dyn Strategy>,
    config: ForesightConfig,
    ranking: Ranking,
    /// The last decision looked ahead (not the fair strategy's).
    used: bool,
    /// Boards evaluated by the last decision.
    work: u64,
    /// Depth the last decision reached.
    reached: usize,
    beam: Vec<Node>,
    children: Vec<Node>,
    /// The children's indices, best first.
    order: Vec<u32>,
    /// The children kept for the next depth.
    next: Vec<Node>,
    seen: HashSet<NodeKey>,
    /// Where columns spawned on the beam's boards can lock: the boards share their stacks'
    /// heights far more often than their colours.
    reach_seen: ReachMemo,
    /// The last budget given: without a time limit the look-ahead drops its own too, so that
    /// results depend only on the inputs.
    budget: Budget,
}

impl std::fmt::Debug for Foresight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Foresight")
            .field("fair", &self.fair.name())
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl Foresight {
    pub fn new(fair: Box<dyn Strategy>, config: ForesightConfig) -> Self {
        Self {
            fair,
            config,
            ranking: Ranking::default(),
            used: false,
            work: 0,
            reached: 0,
            beam: Vec::new(),
            children: Vec::new(),
            order: Vec::new(),
            next: Vec::new(),
            seen: HashSet::new(),
            reach_seen: ReachMemo::default(),
            budget: Budget::UNLIMITED,
        }
    }

    /// Whether the last decision looked ahead, with the columns it searched; `None` when the
    /// fair strategy decided.
    pub fn last_depth(&self) -> Option<usize> {
        self.used.then_some(self.reached)
    }

    /// Boards evaluated by the last decision that looked ahead.
    pub fn last_work(&self) -> u64 {
        self.work
    }

    /// The known columns from the current one on: the current (unless wild), the next, then
    /// the generator's.
    fn known(&self, current: Column, next: Column, generator: &ColumnGenerator) -> Vec<Column> {
        let mut generator = generator.clone();
        let mut known = Vec::with_capacity(self.config.depth + 1);
        if !current.is_wild() {
            known.push(current);
        }
        known.push(next);
        while known.len() < self.config.depth {
            known.push(generator.next_column());
        }
        known
    }

    /// The beam search over `known`; `None` when the current column cannot move.
    fn search(&mut self, question: &Question, known: &[Column]) -> Option<Choice> {
        let Question {
            ref board,
            current,
            start,
            input,
            counters,
            ..
        } = *question;
        let began = Instant::now();
        let seat = self.fair.seat();
        let (rules, goal) = (seat.rules, seat.goal);
        let config = self.config;
        let mut work = 0u64;
        let placements = reachable(board, start, input);
        let first = *placements.as_slice().first()?;
        let root = Node {
            board: *board,
            tally: Tally::start(counters),
            wild: current.is_wild(),
            used: 0,
            first,
            score: 0.0,
            interim: 0.0,
        };
        self.beam.clear();
        self.beam.push(root);
        let mut reached = 0;
        let time = config.time.filter(|_| !self.budget.is_deterministic());
        for depth in 0..config.depth.max(1) {
            let out_of_budget = |work: u64| {
                work >= config.work || time.is_some_and(|limit| began.elapsed() > limit)
            };
            if depth > 0 && out_of_budget(work) {
                break;
            }
            // A parent's children and the boards evaluated to find them; `None` once the time
            // is up.
            let expand = |parent: &Node| {
                if depth > 0 && time.is_some_and(|limit| began.elapsed() > limit) {
                    return None;
                }
                let mut children = Vec::with_capacity(MAX_PLACEMENTS);
                let mut evaluated = 0u64;
                let column = if parent.wild {
                    Column::WILD
                } else {
                    match known.get(parent.used) {
                        Some(&column) => column,
                        None => return Some((children, evaluated)),
                    }
                };
                let interim = if depth == 0 {
                    0.0
                } else {
                    parent.interim + goal.interim(&parent.board)
                };
                let spawned;
                let placements = if depth == 0 {
                    placements.as_slice()
                } else {
                    let spawn = FallState::spawn(rules.fall_speed(parent.tally.counters.level));
                    spawned = self.reach_seen.reachable(&parent.board, spawn, input);
                    &spawned
                };
                for_each_result(
                    rules,
                    &parent.board,
                    column,
                    placements,
                    |p, after, outcome| {
                        evaluated += 1;
                        if outcome.game_over {
                            return;
                        }
                        let tally = parent.tally.after(rules, outcome, p.y, column.is_wild());
                        let value = goal.value(rules, after, &tally);
                        children.push(Node {
                            board: *after,
                            tally,
                            wild: tally.wild_due,
                            used: parent.used + usize::from(!column.is_wild()),
                            first: if depth == 0 { *p } else { parent.first },
                            score: value - interim,
                            interim,
                        });
                    },
                );
                Some((children, evaluated))
            };
            // Every parent on every core; then, in the beam's order (the best parents first,
            // so that a depth cut short compares their children only), as many as the budget
            // allows, as one core would have expanded them.
            let expanded: Vec<_> = self.beam.par_iter().map(expand).collect();
            self.children.clear();
            let mut cut = false;
            for parent in expanded {
                let Some((children, evaluated)) =
                    parent.filter(|_| depth == 0 || work < config.work)
                else {
                    cut = true;
                    break;
                };
                work += evaluated;
                self.children.extend(children);
            }
            if self.children.is_empty() {
                // Every line loses here: the deepest boards that do not decide.
                break;
            }
            // Best first (among equals the first found, as the fair searches do), then the best
            // `beam` distinct boards.
            best_distinct(
                &self.children,
                config.beam.max(1),
                |x, y| y.score.total_cmp(&x.score),
                key,
                Scratch {
                    order: &mut self.order,
                    seen: &mut self.seen,
                },
                &mut self.next,
            );
            std::mem::swap(&mut self.children, &mut self.next);
            std::mem::swap(&mut self.beam, &mut self.children);
            reached = depth + 1;
            if cut {
                break;
            }
        }
        self.work = work;
        self.reached = reached;
        self.ranking.clear();
        if reached == 0 {
            // Every placement of the current column loses.
            return Some(Choice::of(&first, 2.0 * LOSS));
        }
        for node in &self.beam {
            self.ranking.offer(Choice::of(&node.first, node.score));
        }
        self.ranking.as_slice().first().copied()
    }
}

/// Buffers [`best_distinct`] reuses from call to call.
struct Scratch<'a, K> {
    order: &'a mut Vec<u32>,
    seen: &'a mut HashSet<K>,
}

/// Into `kept`, the best `width` of `items` with distinct keys, best first by `better`
/// (`Less`: the first is better), among equals the first in `items`. Only the front of the
/// order is read: the best few widths' worth are picked out and sorted, and the next few only
/// when items met twice used them up; only the kept are hashed.
fn best_distinct<T: Copy, K: Eq + std::hash::Hash>(
    items: &[T],
    width: usize,
    better: impl Fn(&T, &T) -> std::cmp::Ordering,
    key: impl Fn(&T) -> K,
    scratch: Scratch<'_, K>,
    kept: &mut Vec<T>,
) {
    let Scratch { order, seen } = scratch;
    let before = |a: &u32, b: &u32| better(&items[*a as usize], &items[*b as usize]).then(a.cmp(b));
    order.clear();
    order.extend(0..items.len() as u32);
    seen.clear();
    kept.clear();
    let (mut sorted, mut read) = (0, 0);
    while kept.len() < width && read < order.len() {
        if read == sorted {
            let rest = &mut order[sorted..];
            let front = (4 * width).min(rest.len());
            if front < rest.len() {
                rest.select_nth_unstable_by(front - 1, before);
            }
            rest[..front].sort_unstable_by(before);
            sorted += front;
        }
        let item = &items[order[read] as usize];
        read += 1;
        if seen.insert(key(item)) {
            kept.push(*item);
        }
    }
}

impl Strategy for Foresight {
    fn name(&self) -> &'static str {
        self.fair.name()
    }

    fn choose(&mut self, question: &Question) -> Option<Choice> {
        self.used = false;
        match (&question.generator, question.next) {
            (Some(generator), Some(next)) => {
                let known = self.known(question.current, next, generator);
                self.used = true;
                self.search(question, &known)
            }
            _ => self.fair.choose(question),
        }
    }

    /// The fair strategy takes `budget`; the look-ahead keeps its own limits
    /// ([`ForesightConfig`]), its time limit only while `budget` has one.
    fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
        self.fair.set_budget(budget);
    }

    fn budget(&self) -> Budget {
        self.fair.budget()
    }

    fn set_rules(&mut self, rules: RuleSet) {
        self.fair.set_rules(rules);
    }

    /// The fair strategy's, with the look-ahead's ranking when the last decision looked ahead.
    fn seat(&self) -> SeatView<'_> {
        let fair = self.fair.seat();
        SeatView {
            ranking: if self.used {
                self.ranking.as_slice()
            } else {
                fair.ranking
            },
            ..fair
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Counters, GameGenerator, LEVEL0_FALL_SPEED};
    use crate::search::input::InputModel;
    use crate::search::strategy::strategy_by_name;
    use crate::Weights;

    proptest::proptest! {
        /// The beam keeps what sorting every child and keeping the first of each key would.
        #[test]
        fn the_beam_keeps_the_best_distinct_children(
            items in proptest::collection::vec((0u8..20, 0u8..30), 0..400),
            width in 1usize..60,
        ) {
            let (mut order, mut seen, mut kept) = (Vec::new(), HashSet::new(), Vec::new());
            let better = |x: &(u8, u8), y: &(u8, u8)| y.0.cmp(&x.0);
            let scratch = Scratch { order: &mut order, seen: &mut seen };
            best_distinct(&items, width, better, |item| item.1, scratch, &mut kept);
            let mut all: Vec<usize> = (0..items.len()).collect();
            all.sort_by(|&a, &b| better(&items[a], &items[b]).then(a.cmp(&b)));
            let mut keys = HashSet::new();
            let plain: Vec<(u8, u8)> = all
                .into_iter()
                .map(|i| items[i])
                .filter(|item| keys.insert(item.1))
                .take(width)
                .collect();
            proptest::prop_assert_eq!(kept, plain);
        }
    }

    /// The fewest jewels summed over the boards after each of `columns`, the first placed as
    /// `first` (exhaustive: the truth the beam search approximates).
    fn best_total(board: &Board, columns: &[Column], first: Option<(u8, u8)>) -> u32 {
        let Some((&column, rest)) = columns.split_first() else {
            return 0;
        };
        let placements = reachable(board, FallState::spawn(LEVEL0_FALL_SPEED), InputModel::FAST);
        let mut best = u32::MAX;
        for_each_result(
            RuleSet::Real,
            board,
            column,
            &placements,
            |p, after, outcome| {
                let fits = first.is_none_or(|f| {
                    column.arranged(f.1) == column.arranged(p.arrangement) && f.0 == p.x
                });
                if fits && !outcome.game_over {
                    let rest = best_total(after, rest, None);
                    best = best.min(after.jewels().saturating_add(rest));
                }
            },
        );
        best
    }

    /// A board from a real-rules game (seed 3, column 214): the column after next is 3,4,4.
    /// Knowing it, the current column goes where the three columns leave 12 jewels in all;
    /// `smart`, which cannot know it, leaves 21 at best.
    #[test]
    fn the_known_column_after_next_changes_the_move() {
        let board = Board::from_text(".6....\n.6....\n.5....\n.6....\n.1.55.").unwrap();
        let (current, next) = (Column::new(4, 1, 5), Column::new(5, 1, 6));
        let generator = GameGenerator::new(0xED4E);
        let columns = [current, next, generator.clone().next_column()];
        assert_eq!(columns[2], Column::new(3, 4, 4));
        let start = FallState::spawn(LEVEL0_FALL_SPEED);
        let smart = || strategy_by_name("smart", &Weights::PUBLISHED).unwrap();
        let config = ForesightConfig {
            depth: 3,
            ..ForesightConfig::default()
        };
        let mut foresight = Foresight::new(smart(), config);
        let mut choices = Vec::new();
        let fair_question = Question::new(board, current, Some(next), start, InputModel::FAST);
        for generator in [None, Some(ColumnGenerator::Game(generator))] {
            let question = Question {
                generator,
                ..fair_question.clone()
            };
            let c = foresight.choose(&question).unwrap();
            choices.push(best_total(&board, &columns, Some((c.x, c.arrangement))));
        }
        let fair = smart().choose(&fair_question).unwrap();
        let fair = best_total(&board, &columns, Some((fair.x, fair.arrangement)));
        // Without the sequence it plays as the strategy it wraps; with it, the better move.
        assert_eq!(choices, [fair, 12]);
        assert_eq!(fair, 21);
        assert_eq!(best_total(&board, &columns, None), 12);
        assert_eq!(foresight.last_depth(), Some(3));
        assert!(foresight.last_work() > 100);
    }

    /// Cores change how fast foresight decides, never what: one game's decisions, with a
    /// work budget that cuts depths short, are the same on one core and on four to the last
    /// bit of their values.
    #[test]
    fn foresight_decides_alike_on_any_number_of_cores() {
        use crate::rules::Game;
        let play = |threads| {
            super::super::on_threads(threads, || {
                let config = ForesightConfig {
                    depth: 6,
                    beam: 16,
                    work: 600,
                    time: None,
                };
                let smart = strategy_by_name("smart", &Weights::PUBLISHED).unwrap();
                let mut foresight = Foresight::new(smart, config);
                let mut game = Game::from_generator_state(GameGenerator::POWER_ON_STATE);
                let mut decisions = Vec::new();
                for _ in 0..40 {
                    let question = Question::at_spawn(&game, InputModel::FAST, true);
                    let choice = foresight.choose(&question).expect("a placement");
                    let cut_short = foresight.last_depth() < Some(config.depth);
                    decisions.push((
                        choice.x,
                        choice.arrangement,
                        choice.score.to_bits(),
                        cut_short,
                    ));
                    game.play(Some((choice.x, choice.arrangement)));
                }
                decisions
            })
        };
        let alone = play(1);
        assert!(
            alone.iter().any(|d| d.3),
            "the budget never cut a search short"
        );
        assert_eq!(alone, play(4));
    }

    /// The wild column comes into the plan when the counters say it is due: after a lock that
    /// brings the cells removed to 70, the next column searched is the wild column, and the
    /// generator's columns wait.
    #[test]
    fn the_wild_column_is_searched_when_due() {
        let board = Board::from_text("..1...\n..1...").unwrap();
        let mut foresight = Foresight::new(
            strategy_by_name("smart", &Weights::PUBLISHED).unwrap(),
            ForesightConfig {
                depth: 2,
                beam: 200,
                ..ForesightConfig::default()
            },
        );
        let start = FallState::spawn(LEVEL0_FALL_SPEED);
        let question = Question {
            counters: Counters {
                since_wild: 69,
                ..Counters::default()
            },
            generator: Some(ColumnGenerator::Game(GameGenerator::new(7))),
            ..Question::new(
                board,
                Column::new(2, 3, 1),
                Some(Column::new(4, 5, 6)),
                start,
                InputModel::FAST,
            )
        };
        foresight.choose(&question).unwrap();
        // Clearing the 1s brings the wild column: its boards are the only ones with X's gone
        // and none of 4, 5, 6 on them.
        let wild_next = foresight
            .beam
            .iter()
            .filter(|n| n.tally.counters.level == 1)
            .count();
        assert!(wild_next > 0, "no line placed the wild column");
        assert!(foresight
            .beam
            .iter()
            .filter(|n| n.tally.counters.level == 1)
            .all(|n| n.used == 1 && !n.wild));
    }
}
