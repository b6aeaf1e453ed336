//! How long a player lives under the reference rules, where no game repeats: a rare-event
//! estimate with a 95% interval.
//!
//! Under uniform, independent colours the board's future is a Markov chain whose state is the
//! board and the two known columns. A game is lost only with a full column (a jewel left in a
//! hidden row, or row 0 of the spawn column taken), so the tallest stack measures how near the
//! end is. Call the boards whose tallest stack is at most `safe` rows the safe set. A life is a
//! run of excursions: the board leaves the safe set, then either comes back or the game ends.
//! By renewal, the mean life is the mean columns between two departures (`C`, counted by
//! playing) over the chance that a departure ends the game (`p`): `C / p`. The chance is far
//! too small to count directly for a good player, so it is split into levels of height
//! `safe < L1 < L2 < ... < game over` and estimated as a product of conditional chances, each
//! of them large: from the boards that reached level k (each continued with fresh columns,
//! [`Game::branch`]), the share that reaches level k + 1 before falling back into the safe set
//! (fixed-effort multilevel splitting). Independent replications (each its own departures and
//! its own splitting) give the interval.

use crate::column::{play_column, Step};
use magic_jewelry_engine::rules::board::VISIBLE_ROWS;
use magic_jewelry_engine::{reachable, Game, InputModel, Question, RuleSet, Strategy};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// The rows of the board: a full column.
const FULL: u32 = VISIBLE_ROWS as u32;

/// How near the game over a board is: its tallest stack, in rows.
fn height(game: &Game) -> u32 {
    game.board()
        .heights()
        .iter()
        .copied()
        .max()
        .map_or(0, u32::from)
}

/// A player whose placements may depend on a random draw: its draws come from the game's own
/// stream of randomness, so that a seed repeats exactly on any number of threads.
pub trait Player {
    fn choose(&mut self, question: &Question, rng: &mut ChaCha8Rng) -> Option<(u8, u8)>;
}

/// A strategy, with a share of its placements replaced by a placement drawn at random from
/// those the column can reach: a weakened player, whose life can be counted directly.
pub struct Mixed {
    pub strategy: Box<dyn Strategy>,
    /// The share of random placements, 0 to 1.
    pub random_share: f64,
}

impl Player for Mixed {
    fn choose(&mut self, question: &Question, rng: &mut ChaCha8Rng) -> Option<(u8, u8)> {
        if self.random_share > 0.0 && rng.random::<f64>() < self.random_share {
            let placements = reachable(&question.board, question.start, question.input);
            let list = placements.as_slice();
            if !list.is_empty() {
                let pick = &list[rng.random_range(0..list.len())];
                return Some((pick.x, pick.arrangement));
            }
        }
        self.strategy
            .choose(question)
            .map(|choice| (choice.x, choice.arrangement))
    }
}

/// How an estimate is made.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Config {
    /// Columns each replication plays to count departures from the safe set (and, in the
    /// first, to choose it).
    pub direct_columns: u64,
    /// Trials at each level of each replication (at least).
    pub trials: usize,
    /// Go on past `trials` at a level until this many trials have reached the next one (or
    /// `most_trials` were made): the rarest levels get the effort they need. 0: fixed effort.
    pub reach: usize,
    /// The most trials a level may take with `reach`.
    pub most_trials: usize,
    pub replications: usize,
    /// Rows between two levels.
    pub level_step: u32,
    /// The safe set: boards whose tallest stack is at most this quantile of those seen while
    /// playing.
    pub safe_quantile: f64,
    /// The most columns one trial may play before it counts as a return (it never should).
    pub trial_limit: u64,
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            direct_columns: 20_000,
            trials: 1_000,
            reach: 0,
            most_trials: 100_000,
            replications: 10,
            level_step: 1,
            safe_quantile: 0.9,
            trial_limit: 100_000,
            seed: 1,
        }
    }
}

/// The estimate of the mean columns to game over.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Estimate {
    pub mean_life: f64,
    /// The 95% interval (infinite when no trial reached a game over).
    pub low: f64,
    pub high: f64,
    /// The safe set's bound and the levels above it: tallest stacks, in rows.
    pub safe_height: u32,
    pub levels: Vec<u32>,
    /// The mean over the replications of the chance to reach each level from the one below
    /// (the last: the game over).
    pub level_chances: Vec<f64>,
    /// The chance that a departure from the safe set ends the game.
    pub chance: f64,
    /// When no trial reached the game over but some reached the last level: a 95% lower bound
    /// on the mean life, taking the last level's chance at the rule of three's 3 / n (n: the
    /// trials made from it) and the other levels' at their estimates.
    pub life_at_least: Option<f64>,
    /// Columns between two departures.
    pub columns_per_departure: f64,
    /// Game overs met while counting departures (the direct estimate's share).
    pub direct_game_overs: u64,
    /// Every column played, trials included.
    pub columns_played: u64,
}

/// A board that reached a level: a game to go on from, or one already lost (which reaches
/// every level above).
#[derive(Clone)]
enum Entry {
    Board(Box<Game>),
    Lost,
}

/// How a trial ended.
enum Trial {
    Reached(Entry),
    Returned,
}

/// The simulator's default: a press every frame.
fn input() -> InputModel {
    InputModel::FAST
}

/// Plays one column with `player` drawing from `rng`.
fn play(player: &mut dyn Player, game: &mut Game, rng: &mut ChaCha8Rng) -> Step {
    play_column(&mut |q: &Question| player.choose(q, rng), game, input())
}

/// What playing straight on from an empty board gave one replication.
struct Counted {
    columns: u64,
    departures: u64,
    game_overs: u64,
    /// Every board that just left the safe set (kept by reservoir sampling).
    entrances: Vec<Entry>,
    /// The tallest stack after each lock (the pilot's, to choose the safe set).
    heights: Vec<u32>,
}

/// The most departure boards one replication keeps.
const KEPT_ENTRANCES: usize = 4_096;

fn departures(
    player: &mut dyn Player,
    seed: u64,
    columns: u64,
    safe: Option<u32>,
    keep_heights: bool,
) -> Counted {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(RuleSet::Reference, rng.random());
    let mut out = Counted {
        columns,
        departures: 0,
        game_overs: 0,
        entrances: Vec::new(),
        heights: Vec::new(),
    };
    let mut before = 0;
    for _ in 0..columns {
        let step = play(player, &mut game, &mut rng);
        // A lock may lose from a safe board (three jewels over a stack two rows short): that
        // departure is its own excursion, lost at once.
        let now = if step.lost { FULL + 1 } else { height(&game) };
        if keep_heights && !step.lost {
            out.heights.push(now);
        }
        if let Some(safe) = safe {
            if before <= safe && now > safe {
                out.departures += 1;
                let entry = if step.lost {
                    Entry::Lost
                } else {
                    Entry::Board(Box::new(game.clone()))
                };
                if out.entrances.len() < KEPT_ENTRANCES {
                    out.entrances.push(entry);
                } else {
                    let slot = rng.random_range(0..out.departures);
                    if let Some(kept) = out.entrances.get_mut(slot as usize) {
                        *kept = entry;
                    }
                }
            }
        }
        if step.lost {
            out.game_overs += 1;
            before = 0;
        } else {
            before = now;
        }
    }
    out
}

/// Goes on from `entry` with fresh columns until the tallest stack reaches `target` rows (or
/// the game is lost, when `target` is `None` or on the way) or falls back to `safe` or below.
fn trial(
    player: &mut dyn Player,
    entry: &Entry,
    target: Option<u32>,
    safe: u32,
    limit: u64,
    rng: &mut ChaCha8Rng,
    played: &mut u64,
) -> Trial {
    let Entry::Board(game) = entry else {
        return Trial::Reached(Entry::Lost);
    };
    let Some(mut game) = game.branch(rng.random()) else {
        return Trial::Returned;
    };
    for _ in 0..limit {
        let step = play(player, &mut game, rng);
        *played += 1;
        if step.lost {
            return Trial::Reached(Entry::Lost);
        }
        let now = height(&game);
        if target.is_some_and(|t| now >= t) {
            return Trial::Reached(Entry::Board(Box::new(game)));
        }
        if now <= safe {
            return Trial::Returned;
        }
    }
    Trial::Returned
}

/// One replication: its departures, then the splitting from its departure boards.
struct Replication {
    columns: u64,
    departures: u64,
    game_overs: u64,
    level_chances: Vec<f64>,
    /// Trials made at each level.
    level_trials: Vec<usize>,
    chance: f64,
    played: u64,
}

fn replicate(
    make: &(dyn Fn() -> Box<dyn Player> + Sync),
    config: &Config,
    safe: u32,
    levels: &[u32],
    seed: u64,
) -> Replication {
    let mut player = make();
    let counted = departures(
        player.as_mut(),
        seed,
        config.direct_columns,
        Some(safe),
        false,
    );
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5EED_0F5B_1177);
    let mut pool = counted.entrances;
    let mut level_chances = Vec::new();
    let mut level_trials = Vec::new();
    let mut chance = 1.0;
    let mut played = counted.columns;
    // The levels, then the game over.
    let targets = levels.iter().map(|&l| Some(l)).chain([None]);
    for target in targets {
        if pool.is_empty() {
            chance = 0.0;
            level_chances.push(0.0);
            break;
        }
        let mut reached = Vec::new();
        let mut tried = 0;
        let most = config.most_trials.max(config.trials);
        while tried < config.trials || (reached.len() < config.reach && tried < most) {
            let entry = &pool[rng.random_range(0..pool.len())];
            let outcome = trial(
                player.as_mut(),
                entry,
                target,
                safe,
                config.trial_limit,
                &mut rng,
                &mut played,
            );
            tried += 1;
            if let Trial::Reached(entry) = outcome {
                reached.push(entry);
            }
        }
        let share = level_share(reached.len(), tried, config);
        level_chances.push(share);
        level_trials.push(tried);
        chance *= share;
        pool = reached;
    }
    Replication {
        columns: counted.columns,
        departures: counted.departures,
        game_overs: counted.game_overs,
        level_chances,
        level_trials,
        chance,
        played,
    }
}

/// A level's estimated chance from `reached` of `tried` trials. Trials that went on past
/// `config.trials` stopped at the `reach`-th success: inverse sampling, whose unbiased
/// estimate is (K - 1) / (n - 1) where K / n would overstate the chance.
fn level_share(reached: usize, tried: usize, config: &Config) -> f64 {
    let stopped_on_success = tried > config.trials && reached >= config.reach && config.reach > 1;
    if stopped_on_success {
        (reached - 1) as f64 / (tried - 1) as f64
    } else {
        reached as f64 / tried.max(1) as f64
    }
}

/// The safe set's bound and the levels above it, from a pilot's tallest stacks: at most two
/// rows under a full column, so that every game over leaves the safe set first.
fn levels_from(heights: &mut [u32], config: &Config) -> (u32, Vec<u32>) {
    heights.sort_unstable();
    let at = ((heights.len() as f64 - 1.0) * config.safe_quantile).round() as usize;
    let safe = heights.get(at).copied().unwrap_or(0).clamp(1, FULL - 2);
    let step = config.level_step.max(1);
    let levels = (safe + step..FULL).step_by(step as usize).collect();
    (safe, levels)
}

/// Student's t at 97.5% for `df` degrees of freedom (1 to 30; the normal's beyond).
fn t975(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    T.get(df.wrapping_sub(1)).copied().unwrap_or(1.96)
}

/// Mean and standard error of the mean.
fn mean_and_error(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    if values.len() < 2 {
        return (mean, f64::INFINITY);
    }
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

/// Estimates the mean columns to game over of the player `make` builds, from an empty board
/// under the reference rules. Each replication runs on a worker thread; the result depends on
/// `config` alone.
pub fn estimate(make: &(dyn Fn() -> Box<dyn Player> + Sync), config: &Config) -> Estimate {
    let mut pilot = departures(
        make().as_mut(),
        config.seed,
        config.direct_columns,
        None,
        true,
    );
    let (safe, levels) = levels_from(&mut pilot.heights, config);
    let replications: Vec<Replication> = (0..config.replications as u64)
        .into_par_iter()
        .map(|r| {
            let seed = config.seed.wrapping_mul(1_000_003).wrapping_add(r + 1);
            replicate(make, config, safe, &levels, seed)
        })
        .collect();
    let chances: Vec<f64> = replications.iter().map(|r| r.chance).collect();
    let (chance, chance_error) = mean_and_error(&chances);
    let spacings: Vec<f64> = replications
        .iter()
        .filter(|r| r.departures > 0)
        .map(|r| r.columns as f64 / r.departures as f64)
        .collect();
    let columns: u64 = replications.iter().map(|r| r.columns).sum();
    let departures: u64 = replications.iter().map(|r| r.departures).sum();
    let per_departure = columns as f64 / departures.max(1) as f64;
    let (_, spacing_error) = mean_and_error(&spacings);
    let mean_life = per_departure / chance;
    let relative =
        ((chance_error / chance).powi(2) + (spacing_error / per_departure).powi(2)).sqrt();
    let t = t975(config.replications.saturating_sub(1));
    let (low, high) = if chance > 0.0 {
        (
            mean_life * (-t * relative).exp(),
            mean_life * (t * relative).exp(),
        )
    } else {
        (f64::INFINITY, f64::INFINITY)
    };
    let level_count = levels.len() + 1;
    let life_at_least = (chance == 0.0)
        .then(|| life_bound(&replications, level_count, per_departure))
        .flatten();
    let level_chances = (0..level_count)
        .map(|k| {
            let shares: Vec<f64> = replications
                .iter()
                .map(|r| r.level_chances.get(k).copied().unwrap_or(0.0))
                .collect();
            mean_and_error(&shares).0
        })
        .collect();
    Estimate {
        mean_life,
        low,
        high,
        safe_height: safe,
        levels,
        level_chances,
        chance,
        life_at_least,
        columns_per_departure: per_departure,
        direct_game_overs: replications.iter().map(|r| r.game_overs).sum(),
        columns_played: config.direct_columns + replications.iter().map(|r| r.played).sum::<u64>(),
    }
}

/// [`Estimate::life_at_least`]: no trial passed the last level, so its chance is below 3 / n at
/// 95% (n: its trials over the replications that got there); the chance of getting there is
/// the replications' mean, those that stopped short counting as 0.
fn life_bound(replications: &[Replication], level_count: usize, per_departure: f64) -> Option<f64> {
    let last = level_count - 1;
    let mut before = Vec::new();
    let mut trials = 0;
    for r in replications {
        trials += r.level_trials.get(last).copied().unwrap_or(0);
        let reached = &r.level_chances[..last.min(r.level_chances.len())];
        before.push(reached.iter().product::<f64>());
    }
    let (reach_last, _) = mean_and_error(&before);
    let chance = reach_last * 3.0 / trials as f64;
    (trials > 0 && chance > 0.0).then(|| per_departure / chance)
}

/// Lives counted directly: the mean columns to game over of `games` games from an empty board,
/// with its 95% interval.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct DirectLife {
    pub games: u64,
    pub mean_life: f64,
    pub low: f64,
    pub high: f64,
    /// Games still going when `column_limit` columns had been played (counted at that length:
    /// the mean is then a lower bound).
    pub unfinished: u64,
}

/// Plays `games` games to their end (or `column_limit` columns each), on the worker threads.
pub fn direct_life(
    make: &(dyn Fn() -> Box<dyn Player> + Sync),
    games: u64,
    column_limit: u64,
    seed: u64,
) -> DirectLife {
    let lives: Vec<(f64, bool)> = (0..games)
        .into_par_iter()
        .map(|g| {
            let mut player = make();
            let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(7_919).wrapping_add(g));
            let mut game = Game::new(RuleSet::Reference, rng.random());
            for column in 1..=column_limit {
                if play(player.as_mut(), &mut game, &mut rng).lost {
                    return (column as f64, true);
                }
            }
            (column_limit as f64, false)
        })
        .collect();
    let values: Vec<f64> = lives.iter().map(|l| l.0).collect();
    let (mean, error) = mean_and_error(&values);
    let t = t975(values.len().saturating_sub(1));
    DirectLife {
        games,
        mean_life: mean,
        low: mean - t * error,
        high: mean + t * error,
        unfinished: lives.iter().filter(|l| !l.1).count() as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-column greedy search with `share` of its placements at random.
    fn weakened_greedy(share: f64) -> Box<dyn Player> {
        Box::new(Mixed {
            strategy: magic_jewelry_engine::PlayerSpec {
                strategy: magic_jewelry_engine::StrategySpec::Simple,
                rules: RuleSet::Reference,
                ..magic_jewelry_engine::PlayerSpec::default()
                    .with_budget(magic_jewelry_engine::Budget::UNLIMITED)
            }
            .build(),
            random_share: share,
        })
    }

    /// A player that places every column at random dies fast: its estimate's interval holds
    /// the mean life counted directly.
    #[test]
    fn the_estimate_of_a_random_player_covers_its_counted_life() {
        let make = || weakened_greedy(1.0);
        let direct = direct_life(&make, 400, 10_000, 3);
        let config = Config {
            direct_columns: 2_000,
            trials: 200,
            replications: 8,
            ..Config::default()
        };
        let estimate = estimate(&make, &config);
        assert!(
            estimate.low <= direct.mean_life && direct.mean_life <= estimate.high,
            "{estimate:?} against {direct:?}"
        );
    }

    /// A seed gives the same estimate on one worker thread as on several.
    #[test]
    fn an_estimate_depends_on_its_seed_alone() {
        let make = || weakened_greedy(0.3);
        let config = Config {
            direct_columns: 1_000,
            trials: 50,
            replications: 4,
            ..Config::default()
        };
        let on = |threads| {
            crate::with_threads(threads, || estimate(&make, &config).mean_life).expect("a pool")
        };
        assert_eq!(on(1), on(3));
    }

    /// A level that needed more than its trials to reach its successes is estimated as
    /// inverse sampling is; one that did not, as the plain share.
    #[test]
    fn a_level_that_went_on_to_its_successes_is_estimated_without_bias() {
        let config = Config {
            trials: 100,
            reach: 10,
            ..Config::default()
        };
        assert_eq!(level_share(10, 500, &config), 9.0 / 499.0);
        assert_eq!(level_share(30, 100, &config), 0.3);
        assert_eq!(level_share(3, 1_000, &config), 0.003);
    }

    /// No trial past the last level: the rule of three bounds its chance, so the life has a
    /// lower bound, as long as some replication got there.
    #[test]
    fn a_last_level_nobody_passed_bounds_the_life_from_below() {
        let replication = |chances: Vec<f64>, trials: Vec<usize>| Replication {
            columns: 1_000,
            departures: 10,
            game_overs: 0,
            level_chances: chances,
            level_trials: trials,
            chance: 0.0,
            played: 0,
        };
        let both = [
            replication(vec![0.5, 0.1, 0.0], vec![100, 100, 1_000]),
            replication(vec![0.5, 0.1, 0.0], vec![100, 100, 1_000]),
        ];
        let life = life_bound(&both, 3, 100.0).expect("a bound");
        assert!(
            (life - 100.0 / (0.05 * 3.0 / 2_000.0)).abs() < 1e-6,
            "{life}"
        );
        // A replication that stopped short counts as never getting there.
        let one_short = [
            replication(vec![0.5, 0.1, 0.0], vec![100, 100, 1_000]),
            replication(vec![0.5, 0.0], vec![100, 100]),
        ];
        let life = life_bound(&one_short, 3, 100.0).expect("a bound");
        assert!(
            (life - 100.0 / (0.025 * 3.0 / 1_000.0)).abs() < 1e-6,
            "{life}"
        );
        let none_there = [replication(vec![0.5, 0.0], vec![100, 100])];
        assert_eq!(life_bound(&none_there, 3, 100.0), None);
    }

    #[test]
    fn levels_rise_from_the_safe_quantile_to_below_a_full_column() {
        let mut heights: Vec<u32> = (0..=10).collect();
        let (safe, levels) = levels_from(&mut heights, &Config::default());
        assert_eq!(safe, 9);
        assert_eq!(levels, [10, 11, 12]);
        let (safe, _) = levels_from(&mut [13; 5], &Config::default());
        assert_eq!(safe, 11);
    }
}
