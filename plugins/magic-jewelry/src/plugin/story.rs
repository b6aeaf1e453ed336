//! What the plug-in tells a watcher at a glance (the window's dashboard): how much it has
//! played, how well it scores, its biggest chain, how tall the board has got, how quickly it
//! decides, and charts of the board's fill and the points of the last columns.

use super::MagicJewelryPlugin;
use crate::play::history::ColumnRecord;
use jewelbot_plugin::{grouped, Chart, Figure, Story};

/// Frames a second of the NES's NTSC picture, for columns a minute of game time.
const NES_FRAMES_PER_SECOND: f64 = 60.0988;

pub(super) fn tell(plugin: &MagicJewelryPlugin, recent: usize) -> Story {
    let stats = plugin.tracker.stats();
    let columns = plugin.history.columns();
    let chains = plugin.history.chains();
    let recent = &columns[columns.len().saturating_sub(recent)..];
    let mut figures = vec![
        Figure::new("columns", grouped(stats.columns_placed)),
        Figure::new("jewels cleared", grouped(stats.jewels_cleared)),
        Figure::new(
            "points a column",
            match columns.len() {
                0 => "-".to_owned(),
                n => grouped((chains.points as f64 / n as f64).round() as u64),
            },
        ),
        Figure::new(
            "biggest chain",
            match chains.longest {
                0 => "-".to_owned(),
                steps => format!(
                    "{steps} step{}, {}",
                    if steps == 1 { "" } else { "s" },
                    grouped(chains.longest_points)
                ),
            },
        ),
        Figure::new("best lock", grouped(chains.best_points)),
        Figure::new(
            "tallest stack",
            format!(
                "{} now, max {}",
                recent.last().map_or(0, |c| c.tallest),
                plugin.history.tallest()
            ),
        ),
        Figure::new("game overs", grouped(stats.game_overs)),
        Figure::new("columns/minute", columns_a_minute(recent)),
    ];
    if let Some(player) = &plugin.player {
        let times = &player.stats().decision_times;
        figures.push(Figure::new(
            "decision ms",
            format!("{}, max {}", millis(times.median()), millis(times.max())),
        ));
    }
    let chart = |label: &str, value: fn(&ColumnRecord) -> f64| Chart {
        label: label.to_owned(),
        values: recent.iter().map(value).collect(),
    };
    Story {
        figures,
        charts: vec![
            chart("jewels on the board", |c| f64::from(c.jewels_on_board)),
            chart("points a column", |c| f64::from(c.points)),
        ],
    }
}

/// Columns a minute of game time over `recent` columns.
fn columns_a_minute(recent: &[ColumnRecord]) -> String {
    match (recent.first(), recent.last()) {
        (Some(first), Some(last)) if last.frame > first.frame => {
            let minutes = (last.frame - first.frame) as f64 / NES_FRAMES_PER_SECOND / 60.0;
            format!("{:.0}", (recent.len() - 1) as f64 / minutes)
        }
        _ => "-".to_owned(),
    }
}

/// Milliseconds to a tenth, or to a hundredth below 1.
fn millis(d: std::time::Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms < 1.0 {
        format!("{ms:.2}")
    } else {
        format!("{ms:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_in_milliseconds() {
        assert_eq!(millis(std::time::Duration::from_micros(870)), "0.87");
        assert_eq!(millis(std::time::Duration::from_micros(13_140)), "13.1");
    }

    #[test]
    fn columns_a_minute_count_game_time() {
        let at = |frame| ColumnRecord {
            frame,
            jewels_on_board: 0,
            level: 0,
            fall_speed: 8,
            points: 0,
            decision_us: 0,
            steps: 0,
            tallest: 0,
        };
        // 61 columns spawned over one minute of frames: 60 a minute.
        let frames_a_minute = (NES_FRAMES_PER_SECOND * 60.0) as u64;
        let records: Vec<_> = (0..=60).map(|i| at(i * frames_a_minute / 60)).collect();
        assert_eq!(columns_a_minute(&records), "60");
        assert_eq!(columns_a_minute(&records[..1]), "-");
        assert_eq!(columns_a_minute(&[]), "-");
    }
}
