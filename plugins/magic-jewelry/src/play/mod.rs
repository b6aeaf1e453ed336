//! Plays the game through the controller from power-on, forever: starts games, unpauses,
//! decides where each column goes when it spawns, and presses the buttons to get it there
//! frame by frame, never writing the game's state.
//!
//! The [`Player`] ties together: the column in hand ([`hand`]), the search on its thread
//! ([`client`] over [`worker`]), foresight's reading of the generator ([`foresight`]), the
//! closed loop that presses the buttons ([`injector`]) and its counts ([`stats`]).

pub mod client;
pub mod foresight;
pub mod hand;
pub mod history;
pub mod injector;
pub mod mode;
pub mod parameters;
pub mod plan;
pub mod stats;
#[cfg(test)]
mod tests;
pub mod tracker;
pub mod worker;

pub use foresight::ForesightStatus;
pub use mode::{AfterGameOver, Mode};
pub use stats::PlayerStats;

use crate::game_view::{GameView, Phase};
use client::{SearchClient, Waited};
use foresight::{Lookahead, SeenColumns};
use hand::{Hand, MAX_REPLANS};
use injector::{Seen, Step};
use jewelbot_plugin::Buttons;
use magic_jewelry_engine::rules::board::WIDTH;
use magic_jewelry_engine::rules::scoring::MAX_COMBO;
use magic_jewelry_engine::{
    reachable, Board, Budget, Column, ColumnGenerator, Counters, FallState, GameGenerator,
    PlayerSpec, Question, RuleSet, Strategy,
};
use parameters::{RECOVERY_HOLD_FRAMES, STUCK_FRAMES};
use plan::Plan;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;
use tracker::Events;
use worker::Answer;

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

/// The AI at the controller. It decides on a search thread of its own ([`worker`]): as soon as
/// a column's plan is fixed it predicts the board the column will leave and has the next
/// column searched for, so that its decision is usually ready when it spawns. With a time
/// budget the emulator never waits (frames without a plan press nothing); with none (a work
/// budget or no budget) the player waits for each decision where it needs it, so that runs
/// repeat exactly.
pub struct Player {
    search: SearchClient,
    lookahead: Lookahead,
    hand: Hand,
    mode: Mode,
    after_game_over: AfterGameOver,
    /// The buttons returned for the frame now running: the game's "held last frame".
    pressed: Buttons,
    /// The buttons held the frame before ([`Player::pressed`]'s frame): a Down in `pressed`
    /// but not here was newly pressed.
    pressed_before: Buttons,
    /// Every count of the player's work: its own, the search's and the injector's.
    stats: PlayerStats,
    /// The explanation of a decision not yet taken by [`Player::take_explanation`].
    fresh_explanation: Option<String>,
    /// What went astray when a column locked elsewhere than planned, not yet taken by
    /// [`Player::take_off_plan_note`].
    off_plan_note: Option<String>,
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
    /// The player `spec` describes, pressing in `mode` (the description's budget, foresight
    /// and how far it looks; its strategy built by [`PlayerSpec::build_switchable`], so that
    /// foresight switches as it plays, and built again if the search thread dies).
    pub fn new(spec: &PlayerSpec, mode: Mode) -> Self {
        let make = {
            let spec = spec.clone();
            move || spec.build_switchable()
        };
        let mut player = Self::with_search(make, mode, spec.lookahead.depth);
        player.set_foresight(spec.foresight);
        player.set_budget(spec.budget());
        player
    }

    /// A player deciding with strategies from `make` (called again if the search thread dies),
    /// which should look `depth` columns ahead when a question carries the generator.
    pub fn with_search(
        make: impl Fn() -> Box<dyn Strategy> + Send + Sync + 'static,
        mode: Mode,
        depth: usize,
    ) -> Self {
        Self {
            search: SearchClient::new(Arc::new(make)),
            lookahead: Lookahead::looking(depth),
            hand: Hand::default(),
            mode,
            after_game_over: AfterGameOver::default(),
            pressed: Buttons::NONE,
            pressed_before: Buttons::NONE,
            stats: PlayerStats::default(),
            fresh_explanation: None,
            off_plan_note: None,
        }
    }

    /// Switches foresight: the generator state is read from RAM and the known columns are
    /// searched ([`magic_jewelry_engine::Foresight`]); off, the player sees what a person sees.
    pub fn set_foresight(&mut self, on: bool) {
        self.lookahead.set_on(on);
    }

    pub fn foresight(&self) -> bool {
        self.lookahead.on
    }

    /// What foresight did at the last decision.
    pub fn foresight_status(&self) -> ForesightStatus {
        self.lookahead.status
    }

    pub fn strategy_name(&self) -> &'static str {
        self.search.strategy_name()
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Switches mode at once: the current column is re-planned at the new pace.
    pub fn set_mode(&mut self, mode: Mode) {
        if mode != self.mode {
            self.mode = mode;
            self.hand.plan = None;
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
        self.search.set_budget(budget);
    }

    pub fn budget(&self) -> Budget {
        self.search.budget()
    }

    pub fn plan(&self) -> Option<&Plan> {
        self.hand.plan.as_ref()
    }

    /// Why the last decision won, once per decision.
    pub fn take_explanation(&mut self) -> Option<String> {
        self.fresh_explanation.take()
    }

    /// Why the last column locked elsewhere than planned, once.
    pub fn take_off_plan_note(&mut self) -> Option<String> {
        self.off_plan_note.take()
    }

    pub fn stats(&self) -> &PlayerStats {
        &self.stats
    }

    /// How long the last decision heard took.
    pub fn last_decision(&self) -> Duration {
        self.search.last_decision
    }

    /// What carries the player on from a checkpoint as if it had not stopped: `None` while it
    /// has a column in hand (its plan is not kept). The questions in the search's hands are
    /// kept and asked again on [`Player::restore`]: strategies decide on the question alone,
    /// so with a deterministic budget their answers come out the same.
    pub fn snapshot(&self) -> Option<PlayerSnapshot> {
        if self.hand.plan.is_some() {
            return None;
        }
        Some(PlayerSnapshot {
            pressed: self.pressed.bits(),
            spawned: self.lookahead.spawned,
            fresh: self.hand.fresh,
            first_state: self.hand.first_state,
            seen_columns: self.lookahead.seen.clone(),
            generator: self.lookahead.generator,
            pending: self.search.pending(),
            stats: self.stats.clone(),
            last_decision_us: self.search.last_decision.as_micros() as u64,
        })
    }

    /// Takes back a [`Player::snapshot`].
    pub fn restore(&mut self, snapshot: PlayerSnapshot) {
        self.forget();
        self.pressed = Buttons::from_bits(snapshot.pressed);
        self.lookahead.spawned = snapshot.spawned;
        self.hand.fresh = snapshot.fresh;
        self.hand.first_state = snapshot.first_state;
        self.lookahead.seen = snapshot.seen_columns;
        self.lookahead.generator = snapshot.generator;
        self.search.last_decision = Duration::from_micros(snapshot.last_decision_us);
        self.stats = snapshot.stats;
        for (question, foreseen) in snapshot.pending {
            self.search.ask(question, foreseen, &mut self.stats);
        }
    }

    /// Forgets the column in hand (after a reset or state load, or when control changes).
    pub fn forget(&mut self) {
        self.lookahead.forget();
        self.hand.forget();
        self.pressed = Buttons::NONE;
        self.search.drop_questions();
    }

    /// The buttons to hold during the next frame, given this frame's view.
    pub fn on_frame(&mut self, view: &GameView, events: Events) -> Buttons {
        if events.locked.is_some() && self.hand.plan.is_none() {
            self.stats.locked_without_plan += 1;
        }
        if let (Some(locked), Some(plan)) = (events.locked, &self.hand.plan) {
            if plan.is_on_target(locked.x, Column(locked.jewels)) {
                self.stats.locked_as_planned += 1;
            } else {
                self.stats.locked_off_plan += 1;
                self.off_plan_note = Some(format!(
                    "locked off plan: {} at x {} row {}, planned {} at x {} row {} (planned from {:?})",
                    Column(locked.jewels),
                    locked.x,
                    locked.y,
                    plan.target_jewels,
                    plan.target_x,
                    plan.target_y,
                    plan.start,
                ));
            }
        }
        if events.spawned {
            self.hand.spawned();
            self.lookahead.spawned = true;
        }
        if matches!(view.phase, Phase::Title | Phase::GameOver | Phase::Setup) {
            // A new game reseeds the generator.
            self.lookahead.forget_columns();
        }
        let buttons = match view.phase {
            // The title takes Start from its first frame: a press every other frame until the
            // game sets up. The continue's logo waits for a new press too.
            Phase::Title | Phase::Paused | Phase::Continue => self.tap(Buttons::START),
            // After a game over the game waits for Start held, and resets; holding it on through
            // the reset starts the next game. With Select and Right it continues instead.
            Phase::GameOver => self.after_game_over.buttons(),
            Phase::Setup if self.pressed.contains(Buttons::START) => Buttons::START,
            Phase::Falling if events.spawned => {
                // A column spawned in the lock's own frame may show the locked column's soft
                // drop ($65) until the next frame: it is armed only by a Down newly pressed now.
                let mut fresh = view.clone();
                fresh.soft_drop = self.pressed.contains(Buttons::DOWN)
                    && !self.pressed_before.contains(Buttons::DOWN);
                self.steer(&fresh)
            }
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
            self.hand.plan = None;
        }
        self.pressed_before = self.pressed;
        self.pressed = buttons;
        buttons
    }

    /// The buttons for a frame whose RAM no state of the game explains, the `stuck`-th such
    /// frame in a row: nothing at first (a torn frame or a poke passes), then, after
    /// [`STUCK_FRAMES`], the game-over screen's way out (Start held, or the continue's
    /// buttons), held and released in turn: only that screen can be stuck for long, and it
    /// takes nothing else.
    pub fn recover(&mut self, stuck: u64) -> Buttons {
        self.forget();
        let Some(since) = stuck.checked_sub(STUCK_FRAMES) else {
            return Buttons::NONE;
        };
        let turn = since % (2 * RECOVERY_HOLD_FRAMES);
        if turn == 0 {
            self.stats.recoveries += 1;
        }
        let buttons = if turn < RECOVERY_HOLD_FRAMES {
            self.after_game_over.buttons()
        } else {
            Buttons::NONE
        };
        self.pressed_before = self.pressed;
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
            if self.hand.plan.is_none() {
                if self.hand.given_up() {
                    return Buttons::NONE;
                }
                let Some(question) = self.question(view, &board, jewels) else {
                    return Buttons::NONE;
                };
                if std::mem::take(&mut self.hand.fresh) {
                    self.hand.first_state = Some(question.start);
                }
                self.hand.plan = self.plan_for(&question);
                if self.hand.plan.is_none() {
                    if !self.hand.stuck {
                        self.stats.waiting_frames += 1;
                    }
                    return Buttons::NONE;
                }
                self.hand.injector.restart();
                self.foresee(view, &board);
            }
            let Some(plan) = self.hand.plan.as_ref() else {
                return Buttons::NONE;
            };
            match self.hand.injector.step(plan, seen, &rest, &mut self.stats) {
                Step::Press(buttons) => return buttons,
                Step::Replan => {
                    self.hand.plan = None;
                    self.hand.replans += 1;
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
            level: view.level_in_force(),
            ..Counters::default()
        }
    }

    /// The column in hand as it stands.
    fn question(&mut self, view: &GameView, board: &Board, jewels: Column) -> Option<Question> {
        let start = view.fall_state(self.pressed)?;
        let next = Column(view.next);
        let generator = self.lookahead.read(view, jewels, next);
        Some(Question {
            board: *board,
            current: jewels,
            next: next.is_valid().then_some(next),
            start,
            input: self.mode.input_model(),
            counters: Self::counters(view),
            generator: generator.map(ColumnGenerator::Game),
        })
    }

    /// Has the column after this one searched for, on the board this one's plan is predicted
    /// to leave: its jewels are the next shown (or the wild column, when the lock brings one)
    /// and the one after comes from the generator in RAM.
    fn foresee(&mut self, view: &GameView, board: &Board) {
        let Some(plan) = &self.hand.plan else { return };
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
        let trusted = self.lookahead.generator;
        let (jewels, then, generator) = if lock.wild_due {
            (Column::WILD, next, trusted)
        } else {
            // The column after next: from the generator foresight trusts (pinned, RAM's may
            // be wrong), else from RAM's.
            let mut generator = trusted;
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
            RuleSet::Real.fall_speed(view.level_in_force())
        } else {
            view.fall_speed
        };
        // It will likely be where the last column was on its first frame.
        let start = self.hand.first_state.unwrap_or(FallState::spawn(speed));
        let question = Question {
            board: after,
            current: jewels,
            next: Some(then),
            start: FallState { speed, ..start },
            input: self.mode.input_model(),
            counters,
            generator: generator.map(ColumnGenerator::Game),
        };
        self.search.ask(question, true, &mut self.stats);
    }

    /// A plan for `question` if its decision is ready. With a deterministic budget it waits
    /// for the decision; otherwise it asks for one if none is coming and returns `None`.
    fn plan_for(&mut self, question: &Question) -> Option<Plan> {
        // Each round either uses an answer or waits for one; a worker that keeps dying ends it.
        for _ in 0..=2 * MAX_REPLANS {
            if !self.search.listen(&mut self.stats) {
                self.lost_worker();
            }
            if let Some((answer, foreseen)) = self.search.take_answer(question) {
                match self.plan_from(answer, question) {
                    Outcome::Plan(plan) => {
                        self.stats.foreseen += u64::from(foreseen);
                        // Whatever else is asked or heard was for a column before this plan.
                        self.search.drop_questions();
                        return Some(plan);
                    }
                    Outcome::Stuck => {
                        self.hand.stuck = true;
                        return None;
                    }
                    Outcome::Stale => self.stats.stale += 1,
                }
            }
            if !self.search.is_asked(question) {
                self.search.ask(question.clone(), false, &mut self.stats);
            }
            if !self.search.budget().is_deterministic() || self.hand.replans > MAX_REPLANS {
                return None;
            }
            if let Waited::Died = self.search.wait(&mut self.stats) {
                self.lost_worker();
            }
        }
        None
    }

    /// The search thread died with the questions it had: they count as a re-plan of the
    /// column, so that a column whose search always fails is given up.
    fn lost_worker(&mut self) {
        self.hand.replans += 1;
    }

    /// A decision carried out from where the column is now: the search's buttons when the
    /// column has not moved since the question, else found again from its present state.
    fn plan_from(&mut self, answer: Answer, question: &Question) -> Outcome {
        let Some(mut decision) = answer.decision else {
            // Stuck where it was asked; from anywhere else the column may still move.
            return if answer.question.start == question.start {
                Outcome::Stuck
            } else {
                Outcome::Stale
            };
        };
        // The search's timeline holds while the column is where it was asked about; from
        // anywhere else the path is found again.
        let asked = &answer.question;
        let moved = (asked.board, asked.start, asked.input)
            != (question.board, question.start, question.input);
        if moved {
            let placements = reachable(&question.board, question.start, question.input);
            let Some(index) = placements.find(decision.x, decision.arrangement) else {
                return Outcome::Stale;
            };
            decision.timeline = placements.timeline(index);
        }
        let mut plan = Plan::new(&decision, question.current, question.start);
        if let Some((long, short)) = answer.explanation {
            plan.explanation = Some(long);
            plan.short_explanation = Some(short);
        }
        self.fresh_explanation.clone_from(&plan.explanation);
        Outcome::Plan(plan)
    }
}
