//! The plug-in's statistics for summaries: the tracker's counts, the player's work, and the
//! run's history (the counters' displays rolling over).

use super::MagicJewelryPlugin;
use crate::game_view::GameView;
use crate::play::history::CHAIN_BINS;
use crate::play::Player;
use jewelbot_plugin::{Stat, StatValue};

pub(super) fn all(plugin: &MagicJewelryPlugin) -> Vec<Stat> {
    let stats = plugin.tracker.stats();
    let work = plugin
        .player
        .as_ref()
        .map(Player::stats)
        .unwrap_or_default();
    let int = |key: &str, label: &str, value: u64| {
        Stat::new(
            key,
            label,
            StatValue::Int(i64::try_from(value).unwrap_or(i64::MAX)),
        )
    };
    let totals = plugin.history.counted();
    let counted =
        |key: &str, label: &str, index: usize| Stat::new(key, label, StatValue::Int(totals[index]));
    let last = plugin.tracker.previous();
    let counter = |f: fn(&GameView) -> u32| u64::from(last.map_or(0, f));
    let mut all = vec![
        Stat::new(
            "budget",
            "the limit of one decision",
            StatValue::Text(plugin.settings.budget_description()),
        ),
        int("columns_placed", "columns placed", stats.columns_placed),
        int(
            "locked_as_planned",
            "locked where planned",
            work.locked_as_planned,
        ),
        int("locked_off_plan", "locked elsewhere", work.locked_off_plan),
        int(
            "locked_without_plan",
            "locked with no plan (could not move from the spawn)",
            work.locked_without_plan,
        ),
        int("replans", "re-plans", work.replans),
        int(
            "missed_presses",
            "frames the column was not where the presses should have put it",
            work.missed_presses,
        ),
        int("games_started", "games started", stats.games_started),
        int("game_overs", "game overs", stats.game_overs),
        int(
            "inconsistent_frames",
            "frames of RAM no state of the game explains",
            stats.inconsistent_frames,
        ),
        int(
            "jewels_cleared",
            "jewels cleared (counted)",
            stats.jewels_cleared,
        ),
        int("score", "score (8 digits)", counter(|v| v.score)),
        int("jewels", "jewels (8-digit counter)", counter(|v| v.jewels)),
        int("level", "level (8 digits)", counter(|v| v.level)),
        counted(
            "score_total",
            "score, the 8-digit counter's wraps counted",
            0,
        ),
        counted(
            "jewels_total",
            "jewels, the 8-digit counter's wraps counted",
            1,
        ),
        counted(
            "level_total",
            "level, the 8-digit counter's wraps counted",
            2,
        ),
        int("decisions", "decisions", work.decisions),
        int(
            "decision_median_us",
            "median decision (us)",
            work.decision_times.median().as_micros() as u64,
        ),
        int(
            "decision_max_us",
            "longest decision (us)",
            work.decision_times.max().as_micros() as u64,
        ),
        int(
            "foreseen",
            "decisions searched for before their column spawned",
            work.foreseen,
        ),
        int(
            "waiting_frames",
            "frames a column fell while its search ran",
            work.waiting_frames,
        ),
        int(
            "blocked_us",
            "time the emulator waited for the search (us)",
            work.blocked.as_micros() as u64,
        ),
        int(
            "search_restarts",
            "search threads started again",
            work.worker_restarts,
        ),
        int(
            "recoveries",
            "times the player pressed its way out of RAM no state of the game explained",
            work.recoveries,
        ),
        int(
            "displays_rolled_over",
            "displays rolled over (score, jewels, level)",
            plugin.history.rolled_over() as u64,
        ),
        int(
            "rollover_progress",
            "thousandths of the way to every display rolled over",
            plugin.history.rollover_progress().max(0) as u64,
        ),
    ];
    let chains = plugin.history.chains();
    all.extend([
        int(
            "clearing_locks",
            "columns whose lock matched",
            chains.clearing_locks,
        ),
        Stat::new(
            "steps_per_clearing_lock",
            "match steps a clearing lock",
            StatValue::Float(chains.steps_per_clearing_lock()),
        ),
        int(
            "longest_chain",
            "longest chain (match steps)",
            chains.longest.into(),
        ),
        int(
            "longest_chain_points",
            "points of the lock that set off the longest chain",
            chains.longest_points.into(),
        ),
        int(
            "points_scored",
            "points scored, lock by lock (the 8-digit counter's wraps included)",
            chains.points,
        ),
        int(
            "best_lock_points",
            "most points one lock brought",
            chains.best_points.into(),
        ),
        int(
            "tallest_stack",
            "tallest stack a column spawned over",
            chains.tallest.into(),
        ),
    ]);
    for (bin, &count) in chains.histogram.iter().enumerate() {
        let steps = bin + 1;
        let (key, label) = if steps == CHAIN_BINS {
            (
                format!("chains_{steps}_or_more"),
                format!("clearing locks of {steps} steps or more"),
            )
        } else {
            (
                format!("chains_{steps}"),
                format!(
                    "clearing locks of {steps} step{}",
                    if steps == 1 { "" } else { "s" }
                ),
            )
        };
        all.push(int(&key, &label, count));
    }
    for (name, frame) in plugin.history.rollover_frames() {
        all.push(int(
            &format!("{name}_rollover_frame"),
            &format!("frame the {name} display rolled over (0: not yet)"),
            frame.unwrap_or(0),
        ));
    }
    all
}
