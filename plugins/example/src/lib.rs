//! A plug-in to start from (`docs/plugins.md`): it watches one byte of RAM, shows it in the
//! status and over the picture, counts how often it changes, offers that count to `run
//! --until`, and can hold Start while the byte has a chosen value.

mod command;

pub use command::{WatchCommand, OFFER};

use jewelbot_plugin::{
    Buttons, FrameContext, Mark, Plugin, PluginOption, Ram, RomIdentity, Stat, StatValue,
    StopCondition, RAM_SIZE,
};

/// Watches a RAM byte.
#[derive(Debug, Clone, Default)]
pub struct RamWatch {
    /// The byte watched ($0000-$07FF).
    address: u16,
    /// Hold Start during every frame after one where the byte reads this.
    start_on: Option<u8>,
    /// The byte's value last frame.
    last: Option<u8>,
    /// Frames on which it differed from the frame before.
    changes: i64,
}

impl RamWatch {
    pub const NAME: &'static str = "ram-watch";
}

impl Plugin for RamWatch {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn attach(&mut self, rom: &RomIdentity<'_>) -> Result<String, String> {
        // Any ROM will do; a game's plug-in checks `rom.prg_chr_crc32` and refuses the rest.
        Ok(format!("watching ${:04X} of {}", self.address, rom.name))
    }

    fn on_frame(&mut self, ctx: &mut FrameContext<'_>) {
        let value = ctx.ram()[usize::from(self.address)];
        if self.last.is_some_and(|last| last != value) {
            self.changes += 1;
        }
        self.last = Some(value);
        if self.start_on == Some(value) {
            ctx.set_buttons(Buttons::START);
        } else {
            ctx.set_buttons(Buttons::NONE);
        }
        let status = ctx.status();
        status.lines = vec![format!("${:04X} = {value:02X}", self.address)];
        // A bar along the top edge as wide as the value: something to see move.
        status.marks = vec![Mark {
            x: 0,
            y: 0,
            width: u16::from(value).max(1),
            height: 4,
            color: [255, 200, 0, 255],
        }];
    }

    fn on_reset(&mut self) {
        // What was seen before a reset or a state load says nothing of the byte now.
        self.last = None;
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "watch" => {
                let address = parse_address(value)?;
                self.address = address;
                self.last = None;
                Ok(())
            }
            "start-on" => {
                self.start_on = match value {
                    "never" => None,
                    _ => Some(parse_byte(value)?),
                };
                Ok(())
            }
            _ => Err(format!("{} has no option `{name}`", Self::NAME)),
        }
    }

    fn options(&self) -> Vec<PluginOption> {
        let start_on = self
            .start_on
            .map_or_else(|| "never".to_owned(), |v| format!("{v:02X}"));
        vec![
            PluginOption::text(
                "watch",
                "the RAM byte to watch, hex ($21, 0x21 or 21)",
                &format!("{:04X}", self.address),
                "ADDRESS",
            ),
            PluginOption::text(
                "start-on",
                "hold Start after a frame where the byte reads this hex value",
                &start_on,
                "BYTE",
            ),
        ]
    }

    fn stats(&self) -> Vec<Stat> {
        vec![Stat::new(
            "watch_changes",
            "frames the watched byte changed",
            StatValue::Int(self.changes),
        )]
    }

    fn stop_conditions(&self) -> Vec<StopCondition> {
        vec![StopCondition::counter(
            "watch-changes",
            "the watched byte has changed N times",
            "watch_changes",
        )]
    }

    fn checkpoint(&mut self) -> Option<Vec<u8>> {
        Some(self.changes.to_le_bytes().to_vec())
    }

    fn resume(&mut self, snapshot: &[u8], ram: &Ram) -> Result<(), String> {
        let bytes: [u8; 8] = snapshot.try_into().map_err(|_| {
            format!(
                "a snapshot of {} bytes is not this plug-in's",
                snapshot.len()
            )
        })?;
        self.changes = i64::from_le_bytes(bytes);
        self.last = Some(ram[usize::from(self.address)]);
        Ok(())
    }
}

/// A RAM address in hex, with or without `$` or `0x`.
fn parse_address(text: &str) -> Result<u16, String> {
    let digits = text.trim_start_matches('$').trim_start_matches("0x");
    match u16::from_str_radix(digits, 16) {
        Ok(address) if usize::from(address) < RAM_SIZE => Ok(address),
        Ok(_) => Err(format!("${digits} is outside RAM ($0000-$07FF)")),
        Err(_) => Err(format!("`{text}` is not a hex address")),
    }
}

/// A byte in hex.
fn parse_byte(text: &str) -> Result<u8, String> {
    let digits = text.trim_start_matches('$').trim_start_matches("0x");
    u8::from_str_radix(digits, 16).map_err(|_| format!("`{text}` is not a hex byte (00-FF)"))
}
