//! The plug-ins this command offers: the one place the binary names them, one row each. A row
//! ([`Offer`]) brings the plug-in, the flags that start it and the commands it adds; the host
//! library (`jewelbot-host`) knows none. A new plug-in is one row here (`docs/plugins.md`).

use jewelbot_commands::{Offer, PluginCommand, Starter};
use jewelbot_plugin::Plugin;

/// Every plug-in offered. The game's plug-ins (those an offer makes for every console command)
/// run in this order each frame; a started one (`--lua`, `--bot`) before or after them, as its
/// starter says.
pub const OFFERED: [&Offer; 4] = [
    &magic_jewelry_lab::command::OFFER,
    &jewelbot_lua::OFFER,
    &jewelbot_bot::OFFER,
    &jewelbot_example_plugin::OFFER,
];

/// Fresh game plug-ins, with their default settings.
pub fn make_all() -> Vec<Box<dyn Plugin>> {
    OFFERED
        .iter()
        .filter_map(|offer| offer.make)
        .map(|make| make())
        .collect()
}

/// The flags that start a plug-in, of every offer that has them.
pub fn starters() -> impl Iterator<Item = &'static Starter> {
    OFFERED.iter().filter_map(|offer| offer.starter.as_ref())
}

/// The commands the offered plug-ins bring.
pub fn commands() -> Vec<Box<dyn PluginCommand>> {
    OFFERED
        .iter()
        .flat_map(|offer| (offer.commands)())
        .collect()
}
