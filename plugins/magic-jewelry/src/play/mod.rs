//! Plays the game through the controller: decides where each column goes when it spawns and
//! presses the buttons to get it there, never writing the game's state.

pub mod injector;
pub mod plan;
pub mod tracker;

use crate::engine::{self, AnyEvaluator, Board, Column, InputModel, SpawnState, Strategy};
use crate::game_view::{GameView, Phase};
use injector::{Injector, Step};
use jewelbot_plugin::Buttons;
use plan::Plan;
use std::fmt;
use std::time::Duration;
use tracker::Events;

/// Frames between two presses of Start on the title or game-over screen.
const START_INTERVAL: u32 = 30;
/// Frames without a column to steer after which the game is taken to be waiting for Start
/// (a title or game-over screen the RAM map cannot tell apart, or a pause).
const STUCK_FRAMES: u32 = 300;
/// Re-plans of one column before the player gives up on it and lets it fall.
const MAX_REPLANS: u32 = 8;

/// How the AI presses buttons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// A pace a person can follow: a tap every 10 frames, natural falling.
    #[default]
    Normal,
    /// As fast as the game accepts: a tap every 2 frames, then soft drop.
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

/// Counts of the player's own work.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlayerStats {
    pub decisions: u64,
    pub replans: u64,
    pub missed_presses: u64,
    pub confirmed_presses: u64,
    /// Sum of decision times, for the mean.
    pub decision_time: Duration,
    pub max_decision_time: Duration,
}

/// The AI at the controller.
pub struct Player {
    strategy: Box<dyn Strategy>,
    mode: Mode,
    plan: Option<Plan>,
    replans: u32,
    injector: Injector,
    start_timer: u32,
    /// Frames since a column was last under control.
    idle_frames: u32,
    stats: PlayerStats,
}

impl Player {
    pub fn new(strategy: Box<dyn Strategy>, mode: Mode) -> Self {
        Self {
            strategy,
            mode,
            plan: None,
            replans: 0,
            injector: Injector::default(),
            start_timer: 0,
            idle_frames: 0,
            stats: PlayerStats::default(),
        }
    }

    /// A player using the strategy called `name` (see [`engine::strategy_by_name`]).
    pub fn with_strategy_name(
        name: &str,
        evaluation: &AnyEvaluator,
        mode: Mode,
    ) -> Result<Self, String> {
        engine::strategy_with(name, evaluation.clone())
            .map(|s| Self::new(s, mode))
            .map_err(|e| e.to_string())
    }

    pub fn strategy_name(&self) -> &'static str {
        self.strategy.name()
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

    pub fn plan(&self) -> Option<&Plan> {
        self.plan.as_ref()
    }

    pub fn stats(&self) -> PlayerStats {
        let mut stats = self.stats;
        stats.missed_presses = self.injector.misses;
        stats.confirmed_presses = self.injector.confirmed;
        stats
    }

    /// Forgets the column in hand (after a reset or state load).
    pub fn forget(&mut self) {
        self.plan = None;
        self.injector.restart();
    }

    /// The buttons to hold during the next frame, given this frame's view.
    pub fn on_frame(&mut self, view: &GameView, events: Events) -> Buttons {
        match view.phase {
            Phase::Title | Phase::GameOver => {
                self.plan = None;
                self.press_start_now_and_then()
            }
            Phase::Clearing => {
                // Stay off the controller during the clear animation.
                self.plan = None;
                self.idle_frames = 0;
                Buttons::NONE
            }
            _ => {
                // Nothing to steer, unless nothing has happened for so long that the game
                // must be waiting for Start.
                self.plan = None;
                self.idle_frames = self.idle_frames.saturating_add(1);
                if self.idle_frames > STUCK_FRAMES {
                    self.press_start_now_and_then()
                } else {
                    Buttons::NONE
                }
            }
            Phase::Falling => {
                self.start_timer = 0;
                self.idle_frames = 0;
                if events.spawned {
                    self.plan = None;
                    self.replans = 0;
                }
                self.steer(view)
            }
        }
    }

    fn press_start_now_and_then(&mut self) -> Buttons {
        self.start_timer += 1;
        if self.start_timer >= START_INTERVAL {
            self.start_timer = 0;
            Buttons::START
        } else {
            Buttons::NONE
        }
    }

    fn steer(&mut self, view: &GameView) -> Buttons {
        let Some(falling) = view.falling else {
            return Buttons::NONE;
        };
        let jewels = Column(falling.jewels);
        let input = self.mode.input_model();
        for _ in 0..2 {
            if self.plan.is_none() {
                if self.replans > MAX_REPLANS {
                    return Buttons::NONE;
                }
                self.plan = self.decide(view, jewels, input);
                self.injector.restart();
            }
            let Some(plan) = self.plan.as_mut() else {
                return Buttons::NONE;
            };
            match self.injector.step(plan, falling.x, jewels) {
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

    fn decide(&mut self, view: &GameView, jewels: Column, input: InputModel) -> Option<Plan> {
        let falling = view.falling?;
        let board = Board::from_grid(&view.board.0).ok()?;
        let next = Column(view.next);
        let start = SpawnState {
            x: falling.x,
            y: falling.y as i8,
            fall_timer: view.fall_timer,
            fall_speed: view.fall_speed,
        };
        let decision = self.strategy.decide(
            &board,
            jewels,
            next.is_valid().then_some(next),
            start,
            input,
        )?;
        self.stats.decisions += 1;
        self.stats.decision_time += decision.elapsed;
        self.stats.max_decision_time = self.stats.max_decision_time.max(decision.elapsed);
        Some(Plan::new(&decision, jewels))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory_map as map;

    fn view(clear_timer: u8) -> GameView {
        let mut ram = [0u8; 0x800];
        ram[map::FALL_SPEED as usize] = 63;
        ram[map::CURRENT_COLUMN as usize..][..3].copy_from_slice(&[1, 2, 3]);
        ram[map::NEXT_COLUMN as usize..][..3].copy_from_slice(&[4, 5, 6]);
        ram[map::CLEAR_TIMER as usize] = clear_timer;
        GameView::decode(&ram).expect("consistent")
    }

    fn presses_of_start(player: &mut Player, view: &GameView, frames: u32) -> usize {
        (0..frames)
            .filter(|_| player.on_frame(view, Events::default()) == Buttons::START)
            .count()
    }

    #[test]
    fn long_clear_animations_never_get_a_start_press() {
        let mut player = Player::with_strategy_name("simple", &AnyEvaluator::default(), Mode::Fast)
            .expect("simple exists");
        let clearing = view(10);
        assert_eq!(clearing.phase, Phase::Clearing);
        assert_eq!(presses_of_start(&mut player, &clearing, 2000), 0);
    }

    #[test]
    fn a_game_that_stops_spawning_gets_start_pressed() {
        let mut player = Player::with_strategy_name("simple", &AnyEvaluator::default(), Mode::Fast)
            .expect("simple exists");
        let waiting = view(0);
        assert_eq!(waiting.phase, Phase::WaitingForSpawn);
        assert_eq!(presses_of_start(&mut player, &waiting, STUCK_FRAMES), 0);
        assert_eq!(
            presses_of_start(&mut player, &waiting, 10 * START_INTERVAL),
            10
        );
    }
}
