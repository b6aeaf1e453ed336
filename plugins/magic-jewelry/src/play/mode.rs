//! How the player presses buttons (normal or fast) and what it does when a game ends.

use jewelbot_plugin::Buttons;
use magic_jewelry_engine::InputModel;
use std::fmt;

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
    pub(super) fn buttons(self) -> Buttons {
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
