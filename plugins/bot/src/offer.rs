//! The bot plug-in as the `jewelbot` command offers it: `--bot CMD` on every console command
//! starts it, with `--bot-realtime` and `--bot-timeout`.

use crate::{BotPlugin, BotSettings, Target, DEFAULT_TIMEOUT};
use clap::{Arg, ArgAction, ArgMatches};
use jewelbot_commands::{no_commands, Offer, Place, Starter};
use jewelbot_plugin::Plugin;
use std::path::PathBuf;
use std::time::Duration;

/// The plug-in's row of the binary's table.
pub const OFFER: Offer = Offer {
    name: "bot",
    make: None,
    starter: Some(Starter {
        flag: "bot",
        flags,
        start,
        files,
        // After the game's plug-ins, so that it hears of what they saw in the same frame.
        place: Place::Last,
    }),
    commands: no_commands,
};

fn flags() -> Vec<Arg> {
    vec![
        Arg::new("bot").long("bot").value_name("CMD").help(
            "Let a bot in another process play (docs/bot-protocol.md): a command line, run \
                 without a shell (\"python3 examples/bots/columns.py\"), or tcp://HOST:PORT to \
                 connect to one. It holds the controller while it plays, with the AI on or off; \
                 a bot that fails is stopped with a message and the controller goes back to the \
                 AI (with --ai off, to the person).",
        ),
        Arg::new("bot-realtime")
            .long("bot-realtime")
            .action(ArgAction::SetTrue)
            .requires("bot")
            .help(
                "Let the game run on while the bot thinks, using its answers as they come (a \
                 watched game); by default the emulator waits for each answer, and a bot plays \
                 the same game on any machine.",
            ),
        Arg::new("bot-timeout")
            .long("bot-timeout")
            .value_name("SECONDS")
            .requires("bot")
            .default_value(DEFAULT_TIMEOUT.as_secs_f64().to_string())
            .value_parser(timeout)
            .help("The longest wait for the bot: its hello, and each answer."),
    ]
}

/// A wait of 0.01 s to a day.
fn timeout(text: &str) -> Result<f64, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if (0.01..=86_400.0).contains(&seconds) {
        Ok(seconds)
    } else {
        Err(format!("{text} s is outside 0.01 to 86400"))
    }
}

/// The bot `--bot` names; a target that does not parse is an error naming the flag (a bot that
/// cannot start is a plug-in that says so and stops).
fn start(matches: &ArgMatches) -> anyhow::Result<Option<Box<dyn Plugin>>> {
    let Some(target) = matches.get_one::<String>("bot") else {
        return Ok(None);
    };
    let target = Target::parse(target).map_err(|why| anyhow::anyhow!("--bot: {why}"))?;
    let seconds = matches
        .get_one::<f64>("bot-timeout")
        .copied()
        .unwrap_or(DEFAULT_TIMEOUT.as_secs_f64());
    Ok(Some(Box::new(BotPlugin::new(BotSettings {
        target,
        realtime: matches.get_flag("bot-realtime"),
        timeout: Duration::from_secs_f64(seconds),
    }))))
}

/// A bot reads no file the command line names.
fn files(_: &ArgMatches) -> Vec<(&'static str, PathBuf)> {
    Vec::new()
}
