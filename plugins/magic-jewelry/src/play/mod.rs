//! Plays the game through the controller from power-on, forever: starts games, unpauses,
//! decides where each column goes when it spawns, and presses the buttons to get it there
//! frame by frame, never writing the game's state.

pub mod foresight;
pub mod injector;
pub mod plan;
pub mod tracker;

use crate::engine::rules::board::WIDTH;
use crate::engine::{
    self, AnyEvaluator, Board, Column, ColumnGenerator, Counters, Explanation, FallState,
    Foresight, ForesightConfig, InputModel, Objective, RuleSet, Situation, Strategy,
};
use crate::game_view::{GameView, Phase};
use foresight::{Reading, SeenColumns};
use injector::{Injector, Seen, Step};
use jewelbot_plugin::Buttons;
use plan::Plan;
use std::fmt;
use std::time::Duration;
use tracker::Events;

/// Re-plans of one column before the player gives up on it and lets it fall.
const MAX_REPLANS: u32 = 8;

/// The most a foresight decision takes before it settles for the depth it reached (the work
/// budget alone takes some 4-8 ms on a desktop core; a frame lasts 16.6 ms).
const FORESIGHT_TIME: Duration = Duration::from_millis(12);

/// How the AI presses buttons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// A pace a person can follow: a press every 10 frames, the column left to fall.
    #[default]
    Normal,
    /// As few frames a column as the game allows: a press every frame it takes one, the soft
    /// drop armed as early as the moves allow.
    Fast,
}

impl Mode {
    pub const NAMES: [&'static str; 2] = ["normal", "fast"];

    pub fn toggled(self) -> Self {
        match self {
            Self::Normal => Self::Fast,
            Self::Fast => Self::Normal,
        }
    }

    pub fn input_model(self) -> InputModel {
        match self {
            Self::Normal => InputModel::NORMAL,
            Self::Fast => InputModel::FAST,
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Normal => "normal",
            Self::Fast => "fast",
        })
    }
}

impl std::str::FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "normal" => Ok(Self::Normal),
            "fast" => Ok(Self::Fast),
            other => Err(format!("unknown mode `{other}` (normal or fast)")),
        }
    }
}

/// Decision times in buckets of 10 µs (the last collects longer ones), for the median.
const TIME_BUCKETS: usize = 2000;
const BUCKET_MICROS: u64 = 10;

/// How long decisions took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecisionTimes {
    buckets: Box<[u32; TIME_BUCKETS]>,
    count: u64,
    total: Duration,
    max: Duration,
}

impl Default for DecisionTimes {
    fn default() -> Self {
        Self {
            buckets: Box::new([0; TIME_BUCKETS]),
            count: 0,
            total: Duration::ZERO,
            max: Duration::ZERO,
        }
    }
}

impl DecisionTimes {
    pub fn record(&mut self, elapsed: Duration) {
        let bucket = (elapsed.as_micros() as u64 / BUCKET_MICROS) as usize;
        self.buckets[bucket.min(TIME_BUCKETS - 1)] += 1;
        self.count += 1;
        self.total += elapsed;
        self.max = self.max.max(elapsed);
    }

    pub fn count(&self) -> u64 {
        self.count
    }

    pub fn mean(&self) -> Duration {
        self.total
            .checked_div(self.count.max(1) as u32)
            .unwrap_or_default()
    }

    pub fn max(&self) -> Duration {
        self.max
    }

    /// The median, to 10 µs.
    pub fn median(&self) -> Duration {
        let mut seen = 0u64;
        for (bucket, &n) in self.buckets.iter().enumerate() {
            seen += u64::from(n);
            if 2 * seen >= self.count && self.count > 0 {
                return Duration::from_micros(bucket as u64 * BUCKET_MICROS + BUCKET_MICROS / 2);
            }
        }
        Duration::ZERO
    }
}

/// Counts of the player's own work.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlayerStats {
    pub decisions: u64,
    pub replans: u64,
    /// Locks where the plan said, and elsewhere.
    pub locked_as_planned: u64,
    pub locked_off_plan: u64,
    /// Frames on which RAM showed the column elsewhere than the presses should have put it.
    pub missed_presses: u64,
    pub confirmed_presses: u64,
    pub decision_times: DecisionTimes,
}

/// What the player's foresight did at its last decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ForesightStatus {
    /// Foresight is off: fair play, by choice.
    Off,
    /// It searched this many columns ahead from the generator state in RAM.
    Checked(usize),
    /// It searched this many columns from a state pinned from the columns seen (RAM's did not
    /// make the next column shown).
    Pinned(usize),
    /// RAM's state did not make the next column shown and the columns seen did not pin one:
    /// fair play.
    Unknown,
}

impl fmt::Display for ForesightStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Off => f.write_str("fair play"),
            Self::Checked(k) => write!(f, "foresight: {k} columns"),
            Self::Pinned(k) => write!(
                f,
                "foresight: {k} columns (generator pinned from the columns seen)"
            ),
            Self::Unknown => {
                f.write_str("fair play (foresight: generator state does not match the next column)")
            }
        }
    }
}

/// The AI at the controller.
pub struct Player {
    /// The strategy, wrapped to search the known sequence when foresight gives it one.
    strategy: Foresight,
    /// Read the generator from RAM and look ahead.
    foresight: bool,
    foresight_status: ForesightStatus,
    /// The generator's columns seen, for pinning its state when RAM's does not fit.
    seen_columns: SeenColumns,
    /// A column spawned since the last decision.
    spawned: bool,
    mode: Mode,
    plan: Option<Plan>,
    replans: u32,
    injector: Injector,
    /// The buttons returned for the frame now running: the game's "held last frame".
    pressed: Buttons,
    stats: PlayerStats,
    /// The explanation of a decision not yet taken by [`Player::take_explanation`].
    fresh_explanation: Option<String>,
}

impl Player {
    pub fn new(strategy: Box<dyn Strategy>, mode: Mode) -> Self {
        Self {
            strategy: Foresight::new(
                strategy,
                ForesightConfig {
                    time: Some(FORESIGHT_TIME),
                    ..ForesightConfig::default()
                },
            ),
            foresight: false,
            foresight_status: ForesightStatus::Off,
            seen_columns: SeenColumns::default(),
            spawned: true,
            mode,
            plan: None,
            replans: 0,
            injector: Injector::default(),
            pressed: Buttons::NONE,
            stats: PlayerStats::default(),
            fresh_explanation: None,
        }
    }

    /// A player using the strategy called `name` (see [`engine::strategy_by_name`]).
    pub fn with_strategy_name(
        name: &str,
        evaluation: &AnyEvaluator,
        mode: Mode,
        objective: Objective,
    ) -> Result<Self, String> {
        engine::strategy_for(name, evaluation.clone(), objective)
            .map(|s| Self::new(s, mode))
            .map_err(|e| e.to_string())
    }

    pub fn strategy_name(&self) -> &'static str {
        self.strategy.name()
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Switches foresight: the generator state is read from RAM and the known columns are
    /// searched ([`Foresight`]); off, the player sees what a person sees.
    pub fn set_foresight(&mut self, on: bool) {
        self.foresight = on;
        if !on {
            self.foresight_status = ForesightStatus::Off;
        }
    }

    pub fn foresight(&self) -> bool {
        self.foresight
    }

    /// How far foresight searches.
    pub fn set_foresight_config(&mut self, config: ForesightConfig) {
        self.strategy.set_config(config);
    }

    /// What foresight did at the last decision.
    pub fn foresight_status(&self) -> ForesightStatus {
        self.foresight_status
    }

    /// Switches mode at once: the current column is re-planned at the new pace.
    pub fn set_mode(&mut self, mode: Mode) {
        if mode != self.mode {
            self.mode = mode;
            self.plan = None;
        }
    }

    /// Limits the time of one decision (`None`: none, so every run makes the same choices).
    pub fn set_budget(&mut self, budget: Option<Duration>) {
        self.strategy.set_budget(budget);
    }

    pub fn plan(&self) -> Option<&Plan> {
        self.plan.as_ref()
    }

    /// Why the last decision won, once per decision.
    pub fn take_explanation(&mut self) -> Option<String> {
        self.fresh_explanation.take()
    }

    pub fn stats(&self) -> PlayerStats {
        let mut stats = self.stats.clone();
        stats.missed_presses = self.injector.misses;
        stats.confirmed_presses = self.injector.confirmed;
        stats
    }

    /// Forgets the column in hand (after a reset or state load, or when control changes).
    pub fn forget(&mut self) {
        self.seen_columns.clear();
        self.spawned = true;
        self.plan = None;
        self.injector.restart();
        self.pressed = Buttons::NONE;
    }

    /// The buttons to hold during the next frame, given this frame's view.
    pub fn on_frame(&mut self, view: &GameView, events: Events) -> Buttons {
        if let (Some(locked), Some(plan)) = (events.locked, &self.plan) {
            let on_target = plan.is_on_target(locked.x, Column(locked.jewels));
            if on_target {
                self.stats.locked_as_planned += 1;
            } else {
                self.stats.locked_off_plan += 1;
            }
        }
        if events.spawned {
            self.plan = None;
            self.replans = 0;
            self.spawned = true;
        }
        if matches!(view.phase, Phase::Title | Phase::GameOver | Phase::Setup) {
            // A new game reseeds the generator.
            self.seen_columns.clear();
        }
        let buttons = match view.phase {
            // The title takes Start from its first frame: a press every other frame until the
            // game sets up.
            Phase::Title | Phase::Paused => self.tap(Buttons::START),
            // After a game over the game waits for Start held, and resets; holding it on through
            // the reset starts the next game.
            Phase::GameOver => Buttons::START,
            Phase::Setup if self.pressed.contains(Buttons::START) => Buttons::START,
            Phase::Falling => self.steer(view),
            // Set-up, clears, wild columns and spawns: presses there are lost or do harm.
            Phase::Setup
            | Phase::Clearing
            | Phase::WildPending
            | Phase::WildResolving
            | Phase::BetweenColumns
            | Phase::Spawning => Buttons::NONE,
        };
        if view.phase != Phase::Falling {
            self.plan = None;
        }
        self.pressed = buttons;
        buttons
    }

    /// `button` newly pressed on every other frame.
    fn tap(&self, button: Buttons) -> Buttons {
        if self.pressed.contains(button) {
            Buttons::NONE
        } else {
            button
        }
    }

    fn steer(&mut self, view: &GameView) -> Buttons {
        let Some(falling) = view.falling else {
            return Buttons::NONE;
        };
        let Ok(board) = Board::from_grid(&view.board.0) else {
            return Buttons::NONE;
        };
        let mut rest = [0i8; WIDTH];
        for (x, r) in rest.iter_mut().enumerate() {
            *r = board.rest_row(x);
        }
        let jewels = Column(falling.jewels);
        let seen = Seen {
            x: falling.x,
            y: falling.y,
            jewels,
            armed: view.soft_drop,
        };
        for _ in 0..2 {
            if self.plan.is_none() {
                if self.replans > MAX_REPLANS {
                    return Buttons::NONE;
                }
                self.plan = self.decide(view, &board, jewels);
                self.injector.restart();
            }
            let Some(plan) = self.plan.as_ref() else {
                return Buttons::NONE;
            };
            match self.injector.step(plan, seen, &rest) {
                Step::Press(buttons) => return buttons,
                Step::Replan => {
                    self.plan = None;
                    self.replans += 1;
                    self.stats.replans += 1;
                }
            }
        }
        Buttons::NONE
    }

    fn decide(&mut self, view: &GameView, board: &Board, jewels: Column) -> Option<Plan> {
        let falling = view.falling?;
        let next = Column(view.next);
        let start = FallState {
            x: falling.x,
            y: falling.y as i8,
            arrangement: 0,
            timer: view.fall_timer,
            speed: view.fall_speed,
            armed: view.soft_drop,
            held: self.pressed,
        };
        let input = self.mode.input_model();
        let generator = self.foresee(view, jewels, next);
        self.strategy.observe(&Situation {
            counters: Counters {
                since_wild: u32::from(view.removed),
                combo: view.combo,
                level: view.level_index,
                ..Counters::default()
            },
            generator,
        });
        let decision =
            self.strategy
                .decide(board, jewels, next.is_valid().then_some(next), start, input)?;
        self.stats.decisions += 1;
        self.stats.decision_times.record(decision.elapsed);
        let mut plan = Plan::new(&decision, jewels, start);
        if let Some(why) = Explanation::of(RuleSet::Real, board, jewels, &decision) {
            plan.explanation = Some(why.to_string());
            plan.short_explanation = Some(why.short());
        }
        self.fresh_explanation.clone_from(&plan.explanation);
        Some(plan)
    }

    /// The column sequence ahead for this decision, when foresight is on and RAM's generator
    /// state (or the columns seen) can be trusted.
    fn foresee(
        &mut self,
        view: &GameView,
        falling: Column,
        next: Column,
    ) -> Option<ColumnGenerator> {
        let spawned = std::mem::take(&mut self.spawned);
        self.seen_columns.see(falling, next, spawned);
        if !self.foresight {
            return None;
        }
        let depth = self.strategy.config().depth;
        let reading = foresight::read(view.generator, next, &self.seen_columns);
        self.foresight_status = match reading {
            Reading::Checked(_) => ForesightStatus::Checked(depth),
            Reading::Pinned(_) => ForesightStatus::Pinned(depth),
            Reading::Unknown => ForesightStatus::Unknown,
        };
        reading.generator().map(ColumnGenerator::Game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory_map as map;

    fn view(phase_bytes: &[(u16, u8)]) -> GameView {
        let mut ram = [0u8; 0x800];
        ram[map::FALL_SPEED as usize] = 63;
        ram[map::SPEED_IN_FORCE as usize] = 63;
        ram[map::CURRENT_COLUMN as usize..][..3].copy_from_slice(&[1, 2, 3]);
        ram[map::NEXT_COLUMN as usize..][..3].copy_from_slice(&[4, 5, 6]);
        for &(address, value) in phase_bytes {
            ram[address as usize] = value;
        }
        GameView::decode(&ram).expect("consistent")
    }

    fn player() -> Player {
        Player::with_strategy_name(
            "simple",
            &AnyEvaluator::default(),
            Mode::Fast,
            Objective::Survive,
        )
        .expect("simple exists")
    }

    fn presses(player: &mut Player, view: &GameView, frames: u32) -> Vec<Buttons> {
        (0..frames)
            .map(|_| player.on_frame(view, Events::default()))
            .collect()
    }

    #[test]
    fn the_title_gets_start_at_once_and_every_other_frame() {
        let title = view(&[(map::TITLE, map::TITLE_SHOWN)]);
        assert_eq!(title.phase, Phase::Title);
        let pressed = presses(&mut player(), &title, 4);
        assert_eq!(
            pressed,
            [Buttons::START, Buttons::NONE, Buttons::START, Buttons::NONE]
        );
    }

    #[test]
    fn clears_never_get_a_press() {
        let clearing = view(&[(map::CLEARING, 4), (map::ANIMATION, 12)]);
        assert_eq!(clearing.phase, Phase::Clearing);
        assert!(presses(&mut player(), &clearing, 2000)
            .iter()
            .all(|b| b.is_empty()));
    }

    /// A column just spawned at (3, 0) on an empty board, with the generator state `state`.
    fn spawned(current: Column, next: Column, state: u16) -> GameView {
        let mut ram = [0u8; 0x800];
        ram[map::FALL_SPEED as usize] = 63;
        ram[map::SPEED_IN_FORCE as usize] = 63;
        ram[map::COLUMN_X as usize] = 3;
        ram[map::CURRENT_COLUMN as usize..][..3].copy_from_slice(&current.0);
        ram[map::NEXT_COLUMN as usize..][..3].copy_from_slice(&next.0);
        for (row, jewel) in (-2..=0).zip(current.0) {
            ram[map::cell_address(row, 3) as usize] = jewel;
        }
        ram[map::GENERATOR as usize..][..2].copy_from_slice(&state.to_le_bytes());
        let view = GameView::decode(&ram).expect("consistent");
        assert_eq!(view.phase, Phase::Falling);
        view
    }

    fn foresight_at(view: &GameView) -> (ForesightStatus, bool) {
        let mut player = player();
        player.set_foresight(true);
        let spawn = Events {
            spawned: true,
            ..Events::default()
        };
        player.on_frame(view, spawn);
        (player.foresight_status(), player.plan().is_some())
    }

    #[test]
    fn foresight_trusts_the_generator_only_when_it_made_the_next_column() {
        let mut generator = engine::GameGenerator::new(0x5A17);
        let (current, next) = (generator.next_column(), generator.next_column());
        let state = generator.state();
        let depth = ForesightConfig::default().depth;
        assert_eq!(
            foresight_at(&spawned(current, next, state)),
            (ForesightStatus::Checked(depth), true)
        );
        // $44/$45 poked: the two columns seen pin the offset they came from, or nothing.
        let poked = foresight_at(&spawned(current, next, state ^ 0x0300)).0;
        assert!(
            matches!(poked, ForesightStatus::Pinned(_) | ForesightStatus::Unknown),
            "{poked}"
        );
        // Columns no state of the generator made in a row: fair play, and still a plan.
        let (one, two) = (Column::new(1, 1, 1), Column::new(1, 1, 1));
        let (status, planned) = foresight_at(&spawned(one, two, state));
        assert_eq!((status, planned), (ForesightStatus::Unknown, true));
        assert_eq!(
            status.to_string(),
            "fair play (foresight: generator state does not match the next column)"
        );
        // Off: never read.
        let mut fair = player();
        fair.on_frame(&spawned(current, next, state), Events::default());
        assert_eq!(fair.foresight_status(), ForesightStatus::Off);
    }

    #[test]
    fn a_pause_is_lifted() {
        let paused = view(&[(map::PAUSE, 0xFF)]);
        assert_eq!(paused.phase, Phase::Paused);
        assert_eq!(presses(&mut player(), &paused, 1), [Buttons::START]);
    }
}
