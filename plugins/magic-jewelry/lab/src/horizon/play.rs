//! Playing a start: column by column until the game ends, a state comes back (then checked
//! over one more period) or the columns allowed run out.

use super::game_so_far::{Progress, Repeat};
use super::known::{Fate, Known, Lesson};
use super::state::{Fnv, SpawnState};
use super::{expected_repeat, Outcome};
use crate::column::{play_column, Choose};
use crate::stop::Stop;
use magic_jewelry_engine::{Game, GameGenerator, InputModel, Question};
use std::collections::hash_map::Entry;
use std::collections::HashMap;

/// Columns a player's fingerprint plays.
pub const FINGERPRINT_COLUMNS: u64 = 200;

/// What tells one player from another: its choices over the power-on's first
/// [`FINGERPRINT_COLUMNS`] columns, hashed (FNV-1a). Results and checkpoints carry it, so that
/// those of a player that decides otherwise (another build, another setting) are refused rather
/// than mixed into a proof.
pub fn player_fingerprint(choose: &mut Choose<'_>) -> String {
    use std::hash::Hasher;
    let mut game = Game::from_generator_state(GameGenerator::POWER_ON_STATE);
    let mut hash = Fnv::default();
    for _ in 0..FINGERPRINT_COLUMNS {
        let question = Question::at_spawn(&game, InputModel::FAST, true);
        let choice = choose(&question);
        hash.write(&choice.map_or([0xFF; 2], |(x, arrangement)| [x, arrangement]));
        if game.play(choice).lost {
            break;
        }
    }
    format!("{:016x}", hash.finish())
}

/// Plays from `state` until the game ends, a state repeats (then checked over one more
/// period), or `max_columns` have been played; `tick` is called every 4,096 columns.
pub fn play_start(
    choose: &mut Choose<'_>,
    state: u16,
    max_columns: u64,
    known: &Known,
    tick: impl FnMut(u64),
) -> Outcome {
    play_start_from(
        choose,
        state,
        max_columns,
        known,
        tick,
        None,
        &mut |_, _, _| {},
        &|| false,
    )
    .0
}

/// [`play_start`] going on from a game in progress (`resumed`: what a checkpoint kept, and the
/// game at its state now), offering the progress to `save` every 4,096 columns, and once more
/// (`true`: the last) when the start stops undecided or `stop` asks it to, so that a later run
/// can go on. Returns the outcome and what `known` learned from it.
#[allow(clippy::too_many_arguments)]
pub fn play_start_from(
    choose: &mut Choose<'_>,
    state: u16,
    max_columns: u64,
    known: &Known,
    mut tick: impl FnMut(u64),
    resumed: Option<(Progress, Game)>,
    save: &mut dyn FnMut(&Progress, &Game, bool),
    stop: &Stop,
) -> (Outcome, Vec<Lesson>) {
    let (outcome, progress) = play_start_states(
        choose,
        state,
        max_columns,
        known,
        &mut tick,
        resumed,
        save,
        stop,
    );
    let lessons = known.learn(state, &progress, &outcome);
    (outcome, lessons)
}

/// [`play_start_from`], with the states the game went through.
#[allow(clippy::too_many_arguments)]
pub(super) fn play_start_states(
    choose: &mut Choose<'_>,
    state: u16,
    max_columns: u64,
    known: &Known,
    tick: &mut dyn FnMut(u64),
    resumed: Option<(Progress, Game)>,
    save: &mut dyn FnMut(&Progress, &Game, bool),
    stop: &Stop,
) -> (Outcome, Progress) {
    let input = InputModel::FAST;
    let (mut p, mut game) =
        resumed.unwrap_or_else(|| (Progress::default(), Game::from_generator_state(state)));
    // Each state's column, by a 64-bit fingerprint (the full state is kept in `order`).
    let mut first_seen: HashMap<u64, u64> = HashMap::new();
    for (k, seen) in p.order.iter().enumerate() {
        let column = p.kept_from + k as u64;
        match first_seen.entry(known.fingerprint(seen)) {
            Entry::Vacant(entry) => {
                entry.insert(column);
            }
            // A state kept twice: the checkpoint was taken within the check of its period,
            // which goes on from where it was.
            Entry::Occupied(entry) if known.same(&p.order[p.index(*entry.get())], seen) => {
                let first = *entry.get();
                let outcome = checked_cycle(
                    choose, &mut game, input, known, first, column, &mut p, tick, save, stop,
                );
                return (outcome, p);
            }
            Entry::Occupied(_) => {}
        }
    }
    for column in p.columns()..max_columns {
        if stop() {
            if p.columns() > 0 {
                save(&p, &game, true);
            }
            let outcome = Outcome::Stopped {
                columns: column,
                most_jewels: p.most_jewels,
            };
            return (outcome, p);
        }
        let now = SpawnState::of(&game);
        let key = known.fingerprint(&now);
        if let Some(&first) = first_seen.get(&key) {
            if known.same(&p.order[p.index(first)], &now) {
                let outcome = checked_cycle(
                    choose, &mut game, input, known, first, column, &mut p, tick, save, stop,
                );
                return (outcome, p);
            }
        }
        let most_jewels = p.most_jewels;
        match known.fate(key, &now) {
            Some(Fate::Perpetual {
                start,
                cycle,
                period,
                most_jewels: ahead,
            }) => {
                let outcome = Outcome::Joined {
                    column,
                    start,
                    cycle,
                    period,
                    most_jewels: most_jewels.max(ahead),
                    most_jewels_ahead: ahead,
                };
                return (outcome, p);
            }
            Some(Fate::Lost {
                columns,
                most_jewels: ahead,
            }) => {
                let outcome = Outcome::GameOver {
                    column: column + columns,
                    most_jewels: most_jewels.max(ahead),
                };
                return (outcome, p);
            }
            None => {}
        }
        first_seen.entry(key).or_insert(column);
        p.order.push(now);
        let step = play_column(choose, &mut game, input);
        p.most_jewels = p.most_jewels.max(step.jewels);
        p.steps.push(step);
        if step.lost {
            let outcome = Outcome::GameOver {
                column,
                most_jewels: p.most_jewels,
            };
            return (outcome, p);
        }
        if column % 4096 == 4095 {
            tick(column + 1);
            save(&p, &game, false);
        }
    }
    save(&p, &game, true);
    let outcome = Outcome::Undecided {
        columns: max_columns,
        most_jewels: p.most_jewels,
        expected_repeat: expected_repeat(p.order.iter().map(|state| state.key(known.blind))),
    };
    (outcome, p)
}

/// The state at `first` came back at `again`: plays one more period from `again` on (from where
/// `progress` ends, when a checkpoint taken within the check resumed it), and it is a cycle
/// only if every state of it is the first period's. The states of the check are kept as the
/// game's others are, and saved as often, so that a check of hours resumes where it stopped
/// ([`Outcome::Stopped`] there when `stop` asks before the check ends).
#[allow(clippy::too_many_arguments)]
pub(super) fn checked_cycle(
    choose: &mut Choose<'_>,
    game: &mut Game,
    input: InputModel,
    known: &Known,
    first: u64,
    again: u64,
    progress: &mut Progress,
    tick: &mut dyn FnMut(u64),
    save: &mut dyn FnMut(&Progress, &Game, bool),
    stop: &Stop,
) -> Outcome {
    let period = again - first;
    let most_jewels = progress.most_jewels;
    progress.repeat = Some(Repeat { first, again });
    for column in progress.columns()..again + period {
        if stop() {
            save(progress, game, true);
            return Outcome::Stopped {
                columns: column,
                most_jewels,
            };
        }
        let undecided = Outcome::Undecided {
            columns: column,
            most_jewels,
            expected_repeat: None,
        };
        // The same column of the first period.
        let k = progress.index(column - period);
        let now = SpawnState::of(game);
        if !known.same(&now, &progress.order[k]) {
            // Not a cycle after all (cannot happen for a deterministic player): undecided.
            return undecided;
        }
        progress.order.push(now);
        let step = play_column(choose, game, input);
        progress.steps.push(step);
        if step.lost || step.jewels != progress.steps[k].jewels {
            return undecided;
        }
        if column % 4096 == 4095 {
            tick(column + 1);
            save(progress, game, false);
        }
    }
    let cycle = progress.index(first)..progress.index(again);
    let in_cycle = &progress.steps[cycle.clone()];
    let first_state = progress.order[cycle.start];
    Outcome::Perpetual {
        cycle_start: first,
        states_kept_from: progress.kept_from,
        period,
        cycle: known.cycle_name(&progress.order[cycle]),
        most_jewels,
        most_jewels_in_cycle: in_cycle.iter().map(|s| s.jewels).max().unwrap_or(0),
        points_per_period: in_cycle.iter().map(|s| s.points).sum(),
        jewels_per_period: in_cycle.iter().map(|s| s.removed).sum(),
        first_state,
        first_board: first_state.board.to_string(),
    }
}
