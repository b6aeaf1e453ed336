//! Whether a stop was asked for (a signal): a command that honours it ends early and keeps
//! what it did (`jewelbot_commands::PluginCommand::honours_stop`).

/// Asked after every step that may take long; true once a stop was asked for.
pub type Stop = dyn Fn() -> bool + Sync;
