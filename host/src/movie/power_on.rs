//! What CPU RAM holds at power-on. Games that seed a generator from uninitialised RAM (Magic
//! Jewelry does) play another game for every fill, so a movie says which one it was made
//! with: FCEUX's `RAMInitOption` (with `RAMInitSeed`), whose four fills are reproduced here
//! byte for byte (FCEUX's `FCEU_MemoryRand` and the xoroshiro128+ generator behind it).

use std::fmt;

/// A power-on fill of CPU RAM, as FCEUX names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PowerOnRam {
    /// `RAMInitOption 0`, FCEUX's default: `00 00 00 00 FF FF FF FF` repeated.
    FceuxPattern,
    /// `RAMInitOption 1`: every byte $FF.
    AllOnes,
    /// `RAMInitOption 2`: every byte $00. jewelbot powers on this way.
    #[default]
    AllZeros,
    /// `RAMInitOption 3`: FCEUX's pseudo-random bytes from `RAMInitSeed`.
    Seeded(u32),
}

impl PowerOnRam {
    /// FCEUX's `RAMInitOption` for this fill.
    pub fn option(self) -> u8 {
        match self {
            Self::FceuxPattern => 0,
            Self::AllOnes => 1,
            Self::AllZeros => 2,
            Self::Seeded(_) => 3,
        }
    }

    /// FCEUX's `RAMInitSeed` (only the seeded fill uses it).
    pub fn seed(self) -> u32 {
        match self {
            Self::Seeded(seed) => seed,
            _ => 0,
        }
    }

    /// The fill an fm2 header names; `None` for an option FCEUX does not have.
    pub fn from_option(option: u8, seed: u32) -> Option<Self> {
        Some(match option {
            0 => Self::FceuxPattern,
            1 => Self::AllOnes,
            2 => Self::AllZeros,
            3 => Self::Seeded(seed),
            _ => return None,
        })
    }

    /// Fills `ram` as FCEUX fills the console's 2 KiB at power-on.
    pub fn fill(self, ram: &mut [u8]) {
        match self {
            Self::FceuxPattern => {
                for (i, byte) in ram.iter_mut().enumerate() {
                    *byte = if i & 4 == 0 { 0x00 } else { 0xFF };
                }
            }
            Self::AllOnes => ram.fill(0xFF),
            Self::AllZeros => ram.fill(0x00),
            Self::Seeded(seed) => {
                let mut random = Xoroshiro128Plus::seeded(seed);
                for byte in ram {
                    *byte = random.next() as u8;
                }
            }
        }
    }
}

impl fmt::Display for PowerOnRam {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::FceuxPattern => f.write_str("FCEUX's 00/FF pattern"),
            Self::AllOnes => f.write_str("all $FF"),
            Self::AllZeros => f.write_str("all $00"),
            Self::Seeded(seed) => write!(f, "FCEUX's random fill with seed {seed}"),
        }
    }
}

/// xoroshiro128+ seeded through splitmix64, as FCEUX seeds it from `RAMInitSeed`.
struct Xoroshiro128Plus([u64; 2]);

impl Xoroshiro128Plus {
    const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

    fn seeded(seed: u32) -> Self {
        let mut x = u64::from(seed);
        let mut split = || {
            x = x.wrapping_add(Self::GOLDEN_GAMMA);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        Self([split(), split()])
    }

    fn next(&mut self) -> u64 {
        let [s0, mut s1] = self.0;
        let result = s0.wrapping_add(s1);
        s1 ^= s0;
        self.0 = [s0.rotate_left(55) ^ s1 ^ (s1 << 14), s1.rotate_left(36)];
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fceux_default_pattern_is_four_zeros_then_four_ones() {
        let mut ram = [0x55; 16];
        PowerOnRam::FceuxPattern.fill(&mut ram);
        assert_eq!(
            ram,
            [0, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 0, 255, 255, 255, 255]
        );
    }

    #[test]
    fn options_round_trip_and_unknown_ones_are_refused() {
        for fill in [
            PowerOnRam::FceuxPattern,
            PowerOnRam::AllOnes,
            PowerOnRam::AllZeros,
            PowerOnRam::Seeded(1234),
        ] {
            assert_eq!(
                PowerOnRam::from_option(fill.option(), fill.seed()),
                Some(fill)
            );
        }
        assert_eq!(PowerOnRam::from_option(4, 0), None);
    }

    #[test]
    fn seeded_fill_follows_splitmix_and_xoroshiro() {
        // splitmix64's first output for seed 0 is the published E220A8397B1DCDAF; the
        // generator's first output is the sum of the two seeds' words.
        let mut random = Xoroshiro128Plus::seeded(0);
        assert_eq!(random.0[0], 0xE220_A839_7B1D_CDAF);
        let first = random.0[0].wrapping_add(random.0[1]);
        assert_eq!(random.next(), first);
        let mut a = [0; 64];
        let mut b = [0; 64];
        PowerOnRam::Seeded(7).fill(&mut a);
        PowerOnRam::Seeded(8).fill(&mut b);
        assert_ne!(a, b);
        assert!(a.iter().any(|&v| v != 0 && v != 0xFF));
    }
}
