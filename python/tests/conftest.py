"""Shared fixtures: a ROM that is not the game, for refusals; the `jewelbot` command."""

from __future__ import annotations

import os
from pathlib import Path

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


@pytest.fixture
def command() -> Path:
    """The `jewelbot` command: `JEWELBOT`, or the one the workspace built (the Rust tiers build
    it before these tests run); the test is skipped without one."""
    if os.environ.get("JEWELBOT"):
        return Path(os.environ["JEWELBOT"])
    repo = Path(__file__).resolve().parents[2]
    for build in ("release", "debug"):
        binary = repo / "target" / build / "jewelbot"
        if binary.exists():
            return binary
    pytest.skip("no jewelbot command built (cargo build --bin jewelbot)")
