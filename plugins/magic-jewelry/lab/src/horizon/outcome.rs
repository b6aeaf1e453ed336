//! How a start ended, and the words that say it.

use super::expected_repeat::ExpectedRepeat;
use super::state::SpawnState;
use serde::Serialize;

/// How a start ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "outcome")]
pub enum Outcome {
    /// The state at column `cycle_start` came back at `cycle_start + period`, and one more
    /// period repeated it state for state: the game goes on for ever.
    Perpetual {
        cycle_start: u64,
        /// The first column whose state the proof knew: 0 unless the game went on from a
        /// checkpoint whose column log was gone. A cycle found to start there may start
        /// earlier.
        #[serde(skip_serializing_if = "is_zero")]
        states_kept_from: u64,
        period: u64,
        /// The cycle's name: the same cycle has it in every run ([`super::Known::cycle_name`]).
        #[serde(serialize_with = "hex")]
        cycle: u64,
        /// The most jewels on the board after any lock, from the start on.
        most_jewels: u32,
        /// The most jewels within the cycle.
        most_jewels_in_cycle: u32,
        /// Points and cells removed over one period.
        points_per_period: u64,
        jewels_per_period: u64,
        /// The cycle's first state.
        first_state: SpawnState,
        #[serde(skip)]
        first_board: String,
    },
    /// At this column the game reached a state of an earlier start's game that was proven
    /// perpetual, so it is too, with that game's cycle.
    Joined {
        column: u64,
        /// The start whose game it joined, and that game's cycle and period.
        start: u16,
        #[serde(serialize_with = "hex")]
        cycle: u64,
        period: u64,
        /// The most jewels, before the meeting and after it.
        most_jewels: u32,
        /// The most jewels after the meeting, into and around the cycle.
        #[serde(skip)]
        most_jewels_ahead: u32,
    },
    /// The game ended at this column (the lock that lost it).
    GameOver { column: u64, most_jewels: u32 },
    /// A stop was asked for at this column, before either; the checkpoint, if any, keeps the
    /// game so that the same command goes on from it.
    Stopped { columns: u64, most_jewels: u32 },
    /// Neither within the columns allowed.
    Undecided {
        columns: u64,
        most_jewels: u32,
        /// When the states seen so far say a repeat may come ([`super::expected_repeat()`]).
        #[serde(skip_serializing_if = "Option::is_none")]
        expected_repeat: Option<ExpectedRepeat>,
    },
}

impl Outcome {
    pub fn is_stopped(&self) -> bool {
        matches!(self, Self::Stopped { .. })
    }

    /// The column its game was played to: its repeat and one more period (a proof), the state
    /// it met (joined), its game over, or where it stopped or ran out of columns.
    pub fn columns_played(&self) -> u64 {
        match self {
            Self::Perpetual {
                cycle_start,
                period,
                ..
            } => cycle_start + 2 * period,
            Self::Joined { column, .. } | Self::GameOver { column, .. } => *column,
            Self::Stopped { columns, .. } | Self::Undecided { columns, .. } => *columns,
        }
    }
}

/// One start's result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StartResult {
    pub generator_state: u16,
    #[serde(flatten)]
    pub outcome: Outcome,
    pub seconds: f64,
}

/// A cycle's name as results show it: 16 hex digits.
#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `serialize_with` passes a reference
fn hex<S: serde::Serializer>(name: &u64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&format!("{name:016x}"))
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` passes a reference
fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// One start's result in words.
pub fn describe(result: &StartResult) -> String {
    let start = format!("from generator state {:#06X}", result.generator_state);
    match &result.outcome {
        Outcome::Perpetual {
            cycle_start,
            states_kept_from,
            period,
            most_jewels,
            most_jewels_in_cycle,
            points_per_period,
            jewels_per_period,
            cycle,
            ..
        } => {
            // Found at the first state known, the cycle may have begun before it.
            let earlier = if *states_kept_from > 0 && cycle_start == states_kept_from {
                format!(
                    " (its states before column {cycle_start} were not kept: the cycle may \
                     begin earlier)"
                )
            } else {
                String::new()
            };
            format!(
                "{start}: proven perpetual: the state at column {cycle_start} recurs at column \
                 {}; from column {cycle_start} the game repeats every {period} columns (cycle \
                 {cycle:016x}){earlier}, no game over, at most {most_jewels} jewels \
                 ({most_jewels_in_cycle} within the cycle); a period scores \
                 {points_per_period} points and removes {jewels_per_period} cells ({:.1} s)",
                cycle_start + period,
                result.seconds
            )
        }
        Outcome::Joined {
            column,
            start: joined,
            cycle,
            period,
            most_jewels,
            ..
        } => format!(
            "{start}: proven perpetual: at column {column} its game reaches a state of the game \
             from {joined:#06X}, proven perpetual in cycle {cycle:016x} with a period of \
             {period} columns; at most {most_jewels} jewels ({:.1} s)",
            result.seconds
        ),
        Outcome::GameOver {
            column,
            most_jewels,
        } => format!(
            "{start}: game over at column {column} (at most {most_jewels} jewels before) ({:.1} s)",
            result.seconds
        ),
        Outcome::Stopped {
            columns,
            most_jewels,
        } => format!(
            "{start}: stopped at column {columns}, undecided (at most {most_jewels} jewels) \
             ({:.1} s)",
            result.seconds
        ),
        Outcome::Undecided {
            columns,
            most_jewels,
            expected_repeat,
        } => {
            let expected = expected_repeat.map_or(String::new(), |e| {
                let (seen, when, below) = if e.lower_bound {
                    ("no board came twice: ", "no sooner than near", " below")
                } else {
                    ("", "near", "")
                };
                let near = e.near_misses;
                let (met, near_when) = if near.lower_bound {
                    ("no near miss yet".to_string(), "no sooner than near")
                } else {
                    (format!("{} near misses", near.count), "near")
                };
                format!(
                    "; {seen}were its map random, a state would come back {when} column {:.2e} \
                     (two spawns hold the same board with chance{below} {:.2e}, the same \
                     counters with chance {:.2e}); from {met} (the same board and columns \
                     dealt, other counters, which agree with chance {:.2e}), {near_when} \
                     column {:.2e}",
                    e.column, e.same_board, e.same_counters, near.same_rest, near.column
                )
            });
            format!(
                "{start}: undecided after {columns} columns: no game over and no state seen \
                 twice (at most {most_jewels} jewels){expected} ({:.1} s)",
                result.seconds
            )
        }
    }
}
