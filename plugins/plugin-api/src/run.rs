//! What a plug-in offers a long run: conditions to stop at, series and milestones for a
//! report, and snapshots of its own state for checkpoints.

/// A condition a run can stop at (`run --until NAME`, or `--until NAME>=N` for one without a
/// fixed threshold): the plug-in's integer statistic [`StopCondition::stat`] reaching a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StopCondition {
    /// The name on the command line, e.g. `rollover` or `jewels`.
    pub name: String,
    /// What it means, for `--help` and messages.
    pub help: String,
    /// The key of the statistic it watches ([`crate::Stat::key`]).
    pub stat: String,
    /// The value the statistic must reach; `None` when the user gives it (`NAME>=N`).
    pub at_least: Option<i64>,
}

impl StopCondition {
    /// A condition that holds once `stat` reaches `at_least`.
    pub fn reached(name: &str, help: &str, stat: &str, at_least: i64) -> Self {
        Self {
            name: name.to_owned(),
            help: help.to_owned(),
            stat: stat.to_owned(),
            at_least: Some(at_least),
        }
    }

    /// A counter the user gives a threshold for (`NAME>=N`).
    pub fn counter(name: &str, help: &str, stat: &str) -> Self {
        Self {
            name: name.to_owned(),
            help: help.to_owned(),
            stat: stat.to_owned(),
            at_least: None,
        }
    }
}

/// A quantity over a run, one point per event (a column placed, say), for a report's plots.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Machine-readable key, also the plot's file name, e.g. `jewels_on_board`.
    pub key: String,
    /// The plot's title, e.g. `jewels on the board after each column`.
    pub label: String,
    /// (frame, value), oldest first.
    pub points: Vec<(u64, f64)>,
}

/// A frame worth marking on a report's plots, e.g. the frame a counter's display rolled over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Milestone {
    /// What happened, e.g. `score display rolled over`.
    pub label: String,
    /// The frame it happened on.
    pub frame: u64,
}
