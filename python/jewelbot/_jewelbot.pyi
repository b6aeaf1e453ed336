"""Types of jewelbot's native module (``jewelbot._jewelbot``)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import Any, Callable, Optional, Union

import numpy as np
import numpy.typing as npt

#: Buttons: an int 0-255 (A is bit 0 ... Right bit 7), names joined by ``+`` (``"A+LEFT"``),
#: or 8 truth values in :data:`BUTTONS` order.
Buttons = Union[int, str, Sequence[Any], npt.NDArray[Any]]
#: A ROM: a path, the bytes of an iNES file, or ``None`` for the open cartridge.
Rom = Union[str, os.PathLike[str], bytes, None]
#: The decoded game: ``board`` (7, 15, 6), ``current``, ``next``, ``position`` and
#: ``counters`` arrays.
Observation = dict[str, npt.NDArray[Any]]

BUTTONS: list[str]
COUNTERS: list[str]
ACTIONS: int
SCREEN_SHAPE: tuple[int, int, int]
RAM_SIZE: int

class Console:
    """The console for any ROM the host runs, or the open cartridge."""

    def __init__(self, rom: Rom = None, *, video: bool = True) -> None: ...
    def step(self, buttons: Optional[Buttons] = None) -> None:
        """Run one frame holding ``buttons``."""
    def run(self, frames: int, buttons: Optional[Buttons] = None) -> None:
        """Run ``frames`` frames holding ``buttons`` (the GIL released meanwhile)."""
    def reset(self) -> None:
        """Soft reset, as the console's Reset button."""
    def power_on(self) -> None:
        """Power off and on: RAM as at power-on, frame 0."""
    @property
    def ram(self) -> npt.NDArray[np.uint8]:
        """A copy of the 2 KiB of RAM as a ``uint8`` array of 2048."""
    def peek(self, address: int) -> int:
        """The byte at RAM ``address`` (0 to 0x7FF)."""
    def poke(self, address: int, value: int) -> None:
        """Write ``value`` (0-255) at RAM ``address`` (0 to 0x7FF)."""
    def screen(self) -> npt.NDArray[np.uint8]:
        """The last frame as a ``(240, 256, 3)`` ``uint8`` RGB array."""
    video: bool
    def save_state(self) -> bytes:
        """The whole console as a state file's bytes (the format of ``--save-state``)."""
    def load_state(self, state: bytes) -> None:
        """Restore a state of this ROM; ``ValueError`` (and no change) otherwise."""
    @property
    def frame(self) -> int: ...
    @property
    def lag_frames(self) -> int: ...
    @property
    def lagged(self) -> bool: ...
    @property
    def rom_sha1(self) -> str: ...
    def close(self) -> None: ...
    @property
    def closed(self) -> bool: ...
    def __enter__(self) -> Console: ...
    def __exit__(self, kind: Any, value: Any, traceback: Any) -> None: ...

class Game:
    """Magic Jewelry on the engine, one column a step."""

    def __init__(
        self, rules: str = "real", seed: int = 0, *, generator_state: Optional[int] = None
    ) -> None: ...
    @staticmethod
    def dealt_state(seed: int) -> int:
        """The generator state the real game of ``seed`` is dealt from."""
    def observation(self) -> Observation:
        """The game at the spawn of the column in hand, decoded."""
    def action_mask(self) -> npt.NDArray[np.bool_]:
        """Which of the 18 actions the column in hand can reach."""
    def play(self, action: int) -> dict[str, Any]:
        """Place the column in hand; ``points``, ``removed``, ``chains``, ``wild``,
        ``jewels`` and ``lost``."""
    def give_up(self) -> dict[str, Any]:
        """Give the game up: a new game starts."""
    @property
    def rules(self) -> str: ...
    @property
    def board(self) -> npt.NDArray[np.uint8]:
        """The settled board, ``(15, 6)`` cells, row -2 first."""
    @property
    def current(self) -> tuple[int, int, int]: ...
    @property
    def next(self) -> tuple[int, int, int]: ...
    @property
    def counters(self) -> dict[str, int]: ...
    @property
    def generator_state(self) -> Optional[int]: ...
    def copy(self) -> Game: ...
    def __copy__(self) -> Game: ...

class Player:
    """The player, from its one description; ``knobs()`` lists the keywords."""

    def __init__(self, **knobs: Any) -> None: ...
    def choose(self, game: Union[Game, Observation]) -> tuple[Optional[int], str]:
        """Where the column in hand goes (``x * 3 + arrangement``) and why."""
    @property
    def description(self) -> str:
        """The player's settings as a JSON text."""
    @property
    def rules(self) -> str: ...

class EmulatedGame:
    """Magic Jewelry in the emulator, as the environments play it."""

    def __init__(self, rom: Rom = None, *, video: bool = False) -> None: ...
    def new_game(self, state: int) -> tuple[int, int, int, bool]: ...
    def frames(self, buttons: Buttons, count: int) -> tuple[int, int, int, bool]: ...
    def place(self, action: int) -> tuple[int, int, int, bool]: ...
    def observation(self) -> Observation: ...
    def action_mask(self) -> npt.NDArray[np.bool_]: ...
    @property
    def at_decision(self) -> bool: ...
    @property
    def game_over(self) -> bool: ...
    @property
    def inconsistent_frames(self) -> int: ...
    @property
    def frame(self) -> int: ...
    @property
    def ram(self) -> npt.NDArray[np.uint8]: ...
    def screen(self) -> npt.NDArray[np.uint8]: ...
    video: bool
    def close(self) -> None: ...
    @property
    def closed(self) -> bool: ...

def knobs() -> list[dict[str, Any]]:
    """Every setting of the player: ``name``, ``default``, ``values``, ``help``."""

def sim_games(seed: int, columns: int) -> list[tuple[int, int]]:
    """The games ``jewelbot sim --seed SEED --columns COLUMNS`` plays: (game_seed, columns)."""

def simulate(
    ai: str = "player", *, columns: int = 100_000, seed: int = 1, threads: int = 0, **knobs: Any
) -> dict[str, Any]:
    """``jewelbot sim``'s report as a dict."""

def evaluate(
    policy: Callable[[Observation, npt.NDArray[np.bool_]], Optional[int]],
    *,
    columns: int = 10_000,
    seed: int = 1,
    rules: str = "real",
) -> dict[str, Any]:
    """A Python policy on sim's column sequences, with sim's statistics."""

class HorizonDriver:
    """A proof run as its driver holds it (``jewelbot.cluster``)."""

    def __init__(self, words: list[str]) -> None: ...
    @property
    def settings(self) -> str: ...
    @property
    def starts(self) -> list[int]: ...
    def lessons(self) -> bytes: ...
    @property
    def refused(self) -> list[str]: ...
    @property
    def held(self) -> tuple[int, int, int]: ...
    @property
    def held_cycles(self) -> list[str]: ...
    @property
    def max_columns(self) -> int: ...
    @property
    def results(self) -> Optional[os.PathLike[str]]: ...
    @property
    def checkpoint(self) -> Optional[os.PathLike[str]]: ...
    def record(self, line: str) -> None: ...

class HorizonWorker:
    """A worker of a proof run: refuses a player other than the driver's."""

    def __init__(self, words: list[str], settings: str, threads: Optional[int] = None) -> None: ...
    def learn(self, lessons: bytes) -> None: ...
    @property
    def known_states(self) -> int: ...
    def play(
        self,
        start: int,
        news: Optional[Callable[[], Iterable[bytes]]] = None,
        news_every: float = 5.0,
        progress: Optional[Callable[[int], object]] = None,
    ) -> tuple[Optional[str], bytes]:
        """Plays a start; ``news`` brings lessons decided elsewhere while it plays, and
        ``progress`` hears the columns it has played so far."""

def horizon_help() -> str:
    """``jewelbot horizon``'s options, as its help prints them."""

def horizon_estimates(words: list[str]) -> bool:
    """Whether the words ask for the reference rules' estimate."""

class ReferenceEstimate:
    """The reference rules' estimate in parts, each made apart."""

    def __init__(self, words: list[str]) -> None: ...
    @property
    def runs(self) -> int: ...
    @property
    def counts_directly(self) -> bool: ...
    def estimate(self, run: int) -> bytes: ...
    def direct(self) -> Optional[bytes]: ...
    def report(
        self, estimates: list[bytes], direct: Optional[bytes], seconds: float, json: bool = False
    ) -> str: ...
