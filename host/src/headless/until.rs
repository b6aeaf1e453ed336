//! `run --until CONDITION`: the conditions a run stops at, over the plug-ins' statistics
//! ([`jewelbot_plugin::StopCondition`]): `NAME` for a condition with its own threshold
//! (`rollover`, `game-over`), `NAME>=N` for a counter (`jewels>=100000`).

use crate::plugin_host::PluginHost;
use jewelbot_plugin::StopCondition;

/// Thresholds beyond any counter a game keeps (and far from overflowing a frame count).
const MAX_THRESHOLD: i64 = 1_000_000_000_000;

/// One condition, resolved against what the plug-ins offer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Until {
    /// As the user wrote it.
    pub text: String,
    /// The statistic it watches, and the value that ends the run.
    pub stat: String,
    pub at_least: i64,
}

impl Until {
    /// Parses `text` against the conditions `offered`; the error names what is offered.
    pub fn parse(text: &str, offered: &[StopCondition]) -> Result<Self, String> {
        let text = text.trim();
        let (name, threshold) = match text.split_once(">=") {
            Some((name, value)) => (name.trim(), Some(value.trim())),
            None => (text, None),
        };
        let list = || {
            offered
                .iter()
                .map(|c| match c.at_least {
                    Some(_) => format!("{} ({})", c.name, c.help),
                    None => format!("{}>=N ({})", c.name, c.help),
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let Some(condition) = offered.iter().find(|c| c.name == name) else {
            return Err(if offered.is_empty() {
                format!("--until {text}: no plug-in offers conditions to stop at on this ROM")
            } else {
                format!(
                    "--until {text}: unknown condition `{name}`; the conditions are {}",
                    list()
                )
            });
        };
        let at_least = match (condition.at_least, threshold) {
            (Some(at_least), None) => at_least,
            (None, Some(value)) => value
                .parse::<i64>()
                .ok()
                .filter(|v| (0..=MAX_THRESHOLD).contains(v))
                .ok_or_else(|| {
                    format!("--until {text}: `{value}` is not a count from 0 to {MAX_THRESHOLD}")
                })?,
            (Some(_), Some(_)) => {
                return Err(format!(
                    "--until {text}: `{name}` takes no value (write `--until {name}`)"
                ))
            }
            (None, None) => {
                return Err(format!(
                    "--until {text}: `{name}` needs a value (`--until {name}>=N`)"
                ))
            }
        };
        Ok(Self {
            text: text.to_owned(),
            stat: condition.stat.clone(),
            at_least,
        })
    }

    /// The statistic's value now (0 when no plug-in has it).
    pub fn value(&self, plugins: &PluginHost) -> i64 {
        plugins.stat(&self.stat).unwrap_or(0)
    }

    pub fn holds(&self, plugins: &PluginHost) -> bool {
        self.value(plugins) >= self.at_least
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offered() -> Vec<StopCondition> {
        vec![
            StopCondition::reached(
                "rollover",
                "all displays rolled over",
                "rollover_progress",
                1000,
            ),
            StopCondition::counter("jewels", "the jewels counter", "jewels"),
        ]
    }

    #[test]
    fn names_and_thresholds_are_checked() {
        let rollover = Until::parse("rollover", &offered()).expect("offered");
        assert_eq!(
            (rollover.stat.as_str(), rollover.at_least),
            ("rollover_progress", 1000)
        );
        let jewels = Until::parse("jewels>=100000", &offered()).expect("offered");
        assert_eq!((jewels.stat.as_str(), jewels.at_least), ("jewels", 100_000));
        for (bad, says) in [
            ("rolover", "unknown condition `rolover`"),
            ("jewels", "needs a value"),
            ("jewels>=", "is not a count"),
            ("jewels>=-1", "is not a count"),
            ("jewels>=1e9", "is not a count"),
            ("jewels>=99999999999999999999", "is not a count"),
            ("rollover>=3", "takes no value"),
        ] {
            let error = Until::parse(bad, &offered()).expect_err(bad);
            assert!(error.contains(says), "{bad}: {error}");
        }
        assert!(Until::parse("rolover", &offered())
            .expect_err("unknown")
            .contains("jewels>=N"));
        assert!(Until::parse("rollover", &[])
            .expect_err("none")
            .contains("no plug-in"));
    }
}
