//! The plug-ins this command offers: the one place the binary names them. The host library
//! (`jewelbot-host`) knows none; a new plug-in is one row here (`docs/plugins.md`).

use jewelbot_bot::{BotPlugin, BotSettings, Target};
use jewelbot_lua::{LuaOptions, LuaPlugin};
use jewelbot_plugin::Plugin;
use magic_jewelry::plugin::MagicJewelryPlugin;
use std::path::Path;
use std::time::Duration;

/// Makes a plug-in with its default settings. Its [`Plugin::name`] prefixes its options on the
/// command line where two plug-ins declare the same one (`--NAME.OPTION`).
pub type MakePlugin = fn() -> Box<dyn Plugin>;

/// The plug-ins every console command runs, in the order the host calls them each frame.
pub const OFFERED: &[MakePlugin] = &[|| Box::new(MagicJewelryPlugin::default())];

/// Fresh plug-ins of [`OFFERED`], with their default settings.
pub fn make_all() -> Vec<Box<dyn Plugin>> {
    OFFERED.iter().map(|make| make()).collect()
}

/// The Lua plug-in running `script` (`--lua`), which then holds the controller.
pub fn lua(script: &Path, os_and_io: bool) -> anyhow::Result<Box<dyn Plugin>> {
    Ok(Box::new(LuaPlugin::from_file(
        script,
        LuaOptions { os_and_io },
    )?))
}

/// The plug-in that runs the bot `target` names (`--bot`), which then holds the controller. It
/// comes after the game's plug-ins, so that it hears of what they saw in the same frame.
pub fn bot(target: &str, realtime: bool, timeout_seconds: f64) -> anyhow::Result<Box<dyn Plugin>> {
    let target = Target::parse(target).map_err(|why| anyhow::anyhow!("--bot: {why}"))?;
    Ok(Box::new(BotPlugin::new(BotSettings {
        target,
        realtime,
        timeout: Duration::from_secs_f64(timeout_seconds),
    })))
}
