//! The plug-ins this command offers: the one place the binary names them. The host library
//! (`jewelbot-host`) knows none; a new plug-in is one row here (`docs/plugins.md`).

use jewelbot_lua::{LuaOptions, LuaPlugin};
use jewelbot_plugin::Plugin;
use magic_jewelry::plugin::MagicJewelryPlugin;
use std::path::Path;

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
