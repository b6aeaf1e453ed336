"""Speeds of the Python package, side by side with nes-py and the command line.

Run by ``benchmarks/run.sh`` (which makes this script's own environment); prints, each the
median of several runs:

1. frames a second of ``jewelbot/MagicJewelry-v0`` (RAM observation, no rendering) against
   nes-py's ``NESEnv`` on the same ROM (the open cartridge), and their ratio;
2. steps a second of ``jewelbot/MagicJewelryPlacements-v0`` on the engine (real rules);
3. the console's frames a second from Python against ``jewelbot run --headless --ai off``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

import jewelbot

REPEATS = 5


def median_rate(run, count: int) -> float:
    """The median over ``REPEATS`` runs of ``count / seconds`` of ``run(count)``."""
    rates = []
    for _ in range(REPEATS):
        began = time.perf_counter()
        run(count)
        rates.append(count / (time.perf_counter() - began))
    return statistics.median(rates)


def frames_env(frames: int) -> float:
    env = gym.make("jewelbot/MagicJewelry-v0", obs_type="ram")
    env.reset(seed=1)
    idle = np.zeros(8, dtype=np.int8)

    def run(count: int) -> None:
        for _ in range(count):
            if env.step(idle)[2]:
                env.reset()

    return median_rate(run, frames)


def nes_py(rom: Path, frames: int) -> float:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from nes_py import NESEnv

        env = NESEnv(str(rom))
        env.reset()

    def run(count: int) -> None:
        for _ in range(count):
            if env.step(0)[2]:
                env.reset()

    return median_rate(run, frames)


def placements_env(steps: int) -> float:
    env = gym.make("jewelbot/MagicJewelryPlacements-v0", rules="real")
    _, info = env.reset(seed=1)
    state = {"info": info}

    def run(count: int) -> None:
        info = state["info"]
        for _ in range(count):
            _, _, terminated, _, info = env.step(int(info["action_mask"].argmax()))
            if terminated:
                _, info = env.reset()
        state["info"] = info

    return median_rate(run, steps)


def console(frames: int) -> float:
    machine = jewelbot.Console(video=False)
    return median_rate(machine.run, frames)


def command_line(binary: Path, frames: int) -> float:
    def run(count: int) -> None:
        subprocess.run(
            [str(binary), "run", "--headless", "--ai", "off", "--frames", str(count)],
            check=True,
            stdout=subprocess.DEVNULL,
        )

    return median_rate(run, frames)


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rom", type=Path, required=True, help="the open cartridge's file")
    parser.add_argument("--jewelbot", type=Path, required=True, help="the release binary")
    parser.add_argument("--frames", type=int, default=3000)
    parser.add_argument("--steps", type=int, default=100_000)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, jewelbot {jewelbot.__version__}, {REPEATS} runs each")
    ours = frames_env(args.frames)
    theirs = nes_py(args.rom, args.frames)
    print(f"frames env (RAM, no render): {ours:9.0f} frames/s")
    print(f"nes-py NESEnv:               {theirs:9.0f} frames/s")
    print(f"  ratio jewelbot / nes-py:   {ours / theirs:9.3f}")
    print(f"placements env (engine):     {placements_env(args.steps):9.0f} steps/s")
    python = console(args.frames * 3)
    cli = command_line(args.jewelbot, args.frames * 3)
    print(f"Console.run from Python:     {python:9.0f} frames/s")
    print(f"jewelbot run --headless:     {cli:9.0f} frames/s")
    print(f"  ratio Python / command:    {python / cli:9.3f}")


if __name__ == "__main__":
    main()
