"""Shared fixtures: a ROM that is not the game, for refusals."""

from __future__ import annotations

import pytest


def nrom(prg_fill: int = 0xEA) -> bytes:
    """A 24 KiB NROM image whose CPU runs NOPs forever (reset vector at $8000)."""
    header = b"NES\x1a" + bytes([1, 1, 0, 0]) + bytes(8)
    prg = bytearray([prg_fill] * 0x4000)
    prg[0x3FFC:0x3FFE] = b"\x00\x80"  # reset vector
    prg[0x3FFA:0x3FFC] = b"\x00\x80"  # NMI
    prg[0x3FFE:0x4000] = b"\x00\x80"  # IRQ
    return header + bytes(prg) + bytes(0x2000)


@pytest.fixture
def other_rom() -> bytes:
    return nrom()
