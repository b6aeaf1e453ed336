//! Plays the game through the controller from power-on, forever: starts games, unpauses,
//! decides where each column goes when it spawns, and presses the buttons to get it there
//! frame by frame, never writing the game's state.

pub mod foresight;
pub mod history;
pub mod injector;
pub mod plan;
pub mod tracker;
pub mod worker;

use crate::engine::rules::board::WIDTH;
use crate::engine::rules::scoring::MAX_COMBO;
use crate::engine::{
    self, reachable, AnyEvaluator, Board, Budget, Column, ColumnGenerator, Counters, FallState,
    Foresight, ForesightConfig, GameGenerator, InputModel, Objective, Question, RuleSet, Strategy,
};
use crate::game_view::{GameView, Phase};
use foresight::{Reading, SeenColumns};
use injector::{Injector, Seen, Step};
use jewelbot_plugin::Buttons;
use plan::Plan;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tracker::Events;
use worker::{Answer, Heard, MakeStrategy, Worker};

/// Re-plans of one column before the player gives up on it and lets it fall.
const MAX_REPLANS: u32 = 8;

/// The most a foresight decision takes, with a time budget, before it settles for the depth it
/// reached (the work budget alone takes some 4-8 ms on a desktop core).
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

/// What the player does when a game ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AfterGameOver {
    /// Start held: the game resets and a new game starts (the game's normal flow).
    #[default]
    Restart,
    /// Select, Start and Right held: the hidden continue empties the board and keeps the
    /// score, the levels, the speed and the generator; a new Start press plays on.
    Continue,
}

impl AfterGameOver {
    pub const NAMES: [&'static str; 2] = ["restart", "continue"];

    /// The buttons held on the game-over screen.
    fn buttons(self) -> Buttons {
        match self {
            Self::Restart => Buttons::START,
            Self::Continue => Buttons::SELECT | Buttons::START | Buttons::RIGHT,
        }
    }
}

impl fmt::Display for AfterGameOver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Restart => "restart",
            Self::Continue => "continue",
        })
    }
}

impl std::str::FromStr for AfterGameOver {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "restart" => Ok(Self::Restart),
            "continue" => Ok(Self::Continue),
            other => Err(format!(
                "unknown after-game-over `{other}` (restart or continue)"
            )),
        }
    }
}

/// Decision times in buckets of 10 µs (the last collects longer ones), for the median.
const TIME_BUCKETS: usize = 2000;
const BUCKET_MICROS: u64 = 10;

/// How long decisions took.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "DecisionTimesData", try_from = "DecisionTimesData")]
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

/// [`DecisionTimes`] as serde sees it (its bucket array is longer than serde's arrays).
#[derive(Serialize, Deserialize)]
struct DecisionTimesData {
    buckets: Vec<u32>,
    count: u64,
    total_us: u64,
    max_us: u64,
}

impl From<DecisionTimes> for DecisionTimesData {
    fn from(times: DecisionTimes) -> Self {
        Self {
            buckets: times.buckets.to_vec(),
            count: times.count,
            total_us: times.total.as_micros() as u64,
            max_us: times.max.as_micros() as u64,
        }
    }
}

impl TryFrom<DecisionTimesData> for DecisionTimes {
    type Error = String;
    fn try_from(data: DecisionTimesData) -> Result<Self, String> {
        let buckets: Box<[u32; TIME_BUCKETS]> = data
            .buckets
            .into_boxed_slice()
            .try_into()
            .map_err(|_| format!("decision times need {TIME_BUCKETS} buckets"))?;
        Ok(Self {
            buckets,
            count: data.count,
            total: Duration::from_micros(data.total_us),
            max: Duration::from_micros(data.max_us),
        })
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
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerStats {
    /// Searches finished (some for columns predicted wrongly, never used).
    pub decisions: u64,
    pub replans: u64,
    /// Locks where the plan said, and elsewhere.
    pub locked_as_planned: u64,
    pub locked_off_plan: u64,
    /// Frames on which RAM showed the column elsewhere than the presses should have put it.
    pub missed_presses: u64,
    pub confirmed_presses: u64,
    /// How long the searches took (on the search thread).
    pub decision_times: DecisionTimes,
    /// Plans made from a decision searched for before the column spawned, on the board the
    /// column before was predicted to leave.
    pub foreseen: u64,
    /// Decisions that could not be carried out from where the column was when they came, so
    /// were searched for again.
    pub stale: u64,
    /// Frames a column fell with no plan, pressing nothing, while its search ran.
    pub waiting_frames: u64,
    /// Time the emulator's thread spent waiting for the search (deterministic budgets only).
    pub blocked: Duration,
    /// Search threads started again after one died.
    pub worker_restarts: u64,
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

/// The player's state between columns, for checkpoints ([`Player::snapshot`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlayerSnapshot {
    pressed: u8,
    spawned: bool,
    fresh: bool,
    first_state: Option<FallState>,
    seen_columns: SeenColumns,
    generator: Option<GameGenerator>,
    /// Questions asked and not yet used, oldest first, with whether each was foreseen.
    pending: Vec<(Question, bool)>,
    stats: PlayerStats,
    last_decision_us: u64,
}

/// A question in the worker's hands.
#[derive(Debug)]
struct Asked {
    id: u64,
    question: Question,
    /// Asked before its column spawned.
    foreseen: bool,
}

/// The AI at the controller. It decides on a search thread of its own ([`worker`]): as soon as
/// a column's plan is fixed it predicts the board the column will leave and has the next
/// column searched for, so that its decision is usually ready when it spawns. With a time
/// budget the emulator never waits (frames without a plan press nothing); with none (a work
/// budget or no budget) the player waits for each decision where it needs it, so that runs
/// repeat exactly.
pub struct Player {
    worker: Worker,
    /// Makes the fair strategy the worker's [`Foresight`] wraps.
    make_fair: MakeStrategy,
    strategy_name: &'static str,
    budget: Budget,
    /// Read the generator from RAM and look ahead.
    foresight: bool,
    foresight_config: ForesightConfig,
    foresight_status: ForesightStatus,
    /// The generator's columns seen, for pinning its state when RAM's does not fit.
    seen_columns: SeenColumns,
    /// A column spawned since the last reading of the generator.
    spawned: bool,
    /// The generator trusted for the column in hand (after it made the next column shown).
    generator: Option<GameGenerator>,
    mode: Mode,
    after_game_over: AfterGameOver,
    plan: Option<Plan>,
    replans: u32,
    /// The column in hand cannot move at all: nothing to search for until the next one.
    stuck: bool,
    /// The column in hand has just spawned: its state is what predictions start from.
    fresh: bool,
    /// A column's state on its first frame (the spawn, as the player first sees it).
    first_state: Option<FallState>,
    injector: Injector,
    /// The buttons returned for the frame now running: the game's "held last frame".
    pressed: Buttons,
    stats: PlayerStats,
    /// The explanation of a decision not yet taken by [`Player::take_explanation`].
    fresh_explanation: Option<String>,
    /// How long the last decision heard took.
    last_decision: Duration,
    next_id: u64,
    asked: Vec<Asked>,
    /// Answers come back and not yet used, with whether they were foreseen.
    heard: Vec<(Answer, bool)>,
}

/// How a decision that came back turned out.
enum Outcome {
    Plan(Plan),
    /// The column cannot move.
    Stuck,
    /// Not reachable from where the column is: search again.
    Stale,
}

impl Player {
    /// A player deciding with strategies from `make` (called again if the search thread dies),
    /// wrapped to search the known columns when foresight gives it them.
    pub fn new(make: impl Fn() -> Box<dyn Strategy> + Send + Sync + 'static, mode: Mode) -> Self {
        let make_fair: MakeStrategy = Arc::new(make);
        let foresight_config = ForesightConfig {
            time: Some(FORESIGHT_TIME),
            ..ForesightConfig::default()
        };
        let mut worker = Worker::new(Self::make_foresight(&make_fair, foresight_config));
        let (strategy_name, budget) = worker.describe();
        Self {
            worker,
            make_fair,
            strategy_name,
            budget,
            foresight: false,
            foresight_config,
            foresight_status: ForesightStatus::Off,
            seen_columns: SeenColumns::default(),
            spawned: true,
            generator: None,
            mode,
            after_game_over: AfterGameOver::default(),
            plan: None,
            replans: 0,
            stuck: false,
            fresh: false,
            first_state: None,
            injector: Injector::default(),
            pressed: Buttons::NONE,
            stats: PlayerStats::default(),
            fresh_explanation: None,
            last_decision: Duration::ZERO,
            next_id: 0,
            asked: Vec::new(),
            heard: Vec::new(),
        }
    }

    /// Strategies from `make_fair` wrapped in [`Foresight`] with `config`.
    fn make_foresight(make_fair: &MakeStrategy, config: ForesightConfig) -> MakeStrategy {
        let make_fair = Arc::clone(make_fair);
        Arc::new(move || Box::new(Foresight::new(make_fair(), config)))
    }

    /// A player using the strategy called `name` (see [`engine::strategy_for`]) for
    /// `objective`.
    pub fn with_strategy_name(
        name: &str,
        evaluation: &AnyEvaluator,
        mode: Mode,
        objective: Objective,
    ) -> Result<Self, String> {
        // Checked here, so that the worker's strategies are made from a known name.
        engine::strategy_for(name, evaluation.clone(), objective).map_err(|e| e.to_string())?;
        let (name, evaluation) = (name.to_owned(), evaluation.clone());
        Ok(Self::new(
            move || {
                engine::strategy_for(&name, evaluation.clone(), objective)
                    .unwrap_or_else(|_| Box::new(engine::Greedy::simple(evaluation.clone())))
            },
            mode,
        ))
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

    /// How far foresight searches (a new search thread takes it).
    pub fn set_foresight_config(&mut self, config: ForesightConfig) {
        self.foresight_config = config;
        self.worker = Worker::new(Self::make_foresight(&self.make_fair, config));
        self.drop_questions();
    }

    /// What foresight did at the last decision.
    pub fn foresight_status(&self) -> ForesightStatus {
        self.foresight_status
    }

    pub fn strategy_name(&self) -> &'static str {
        self.strategy_name
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Switches mode at once: the current column is re-planned at the new pace.
    pub fn set_mode(&mut self, mode: Mode) {
        if mode != self.mode {
            self.mode = mode;
            self.plan = None;
        }
    }

    pub fn after_game_over(&self) -> AfterGameOver {
        self.after_game_over
    }

    /// What to do at the next game over.
    pub fn set_after_game_over(&mut self, after: AfterGameOver) {
        self.after_game_over = after;
    }

    /// Limits the cost of one decision. Without a time limit ([`Budget::is_deterministic`])
    /// every run makes the same choices, and the player waits for each one.
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    pub fn budget(&self) -> Budget {
        self.budget
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
        stats.worker_restarts = self.worker.restarts();
        stats
    }

    /// How long the last decision heard took.
    pub fn last_decision(&self) -> Duration {
        self.last_decision
    }

    /// What carries the player on from a checkpoint as if it had not stopped: `None` while it
    /// has a column in hand (its plan is not kept). The questions in the search's hands are
    /// kept and asked again on [`Player::restore`]: with a deterministic budget their answers
    /// come out the same.
    pub fn snapshot(&self) -> Option<PlayerSnapshot> {
        if self.plan.is_some() {
            return None;
        }
        let mut pending: Vec<(u64, Question, bool)> = self
            .asked
            .iter()
            .map(|a| (a.id, a.question.clone(), a.foreseen))
            .chain(
                self.heard
                    .iter()
                    .map(|(answer, foreseen)| (answer.id, answer.question.clone(), *foreseen)),
            )
            .collect();
        pending.sort_by_key(|(id, _, _)| *id);
        Some(PlayerSnapshot {
            pressed: self.pressed.bits(),
            spawned: self.spawned,
            fresh: self.fresh,
            first_state: self.first_state,
            seen_columns: self.seen_columns.clone(),
            generator: self.generator,
            pending: pending.into_iter().map(|(_, q, f)| (q, f)).collect(),
            stats: self.stats(),
            last_decision_us: self.last_decision.as_micros() as u64,
        })
    }

    /// Takes back a [`Player::snapshot`].
    pub fn restore(&mut self, snapshot: PlayerSnapshot) {
        self.forget();
        self.pressed = Buttons::from_bits(snapshot.pressed);
        self.spawned = snapshot.spawned;
        self.fresh = snapshot.fresh;
        self.first_state = snapshot.first_state;
        self.seen_columns = snapshot.seen_columns;
        self.generator = snapshot.generator;
        self.injector.misses = snapshot.stats.missed_presses;
        self.injector.confirmed = snapshot.stats.confirmed_presses;
        self.stats = snapshot.stats;
        self.last_decision = Duration::from_micros(snapshot.last_decision_us);
        for (question, foreseen) in snapshot.pending {
            self.ask(question, foreseen);
        }
    }

    /// Forgets the column in hand (after a reset or state load, or when control changes).
    pub fn forget(&mut self) {
        self.seen_columns.clear();
        self.spawned = true;
        self.generator = None;
        self.plan = None;
        self.injector.restart();
        self.pressed = Buttons::NONE;
        self.drop_questions();
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
            self.stuck = false;
            self.fresh = true;
            self.spawned = true;
        }
        if matches!(view.phase, Phase::Title | Phase::GameOver | Phase::Setup) {
            // A new game reseeds the generator.
            self.seen_columns.clear();
        }
        let buttons = match view.phase {
            // The title takes Start from its first frame: a press every other frame until the
            // game sets up. The continue's logo waits for a new press too.
            Phase::Title | Phase::Paused | Phase::Continue => self.tap(Buttons::START),
            // After a game over the game waits for Start held, and resets; holding it on through
            // the reset starts the next game. With Select and Right it continues instead.
            Phase::GameOver => self.after_game_over.buttons(),
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
                if self.replans > MAX_REPLANS || self.stuck {
                    return Buttons::NONE;
                }
                let Some(question) = self.question(view, &board, jewels) else {
                    return Buttons::NONE;
                };
                if std::mem::take(&mut self.fresh) {
                    self.first_state = Some(question.start);
                }
                self.plan = self.plan_for(&question);
                if self.plan.is_none() {
                    if !self.stuck {
                        self.stats.waiting_frames += 1;
                    }
                    return Buttons::NONE;
                }
                self.injector.restart();
                self.foresee(view, &board);
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

    /// The game's counters as RAM shows them (a combo past the game's 9, which only a poke
    /// makes, counts as 9).
    fn counters(view: &GameView) -> Counters {
        Counters {
            since_wild: u32::from(view.removed),
            combo: view.combo.min(MAX_COMBO),
            level: view.level_index,
            ..Counters::default()
        }
    }

    /// The column in hand as it stands.
    fn question(&mut self, view: &GameView, board: &Board, jewels: Column) -> Option<Question> {
        let falling = view.falling?;
        let next = Column(view.next);
        self.generator = self.read_generator(view, jewels, next);
        Some(Question {
            board: *board,
            current: jewels,
            next: next.is_valid().then_some(next),
            start: FallState {
                x: falling.x,
                y: falling.y as i8,
                arrangement: 0,
                timer: view.fall_timer,
                speed: view.fall_speed,
                armed: view.soft_drop,
                held: self.pressed,
            },
            input: self.mode.input_model(),
            counters: Self::counters(view),
            generator: self.generator.map(ColumnGenerator::Game),
        })
    }

    /// The generator after the next column shown, when foresight is on and RAM's state (or the
    /// columns seen) can be trusted.
    fn read_generator(
        &mut self,
        view: &GameView,
        falling: Column,
        next: Column,
    ) -> Option<GameGenerator> {
        let spawned = std::mem::take(&mut self.spawned);
        self.seen_columns.see(falling, next, spawned);
        if !self.foresight {
            return None;
        }
        let depth = self.foresight_config.depth;
        let reading = foresight::read(view.generator, next, &self.seen_columns);
        self.foresight_status = match reading {
            Reading::Checked(_) => ForesightStatus::Checked(depth),
            Reading::Pinned(_) => ForesightStatus::Pinned(depth),
            Reading::Unknown => ForesightStatus::Unknown,
        };
        reading.generator()
    }

    /// Has the column after this one searched for, on the board this one's plan is predicted
    /// to leave: its jewels are the next shown (or the wild column, when the lock brings one)
    /// and the one after comes from the generator in RAM.
    fn foresee(&mut self, view: &GameView, board: &Board) {
        let Some(plan) = &self.plan else { return };
        let next = Column(view.next);
        if !next.is_valid() {
            return;
        }
        let mut counters = Self::counters(view);
        let mut after = *board;
        let placed = plan.target_jewels;
        let Ok(lock) = counters.lock(
            RuleSet::Real,
            &mut after,
            placed,
            usize::from(plan.target_x),
        ) else {
            return;
        };
        if lock.outcome.game_over {
            return;
        }
        // The generator foresight will read then: it will have made the column shown next.
        let (jewels, then, generator) = if lock.wild_due {
            (Column::WILD, next, self.generator)
        } else {
            // The column after next: from the generator foresight trusts (pinned, RAM's may
            // be wrong), else from RAM's.
            let mut generator = self.generator;
            let then = match generator.as_mut() {
                Some(trusted) => trusted.next_column(),
                None => GameGenerator::new(view.generator).next_column(),
            };
            (next, then, generator)
        };
        // The speed RAM will show on the next column's first frame: a wild column's level-up
        // is requested then and applied a frame later, so the column after a wild one starts
        // at the old speed as RAM shows it, and the one after that at the new.
        let speed = if view.level_up {
            RuleSet::Real.fall_speed(view.level_index.wrapping_add(1))
        } else {
            view.fall_speed
        };
        // It will likely be where the last column was on its first frame.
        let start = self.first_state.unwrap_or(FallState::spawn(speed));
        let question = Question {
            board: after,
            current: jewels,
            next: Some(then),
            start: FallState { speed, ..start },
            input: self.mode.input_model(),
            counters,
            generator: generator.map(ColumnGenerator::Game),
        };
        self.ask(question, true);
    }

    /// A plan for `question` if its decision is ready. With a deterministic budget it waits
    /// for the decision; otherwise it asks for one if none is coming and returns `None`.
    fn plan_for(&mut self, question: &Question) -> Option<Plan> {
        // Each round either uses an answer or waits for one; a worker that keeps dying ends it.
        for _ in 0..=2 * MAX_REPLANS {
            self.listen();
            if let Some(at) = self
                .heard
                .iter()
                .position(|(a, _)| a.question.answers(question))
            {
                let (answer, foreseen) = self.heard.swap_remove(at);
                match self.plan_from(answer, question) {
                    Outcome::Plan(plan) => {
                        self.stats.foreseen += u64::from(foreseen);
                        // Whatever else is asked or heard was for a column before this plan.
                        self.drop_questions();
                        return Some(plan);
                    }
                    Outcome::Stuck => {
                        self.stuck = true;
                        return None;
                    }
                    Outcome::Stale => self.stats.stale += 1,
                }
            }
            if !self.asked.iter().any(|a| a.question.answers(question)) {
                self.ask(question.clone(), false);
            }
            if !self.budget.is_deterministic() || self.replans > MAX_REPLANS {
                return None;
            }
            let began = Instant::now();
            let heard = self.worker.wait();
            self.stats.blocked += began.elapsed();
            match heard {
                Heard::Answer(answer) => self.hear(*answer),
                Heard::Died => self.lost_worker(),
                // No worker and nothing inline: what was asked is gone.
                Heard::Nothing => self.asked.clear(),
            }
        }
        None
    }

    /// A decision carried out from where the column is now: its buttons are found again from
    /// the column's present state.
    fn plan_from(&mut self, answer: Answer, question: &Question) -> Outcome {
        let Some(mut decision) = answer.decision else {
            // Stuck where it was asked; from anywhere else the column may still move.
            return if answer.question.start == question.start {
                Outcome::Stuck
            } else {
                Outcome::Stale
            };
        };
        let placements = reachable(&question.board, question.start, question.input);
        let Some(index) = placements.find(decision.x, decision.arrangement) else {
            return Outcome::Stale;
        };
        decision.timeline = placements.timeline(index);
        let mut plan = Plan::new(&decision, question.current, question.start);
        if let Some((long, short)) = answer.explanation {
            plan.explanation = Some(long);
            plan.short_explanation = Some(short);
        }
        self.fresh_explanation.clone_from(&plan.explanation);
        Outcome::Plan(plan)
    }

    fn ask(&mut self, question: Question, foreseen: bool) {
        let id = self.next_id;
        self.next_id += 1;
        if !self.budget.is_deterministic() {
            // Only the latest question matters; those not started are dropped. (With a
            // deterministic budget every question is searched, so that the strategy's state
            // does not depend on timing.)
            self.worker.skip_below(id);
            self.asked.clear();
        }
        self.worker.ask(id, question.clone(), self.budget);
        self.asked.push(Asked {
            id,
            question,
            foreseen,
        });
    }

    /// Takes in the answers that are ready.
    fn listen(&mut self) {
        loop {
            match self.worker.poll() {
                Heard::Answer(answer) => self.hear(*answer),
                Heard::Nothing => return,
                Heard::Died => {
                    self.lost_worker();
                    return;
                }
            }
        }
    }

    fn hear(&mut self, answer: Answer) {
        self.stats.decisions += 1;
        if let Some(decision) = &answer.decision {
            self.stats.decision_times.record(decision.elapsed);
            self.last_decision = decision.elapsed;
        }
        // Answers to questions dropped meanwhile are not kept.
        if let Some(at) = self.asked.iter().position(|a| a.id == answer.id) {
            let asked = self.asked.remove(at);
            self.heard.push((answer, asked.foreseen));
        }
    }

    /// The search thread died with the questions it had: they count as a re-plan of the
    /// column, so that a column whose search always fails is given up.
    fn lost_worker(&mut self) {
        self.asked.clear();
        self.replans += 1;
    }

    fn drop_questions(&mut self) {
        self.asked.clear();
        self.heard.clear();
        if !self.budget.is_deterministic() {
            self.worker.skip_below(self.next_id);
        }
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

    /// A column at the spawn, falling: y = 2, x = 2.
    fn falling() -> GameView {
        let mut bytes = vec![(map::COLUMN_X, 2), (map::COLUMN_Y, 2)];
        for (row, jewel) in (0i8..3).zip([1, 2, 3]) {
            bytes.push((map::cell_address(row, 2), jewel));
        }
        let view = view(&bytes);
        assert_eq!(view.phase, Phase::Falling);
        view
    }

    /// `simple`, except that the first one made panics in its first search.
    struct Fragile {
        inner: Box<dyn Strategy>,
        panics: bool,
    }

    impl Strategy for Fragile {
        fn name(&self) -> &'static str {
            "fragile"
        }
        fn choose(&mut self, question: &Question) -> Option<engine::Choice> {
            assert!(!self.panics, "the search broke");
            self.inner.choose(question)
        }
        fn set_rules(&mut self, rules: RuleSet) {
            self.inner.set_rules(rules);
        }
        fn rules(&self) -> RuleSet {
            self.inner.rules()
        }
        fn evaluator(&self) -> &dyn engine::Evaluator {
            self.inner.evaluator()
        }
    }

    /// A search that panics kills its thread, not the player: the worker is started again
    /// with a fresh strategy and the column is still steered.
    #[test]
    fn a_panicking_search_is_restarted() {
        use std::sync::atomic::{AtomicU32, Ordering};
        let made = Arc::new(AtomicU32::new(0));
        let counter = Arc::clone(&made);
        let mut player = Player::new(
            move || {
                let first = counter.fetch_add(1, Ordering::Relaxed) == 0;
                Box::new(Fragile {
                    inner: engine::strategy_with("simple", AnyEvaluator::default())
                        .expect("simple exists"),
                    panics: first,
                })
            },
            Mode::Fast,
        );
        let view = falling();
        let pressed = presses(&mut player, &view, 3);
        assert!(pressed.iter().any(|b| !b.is_empty()), "{pressed:?}");
        let stats = player.stats();
        assert_eq!(stats.worker_restarts, 1);
        assert_eq!(made.load(Ordering::Relaxed), 2);
        assert!(player.plan().is_some());
    }

    /// With a time budget the player never waits: the first frame of a column has no plan and
    /// presses nothing; a later one carries out the decision made meanwhile.
    #[test]
    fn with_a_time_budget_the_player_does_not_wait() {
        let mut player = player();
        player.set_budget(Budget::PLAYER);
        let view = falling();
        assert_eq!(presses(&mut player, &view, 1), [Buttons::NONE]);
        assert!(player.plan().is_none());
        let began = Instant::now();
        while player.plan().is_none() && began.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(1));
            player.on_frame(&view, Events::default());
        }
        assert!(player.plan().is_some());
        assert!(player.stats().waiting_frames >= 1);
        assert_eq!(player.stats().blocked, Duration::ZERO);
    }

    /// A column `current` falling at the spawn over `board`, with `next` shown and the
    /// generator at `generator`.
    fn spawned_over(board: &Board, current: [u8; 3], next: [u8; 3], generator: u16) -> GameView {
        let mut bytes = vec![(map::COLUMN_X, 2), (map::COLUMN_Y, 2)];
        for row in -2i8..13 {
            for x in 0..6u8 {
                bytes.push((map::cell_address(row, x), board.get(row, usize::from(x))));
            }
        }
        for (row, jewel) in (0i8..3).zip(current) {
            bytes.push((map::cell_address(row, 2), jewel));
        }
        bytes.extend((0..3).map(|i| (map::CURRENT_COLUMN + i, current[usize::from(i)])));
        bytes.extend((0..3).map(|i| (map::NEXT_COLUMN + i, next[usize::from(i)])));
        bytes.extend(
            generator
                .to_le_bytes()
                .into_iter()
                .zip(0..)
                .map(|(b, i)| (map::GENERATOR + i, b)),
        );
        let view = view(&bytes);
        assert_eq!(view.phase, Phase::Falling);
        view
    }

    /// Once a plan is made, the next column is searched for on the board it will leave, and
    /// that decision is used when the column spawns there; a column that spawns on another
    /// board is searched for again.
    #[test]
    fn the_next_column_is_decided_before_it_spawns() {
        let generator = 0x1234;
        let shown = [4, 5, 6];
        let then = GameGenerator::new(generator).next_column().0;
        let first = spawned_over(&Board::empty(), [1, 2, 3], shown, generator);
        for foreseen in [true, false] {
            let mut player = player();
            presses(&mut player, &first, 1);
            let plan = player.plan().expect("a plan").clone();
            let mut after = Board::empty();
            engine::lock(&mut after, plan.target_jewels, usize::from(plan.target_x))
                .expect("locks");
            if !foreseen {
                // Not the board predicted.
                engine::lock(&mut after, Column([1, 1, 2]), 5).expect("locks");
            }
            let second = spawned_over(&after, shown, then, 0);
            let spawned = Events {
                spawned: true,
                ..Events::default()
            };
            player.on_frame(&second, spawned);
            assert!(player.plan().is_some());
            let stats = player.stats();
            assert_eq!(stats.foreseen, u64::from(foreseen));
            // Searches come back: the first column's, the prediction, and when it missed, the
            // second column's own (the next prediction is still out).
            assert_eq!(stats.decisions, 3 - u64::from(foreseen));
        }
    }
}
