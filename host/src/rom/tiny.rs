//! Tiny NES programs built in memory, for tests, examples and benchmarks that need a ROM whose
//! every instruction is known.

/// Address where the tiny ROM stores the controller bits it reads each frame (8 bytes, A first).
pub const PAD_BITS: usize = 0x10;
/// Frame counter incremented by the tiny ROM's NMI handler.
pub const NMI_COUNT: usize = 0x21;
/// The tiny ROM copies this byte to [`POKE_ECHO`] every frame, proving pokes reach the program.
pub const POKE_SOURCE: usize = 0x30;
pub const POKE_ECHO: usize = 0x31;

/// An NROM program that enables NMI, reads controller 1 into $10-$17 and counts frames in $21.
pub fn tiny_rom() -> Vec<u8> {
    let mut prg = vec![0xEAu8; 0x4000];
    let reset = [
        0x78, 0xD8, 0xA2, 0xFF, 0x9A, // SEI CLD LDX #$FF TXS
        0xA9, 0x80, 0x8D, 0x00, 0x20, // LDA #$80 STA $2000 (NMI on)
        0x4C, 0x0A, 0x80, // JMP $800A
    ];
    let nmi = [
        0x48, 0x8A, 0x48, // PHA TXA PHA
        0xA9, 0x01, 0x8D, 0x16, 0x40, 0xA9, 0x00, 0x8D, 0x16, 0x40, // strobe
        0xA2, 0x00, // LDX #0
        0xAD, 0x16, 0x40, 0x29, 0x01, 0x95, 0x10, // LDA $4016 AND #1 STA $10,X
        0xE8, 0xE0, 0x08, 0xD0, 0xF4, // INX CPX #8 BNE read
        0xE6, 0x21, // INC $21
        0xA5, 0x30, 0x85, 0x31, // LDA $30 STA $31
        0x68, 0xAA, 0x68, 0x40, // PLA TAX PLA RTI
    ];
    prg[..reset.len()].copy_from_slice(&reset);
    prg[0x10..0x10 + nmi.len()].copy_from_slice(&nmi);
    set_vectors(&mut prg, 0x8010, 0x8000, 0x8034);
    ines(&prg, &[0u8; 0x2000], 0)
}

/// A program that loops for ever with NMI off: it never reads a controller, so every frame is
/// a lag frame.
pub fn idle_rom() -> Vec<u8> {
    let mut prg = vec![0xEAu8; 0x4000];
    prg[..3].copy_from_slice(&[0x4C, 0x00, 0x80]); // JMP $8000
    set_vectors(&mut prg, 0x8000, 0x8000, 0x8000);
    ines(&prg, &[0u8; 0x2000], 0)
}

/// A program whose reset vector points at a jam opcode.
pub fn jam_rom() -> Vec<u8> {
    let mut prg = vec![0xEAu8; 0x4000];
    prg[0] = 0x02;
    set_vectors(&mut prg, 0x8000, 0x8000, 0x8000);
    ines(&prg, &[0u8; 0x2000], 0)
}

fn set_vectors(prg: &mut [u8], nmi: u16, reset: u16, irq: u16) {
    let end = prg.len();
    for (i, vector) in [nmi, reset, irq].into_iter().enumerate() {
        prg[end - 6 + 2 * i..end - 4 + 2 * i].copy_from_slice(&vector.to_le_bytes());
    }
}

/// An iNES 1.0 file.
pub fn ines(prg: &[u8], chr: &[u8], mapper: u8) -> Vec<u8> {
    let mut rom = vec![
        b'N',
        b'E',
        b'S',
        0x1A,
        (prg.len() / 0x4000) as u8,
        (chr.len() / 0x2000) as u8,
        (mapper << 4) | 0x01,
        mapper & 0xF0,
    ];
    rom.resize(16, 0);
    rom.extend_from_slice(prg);
    rom.extend_from_slice(chr);
    rom
}
