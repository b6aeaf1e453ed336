//! Engine hot paths: lock-and-resolve, placement search, one decision of each strategy, and
//! the simulator's columns per second under each rule set (one core).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use magic_jewelry_engine::{
    reachable, strategy_by_name, strategy_with, AnyEvaluator, Board, Budget, Column, Evaluator,
    FallState, InputModel, Question, RuleSet, Strategy, ValueNetwork, WeightedFeatures, Weights,
};
use magic_jewelry_lab::runner::{play, GameConfig};
use magic_jewelry_lab::stats::Stats;
use std::hint::black_box;

/// A typical mid-game board (18 jewels).
const MID: &str = "\n\
    ..3...\n\
    1.42..\n\
    25163.\n\
    3462515\n\
    615243";

/// A tall, ragged board (38 jewels).
const TALL: &str = "\n\
    2.....\n\
    5.....\n\
    1..4..\n\
    3.162.\n\
    64515.\n\
    231264\n\
    425143\n\
    153625\n\
    362451\n\
    516342";

fn boards() -> [(&'static str, Board); 3] {
    [
        ("empty", Board::empty()),
        ("mid", Board::from_text(MID).expect("bench board")),
        ("tall", Board::from_text(TALL).expect("bench board")),
    ]
}

fn lock_and_resolve(c: &mut Criterion) {
    let chain = Board::from_text("\n..3...\n3355..").expect("bench board");
    let mid = Board::from_text(MID).expect("bench board");
    for rules in RuleSet::ALL {
        c.bench_function(&format!("lock/{rules}/no_match"), |b| {
            b.iter(|| {
                let mut board = black_box(mid);
                rules.lock(&mut board, Column::new(1, 1, 2), 5)
            });
        });
        c.bench_function(&format!("lock/{rules}/two_step_chain"), |b| {
            b.iter(|| {
                let mut board = black_box(chain);
                rules.lock(&mut board, Column::new(1, 2, 5), 4)
            });
        });
    }
}

/// Scoring one board: weighted features (published: the reference's eight; trained: with the
/// completion features) and the learned value.
fn evaluation(c: &mut Criterion) {
    let published = WeightedFeatures::new(&Weights::PUBLISHED);
    let trained = WeightedFeatures::new(&Weights::trained());
    let learned = ValueNetwork::zeroed();
    for (name, board) in boards() {
        c.bench_function(&format!("evaluate/published/{name}"), |b| {
            b.iter(|| published.score(black_box(&board)));
        });
        c.bench_function(&format!("evaluate/trained/{name}"), |b| {
            b.iter(|| trained.score(black_box(&board)));
        });
        c.bench_function(&format!("evaluate/learned/{name}"), |b| {
            b.iter(|| Evaluator::score(&learned, black_box(&board)));
        });
    }
}

fn placements(c: &mut Criterion) {
    for (name, board) in boards() {
        for speed in [1u8, 63] {
            c.bench_function(&format!("placements/{name}/speed{speed}"), |b| {
                b.iter(|| reachable(black_box(&board), FallState::spawn(speed), InputModel::FAST));
            });
        }
    }
}

/// Times `strategy` deciding on each fixed board, as `decide/{label}/{board}`.
fn bench_decisions(c: &mut Criterion, label: &str, strategy: &mut dyn Strategy) {
    for (name, board) in boards() {
        let question = Question::new(
            board,
            Column::new(1, 2, 3),
            Some(Column::new(4, 5, 6)),
            FallState::default(),
            InputModel::FAST,
        );
        c.bench_function(&format!("decide/{label}/{name}"), |b| {
            b.iter(|| strategy.decide(black_box(&question)));
        });
    }
}

fn decisions(c: &mut Criterion) {
    // The trained weights switch on the completion features, which cost more per board; the
    // learned value (the player's default) costs more again.
    let evaluations = [
        ("published", AnyEvaluator::from(&Weights::PUBLISHED)),
        ("trained", AnyEvaluator::from(&Weights::trained())),
        ("learned", AnyEvaluator::default()),
    ];
    for ai in ["simple", "smart", "deep"] {
        for (evaluation_name, evaluation) in &evaluations {
            let mut strategy = strategy_with(ai, evaluation.clone()).expect("known strategy");
            strategy.set_budget(Budget::UNLIMITED);
            bench_decisions(c, &format!("{ai}/{evaluation_name}"), strategy.as_mut());
        }
    }
    // `deep` as the player runs it, within its time budget.
    let mut deep = strategy_with("deep", AnyEvaluator::default()).expect("known strategy");
    bench_decisions(c, "deep_budgeted/learned", deep.as_mut());
}

/// Columns per second of the simulator (one thread): `smart` with the published weights (the
/// reference AI) and with each rule set's own learned value, under each rule set; then the
/// player (`deep` with the real rules' value, no time budget) in the real game.
fn simulator(c: &mut Criterion) {
    const COLUMNS: u64 = 1000;
    let mut group = c.benchmark_group("sim");
    group.sample_size(10);
    group.throughput(Throughput::Elements(COLUMNS));
    for rules in RuleSet::ALL {
        let config = GameConfig {
            rules,
            ..GameConfig::default()
        };
        let evaluations = [
            ("published", AnyEvaluator::from(&Weights::PUBLISHED)),
            ("learned", AnyEvaluator::for_rules(rules)),
        ];
        for (evaluation_name, evaluation) in evaluations {
            let mut smart = strategy_with("smart", evaluation).expect("known strategy");
            group.bench_function(format!("smart_{evaluation_name}/{rules}"), |b| {
                b.iter(|| {
                    let mut stats = Stats::default();
                    play(smart.as_mut(), 7, COLUMNS, config, &mut stats, |_| {});
                    stats.jewel_sum
                });
            });
        }
    }
    let mut deep = strategy_by_name("deep", &Weights::trained()).expect("known strategy");
    deep.set_budget(Budget::UNLIMITED);
    let mut player = strategy_with("deep", AnyEvaluator::default()).expect("known strategy");
    player.set_budget(Budget::UNLIMITED);
    group.throughput(Throughput::Elements(200));
    for (name, strategy) in [("deep_trained", &mut deep), ("player", &mut player)] {
        group.bench_function(format!("{name}/real"), |b| {
            b.iter(|| {
                let mut stats = Stats::default();
                play(
                    strategy.as_mut(),
                    7,
                    200,
                    GameConfig::default(),
                    &mut stats,
                    |_| {},
                );
                stats.jewel_sum
            });
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    lock_and_resolve,
    evaluation,
    placements,
    decisions,
    simulator
);
criterion_main!(benches);
