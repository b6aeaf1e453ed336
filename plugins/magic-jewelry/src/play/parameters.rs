//! Every tunable of the player, in one place, with why it has its value.

/// Re-plans of one column before the player gives up on it and lets it fall: a column that
/// misses its plan eight times is in a state the input model does not know, and pressing on
/// makes it worse.
pub const MAX_REPLANS: u32 = 8;

/// Frames of RAM that no state of the game explains after which the player presses its way
/// out: a torn frame or a poke passes in a frame or two, while a game-over screen whose fill
/// was overwritten (by a poke, say) would wait for Start for ever. Three seconds of play.
pub const STUCK_FRAMES: u64 = 180;
/// The way out is held this many frames (the game-over screen takes Start held, not tapped),
/// then released for as many, in turn until RAM makes sense again.
pub const RECOVERY_HOLD_FRAMES: u64 = 30;
