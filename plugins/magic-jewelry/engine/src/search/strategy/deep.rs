//! `deep`: the smart search, then, for the best few paths it finds, the expected best value
//! after one more column whose colours are not known yet, weighed by the rule set's colour
//! odds (uniform for the reference; red and blue twice as likely in the real game), or the wild
//! column when the path brought it and the goal counts locks.
//!
//! A decision runs on every core (the first placements' paths, then each look-ahead's
//! triples) and gathers the results in the order one core visits them, so that its choice and
//! value are the same on any machine (`deep_decides_alike_on_any_number_of_cores`): the score
//! objective's `horizon` plays 3,000 columns in 6.3 s on two cores against 10.9 s on one.

use super::{column_after, count, for_each_result, Budget, Choice, Seat, SeatView};
use super::{Strategy, LOSS, RANKED};
use crate::eval::{AnyEvaluator, Goal, Tally};
use crate::rules::board::{Board, Column, COLOURS};
use crate::rules::resolve::LockOutcome;
use crate::rules::RuleSet;
use crate::search::input::{FallState, InputModel};
use crate::search::placement::{Placement, ReachMemo, MAX_PLACEMENTS};
use crate::search::question::Question;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// How far `deep` looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeepConfig {
    /// Boards after current + next that get the look-ahead (the best by static score).
    pub candidates: usize,
    /// At most this many of those boards share the same first placement, so the look-ahead
    /// compares different moves rather than variations of one.
    pub per_first: usize,
    /// Colour triples sampled for the column after next by the colour odds (the same ones for
    /// every candidate, so the comparison between candidates is fair); `None`: every triple,
    /// each rotation class once with its probability (a column and its rotations reach the same
    /// boards).
    pub samples: Option<usize>,
    /// Look ahead at no more candidates than fit in this time and work (boards scored in the
    /// whole decision), each judged by the last look-ahead (the best static candidate is always
    /// looked at). Without a time limit results depend only on the inputs.
    pub budget: Budget,
    /// Seed of the sampler, mixed with each decision's board and columns.
    pub seed: u64,
}

impl Default for DeepConfig {
    /// The player's `deep` ([`parameters`](crate::search::parameters)).
    fn default() -> Self {
        use crate::search::parameters as p;
        Self {
            candidates: p::DEEP_CANDIDATES,
            per_first: p::DEEP_PER_FIRST,
            samples: Some(p::DEEP_SAMPLES),
            budget: Budget::PLAYER,
            seed: p::DEEP_SEED,
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Candidate {
    first: Placement,
    board: Board,
    /// What the path's locks did.
    tally: Tally,
    score: f64,
    /// Interim-jewels cost of the boards on the way (after the current and the next column).
    interim: f64,
    /// The next column cannot be placed: nothing to look ahead at.
    terminal: bool,
}

/// Current + next + the expectation over the column after next.
#[derive(Debug, Clone)]
pub struct Deep<G = AnyEvaluator> {
    /// Its ranking: first placements by their best current + next path.
    seat: Seat<G>,
    config: DeepConfig,
    rng: ChaCha8Rng,
    pool: Vec<Candidate>,
    /// The columns after next looked at, with their weights (summing to 1).
    triples: Vec<(Column, f64)>,
    reach_seen: ReachMemo,
}

/// Every colour triple up to rotation, weighted by the chance of the triples it stands for.
fn rotation_classes(rules: RuleSet) -> Vec<(Column, f64)> {
    let mut classes = Vec::new();
    let colours = 1..=COLOURS;
    for a in colours.clone() {
        for b in colours.clone() {
            for c in colours.clone() {
                let column = Column([a, b, c]);
                // The class is listed at its smallest rotation.
                if (1..3).any(|r| column.rotated(r).0 < column.0) {
                    continue;
                }
                // Every rotation of a triple is as likely as the triple itself.
                let size = column.distinct_rotations().count_ones();
                let chance: f64 = column.0.iter().map(|&c| rules.colour_odds(c)).product();
                classes.push((column, f64::from(size) * chance));
            }
        }
    }
    classes
}

/// The sampler's seed for a decision: `seed` mixed with the board and the columns
/// (SplitMix64 steps, the same on every machine).
fn sample_seed(seed: u64, board: &Board, current: Column, next: Option<Column>) -> u64 {
    let mix = |state: u64, value: u64| {
        let mut z = (state ^ value).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let columns = |c: Column| u64::from_le_bytes([c.0[0], c.0[1], c.0[2], 0, 0, 0, 0, 0]);
    let mut state = seed;
    for plane in board.planes {
        state = mix(state, plane as u64);
        state = mix(state, (plane >> 64) as u64);
    }
    state = mix(state, columns(current));
    mix(state, next.map_or(u64::MAX, columns))
}

impl<G: Goal> Deep<G> {
    /// Under the real game's rules.
    pub fn new(goal: G, config: DeepConfig) -> Self {
        Self::for_rules(goal, config, RuleSet::Real)
    }

    pub fn for_rules(goal: G, config: DeepConfig, rules: RuleSet) -> Self {
        Self {
            seat: Seat {
                rules,
                ..Seat::new(goal)
            },
            config,
            rng: ChaCha8Rng::seed_from_u64(config.seed),
            pool: Vec::with_capacity(400),
            triples: match config.samples {
                None => rotation_classes(rules),
                Some(n) => Vec::with_capacity(n),
            },
            reach_seen: ReachMemo::default(),
        }
    }

    pub fn config(&self) -> DeepConfig {
        self.config
    }

    /// One jewel drawn by the colour odds.
    fn sample_colour(&mut self) -> u8 {
        match self.seat.rules {
            // Uniform draws keep the reference's sampler as it was measured.
            RuleSet::Reference => self.rng.random_range(1..=COLOURS),
            RuleSet::Real => {
                let mut u: f64 = self.rng.random();
                for colour in 1..COLOURS {
                    u -= self.seat.rules.colour_odds(colour);
                    if u < 0.0 {
                        return colour;
                    }
                }
                COLOURS
            }
        }
    }

    /// Mean over the sampled triples of the best value after placing it as a path's last
    /// column (the wild column alone when the path brought it), and the boards scored.
    fn expectation(
        &self,
        board: &Board,
        tally: &Tally,
        start: FallState,
        input: InputModel,
    ) -> (f64, u64) {
        let (rules, goal) = (self.seat.rules, &self.seat.goal);
        let wild = [(Column::WILD, 1.0)];
        let columns: &[(Column, f64)] = if tally.wild_due { &wild } else { &self.triples };
        let placements = self.reach_seen.reachable(board, start, input);
        if placements.is_empty() {
            return (LOSS, 0);
        }
        // The triples on every core; their bests summed in the triples' order, so that the
        // value is the same to the last bit however many cores there are.
        let bests: Vec<(f64, u64)> = columns
            .par_iter()
            .map(|&(triple, _)| {
                let (mut best, mut boards) = (LOSS, 0u64);
                for_each_result(rules, board, triple, &placements, |p, after, outcome| {
                    if !outcome.game_over {
                        boards += 1;
                        let tally = count(goal, rules, tally, outcome, p.y, triple);
                        best = best.max(goal.value(rules, after, &tally));
                    }
                });
                (best, boards)
            })
            .collect();
        let mut total = 0.0;
        let mut boards = 0u64;
        for (&(_, weight), (best, scored)) in columns.iter().zip(bests) {
            total += weight * best;
            boards += scored;
        }
        (total, boards)
    }
}

impl<G: Goal> Strategy for Deep<G> {
    fn name(&self) -> &'static str {
        "deep"
    }

    fn set_budget(&mut self, budget: Budget) {
        self.config.budget = budget;
    }

    fn budget(&self) -> Budget {
        self.config.budget
    }

    fn seat(&self) -> SeatView<'_> {
        self.seat.view()
    }

    fn set_rules(&mut self, rules: RuleSet) {
        self.seat.rules = rules;
        if self.config.samples.is_none() {
            self.triples = rotation_classes(rules);
        }
    }

    fn choose(&mut self, question: &Question) -> Option<Choice> {
        let began = Instant::now();
        let (board, current, next) = (&question.board, question.current, question.next);
        let input = question.input;
        let placements = question.placements();
        let rules = self.seat.rules;
        let spawn = question.next_spawn(rules);
        let goal = &self.seat.goal;
        let at_start = Tally::start(question.counters);
        // The boards after a first placement and every placement of the column after it (the
        // first board alone when there is none, or when every placement of it loses); `Err`
        // when the first placement loses the game.
        let paths_from = |p: &Placement, after: &Board, outcome: &LockOutcome| {
            if outcome.game_over {
                return Err(Choice::of(p, 2.0 * LOSS));
            }
            let tally = count(goal, rules, &at_start, outcome, p.y, current);
            let Some(second) = column_after(&tally, next) else {
                return Ok(vec![Candidate {
                    first: *p,
                    board: *after,
                    tally,
                    score: goal.value(rules, after, &tally),
                    interim: 0.0,
                    terminal: false,
                }]);
            };
            let placements = self.reach_seen.reachable(after, spawn, input);
            let first_cost = goal.interim(after);
            let mut paths = Vec::with_capacity(placements.len());
            for_each_result(rules, after, second, &placements, |q, last, outcome| {
                if !outcome.game_over {
                    let tally = count(goal, rules, &tally, outcome, q.y, second);
                    paths.push(Candidate {
                        first: *p,
                        board: *last,
                        tally,
                        score: goal.value(rules, last, &tally) - first_cost,
                        interim: first_cost + goal.interim(last),
                        terminal: false,
                    });
                }
            });
            if paths.is_empty() {
                paths.push(Candidate {
                    first: *p,
                    board: *after,
                    tally,
                    score: LOSS + goal.value(rules, after, &tally),
                    interim: 0.0,
                    terminal: true,
                });
            }
            Ok(paths)
        };
        // The first placements on every core, their paths gathered in the order one core
        // would visit them.
        let mut firsts = Vec::with_capacity(placements.as_slice().len());
        for_each_result(rules, board, current, &placements, |p, after, outcome| {
            firsts.push((*p, *after, *outcome));
        });
        let paths: Vec<_> = firsts
            .par_iter()
            .map(|(p, after, outcome)| paths_from(p, after, outcome))
            .collect();
        let pool = &mut self.pool;
        pool.clear();
        let mut fallback: Option<Choice> = None;
        for path in paths {
            match path {
                Ok(candidates) => pool.extend(candidates),
                Err(lost) => {
                    fallback.get_or_insert(lost);
                }
            }
        }
        if pool.is_empty() {
            return fallback;
        }
        // Every board in the pool was scored once.
        let mut work = pool.len() as u64;
        pool.sort_by(|a, b| b.score.total_cmp(&a.score));
        self.seat.ranking.clear();
        // Sorted best first: a first placement's first board is its best, and once the ranking
        // is full no later board can enter it.
        for candidate in pool.iter() {
            if self.seat.ranking.as_slice().len() == RANKED {
                break;
            }
            self.seat
                .ranking
                .offer(Choice::of(&candidate.first, candidate.score));
        }
        // Keep the best boards, at most `per_first` for any one first placement.
        let per_first = self.config.per_first.max(1);
        let mut taken = [0usize; MAX_PLACEMENTS];
        let mut kept = 0;
        for i in 0..pool.len() {
            if kept == self.config.candidates.max(1) {
                break;
            }
            let first = pool[i].first;
            let slot = first.x as usize * 6 + first.arrangement as usize;
            if taken[slot] < per_first {
                taken[slot] += 1;
                pool.swap(kept, i);
                kept += 1;
            }
        }
        pool.truncate(kept);
        if let Some(samples) = self.config.samples {
            let samples = samples.max(1);
            // Drawn afresh for every decision from what it is about, so that a decision
            // depends on its question alone, never on the ones before it: runs resume from a
            // checkpoint as they would have gone on, and a decision made ahead is the one made
            // on the spot.
            self.rng =
                ChaCha8Rng::seed_from_u64(sample_seed(self.config.seed, board, current, next));
            self.triples.clear();
            for _ in 0..samples {
                let jewels = [(); 3].map(|()| self.sample_colour());
                self.triples.push((Column(jewels), 1.0 / samples as f64));
            }
        }
        let after_next = spawn;
        let mut best: Option<Choice> = None;
        // The time and work the last look-ahead took: the next one is not started unless it
        // would likely end within the budget.
        let mut last = Duration::ZERO;
        let mut last_work = 0u64;
        let budget = self.config.budget;
        for i in 0..self.pool.len() {
            let over_time = budget.time.is_some_and(|b| began.elapsed() + last > b);
            let over_work = budget.work.is_some_and(|b| work + last_work > b);
            if i > 0 && (over_time || over_work) {
                break;
            }
            let candidate = self.pool[i];
            let value = if candidate.terminal || next.is_none() {
                candidate.score
            } else {
                let look = Instant::now();
                let (value, boards) =
                    self.expectation(&candidate.board, &candidate.tally, after_next, input);
                last = look.elapsed();
                last_work = boards;
                work += boards;
                value - candidate.interim
            };
            if best.is_none_or(|b| value > b.score) {
                best = Some(Choice::of(&candidate.first, value));
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::super::best_last;
    use super::*;
    use crate::rules::{GameGenerator, LEVEL0_FALL_SPEED};

    #[test]
    fn rotation_classes_cover_every_triple_once() {
        let classes = rotation_classes(RuleSet::Reference);
        // 6 single-colour columns, and the other 210 triples in classes of 3.
        assert_eq!(classes.len(), 6 + 210 / 3);
        let total: f64 = classes.iter().map(|(_, w)| w).sum();
        assert!((total - 1.0).abs() < 1e-12);
        let mut covered = std::collections::HashSet::new();
        for (column, weight) in &classes {
            let rotations = [*column, column.cycled(), column.cycled().cycled()];
            let distinct: std::collections::HashSet<_> = rotations.iter().map(|r| r.0).collect();
            assert!((*weight * 216.0 - distinct.len() as f64).abs() < 1e-9);
            for r in distinct {
                assert!(covered.insert(r), "{r:?} in two classes");
            }
        }
        assert_eq!(covered.len(), 216);
        let real: f64 = rotation_classes(RuleSet::Real).iter().map(|(_, w)| w).sum();
        assert!((real - 1.0).abs() < 1e-12);
    }

    /// The expectation over every triple equals the mean over all 216, each weighed by its
    /// chance under the rules.
    #[test]
    fn exact_expectation_is_the_weighted_mean_over_all_triples() {
        let board = Board::from_text("1.....\n12.3..\n211323").unwrap();
        let net = crate::ValueNetwork::trained();
        let evaluator = AnyEvaluator::learned(net);
        let config = DeepConfig {
            samples: None,
            budget: Budget::UNLIMITED,
            ..DeepConfig::default()
        };
        let start = FallState::spawn(LEVEL0_FALL_SPEED);
        let mut expectations = Vec::new();
        for rules in RuleSet::ALL {
            let deep = Deep::for_rules(evaluator.clone(), config, rules);
            let tally = Tally::default();
            let (exact, _) = deep.expectation(&board, &tally, start, InputModel::FAST);
            let mut total = 0.0;
            for a in 1..=COLOURS {
                for b in 1..=COLOURS {
                    for c in 1..=COLOURS {
                        let column = Column([a, b, c]);
                        let chance: f64 = column.0.iter().map(|&j| rules.colour_odds(j)).product();
                        let input = InputModel::FAST;
                        let best =
                            best_last(rules, &evaluator, &board, column, &tally, start, input);
                        total += chance * best;
                    }
                }
            }
            assert!(
                (exact - total).abs() < 1e-9,
                "{rules}: {exact} against {total}"
            );
            expectations.push(exact);
        }
        // The 1s on this board are worth more when 1s come twice as often.
        assert_ne!(expectations[0], expectations[1]);
    }

    /// Cores change how fast `deep` decides, never what: the decisions of one game (the score
    /// objective's, whose values weigh every path's points) are the same on one core and on
    /// four, to the last bit of their values.
    #[test]
    fn deep_decides_alike_on_any_number_of_cores() {
        use crate::eval::score::{ScoreEvaluator, ScoreWeights};
        use crate::rules::Game;
        let play = |threads| {
            super::super::on_threads(threads, || {
                let goal = ScoreEvaluator::new(AnyEvaluator::default(), ScoreWeights::default());
                let config = DeepConfig {
                    budget: Budget::work(Some(3_000)),
                    ..DeepConfig::default()
                };
                let mut deep = Deep::new(goal, config);
                let mut game = Game::from_generator_state(GameGenerator::POWER_ON_STATE);
                let mut decisions = Vec::new();
                for _ in 0..30 {
                    let question = Question::at_spawn(&game, InputModel::FAST, false);
                    let choice = deep.choose(&question).expect("a placement");
                    decisions.push((choice.x, choice.arrangement, choice.score.to_bits()));
                    game.play(Some((choice.x, choice.arrangement)));
                }
                decisions
            })
        };
        let alone = play(1);
        assert_eq!(alone.len(), 30);
        assert_eq!(alone, play(4));
    }

    #[test]
    fn real_samples_follow_the_real_odds() {
        let mut deep = Deep::new(AnyEvaluator::default(), DeepConfig::default());
        let mut counts = [0u32; 7];
        for _ in 0..80_000 {
            counts[deep.sample_colour() as usize] += 1;
        }
        // 20,000 expected for red and blue, 10,000 for the others.
        for (colour, &n) in counts.iter().enumerate().skip(1) {
            let expected = 80_000.0 * RuleSet::Real.colour_odds(colour as u8);
            assert!((f64::from(n) - expected).abs() < 600.0, "{counts:?}");
        }
        deep.set_rules(RuleSet::Reference);
        assert_eq!(deep.seat().rules, RuleSet::Reference);
    }
}
