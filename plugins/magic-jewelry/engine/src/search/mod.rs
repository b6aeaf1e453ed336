//! Where each column goes: the placements the buttons can reach ([`placement`]), the input rules
//! they follow ([`input`]), and the strategies that choose among them ([`strategy`]).
//!
//! The top layer of the engine: it uses [`super::rules`] and [`super::eval`].

pub mod explain;
pub mod input;
pub mod parameters;
pub mod placement;
pub mod question;
pub mod strategy;

pub use explain::Explanation;
pub use input::{FallState, InputModel, Move, Timeline};
pub use placement::{reachable, Placement, Placements};
pub use question::Question;
pub use strategy::{
    for_each_result, strategy_by_name, strategy_for, strategy_with, Budget, Choice, Decision, Deep,
    DeepConfig, Foresight, ForesightConfig, Greedy, Seat, SeatView, Strategy, StrategySpec,
    UnknownStrategy, RANKED, STRATEGY_NAMES,
};
