//! Magic Jewelry in the emulator, for the environments: a new game dealt from a chosen
//! generator state, frames with the agent's buttons, and whole placements carried out by the
//! plug-in's injector (the same closed loop the player presses with), read back from RAM by
//! the plug-in's decoder and tracker.

use crate::game::{mask_of, ACTIONS, INPUT};
use crate::observed::Observed;
use jewelbot_host::rom::RomImage;
use jewelbot_host::session::{Session, SessionConfig};
use jewelbot_plugin::{Buttons, Machine};
use magic_jewelry::conformance::FIRST_START_FRAME;
use magic_jewelry::dumps;
use magic_jewelry::game_view::{GameView, Phase};
use magic_jewelry::memory_map as map;
use magic_jewelry::play::injector::{Injector, Seen, Step};
use magic_jewelry::play::plan::Plan;
use magic_jewelry::play::tracker::{Events, Tracker};
use magic_jewelry::play::PlayerStats;
use magic_jewelry_engine::rules::board::WIDTH;
use magic_jewelry_engine::{reachable, Board, Column, Decision, FallState, Placements};
use std::time::Duration;

/// Frames from Start to the first column, at most, before the ROM is taken not to be the game.
const START_LIMIT: u64 = 600;
/// Frames one placement may take, at most: a column falling from the top at the slowest speed
/// with a long chain after it is well under this.
const PLACEMENT_LIMIT: u64 = 20_000;
/// Plans made again for one column (a press lost) before the placement is given up.
const MOST_REPLANS: u32 = 8;

/// Why the emulated game could not go on.
#[derive(Debug, thiserror::Error)]
pub enum EmulatedError {
    #[error("{0}")]
    NotTheGame(String),
    #[error("emulation stopped: {0}")]
    Emulation(String),
    #[error("{0}")]
    Unreachable(String),
    #[error("{0}")]
    Stuck(String),
}

/// What frames or a placement brought, between two observations.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Gained {
    pub points: u64,
    /// Cells the jewels counter counted.
    pub cleared: u64,
    pub frames: u64,
    pub game_over: bool,
}

impl Gained {
    /// What `later` brought too.
    pub fn merge(&mut self, later: &Self) {
        self.points += later.points;
        self.cleared += later.cleared;
        self.frames += later.frames;
        self.game_over |= later.game_over;
    }

    fn add(&mut self, events: &Events) {
        self.points += u64::from(events.points);
        self.cleared += u64::from(events.jewels_cleared);
        self.frames += 1;
        self.game_over |= events.game_over;
    }
}

pub struct Emulated {
    session: Session,
    tracker: Tracker,
    /// The last view RAM explained.
    view: Option<GameView>,
    /// The buttons held during the last frame.
    pressed: Buttons,
    /// Frames whose RAM was not a state of the game.
    pub inconsistent_frames: u64,
    /// A column spawned that has not been decided on yet.
    spawn_pending: bool,
    stats: PlayerStats,
}

impl Emulated {
    /// The game on `rom`, which must be a Magic Jewelry dump or the open cartridge.
    pub fn new(rom: RomImage, video: bool) -> Result<Self, EmulatedError> {
        let identified = dumps::identify(rom.prg_chr_crc32, &rom.file_sha1, &rom.prg);
        if !identified.is_playable() {
            return Err(EmulatedError::NotTheGame(format!(
                "{}: {}; the environments play Magic Jewelry or the open cartridge",
                rom.name,
                identified.describe()
            )));
        }
        let config = SessionConfig {
            video,
            ..SessionConfig::default()
        };
        let session = Session::new(rom, Vec::new(), config)
            .map_err(|e| EmulatedError::Emulation(e.to_string()))?;
        Ok(Self {
            session,
            tracker: Tracker::default(),
            view: None,
            pressed: Buttons::NONE,
            inconsistent_frames: 0,
            spawn_pending: false,
            stats: PlayerStats::default(),
        })
    }

    pub fn session(&mut self) -> &mut Session {
        &mut self.session
    }

    /// Power-on, the generator set to `state` before Start is taken (so the game deals its
    /// columns from it), Start, and the frames to the first column.
    pub fn new_game(&mut self, state: u16) -> Result<Gained, EmulatedError> {
        self.session
            .power_cycle()
            .map_err(|e| EmulatedError::Emulation(e.to_string()))?;
        self.tracker = Tracker::default();
        self.view = None;
        self.pressed = Buttons::NONE;
        self.spawn_pending = false;
        while self.session.frame_number() + 1 < FIRST_START_FRAME {
            self.frame(Buttons::NONE)?;
        }
        let [low, high] = state.to_le_bytes();
        self.session.poke(map::GENERATOR, low);
        self.session.poke(map::GENERATOR + 1, high);
        let mut gained = Gained::default();
        gained.add(&self.frame(Buttons::START)?);
        for _ in 0..START_LIMIT {
            if self.at_decision() {
                return Ok(gained);
            }
            gained.add(&self.frame(Buttons::NONE)?);
        }
        Err(EmulatedError::NotTheGame(format!(
            "Start brought no column within {START_LIMIT} frames: the ROM does not play as \
             Magic Jewelry"
        )))
    }

    /// One frame holding `buttons`, and what the tracker made of it.
    pub fn frame(&mut self, buttons: Buttons) -> Result<Events, EmulatedError> {
        self.session
            .step(buttons)
            .map_err(|e| EmulatedError::Emulation(e.0))?;
        self.pressed = buttons;
        let Ok(view) = GameView::decode(self.session.ram()) else {
            self.inconsistent_frames += 1;
            self.tracker.note_inconsistent();
            return Ok(Events::default());
        };
        let events = self.tracker.observe(&view);
        self.spawn_pending |= events.spawned;
        if events.locked.is_some() && !events.spawned {
            self.spawn_pending = false;
        }
        self.view = Some(view);
        Ok(events)
    }

    /// `frames` frames holding `buttons`, stopping at a game over.
    pub fn frames(&mut self, buttons: Buttons, frames: u64) -> Result<Gained, EmulatedError> {
        let mut gained = Gained::default();
        for _ in 0..frames {
            gained.add(&self.frame(buttons)?);
            if gained.game_over {
                break;
            }
        }
        Ok(gained)
    }

    /// A new column under control at its spawn, not yet decided on.
    pub fn at_decision(&self) -> bool {
        self.spawn_pending
            && self
                .view
                .as_ref()
                .is_some_and(|v| v.phase == Phase::Falling && v.falling.is_some())
    }

    /// Whether the game is over.
    pub fn game_over(&self) -> bool {
        self.view
            .as_ref()
            .is_some_and(|v| v.phase == Phase::GameOver)
    }

    /// The game as RAM shows it (all zeros before the first frame RAM explains).
    pub fn observed(&self) -> Observed {
        self.view
            .as_ref()
            .map(Observed::of_view)
            .unwrap_or_default()
    }

    /// Where the column in hand can lock from where it stands.
    fn placements(&self) -> Option<(Placements, Column, FallState)> {
        let view = self.view.as_ref()?;
        let falling = view.falling?;
        let board = Board::from_grid(&view.board.0).ok()?;
        let start = view.fall_state(self.pressed)?;
        Some((
            reachable(&board, start, INPUT),
            Column(falling.jewels),
            start,
        ))
    }

    /// The actions the column in hand can reach (none away from a decision).
    pub fn mask(&self) -> [bool; ACTIONS] {
        if !self.at_decision() {
            return [false; ACTIONS];
        }
        self.placements()
            .map_or([false; ACTIONS], |(placements, _, _)| mask_of(&placements))
    }

    /// Carries out a placement of the column in hand: the injector presses the path to
    /// (x, arrangement) frame by frame, checking RAM every frame, planning again from where the
    /// column is if a press was lost, then the frames run to the next column or the game over.
    pub fn place(&mut self, x: u8, arrangement: u8) -> Result<Gained, EmulatedError> {
        let Some((_, jewels, _)) = self.placements().filter(|_| self.at_decision()) else {
            return Err(EmulatedError::Stuck(
                "no column is waiting for a placement".to_owned(),
            ));
        };
        let target = jewels.arranged(arrangement);
        self.spawn_pending = false;
        let mut plan: Option<Plan> = None;
        let mut injector = Injector::default();
        let mut replans = 0;
        let mut locked = false;
        let mut gained = Gained::default();
        while gained.frames < PLACEMENT_LIMIT {
            let mut buttons = Buttons::NONE;
            let steering = !locked
                && self
                    .view
                    .as_ref()
                    .is_some_and(|v| v.phase == Phase::Falling && v.falling.is_some());
            if steering {
                buttons = self.steer(x, target, &mut plan, &mut injector, &mut replans)?;
            }
            let events = self.frame(buttons)?;
            gained.add(&events);
            locked |= events.locked.is_some();
            if gained.game_over || self.game_over() {
                gained.game_over = true;
                return Ok(gained);
            }
            if locked && self.at_decision() {
                return Ok(gained);
            }
        }
        Err(EmulatedError::Stuck(format!(
            "the placement took more than {PLACEMENT_LIMIT} frames"
        )))
    }

    /// This frame's buttons towards (x, target).
    fn steer(
        &mut self,
        x: u8,
        target: Column,
        plan: &mut Option<Plan>,
        injector: &mut Injector,
        replans: &mut u32,
    ) -> Result<Buttons, EmulatedError> {
        // The settled board and where the column stands, read once a frame; the breadth-first
        // search runs only when a plan is made.
        let Some(view) = self.view.as_ref() else {
            return Ok(Buttons::NONE);
        };
        let (Some(falling), Some(start), Ok(board)) = (
            view.falling,
            view.fall_state(self.pressed),
            Board::from_grid(&view.board.0),
        ) else {
            return Ok(Buttons::NONE);
        };
        let jewels = Column(falling.jewels);
        let rest: [i8; WIDTH] = std::array::from_fn(|column| board.rest_row(column));
        let seen = Seen {
            x: falling.x,
            y: falling.y,
            jewels,
            armed: view.soft_drop,
        };
        loop {
            if plan.is_none() {
                let placements = reachable(&board, start, INPUT);
                let found = (0..6u8).find_map(|k| {
                    (jewels.arranged(k) == target)
                        .then(|| placements.find(x, k))
                        .flatten()
                        .map(|index| (k, index))
                });
                let Some((arrangement, index)) = found else {
                    return Err(EmulatedError::Unreachable(format!(
                        "the column cannot reach x {x} with {target} from where it stands"
                    )));
                };
                let place = placements[index];
                let decision = Decision {
                    x,
                    arrangement,
                    y: place.y,
                    timeline: placements.timeline(index),
                    score: 0.0,
                    candidates: Vec::new(),
                    next: None,
                    elapsed: Duration::ZERO,
                };
                *plan = Some(Plan::new(&decision, jewels, start));
                injector.restart();
            }
            let Some(current) = plan.as_ref() else {
                return Ok(Buttons::NONE);
            };
            match injector.step(current, seen, &rest, &mut self.stats) {
                Step::Press(buttons) => return Ok(buttons),
                Step::Replan => {
                    *plan = None;
                    *replans += 1;
                    if *replans > MOST_REPLANS {
                        return Err(EmulatedError::Stuck(format!(
                            "the column did not follow its path {MOST_REPLANS} times"
                        )));
                    }
                }
            }
        }
    }
}
