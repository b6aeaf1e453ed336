//! `compare`: two strategies on the same seeded column sequences, with paired statistics.

use super::player_args::{ButObjective, PlayerArgs};
use super::runner::{objective_parser, play, GameConfig, SimGameArgs};
use super::stats::Stats;
use super::{mix_seed, progress, with_threads, PLAYER, REFERENCE};
use crate::args::Workers;
use anyhow::bail;
use magic_jewelry::stats::Chains;
use magic_jewelry_engine::{Objective, PlayerSpec, RuleSet};
use rayon::prelude::*;
use serde::Serialize;
use std::io::Write;

/// Options of `compare`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The two AIs, each `player`, `reference`, NAME or NAME@FILE (as for `sim`). Without
    /// `--ai`, the player against the reference; with one, that AI against the player.
    #[arg(long, num_args = 1, value_parser = crate::args::ai)]
    pub ai: Vec<String>,
    /// What each AI plays for, `survive` or `score`, in the order of `--ai` (one: both).
    /// Without it both survive.
    #[arg(long, num_args = 1, value_parser = objective_parser())]
    pub objective: Vec<Objective>,
    /// Columns per sequence.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=crate::args::MAX_COLUMNS))]
    pub columns: u64,
    /// Number of sequences (pairs).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(2..=crate::args::MAX_SEEDS))]
    pub seeds: u64,
    #[command(flatten)]
    pub game: SimGameArgs,
    /// The players' other settings, shared by both: rules, evaluation, foresight, budget, pace.
    #[command(flatten)]
    pub player: PlayerArgs<ButObjective>,
    /// Which AI `--foresight` applies to: `both`, or `a` or `b` to compare foresight with fair
    /// play.
    #[arg(long, default_value = "both", value_parser = ["both", "a", "b"])]
    pub foresight_for: String,
    #[command(flatten)]
    pub workers: Workers,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

impl Default for Args {
    fn default() -> Self {
        Self {
            ai: Vec::new(),
            objective: Vec::new(),
            columns: 20_000,
            seeds: 20,
            game: SimGameArgs::default(),
            workers: Workers::default(),
            player: PlayerArgs::default(),
            foresight_for: "both".to_owned(),
            json: false,
        }
    }
}

/// The paired comparison of mean jewels on the board (A minus B: negative means A keeps the
/// board emptier).
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    /// The rules both played by.
    pub rules: RuleSet,
    pub a: String,
    pub b: String,
    pub pairs: usize,
    pub mean_a: f64,
    pub mean_b: f64,
    pub game_overs_a: u64,
    pub game_overs_b: u64,
    pub points_per_column_a: f64,
    pub points_per_column_b: f64,
    pub mean_difference: f64,
    pub sd_difference: f64,
    pub t: f64,
    /// Two-sided p-value of the paired t-test.
    pub p_t: f64,
    /// Wilcoxon signed-rank z (normal approximation) and its two-sided p-value.
    pub wilcoxon_z: f64,
    pub p_wilcoxon: f64,
    pub significant: bool,
    /// What each AI played for.
    pub objective_a: Objective,
    pub objective_b: Objective,
    /// Points a column, A minus B, paired by sequence: the mean difference, its 95% confidence
    /// interval (Student's t), and the paired t-test's two-sided p-value.
    pub points_difference: f64,
    pub points_interval: [f64; 2],
    pub p_points: f64,
    /// Each side's chains over all its sequences.
    pub chains_a: Chains,
    pub chains_b: Chains,
}

/// The two AIs compared: as given, the player for a missing B, the player against the
/// reference for none.
fn contenders(ai: &[String]) -> anyhow::Result<[String; 2]> {
    Ok(match ai {
        [] => [PLAYER.to_owned(), REFERENCE.to_owned()],
        [a] => [a.clone(), PLAYER.to_owned()],
        [a, b] => [a.clone(), b.clone()],
        more => bail!("compare takes at most two --ai, got {}", more.len()),
    })
}

/// What each AI plays for: both survive, both the one given, or each its own.
fn objectives(given: &[Objective]) -> anyhow::Result<[Objective; 2]> {
    Ok(match *given {
        [] => [Objective::Survive; 2],
        [both] => [both; 2],
        [a, b] => [a, b],
        ref more => bail!("compare takes at most two --objective, got {}", more.len()),
    })
}

/// Runs both strategies on every sequence and compares them.
pub fn compare(args: &Args) -> anyhow::Result<Comparison> {
    if args.seeds < 2 {
        bail!("compare needs at least 2 sequences");
    }
    if args.columns == 0 {
        bail!("compare needs at least 1 column per sequence");
    }
    let base = &args.player.spec;
    let rules = base.rules;
    let [label_a, label_b] = contenders(&args.ai)?;
    let [objective_a, objective_b] = objectives(&args.objective)?;
    let named = |label: &str, objective| -> anyhow::Result<_> {
        let mut player = base.named(label).map_err(anyhow::Error::msg)?;
        player.spec.objective = objective;
        Ok(player)
    };
    let a = named(&label_a, objective_a)?;
    let b = named(&label_b, objective_b)?;
    // Whether side A (job 0) and side B (job 1) look ahead.
    let sees = |job: u64| {
        base.foresight
            && match args.foresight_for.as_str() {
                "a" => job.is_multiple_of(2),
                "b" => !job.is_multiple_of(2),
                _ => true,
            }
    };
    let bar = progress::bar_if(
        !args.workers.quiet,
        2 * args.seeds * args.columns,
        "compare",
    );
    let runs: Vec<Stats> = with_threads(args.workers.threads, || {
        (0..2 * args.seeds)
            .into_par_iter()
            .map(|job| -> anyhow::Result<Stats> {
                let ai = if job % 2 == 0 { &a } else { &b };
                let spec = PlayerSpec {
                    foresight: sees(job),
                    ..ai.spec.clone()
                };
                let mut strategy = spec.build();
                let config = GameConfig::of(&spec);
                let mut stats = Stats::default();
                let seed = mix_seed(args.game.seed, job / 2);
                play(
                    strategy.as_mut(),
                    seed,
                    args.columns,
                    config,
                    &mut stats,
                    |n| bar.inc(n),
                );
                Ok(stats)
            })
            .collect::<anyhow::Result<Vec<_>>>()
    })??;
    bar.finish_and_clear();
    let side = |skip: usize| runs.iter().skip(skip).step_by(2);
    let means_a: Vec<f64> = side(0).map(Stats::mean_jewels).collect();
    let means_b: Vec<f64> = side(1).map(Stats::mean_jewels).collect();
    let diffs: Vec<f64> = means_a.iter().zip(&means_b).map(|(x, y)| x - y).collect();
    let (t, p_t, mean, sd) = paired_t(&diffs);
    let (wilcoxon_z, p_wilcoxon) = wilcoxon(&diffs);
    let game_overs = |skip: usize| side(skip).map(|s| s.game_overs).sum();
    let per_column = Stats::points_per_column;
    let point_diffs: Vec<f64> = side(0)
        .zip(side(1))
        .map(|(x, y)| per_column(x) - per_column(y))
        .collect();
    let (_, p_points, points_difference, points_sd) = paired_t(&point_diffs);
    let half = t_quantile(point_diffs.len() as f64 - 1.0, 0.05) * points_sd
        / (point_diffs.len() as f64).sqrt();
    let chains = |skip: usize| {
        let mut all = Chains::default();
        side(skip).for_each(|s| all.merge(&s.chains));
        all
    };
    let points = |skip: usize| {
        let (points, columns) =
            side(skip).fold((0, 0), |(p, c), s| (p + s.chains.points, c + s.columns));
        points as f64 / columns.max(1) as f64
    };
    Ok(Comparison {
        rules,
        a: with_foresight(a.label, sees(0)),
        b: with_foresight(b.label, sees(1)),
        pairs: diffs.len(),
        mean_a: mean_of(&means_a),
        mean_b: mean_of(&means_b),
        game_overs_a: game_overs(0),
        game_overs_b: game_overs(1),
        points_per_column_a: points(0),
        points_per_column_b: points(1),
        mean_difference: mean,
        sd_difference: sd,
        t,
        p_t,
        wilcoxon_z,
        p_wilcoxon,
        significant: p_t < 0.05,
        objective_a,
        objective_b,
        points_difference,
        points_interval: [points_difference - half, points_difference + half],
        p_points,
        chains_a: chains(0),
        chains_b: chains(1),
    })
}

/// An AI's label, marked when it looked ahead.
fn with_foresight(label: String, sees: bool) -> String {
    if sees {
        format!("{label} with foresight")
    } else {
        label
    }
}

fn mean_of(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

/// Paired t-test on the differences: (t, two-sided p, mean, standard deviation).
pub fn paired_t(diffs: &[f64]) -> (f64, f64, f64, f64) {
    let n = diffs.len() as f64;
    let mean = mean_of(diffs);
    let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let sd = var.sqrt();
    if sd == 0.0 {
        let p = if mean == 0.0 { 1.0 } else { 0.0 };
        return (if mean == 0.0 { 0.0 } else { f64::INFINITY }, p, mean, sd);
    }
    let t = mean / (sd / n.sqrt());
    let df = n - 1.0;
    let p = incomplete_beta(df / 2.0, 0.5, df / (df + t * t));
    (t, p, mean, sd)
}

/// The t value a two-sided test with `df` degrees of freedom exceeds with probability `p`
/// (bisection on the regularised incomplete beta function).
pub fn t_quantile(df: f64, p: f64) -> f64 {
    let two_sided = |t: f64| incomplete_beta(df / 2.0, 0.5, df / (df + t * t));
    let (mut lo, mut hi) = (0.0, 1.0e3);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if two_sided(mid) > p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Wilcoxon signed-rank test, normal approximation with tie correction: (z, two-sided p).
pub fn wilcoxon(diffs: &[f64]) -> (f64, f64) {
    let mut nonzero: Vec<f64> = diffs.iter().copied().filter(|d| *d != 0.0).collect();
    nonzero.sort_by(|x, y| x.abs().total_cmp(&y.abs()));
    let n = nonzero.len();
    if n == 0 {
        return (0.0, 1.0);
    }
    let mut w_plus = 0.0;
    let mut tie_term = 0.0;
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && nonzero[j + 1].abs() == nonzero[i].abs() {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        let ties = (j - i + 1) as f64;
        tie_term += ties * ties * ties - ties;
        for d in &nonzero[i..=j] {
            if *d > 0.0 {
                w_plus += rank;
            }
        }
        i = j + 1;
    }
    let nf = n as f64;
    let mean = nf * (nf + 1.0) / 4.0;
    let var = nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0 - tie_term / 48.0;
    let z = (w_plus - mean) / var.sqrt();
    (z, erfc(z.abs() / std::f64::consts::SQRT_2))
}

/// Complementary error function (Numerical Recipes' Chebyshev fit, error below 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

fn ln_gamma(x: f64) -> f64 {
    // Lanczos approximation (g = 7, n = 9).
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + 7.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// Regularised incomplete beta I_x(a, b).
fn incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front =
        (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_fraction(b, a, 1.0 - x) / b
    }
}

/// Continued fraction for the incomplete beta (Lentz's method).
fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    let tiny = 1e-300;
    let mut c = 1.0;
    let mut d = 1.0 - (a + b) * x / (a + 1.0);
    if d.abs() < tiny {
        d = tiny;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..300 {
        let m = f64::from(m);
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
        d = 1.0 + aa * d;
        d = if d.abs() < tiny { tiny } else { d };
        c = 1.0 + aa / c;
        c = if c.abs() < tiny { tiny } else { c };
        d = 1.0 / d;
        h *= d * c;
        let aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
        d = 1.0 + aa * d;
        d = if d.abs() < tiny { tiny } else { d };
        c = 1.0 + aa / c;
        c = if c.abs() < tiny { tiny } else { c };
        d = 1.0 / d;
        let delta = d * c;
        h *= delta;
        if (delta - 1.0).abs() < 1e-12 {
            break;
        }
    }
    h
}

/// `compare`: run and print.
pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<()> {
    let c = compare(args)?;
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&c)?)?;
        return Ok(());
    }
    writeln!(
            out,
        "{} sequences of {} columns under the {} rules\nA {} ({}): mean jewels {:.4} ({} game overs, {:.1} points a column)\nB {} ({}): mean jewels {:.4} ({} game overs, {:.1} points a column)",
        c.pairs,
        args.columns,
        c.rules,
        c.a,
        c.objective_a,
        c.mean_a,
        c.game_overs_a,
        c.points_per_column_a,
        c.b,
        c.objective_b,
        c.mean_b,
        c.game_overs_b,
        c.points_per_column_b
    )?;
    writeln!(
        out,
        "A - B: {:+.4} (sd {:.4}); paired t {:.3}, p {:.3e}; Wilcoxon z {:.3}, p {:.3e}; {}",
        c.mean_difference,
        c.sd_difference,
        c.t,
        c.p_t,
        c.wilcoxon_z,
        c.p_wilcoxon,
        if c.significant {
            "significant at 5%"
        } else {
            "not significant at 5%"
        }
    )?;
    if c.rules.scores() {
        writeln!(
            out,
            "points a column, A - B: {:+.1} (95% interval {:+.1} to {:+.1}; paired t p {:.3e})",
            c.points_difference, c.points_interval[0], c.points_interval[1], c.p_points
        )?;
    }
    writeln!(out, "chains, A: {}\nchains, B: {}", c.chains_a, c.chains_b)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_test_matches_known_values() {
        // t = 2.0 with 9 degrees of freedom: two-sided p = 0.0766 (tables).
        let diffs = [1.0, 3.0, 2.0, 4.0, 0.0, 2.0, 3.0, 1.0, -1.0, 0.0];
        let (t, p, mean, _) = paired_t(&diffs);
        assert!((mean - 1.5).abs() < 1e-12);
        let expected_t = 1.5
            / (diffs.iter().map(|d| (d - 1.5f64).powi(2)).sum::<f64>() / 9.0).sqrt()
            * 10f64.sqrt();
        assert!((t - expected_t).abs() < 1e-9);
        assert!((incomplete_beta(4.5, 0.5, 9.0 / 13.0) - 0.0766).abs() < 5e-4);
        assert!(p > 0.0 && p < 0.05, "{t} {p}");
        assert!((erfc(1.959_964 / std::f64::consts::SQRT_2) - 0.05).abs() < 1e-6);
    }

    #[test]
    fn t_quantiles_match_the_tables() {
        assert!((t_quantile(9.0, 0.05) - 2.262).abs() < 1e-3);
        assert!((t_quantile(19.0, 0.05) - 2.093).abs() < 1e-3);
        assert!((t_quantile(1000.0, 0.05) - 1.962).abs() < 1e-3);
    }

    #[test]
    fn objectives_go_to_both_or_each() {
        use Objective::{Score, Survive};
        assert_eq!(objectives(&[]).unwrap(), [Survive, Survive]);
        assert_eq!(objectives(&[Score]).unwrap(), [Score, Score]);
        assert_eq!(objectives(&[Score, Survive]).unwrap(), [Score, Survive]);
        assert!(objectives(&[Score, Survive, Score]).is_err());
    }

    /// The same AI playing for points and to survive: the points a column differ by a pinned
    /// figure, with its interval.
    #[test]
    fn the_score_objective_against_survival() {
        let args = Args {
            ai: vec!["smart".into(), "smart".into()],
            objective: vec![Objective::Score, Objective::Survive],
            columns: 300,
            seeds: 3,
            game: SimGameArgs { seed: 2 },
            workers: Workers {
                threads: 2,
                quiet: true,
            },
            ..Args::default()
        };
        let c = compare(&args).unwrap();
        assert_eq!(
            (c.objective_a, c.objective_b),
            (Objective::Score, Objective::Survive)
        );
        assert_eq!((c.game_overs_a, c.game_overs_b), (0, 0));
        let [lo, hi] = c.points_interval;
        assert!(
            lo < c.points_difference && c.points_difference < hi,
            "{c:?}"
        );
        assert_eq!(
            (c.points_difference.round(), lo.round(), hi.round()),
            (3416.0, -2902.0, 9735.0),
            "{c:?}"
        );
    }

    #[test]
    fn wilcoxon_signs() {
        let (z, p) = wilcoxon(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]);
        assert!(z > 2.7 && p < 0.01, "{z} {p}");
        let (z, p) = wilcoxon(&[1.0, -1.0, 2.0, -2.0]);
        assert_eq!(z, 0.0);
        assert!((p - 1.0).abs() < 1e-6);
    }

    #[test]
    fn smart_beats_simple() {
        for rules in RuleSet::ALL {
            let args = Args {
                ai: vec!["reference".into(), "simple@missing.json".into()],
                columns: 400,
                seeds: 6,
                game: SimGameArgs { seed: 3 },
                player: PlayerArgs::from(PlayerSpec {
                    rules,
                    ..PlayerSpec::default()
                }),
                workers: Workers {
                    threads: 2,
                    quiet: true,
                },
                ..Args::default()
            };
            assert!(compare(&args).is_err());
            let published = concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../engine/weights/published.json"
            );
            let args = Args {
                ai: vec!["reference".into(), format!("simple@{published}")],
                ..args
            };
            let c = compare(&args).unwrap();
            assert!(c.mean_difference < 0.0, "{c:?}");
            assert_eq!(c.rules, rules);
            assert_eq!(c.points_per_column_a > 0.0, rules == RuleSet::Real);
        }
    }

    #[test]
    fn missing_contenders_are_the_player_and_the_reference() {
        assert_eq!(contenders(&[]).unwrap(), [PLAYER, REFERENCE]);
        assert_eq!(contenders(&["smart".into()]).unwrap(), ["smart", PLAYER]);
        let three = ["a".to_owned(), "b".to_owned(), "c".to_owned()];
        assert!(contenders(&three).is_err());
    }
}
