//! One column played: a player's choice for the column at its spawn, and what its lock did.
//! The proofs (`horizon`), the estimate (`splitting`) and the model check play their games
//! column by column with it.

use magic_jewelry_engine::{Game, InputModel, Question, Strategy};

/// What one column did.
#[derive(Debug, Clone, Copy)]
pub struct Step {
    /// Jewels on the board after it.
    pub jewels: u32,
    pub points: u64,
    /// Cells its lock removed.
    pub removed: u64,
    /// Its lock ended the game.
    pub lost: bool,
}

/// Where a player puts the column a question asks about: (x, arrangement), or `None` to give
/// up.
pub type Choose<'a> = dyn FnMut(&Question) -> Option<(u8, u8)> + 'a;

/// A strategy's choices.
pub fn choices_of(strategy: &mut dyn Strategy) -> impl FnMut(&Question) -> Option<(u8, u8)> + '_ {
    |question| strategy.choose(question).map(|c| (c.x, c.arrangement))
}

/// Plays one column: the player's choice, and what the lock did.
pub fn play_column(choose: &mut Choose<'_>, game: &mut Game, input: InputModel) -> Step {
    // Only the real game's generator is there to be known: independent colours are not.
    let knowable = game.generator_cycle_position().is_some();
    let question = Question::at_spawn(game, input, knowable);
    let turn = game.play(choose(&question));
    Step {
        jewels: turn.jewels,
        points: turn.points(),
        removed: turn.resolution.map_or(0, |r| u64::from(r.outcome.removed)),
        lost: turn.lost,
    }
}
