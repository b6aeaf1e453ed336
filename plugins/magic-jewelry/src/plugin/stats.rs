//! The plug-in's statistics, declared once in [`TABLE`]: each key with its label, how it is
//! read, and the `--until` condition it offers. The summary ([`all`]), the host's single reads
//! ([`stat`]) and the stop conditions ([`stop_conditions`]) all come from it.

use super::MagicJewelryPlugin;
use crate::game_view::GameView;
use crate::play::history::ALL_ROLLED_OVER;
use crate::play::tracker::PlayStats;
use crate::play::{Player, PlayerStats};
use crate::stats::{Chains, CHAIN_BINS};
use jewelbot_plugin::{Stat, StatValue, StopCondition};

/// What the statistics are read from.
struct Sources<'a> {
    plugin: &'a MagicJewelryPlugin,
    play: &'a PlayStats,
    /// The player's work (`None` before a game is attached).
    work: Option<&'a PlayerStats>,
    chains: &'a Chains,
    /// The last frame's game.
    last: Option<&'a GameView>,
}

impl<'a> Sources<'a> {
    fn of(plugin: &'a MagicJewelryPlugin) -> Self {
        Self {
            plugin,
            play: plugin.tracker.stats(),
            work: plugin.player.as_ref().map(Player::stats),
            chains: plugin.history.chains(),
            last: plugin.tracker.previous(),
        }
    }

    fn work(&self, count: fn(&PlayerStats) -> u64) -> StatValue {
        int(self.work.map_or(0, count))
    }

    /// A counter as the game displays it (8 digits).
    fn counter(&self, value: fn(&GameView) -> u32) -> StatValue {
        int(self.last.map_or(0, value).into())
    }
}

fn int(value: u64) -> StatValue {
    StatValue::Int(i64::try_from(value).unwrap_or(i64::MAX))
}

/// The `--until` condition a statistic offers.
enum Until {
    /// Holds once the statistic reaches the value.
    Reached(&'static str, &'static str, i64),
    /// The user gives the threshold (`NAME>=N`).
    Counter(&'static str, &'static str),
}

/// One statistic.
struct Row {
    key: &'static str,
    label: &'static str,
    read: fn(&Sources) -> StatValue,
    until: Option<Until>,
}

const fn row(key: &'static str, label: &'static str, read: fn(&Sources) -> StatValue) -> Row {
    Row {
        key,
        label,
        read,
        until: None,
    }
}

const fn until(mut row: Row, until: Until) -> Row {
    row.until = Some(until);
    row
}

/// Every statistic with a fixed key, in the summary's order (the chain histogram and the
/// displays' rollover frames follow: [`families`]).
const TABLE: &[Row] = &[
    row("budget", "the limit of one decision", |s| {
        StatValue::Text(s.plugin.settings.budget_description())
    }),
    until(
        row("columns_placed", "columns placed", |s| {
            int(s.play.columns_placed)
        }),
        Until::Counter("columns", "columns placed"),
    ),
    row("locked_as_planned", "locked where planned", |s| {
        s.work(|w| w.locked_as_planned)
    }),
    row("locked_off_plan", "locked elsewhere", |s| {
        s.work(|w| w.locked_off_plan)
    }),
    row(
        "locked_without_plan",
        "locked with no plan (could not move from the spawn)",
        |s| s.work(|w| w.locked_without_plan),
    ),
    row("replans", "re-plans", |s| s.work(|w| w.replans)),
    row(
        "missed_presses",
        "frames the column was not where the presses should have put it",
        |s| s.work(|w| w.missed_presses),
    ),
    row("games_started", "games started", |s| {
        int(s.play.games_started)
    }),
    until(
        row("game_overs", "game overs", |s| int(s.play.game_overs)),
        Until::Reached("game-over", "a game over", 1),
    ),
    row(
        "inconsistent_frames",
        "frames of RAM no state of the game explains",
        |s| int(s.play.inconsistent_frames),
    ),
    row("jewels_cleared", "jewels cleared (counted)", |s| {
        int(s.play.jewels_cleared)
    }),
    row("score", "score (8 digits)", |s| s.counter(|v| v.score)),
    row("jewels", "jewels (8-digit counter)", |s| {
        s.counter(|v| v.jewels)
    }),
    row("level", "level (8 digits)", |s| s.counter(|v| v.level)),
    // Counted past the 8-digit counters' wraps, so that any threshold can be reached.
    until(
        row(
            "score_total",
            "score, the 8-digit counter's wraps counted",
            |s| StatValue::Int(s.plugin.history.counted()[0]),
        ),
        Until::Counter("score", "the score, its wraps past 8 digits counted"),
    ),
    until(
        row(
            "jewels_total",
            "jewels, the 8-digit counter's wraps counted",
            |s| StatValue::Int(s.plugin.history.counted()[1]),
        ),
        Until::Counter(
            "jewels",
            "the jewels counter, its wraps past 8 digits counted",
        ),
    ),
    until(
        row(
            "level_total",
            "level, the 8-digit counter's wraps counted",
            |s| StatValue::Int(s.plugin.history.counted()[2]),
        ),
        Until::Counter(
            "level",
            "the displayed level, its wraps past 8 digits counted",
        ),
    ),
    row("decisions", "decisions", |s| s.work(|w| w.decisions)),
    row("decision_median_us", "median decision (us)", |s| {
        s.work(|w| w.decision_times.median().as_micros() as u64)
    }),
    row("decision_max_us", "longest decision (us)", |s| {
        s.work(|w| w.decision_times.max().as_micros() as u64)
    }),
    row(
        "foreseen",
        "decisions searched for before their column spawned",
        |s| s.work(|w| w.foreseen),
    ),
    row(
        "waiting_frames",
        "frames a column fell while its search ran",
        |s| s.work(|w| w.waiting_frames),
    ),
    row(
        "blocked_us",
        "time the emulator waited for the search (us)",
        |s| s.work(|w| w.blocked.as_micros() as u64),
    ),
    row("search_restarts", "search threads started again", |s| {
        s.work(|w| w.worker_restarts)
    }),
    row(
        "recoveries",
        "times the player pressed its way out of RAM no state of the game explained",
        |s| s.work(|w| w.recoveries),
    ),
    row(
        "displays_rolled_over",
        "displays rolled over (score, jewels, level)",
        |s| int(s.plugin.history.rolled_over() as u64),
    ),
    until(
        row(
            "rollover_progress",
            "thousandths of the way to every display rolled over",
            |s| StatValue::Int(s.plugin.history.rollover_progress().max(0)),
        ),
        Until::Reached(
            "rollover",
            "the score, jewels and level displays have all rolled over since the run began",
            ALL_ROLLED_OVER,
        ),
    ),
    row("clearing_locks", "columns whose lock matched", |s| {
        int(s.chains.clearing_locks)
    }),
    row(
        "steps_per_clearing_lock",
        "match steps a clearing lock",
        |s| StatValue::Float(s.chains.steps_per_clearing_lock()),
    ),
    row("longest_chain", "longest chain (match steps)", |s| {
        int(s.chains.longest.into())
    }),
    row(
        "longest_chain_points",
        "points of the lock that set off the longest chain",
        |s| int(s.chains.longest_points),
    ),
    row(
        "points_scored",
        "points scored, lock by lock (the 8-digit counter's wraps included)",
        |s| int(s.chains.points),
    ),
    row("best_lock_points", "most points one lock brought", |s| {
        int(s.chains.best_points)
    }),
    row(
        "tallest_stack",
        "tallest stack a column spawned over",
        |s| int(s.plugin.history.tallest().into()),
    ),
];

/// The statistics whose keys are made from a number or a name: clearing locks by their
/// steps, and the frame each display rolled over.
fn families(sources: &Sources) -> Vec<Stat> {
    let mut stats = Vec::new();
    for (bin, &count) in sources.chains.histogram.iter().enumerate() {
        let steps = bin + 1;
        let (key, label) = if steps == CHAIN_BINS {
            (
                format!("chains_{steps}_or_more"),
                format!("clearing locks of {steps} steps or more"),
            )
        } else {
            let plural = if steps == 1 { "" } else { "s" };
            (
                format!("chains_{steps}"),
                format!("clearing locks of {steps} step{plural}"),
            )
        };
        stats.push(Stat::new(&key, &label, int(count)));
    }
    for (name, frame) in sources.plugin.history.rollover_frames() {
        stats.push(Stat::new(
            &format!("{name}_rollover_frame"),
            &format!("frame the {name} display rolled over (0: not yet)"),
            int(frame.unwrap_or(0)),
        ));
    }
    stats
}

/// Every statistic, for summaries.
pub(super) fn all(plugin: &MagicJewelryPlugin) -> Vec<Stat> {
    let sources = Sources::of(plugin);
    let fixed = TABLE
        .iter()
        .map(|row| Stat::new(row.key, row.label, (row.read)(&sources)));
    fixed.chain(families(&sources)).collect()
}

/// One count, reading only its own row when it has one (runs wait on these every frame).
pub(super) fn stat(plugin: &MagicJewelryPlugin, key: &str) -> Option<i64> {
    let sources = Sources::of(plugin);
    let value = match TABLE.iter().find(|row| row.key == key) {
        Some(row) => (row.read)(&sources),
        None => families(&sources).into_iter().find(|s| s.key == key)?.value,
    };
    match value {
        StatValue::Int(v) => Some(v),
        _ => None,
    }
}

/// The `--until` conditions the statistics offer.
pub(super) fn stop_conditions() -> Vec<StopCondition> {
    TABLE
        .iter()
        .filter_map(|row| match row.until {
            Some(Until::Reached(name, help, at_least)) => {
                Some(StopCondition::reached(name, help, row.key, at_least))
            }
            Some(Until::Counter(name, help)) => Some(StopCondition::counter(name, help, row.key)),
            None => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every key once; every condition watches an integer the summary lists.
    #[test]
    fn one_row_a_key_and_conditions_on_listed_counts() {
        let plugin = MagicJewelryPlugin::default();
        let stats = all(&plugin);
        let mut keys: Vec<&str> = stats.iter().map(|s| s.key.as_str()).collect();
        let listed = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), listed, "a key listed twice");
        for condition in stop_conditions() {
            assert!(
                stat(&plugin, &condition.stat).is_some(),
                "{} watches {}",
                condition.name,
                condition.stat
            );
        }
        for s in &stats {
            if let StatValue::Int(v) = s.value {
                assert_eq!(stat(&plugin, &s.key), Some(v), "{}", s.key);
            }
        }
        assert_eq!(stat(&plugin, "no_such_key"), None);
    }
}
