//! Every strategy plays every objective: the score objective's choices on fixed boards, and the
//! path's counting that its values rest on.

use super::*;
use crate::eval::ScoreEvaluator;
use crate::eval::ScoreWeights;
use crate::rules::{Counters, LEVEL0_FALL_SPEED};

/// Where each objective has strategy `name` put `current` on `text` with the counters at
/// `counters`, and the points that lock scores.
fn choices(
    name: &str,
    text: &str,
    current: Column,
    next: Column,
    counters: Counters,
) -> [(u8, u8, u64); 2] {
    let board = Board::from_text(text).unwrap();
    [Objective::Survive, Objective::Score].map(|objective| {
        let mut s = strategy_for(name, AnyEvaluator::default(), objective).unwrap();
        s.set_budget(Budget::UNLIMITED);
        let start = FallState::spawn(RuleSet::Real.fall_speed(counters.level));
        let question = Question {
            counters,
            ..Question::new(board, current, Some(next), start, InputModel::FAST)
        };
        let c = s.choose(&question).unwrap();
        let mut after = board;
        let mut counted = counters;
        let r = counted
            .lock(
                RuleSet::Real,
                &mut after,
                current.arranged(c.arrangement),
                usize::from(c.x),
            )
            .unwrap();
        (c.x, c.arrangement, r.points)
    })
}

/// The wild column on the four 4s scores 17 · 190 under the score objective, whatever the
/// strategy; survival, with a 4 coming next, keeps the 4s to match and puts it on the lone 6,
/// for 5 · 190.
#[test]
fn the_wild_column_lands_on_the_largest_colour() {
    let counters = Counters {
        combo: 9,
        since_wild: 2,
        level: 9,
        ..Counters::default()
    };
    let text = "4..4..\n4641..";
    for name in STRATEGY_NAMES {
        let [survive, score] = choices(name, text, Column::WILD, Column::new(1, 4, 2), counters);
        // `simple` does not see the 4 coming.
        let kept = if name == "simple" { 3232 } else { 951 };
        assert_eq!(survive.2, kept, "{name}: {survive:?}");
        assert_eq!(score.2, 3232, "{name}: {score:?}");
    }
}

/// 5, 5, 1 (`smart`, the current and next columns): survival drops it plainly on column 3 and matches three 5s; the score
/// objective rotates a 5 to the bottom on column 1 and matches five (1,522 points), which
/// leaves the next column (3, 2, 1) the 1s to clear. On column 3 the rotation would score
/// 2,282 at once, but the two columns together score less.
#[test]
fn a_bigger_match_over_a_plain_match() {
    let counters = Counters {
        combo: 9,
        since_wild: 5,
        level: 112,
        ..Counters::default()
    };
    let text = "..1...\n..5...\n.535..\n.6551.";
    let [survive, score] = choices(
        "smart",
        text,
        Column::new(5, 5, 1),
        Column::new(3, 2, 1),
        counters,
    );
    assert_eq!(survive, (3, 0, 572));
    assert_eq!(score, (1, 1, 1522));
}

/// Every lock on the path counts with the combo counter it really has, and a lock that
/// brings the wild column is followed by it.
#[test]
fn the_path_counts_the_combo_and_the_wild_column() {
    let goal = ScoreEvaluator::new(AnyEvaluator::default(), ScoreWeights::default());
    let board = Board::from_text("..1...\n..1...").unwrap();
    let start = FallState::spawn(LEVEL0_FALL_SPEED);
    let value = |since_wild| {
        let tally = Tally::start(Counters {
            since_wild,
            ..Counters::default()
        });
        let column = Column::new(2, 3, 1);
        best_last(
            RuleSet::Real,
            &goal,
            &board,
            column,
            &tally,
            start,
            InputModel::FAST,
        )
    };
    // 69 cells counted: the match brings the wild column, and the leaf counts where it
    // would land on top of that.
    let plain = value(10);
    let wild = value(69);
    assert!(wild > plain, "{wild} {plain}");
    // The survive objective's goal sees the board alone.
    let survive = AnyEvaluator::default();
    let tally = |since_wild| {
        Tally::start(Counters {
            since_wild,
            ..Counters::default()
        })
    };
    let column = Column::new(2, 3, 1);
    let alone = |t: &Tally| {
        best_last(
            RuleSet::Real,
            &survive,
            &board,
            column,
            t,
            start,
            InputModel::FAST,
        )
    };
    assert_eq!(alone(&tally(10)), alone(&tally(69)));
}
