//! Reading structured choices from fuzzer bytes; past the end every read is 0.

pub struct Input<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Input<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Self { data, at: 0 }
    }

    pub fn is_empty(&self) -> bool {
        self.at >= self.data.len()
    }

    pub fn byte(&mut self) -> u8 {
        let byte = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        byte
    }

    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }

    pub fn u32(&mut self) -> u32 {
        u32::from(self.u16()) | u32::from(self.u16()) << 16
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            self.u32() as usize % n
        }
    }

    pub fn flag(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    /// A byte, often one of the values at the edges of what the game holds.
    pub fn interesting(&mut self) -> u8 {
        let raw = self.byte();
        match raw % 10 {
            0 => 0,
            1 => 0xFF,
            2 => 7,
            3 => 8,
            4 => 9 + raw / 10 % 4,
            5 | 6 => 1 + raw / 10 % 6,
            7 => 0x80,
            _ => self.byte(),
        }
    }

    /// The rest of the bytes.
    pub fn rest(&mut self) -> &'a [u8] {
        let rest = self.data.get(self.at..).unwrap_or(&[]);
        self.at = self.data.len();
        rest
    }
}

/// A small deterministic generator for the sweep driver (xorshift64*).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next_u64() as u8).collect()
    }
}
