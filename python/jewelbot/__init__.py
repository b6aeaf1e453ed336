"""jewelbot from Python: the NES console, the Magic Jewelry engine and player, and Gymnasium
environments.

- :class:`Console`: any ROM the jewelbot host runs (the open cartridge when none is given),
  frame by frame: buttons, RAM, the screen, save states.
- :class:`Game`: Magic Jewelry on the engine, one column a step, no emulator.
- :class:`Player`: the player, built from its one description (``knobs()`` lists its settings);
  ``Player().choose(observation)`` returns its placement and why.
- :func:`simulate` (the lab's ``sim``) and :func:`evaluate` (a Python policy on the same column
  sequences, the same statistics).
- Gymnasium environments, registered on import: ``jewelbot/MagicJewelry-v0`` (frames) and
  ``jewelbot/MagicJewelryPlacements-v0`` (one column a step, masked).

See ``docs/python.md``.
"""

from __future__ import annotations

import gymnasium

from jewelbot._jewelbot import (
    ACTIONS,
    BUTTONS,
    COUNTERS,
    RAM_SIZE,
    SCREEN_SHAPE,
    Console,
    EmulatedGame,
    Game,
    Player,
    evaluate,
    knobs,
    sim_games,
    simulate,
)

__all__ = [
    "ACTIONS",
    "BUTTONS",
    "COUNTERS",
    "RAM_SIZE",
    "SCREEN_SHAPE",
    "Console",
    "EmulatedGame",
    "Game",
    "Player",
    "evaluate",
    "knobs",
    "sim_games",
    "simulate",
]

__version__ = "0.1.0"


def _register() -> None:
    """Register the environments with Gymnasium (once, whatever imports this again)."""
    for env_id, entry_point in (
        ("jewelbot/MagicJewelry-v0", "jewelbot.envs:MagicJewelryEnv"),
        ("jewelbot/MagicJewelryPlacements-v0", "jewelbot.envs:MagicJewelryPlacementsEnv"),
    ):
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=entry_point)


_register()
