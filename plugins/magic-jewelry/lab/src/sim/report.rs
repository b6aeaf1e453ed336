//! What `sim` found: the report it prints, writes as JSON and plots.

use crate::stats::{Stats, TailFit};
use magic_jewelry_engine::{ForesightConfig, Objective, RuleSet, Weights};
use serde::Serialize;

/// The share of columns that fell at one speed.
#[derive(Debug, Clone, Serialize)]
pub struct SpeedShare {
    pub frames_per_row: u8,
    pub share: f64,
}

/// What `sim` reports.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The rules played by.
    pub rules: RuleSet,
    /// What `--ai` asked for.
    pub ai: String,
    /// The strategy.
    pub strategy: String,
    /// What it played for.
    pub objective: Objective,
    /// `published weights`, `built-in value (RULES)`, `weights FILE` or `value FILE`.
    pub evaluation: String,
    /// The weights of a feature evaluation.
    pub weights: Option<Weights>,
    /// The foresight search, when the strategy was shown the columns ahead.
    pub foresight: Option<ForesightConfig>,
    /// The limit of a decision, in words.
    pub budget: String,
    pub seed: u64,
    pub tap_interval: u8,
    pub mean_jewels: f64,
    pub max_jewels: u32,
    pub columns_per_clear: f64,
    pub game_overs: u64,
    pub points_per_column: f64,
    pub wild_columns: u64,
    /// The highest level a game displayed (wild columns generated in one game).
    pub highest_level: u64,
    /// Columns at each fall speed, fastest first.
    pub speeds: Vec<SpeedShare>,
    pub mean_decision_micros: f64,
    pub median_decision_micros: u64,
    pub columns_per_second: f64,
    pub tail_fit: Option<TailFit>,
    pub stats: Stats,
}

/// The text summary.
pub fn summary(report: &Report) -> String {
    let s = &report.stats;
    let mut out = format!(
        "{} ({} with {}, playing to {}) over {} columns under the {} rules (seed {}, {})\n",
        report.ai,
        report.strategy,
        report.evaluation,
        report.objective,
        s.columns,
        report.rules,
        report.seed,
        match report.tap_interval {
            1 => "fast: a press a frame, then the soft drop".to_owned(),
            n => format!("normal: a press every {n} frames"),
        }
    );
    out += &format!("budget: {}\n", report.budget);
    if let Some(f) = &report.foresight {
        out += &format!(
            "foresight: {} columns searched, beam {}, at most {} boards a decision\n",
            f.depth, f.beam, f.work
        );
    }
    out += &format!(
        "jewels on the board after each placement: mean {:.3}, max {}\n",
        report.mean_jewels, report.max_jewels
    );
    out += &format!(
        "complete clears: {} (one every {:.0} columns; longest wait {} columns)\n",
        s.clears, report.columns_per_clear, s.longest_without_clear
    );
    out += &format!(
        "game overs: {}; cells removed: {}; jewels erased without a match: {}\n",
        s.game_overs, s.removed, s.erased
    );
    if report.rules.has_wild_columns() {
        out += &format!(
            "points: {:.1} per column ({:.1} by wild columns); wild columns: {} (highest level shown: {})\n",
            report.points_per_column,
            s.wild_points as f64 / s.columns.max(1) as f64,
            s.wild_columns,
            report.highest_level
        );
        let speeds: Vec<String> = report
            .speeds
            .iter()
            .map(|s| format!("{}:{:.1}%", s.frames_per_row, 100.0 * s.share))
            .collect();
        out += &format!(
            "columns at each speed (frames a row:share): {}\n",
            speeds.join(" ")
        );
    }
    let chains: Vec<String> = s
        .chains
        .by_steps()
        .map(|(steps, n)| format!("{steps}:{n}"))
        .collect();
    out += &format!("chain lengths (steps:locks): {}\n", chains.join(" "));
    out += &format!("chains: {}\n", s.chains);
    let fill: Vec<String> = s
        .fill
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(j, n)| format!("{j}:{n}"))
        .collect();
    out += &format!("fill histogram (jewels:placements): {}\n", fill.join(" "));
    if let Some(fit) = &report.tail_fit {
        out += &format!(
            "the reference write-up's extrapolation (a quadratic through log10 of the fill \
             histogram over {}-{} jewels; a curve fit, not an estimate with an interval: see \
             `horizon --rules reference`): columns to 54 jewels {:.3e}, to 78 {:.3e}\n",
            fit.from, fit.to, fit.expected_columns_54, fit.expected_columns_78
        );
    }
    out += &format!(
        "decision {:.1} us mean, {} us median; {:.0} columns per second\n",
        report.mean_decision_micros, report.median_decision_micros, report.columns_per_second
    );
    out
}
