//! What a game's play came to, counted one way for everyone who reports it: the player's
//! history (the window's story and `run`'s summary) and the lab's simulations keep the same
//! [`Chains`] and [`DecisionTimes`].

mod chains;

pub use chains::{Chains, CHAIN_BINS};
pub use jewelbot_plugin::DecisionTimes;
