//! `compare`: two strategies on the same seeded column sequences, with paired statistics.

use super::runner::{play, GameConfig};
use super::stats::Stats;
use super::{build_strategy, mix_seed, parse_ai, progress_bar, with_threads};
use anyhow::bail;
use magic_jewelry::engine::rules::generator::DEFAULT_WILD_EVERY;
use rayon::prelude::*;
use serde::Serialize;

/// Options of `compare`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The two strategies, each NAME or NAME@WEIGHTS.json (give --ai twice).
    #[arg(long, num_args = 1, required = true)]
    pub ai: Vec<String>,
    /// Columns per sequence.
    #[arg(long, default_value_t = 20_000)]
    pub columns: u64,
    /// Number of sequences (pairs).
    #[arg(long, default_value_t = 20)]
    pub seeds: u64,
    /// Base seed of the sequences.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Insert wild columns (one after every --wild-every jewels removed).
    #[arg(long)]
    pub wild: bool,
    #[arg(long, default_value_t = DEFAULT_WILD_EVERY)]
    pub wild_every: u32,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
    /// Hide the progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// The paired comparison of mean jewels on the board (A minus B: negative means A keeps the
/// board emptier).
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    pub a: String,
    pub b: String,
    pub pairs: usize,
    pub mean_a: f64,
    pub mean_b: f64,
    pub game_overs_a: u64,
    pub game_overs_b: u64,
    pub mean_difference: f64,
    pub sd_difference: f64,
    pub t: f64,
    /// Two-sided p-value of the paired t-test.
    pub p_t: f64,
    /// Wilcoxon signed-rank z (normal approximation) and its two-sided p-value.
    pub wilcoxon_z: f64,
    pub p_wilcoxon: f64,
    pub significant: bool,
}

/// Runs both strategies on every sequence and compares them.
pub fn compare(args: &Args) -> anyhow::Result<Comparison> {
    if args.ai.len() != 2 {
        bail!("compare needs exactly two --ai, got {}", args.ai.len());
    }
    if args.seeds < 2 {
        bail!("compare needs at least 2 sequences");
    }
    let a = parse_ai(&args.ai[0], None)?;
    let b = parse_ai(&args.ai[1], None)?;
    let config = GameConfig {
        wild_every: args.wild.then_some(args.wild_every),
        ..GameConfig::default()
    };
    let bar = progress_bar(2 * args.seeds * args.columns, !args.quiet, "compare");
    let runs: Vec<Stats> = with_threads(args.threads, || {
        (0..2 * args.seeds)
            .into_par_iter()
            .map(|job| -> anyhow::Result<Stats> {
                let ai = if job % 2 == 0 { &a } else { &b };
                let mut strategy = build_strategy(&ai.name, &ai.evaluation)?;
                let mut stats = Stats::default();
                let seed = mix_seed(args.seed, job / 2);
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
    let means_a: Vec<f64> = runs.iter().step_by(2).map(Stats::mean_jewels).collect();
    let means_b: Vec<f64> = runs
        .iter()
        .skip(1)
        .step_by(2)
        .map(Stats::mean_jewels)
        .collect();
    let diffs: Vec<f64> = means_a.iter().zip(&means_b).map(|(x, y)| x - y).collect();
    let (t, p_t, mean, sd) = paired_t(&diffs);
    let (wilcoxon_z, p_wilcoxon) = wilcoxon(&diffs);
    let game_overs = |skip: usize| {
        runs.iter()
            .skip(skip)
            .step_by(2)
            .map(|s| s.game_overs)
            .sum()
    };
    Ok(Comparison {
        a: args.ai[0].clone(),
        b: args.ai[1].clone(),
        pairs: diffs.len(),
        mean_a: mean_of(&means_a),
        mean_b: mean_of(&means_b),
        game_overs_a: game_overs(0),
        game_overs_b: game_overs(1),
        mean_difference: mean,
        sd_difference: sd,
        t,
        p_t,
        wilcoxon_z,
        p_wilcoxon,
        significant: p_t < 0.05,
    })
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
pub fn run(args: &Args) -> anyhow::Result<()> {
    let c = compare(args)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&c)?);
        return Ok(());
    }
    println!(
        "{} sequences of {} columns\nA {}: mean jewels {:.4} ({} game overs)\nB {}: mean jewels {:.4} ({} game overs)",
        c.pairs, args.columns, c.a, c.mean_a, c.game_overs_a, c.b, c.mean_b, c.game_overs_b
    );
    println!(
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
    );
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
    fn wilcoxon_signs() {
        let (z, p) = wilcoxon(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]);
        assert!(z > 2.7 && p < 0.01, "{z} {p}");
        let (z, p) = wilcoxon(&[1.0, -1.0, 2.0, -2.0]);
        assert_eq!(z, 0.0);
        assert!((p - 1.0).abs() < 1e-6);
    }

    #[test]
    fn smart_beats_simple() {
        let args = Args {
            ai: vec!["smart".into(), "simple".into()],
            columns: 400,
            seeds: 6,
            seed: 3,
            wild: false,
            wild_every: DEFAULT_WILD_EVERY,
            threads: 2,
            json: false,
            quiet: true,
        };
        let c = compare(&args).unwrap();
        assert!(c.mean_difference < 0.0, "{c:?}");
        assert!(compare(&Args {
            ai: vec!["smart".into()],
            ..args
        })
        .is_err());
    }
}
