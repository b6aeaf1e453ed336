//! The Lua plug-in as the `jewelbot` command offers it: `--lua SCRIPT` on every console
//! command starts it, `--lua-os-io` opens the script's `os` and `io`.

use crate::{LuaOptions, LuaPlugin};
use clap::{Arg, ArgAction, ArgMatches};
use jewelbot_commands::{no_commands, Offer, Place, Starter};
use jewelbot_plugin::Plugin;
use std::path::PathBuf;

/// The plug-in's row of the binary's table.
pub const OFFER: Offer = Offer {
    name: "lua",
    make: None,
    starter: Some(Starter {
        flag: "lua",
        flags,
        start,
        files,
        // It sees each frame first, as FCEUX resumes its scripts.
        place: Place::First,
    }),
    commands: no_commands,
};

fn flags() -> Vec<Arg> {
    vec![
        Arg::new("lua")
            .long("lua")
            .value_name("SCRIPT")
            .value_parser(clap::value_parser!(PathBuf))
            .help(
                "Run a Lua script written for FCEUX's API (docs/lua.md): it holds the \
                 controller while it runs, with the AI on or off; the AI watches. A script \
                 error stops the script, not the game.",
            ),
        Arg::new("lua-os-io")
            .long("lua-os-io")
            .action(ArgAction::SetTrue)
            .requires("lua")
            .help("Give the Lua script `os`, `io`, `require`, `dofile` and `loadfile` (off by default)."),
    ]
}

/// The script `--lua` names, read now: one that cannot be read is an error; one that does not
/// parse is a plug-in that says so and stops (the game goes on).
fn start(matches: &ArgMatches) -> anyhow::Result<Option<Box<dyn Plugin>>> {
    let Some(script) = matches.get_one::<PathBuf>("lua") else {
        return Ok(None);
    };
    let options = LuaOptions {
        os_and_io: matches.get_flag("lua-os-io"),
    };
    Ok(Some(Box::new(LuaPlugin::from_file(script, options)?)))
}

fn files(matches: &ArgMatches) -> Vec<(&'static str, PathBuf)> {
    matches
        .get_one::<PathBuf>("lua")
        .map(|script| ("--lua", script.clone()))
        .into_iter()
        .collect()
}
