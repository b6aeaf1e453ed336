//! RAM edits from the command line: `--poke FRAME:ADDR=VALUE` writes a byte before a frame,
//! `--freeze ADDR=VALUE` rewrites one around every frame ([`crate::session::Session::freeze`]).
//! Addresses are hexadecimal (`$3A1`, `0x3A1` or `3A1`) inside the 2 KiB of CPU RAM; values
//! are decimal or hexadecimal with a prefix, 0-255.

use jewelbot_plugin::RAM_SIZE;

/// A write to make just before a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Poke {
    /// The frame it comes before (1 is the first frame after power-on).
    pub frame: u64,
    pub address: u16,
    pub value: u8,
}

/// A byte held at a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Freeze {
    pub address: u16,
    pub value: u8,
}

fn address(text: &str) -> Result<u16, String> {
    let digits = text
        .strip_prefix('$')
        .or_else(|| text.strip_prefix("0x"))
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(text);
    let address = u32::from_str_radix(digits, 16)
        .map_err(|_| format!("`{text}` is not a hexadecimal address"))?;
    if address >= RAM_SIZE as u32 {
        return Err(format!(
            "address ${address:X} is outside RAM ($0000-${:04X})",
            RAM_SIZE - 1
        ));
    }
    Ok(address as u16)
}

fn value(text: &str) -> Result<u8, String> {
    let parsed = match text
        .strip_prefix('$')
        .or_else(|| text.strip_prefix("0x"))
        .or_else(|| text.strip_prefix("0X"))
    {
        Some(hex) => u32::from_str_radix(hex, 16),
        None => text.parse::<u32>(),
    }
    .map_err(|_| format!("`{text}` is not a number"))?;
    u8::try_from(parsed).map_err(|_| format!("value {parsed} does not fit a byte (0-255)"))
}

fn assignment(text: &str) -> Result<(u16, u8), String> {
    let (a, v) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}` is not ADDR=VALUE"))?;
    Ok((address(a.trim())?, value(v.trim())?))
}

/// Parses `FRAME:ADDR=VALUE` (for clap).
pub fn parse_poke(text: &str) -> Result<Poke, String> {
    let (frame, rest) = text
        .split_once(':')
        .ok_or_else(|| format!("`{text}` is not FRAME:ADDR=VALUE"))?;
    let frame: u64 = frame
        .trim()
        .parse()
        .map_err(|_| format!("`{frame}` is not a frame number"))?;
    if frame == 0 {
        return Err("frames count from 1".into());
    }
    let (address, value) = assignment(rest)?;
    Ok(Poke {
        frame,
        address,
        value,
    })
}

/// Parses `ADDR=VALUE` (for clap).
pub fn parse_freeze(text: &str) -> Result<Freeze, String> {
    let (address, value) = assignment(text)?;
    Ok(Freeze { address, value })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pokes_and_freezes_parse_and_bad_ones_are_refused() {
        assert_eq!(
            parse_poke("120:$3A1=7"),
            Ok(Poke {
                frame: 120,
                address: 0x3A1,
                value: 7
            })
        );
        assert_eq!(
            parse_freeze("0x6e=0x45"),
            Ok(Freeze {
                address: 0x6E,
                value: 0x45
            })
        );
        assert_eq!(parse_freeze("6E=255").map(|f| f.value), Ok(255));
        for bad in ["800=1", "6e=256", "6e", "zz=1", "6e=-1"] {
            assert!(parse_freeze(bad).is_err(), "{bad}");
        }
        for bad in ["0:6e=1", "x:6e=1", "6e=1", "5:900=1"] {
            assert!(parse_poke(bad).is_err(), "{bad}");
        }
        assert!(parse_freeze("900=1").unwrap_err().contains("outside RAM"));
        assert!(parse_freeze("6e=300").unwrap_err().contains("byte"));
    }
}
