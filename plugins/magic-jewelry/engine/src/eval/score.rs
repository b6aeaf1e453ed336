//! The score objective: what a board reached by a search path is worth when the aim is points
//! under the real game's scoring, while staying safe.
//!
//! A path's leaf is worth its survival value (the board evaluator's score, in jewels) plus the
//! points its locks scored, converted to jewels, plus what the board promises:
//! - the chain it holds ready ([`ready_chain`]): the richest resolution one more jewel sets off,
//!   counted at [`ScoreWeights::ready`] times its points. A step s scores 2^(s-1) times its
//!   cells' value, so a board prepared for a 3- or 4-step chain outranks one that cashed three
//!   cells, and the search builds chains rather than firing every match it sees;
//! - the combo counter (every later match scores `100 + 10 · combo` a cell shape);
//! - the wild column to come, which removes every cell of the colour it lands on in one step,
//!   so that a hoard of one colour is worth a quadratic number of points the closer the wild
//!   column is.
//!
//! Stacks taller than [`ScoreWeights::safe_height`] cost jewels and earn no credit: points are
//! bought with jewels on the board, never with the game.
//!
//! # Figures
//!
//! Real rules, the player's evaluation, 100,000 columns of seed 7 (`jewelbot sim --rules real
//! --objective score --columns 100000 --seed 7 --work 0 --ai S`), no game over for any strategy:
//! the player (`deep`) 4,286.9 points a column (356.8 of them by the wild columns), 22.7
//! jewels on the board on average (max 61), 1.56 steps a clearing lock, 3.1 ms a decision
//! (median, no work limit); `smart` 3,428.2 (374.8 by the wild columns), 22.1 jewels (max 61),
//! 1.51 steps, the longest chain 12 steps, 0.49 ms; `simple` 1,230.6, 21.2 jewels (max 65),
//! 1.31 steps. The survive objective's player scores 687.7 with 8.3 jewels and 1.23 steps.
//! Without the ready chain (hoard 3, the objective before it) `smart` gave 1,396.9 a column
//! and 1.28 steps a clearing lock. Paired on seeds 1-10 (10,000 columns each), the ready chain
//! adds 2,108.0 points a column to `smart` (95% interval 1,936.9 to 2,279.1), no game over on
//! either side.
//!
//! With foresight (`sim --foresight`, the same columns, the beam ranking its boards by this
//! value with the points on the way, whatever strategy it wraps): 19,184.4 points a column
//! (4.5 times the player's fair play), no game
//! over, 27.4 jewels on average (max 68), 2.06 steps a clearing lock, the longest chain 14
//! steps; 16.4 ms a decision (median) at the default work of 30,000 boards.
//!
//! The weights were chosen on seeds 11-13 (5,000 columns). The ready chain at 0.3, 0.6, 0.8
//! and 1.0 of its points gave 1,770, 2,407, 2,891 and 3,254 a column on seed 11; with it, the
//! hoard's credit at 1.5 rather than 3 keeps the board lower (about 21 jewels rather than 27)
//! and scores as much or more (3,453-4,176 a column at 1.2); without any hoard credit the
//! board stays near 10 jewels and the points fall to about 1,150.

use super::ready::ready_chain;
use super::Evaluator;
use crate::memo::{mix_in, Memo, MemoKey};
use crate::rules::board::{Board, COLOURS, VISIBLE_ROWS, WIDTH};
use crate::rules::scoring::step_points;
use crate::rules::{Column, Counters, RuleSet, WILD_EVERY};
use std::fmt;
use std::sync::Arc;

/// What a strategy plays for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Objective {
    /// Fewest jewels on the board (the reference's aim).
    #[default]
    Survive,
    /// Points under the real game's scoring, staying safe.
    Score,
}

impl Objective {
    pub const NAMES: [&'static str; 2] = ["survive", "score"];

    pub const fn name(self) -> &'static str {
        match self {
            Self::Survive => "survive",
            Self::Score => "score",
        }
    }
}

impl fmt::Display for Objective {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An objective name that is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown objective {0:?}: expected survive or score")]
pub struct UnknownObjective(pub String);

impl std::str::FromStr for Objective {
    type Err = UnknownObjective;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "survive" => Ok(Self::Survive),
            "score" => Ok(Self::Score),
            other => Err(UnknownObjective(other.to_owned())),
        }
    }
}

/// How the score objective weighs points against safety.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScoreWeights {
    /// Points worth one jewel of the survival value.
    pub points_per_jewel: f64,
    /// Jewels a step of the combo counter is worth.
    pub combo: f64,
    /// Share of the hoard's wild-column points counted before the wild column is due.
    pub hoard: f64,
    /// Power of the wild column's closeness (cells counted towards it over 70) that scales the
    /// hoard: high, and a hoard only counts near the wild column.
    pub closeness_power: f64,
    /// Stacks taller than this cost [`ScoreWeights::danger`] jewels a cell squared, and a
    /// board with one gets no hoard or combo credit.
    pub safe_height: u8,
    pub danger: f64,
    /// Share of the points of the chain the board holds ready ([`ready_chain`]) counted now.
    pub ready: f64,
}

impl Default for ScoreWeights {
    /// The tuned weights ([`parameters`](crate::eval::parameters)).
    fn default() -> Self {
        use crate::eval::parameters as p;
        Self {
            points_per_jewel: p::SCORE_POINTS_PER_JEWEL,
            combo: p::SCORE_COMBO,
            hoard: p::SCORE_HOARD,
            closeness_power: p::SCORE_CLOSENESS_POWER,
            safe_height: p::SCORE_SAFE_HEIGHT,
            danger: p::SCORE_DANGER,
            ready: p::SCORE_READY,
        }
    }
}

/// A board evaluator for the survival value, with the score objective's weights.
#[derive(Debug, Clone)]
pub struct ScoreEvaluator<E> {
    survival: E,
    weights: ScoreWeights,
    /// The terms of the boards valued lately, shared by the clones (same evaluator, same
    /// weights).
    seen: Arc<Memo<TermsKey, BoardTerms>>,
}

/// Boards whose terms are kept: about ten decisions of a foresight search.
const TERMS_KEPT_LOG2: u32 = 16;

/// What a board's terms depend on: the board's three planes, whose 96 cells take the low 64
/// bits of a word and half of another each, then the rules and the combo counter. Forty bytes
/// with the terms' 24 fill one cache line, as a memo's slot.
#[derive(Clone, Copy, PartialEq, Eq)]
struct TermsKey([u64; 5]);

impl TermsKey {
    fn new(board: &Board, rules: RuleSet, combo: u8) -> Self {
        let [p0, p1, p2] = board.planes;
        // A plane holds 6 columns of 16 bits: nothing above bit 96.
        let high = |plane: u128| (plane >> 64) as u64;
        debug_assert!([p0, p1, p2].iter().all(|&plane| high(plane) >> 32 == 0));
        let tail = u64::from(combo) | u64::from(rules == RuleSet::Real) << 8;
        Self([
            p0 as u64,
            p1 as u64,
            p2 as u64,
            high(p0) | high(p1) << 32,
            high(p2) | tail << 32,
        ])
    }
}

impl MemoKey for TermsKey {
    /// No board has cells above bit 96.
    const UNUSED: Self = Self([u64::MAX; 5]);

    #[inline]
    fn mix(&self) -> u64 {
        self.0.iter().fold(0, |hash, &word| mix_in(hash, word))
    }
}

/// What a leaf's value takes from its board alone (with the rules and the combo counter).
#[derive(Debug, Clone, Copy, Default)]
struct BoardTerms {
    survival: f64,
    /// Cells above the safe height, squared and summed.
    over: u32,
    /// Points of the chain the board holds ready (0 when not counted: an unsafe board, or no
    /// weight on it).
    ready: u64,
    /// Cells of the most common colour.
    most: u32,
}

/// Cells of each colour on the board (index 0 unused).
fn colour_counts(board: &Board) -> [u32; COLOURS as usize + 1] {
    let mut counts = [0; COLOURS as usize + 1];
    for (colour, count) in counts.iter_mut().enumerate().skip(1) {
        *count = board.colour_mask(colour as u8).count_ones();
    }
    counts
}

/// Points of the best place for the wild column on `board` with the counters at `counters`
/// (every column tried, reachable or not).
pub fn best_wild(rules: RuleSet, board: &Board, counters: &Counters) -> u64 {
    let mut best = 0;
    for x in 0..WIDTH {
        let mut after = *board;
        let mut c = *counters;
        if let Ok(r) = c.lock(rules, &mut after, Column::WILD, x) {
            if !r.outcome.game_over {
                best = best.max(r.points);
            }
        }
    }
    best
}

impl<E: Evaluator> ScoreEvaluator<E> {
    pub fn new(survival: E, weights: ScoreWeights) -> Self {
        Self {
            survival,
            weights,
            seen: Arc::new(Memo::new(TERMS_KEPT_LOG2)),
        }
    }

    /// What values a board alone, for safety.
    pub fn survival(&self) -> &E {
        &self.survival
    }

    /// The terms of `board`'s value that depend on it alone, remembered for boards met
    /// lately.
    fn board_terms(&self, rules: RuleSet, board: &Board, combo: u8) -> BoardTerms {
        self.seen.get_or(&TermsKey::new(board, rules, combo), || {
            let w = &self.weights;
            let over = board
                .heights()
                .iter()
                .map(|&h| u32::from(h.saturating_sub(w.safe_height)).pow(2))
                .sum();
            let ready = if over == 0 && w.ready > 0.0 {
                ready_chain(rules, board, combo).points
            } else {
                0
            };
            BoardTerms {
                survival: self.survival.score(board),
                over,
                ready,
                most: colour_counts(board).into_iter().max().unwrap_or(0),
            }
        })
    }

    /// The value of a search path's last board: `points` scored by the path's locks, the
    /// counters after them, and whether the next column is the wild column.
    pub fn leaf(
        &self,
        rules: RuleSet,
        board: &Board,
        counters: &Counters,
        points: u64,
        wild_due: bool,
    ) -> f64 {
        let w = &self.weights;
        let terms = self.board_terms(rules, board, counters.combo);
        let mut value = terms.survival + points as f64 / w.points_per_jewel;
        if terms.over > 0 {
            return value - w.danger * f64::from(terms.over);
        }
        value += w.combo * f64::from(counters.combo);
        if w.ready > 0.0 {
            value += w.ready * terms.ready as f64 / w.points_per_jewel;
        }
        value += if wild_due {
            best_wild(rules, board, counters) as f64 / w.points_per_jewel
        } else {
            self.hoard(terms.most, counters)
        };
        value
    }

    /// The wild column's points on the largest colour (`most` cells), scaled by how close it
    /// is, in jewels.
    fn hoard(&self, most: u32, counters: &Counters) -> f64 {
        let w = &self.weights;
        if w.hoard == 0.0 {
            return 0.0;
        }
        if most == 0 {
            return 0.0;
        }
        let closeness = (f64::from(counters.since_wild) / f64::from(WILD_EVERY))
            .clamp(0.0, 1.0)
            .powf(w.closeness_power);
        let points = step_points(1, most + 3, counters.combo, VISIBLE_ROWS as i8 - 1);
        w.hoard * closeness * points as f64 / w.points_per_jewel
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memo::slot_bytes;

    /// A board's terms and their key fill one cache line.
    #[test]
    fn a_board_and_its_terms_fill_one_cache_line() {
        assert_eq!(slot_bytes::<TermsKey, BoardTerms>(), 64);
    }

    /// The key keeps every cell of every plane (the top of column 5 is in the planes' high
    /// words), the rules and the combo counter apart.
    #[test]
    fn keys_tell_boards_rules_and_combos_apart() {
        let key = |text: &str, rules, combo| {
            TermsKey::new(&Board::from_text(text).expect("board"), rules, combo)
        };
        let tall = "1.....\n".repeat(12);
        let boards = [
            String::new(),
            ".....1".to_string(),
            ".....2".to_string(),
            ".....4".to_string(),
            tall.replace("1.....", ".....1"),
            tall.replace("1.....", ".....3"),
            tall,
        ];
        let mut keys = Vec::new();
        for board in &boards {
            for rules in RuleSet::ALL {
                for combo in [0, 1, 9] {
                    keys.push(key(board, rules, combo));
                }
            }
        }
        for (i, a) in keys.iter().enumerate() {
            assert!(keys[i + 1..].iter().all(|b| a != b), "key {i} twice");
            assert!(*a != TermsKey::UNUSED);
        }
    }
}
