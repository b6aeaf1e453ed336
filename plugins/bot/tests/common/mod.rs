//! The session every bot test plays: the open cartridge, the Magic Jewelry plug-in (whose
//! events the bots ask for, and which takes the controller back when a bot fails) and the bot.

use jewelbot_bot::{BotPlugin, BotSettings, Target};
use jewelbot_host::rom::RomImage;
use jewelbot_host::session::{Session, SessionConfig};
use magic_jewelry::plugin::MagicJewelryPlugin;
use std::time::Duration;

pub fn session(target: Target, realtime: bool, timeout: Duration) -> Session {
    let bot = BotPlugin::new(BotSettings {
        target,
        realtime,
        timeout,
    });
    let rom = RomImage::from_bytes(jewelbot_cartridge::NAME, jewelbot_cartridge::ROM)
        .expect("the cartridge loads");
    let plugins: Vec<Box<dyn jewelbot_plugin::Plugin>> =
        vec![Box::new(MagicJewelryPlugin::default()), Box::new(bot)];
    Session::new(rom, plugins, SessionConfig::default()).expect("a session")
}

pub fn run(session: &mut Session, frames: u32) {
    for _ in 0..frames {
        session.run_frame().expect("the game goes on");
    }
}
