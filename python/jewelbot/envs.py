"""Gymnasium environments of Magic Jewelry.

- :class:`MagicJewelryEnv` (``jewelbot/MagicJewelry-v0``): the console, frame by frame; the
  action is the controller's buttons.
- :class:`MagicJewelryPlacementsEnv` (``jewelbot/MagicJewelryPlacements-v0``): one column a
  step; the action is where it goes, masked to the placements the column can reach.

Both observe the decoded game (see :func:`decoded_space`), deal the game a seed chooses, and
end an episode at a game over.
"""

from __future__ import annotations

from typing import Any, Optional, SupportsFloat, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from jewelbot._jewelbot import (
    ACTIONS,
    BUTTONS,
    COUNTERS,
    RAM_SIZE,
    SCREEN_SHAPE,
    EmulatedGame,
    Game,
)

#: Rewards an environment can pay: the points scored, the jewels cleared, or 1 for every
#: frame (frames environment) or column (placements environment) survived.
REWARDS = ("points", "jewels", "survival")

_ROWS, _WIDTH, _PLANES = 15, 6, 7
#: The counters' bound: 2**53 - 1, the largest whole number a float holds exactly, so that
#: the space samples (far past any game: the score display has 8 digits).
COUNTER_HIGH = 2**53 - 1
_SEED_HIGH = 2**63


def decoded_space() -> spaces.Dict:
    """The decoded game, as both environments observe it.

    - ``board``: ``(7, 15, 6)`` ``uint8`` planes, plane ``k`` marking the cells of colour
      ``k + 1`` (plane 6: the wild jewel), rows from the hidden row -2 down to row 12;
    - ``current`` and ``next``: the column in hand and the next, top to bottom (``7, 7, 7`` is
      the wild column);
    - ``position``: where the column in hand is, x 0-5 and the row of its bottom jewel;
    - ``counters``: ``int64`` in :data:`jewelbot.COUNTERS` order (score, jewels, level,
      speed in frames a row, combo, cells since the last wild column, generator state).
    """
    return spaces.Dict(
        {
            "board": spaces.Box(0, 1, (_PLANES, _ROWS, _WIDTH), np.uint8),
            "current": spaces.Box(0, 7, (3,), np.uint8),
            "next": spaces.Box(0, 7, (3,), np.uint8),
            "position": spaces.Box(0, 255, (2,), np.uint8),
            "counters": spaces.Box(0, COUNTER_HIGH, (len(COUNTERS),), np.int64),
        }
    )


def _reward_kind(reward: str) -> str:
    if reward not in REWARDS:
        raise ValueError(f"reward is one of {', '.join(REWARDS)}, not {reward!r}")
    return reward


def _generator_state(np_random: np.random.Generator, options: Optional[dict]) -> int:
    """The generator state a real game is dealt from: ``options["generator_state"]``, the game
    ``options["game_seed"]`` names, or one drawn from the environment's seeded generator."""
    options = options or {}
    unknown = set(options) - {"generator_state", "game_seed"}
    if unknown:
        raise ValueError(f"unknown reset options {sorted(unknown)} (generator_state, game_seed)")
    if "generator_state" in options:
        state = options["generator_state"]
        if not isinstance(state, (int, np.integer)) or not 0 <= state <= 0xFFFF:
            raise ValueError(f"options['generator_state'] is an int 0-65535, not {state!r}")
        return int(state)
    return Game.dealt_state(_game_seed(np_random, options))


def _game_seed(np_random: np.random.Generator, options: Optional[dict]) -> int:
    options = options or {}
    if "game_seed" in options:
        seed = options["game_seed"]
        if not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**64:
            raise ValueError(f"options['game_seed'] is an int 0 to 2**64 - 1, not {seed!r}")
        return int(seed)
    return int(np_random.integers(0, _SEED_HIGH))


class _Closable(gymnasium.Env):
    """An environment that refuses calls once closed."""

    _closed = False

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError(f"{type(self).__name__} is closed")


class MagicJewelryEnv(_Closable):
    """Magic Jewelry in the emulator, one frame (or ``frameskip`` frames) a step.

    Args:
        rom: A Magic Jewelry dump or the open cartridge (``None``): a path or the file's bytes.
        obs_type: ``"decoded"`` (the decoded game, :func:`decoded_space`), ``"ram"`` (the 2 KiB
            of RAM) or ``"rgb"`` (the screen, ``(240, 256, 3)``).
        reward: ``"points"``, ``"jewels"`` (cells cleared) or ``"survival"`` (1 a frame).
        frameskip: Frames each action is held for (at least 1).
        render_mode: ``"rgb_array"`` or ``None``.

    The action is the controller's buttons, ``MultiBinary(8)`` in :data:`jewelbot.BUTTONS`
    order (an int 0-255, nes-py's action byte, is taken too). An episode starts at the first
    column of a new game dealt from the seed (``reset(seed=...)``; ``options`` may name the
    ``generator_state`` or the ``game_seed`` outright) and ends at its game over.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 60}

    def __init__(
        self,
        rom: Any = None,
        obs_type: str = "decoded",
        reward: str = "points",
        frameskip: int = 1,
        render_mode: Optional[str] = None,
    ) -> None:
        if obs_type not in ("decoded", "ram", "rgb"):
            raise ValueError(f"obs_type is 'decoded', 'ram' or 'rgb', not {obs_type!r}")
        if not isinstance(frameskip, (int, np.integer)) or isinstance(frameskip, bool):
            raise TypeError(f"frameskip is an int, not {type(frameskip).__name__}")
        if frameskip < 1:
            raise ValueError(f"frameskip is at least 1, not {frameskip}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode is 'rgb_array' or None, not {render_mode!r}")
        self.obs_type = obs_type
        self.reward_kind = _reward_kind(reward)
        self.frameskip = int(frameskip)
        self.render_mode = render_mode
        self.action_space = spaces.MultiBinary(len(BUTTONS))
        if obs_type == "decoded":
            self.observation_space = decoded_space()
        elif obs_type == "ram":
            self.observation_space = spaces.Box(0, 255, (RAM_SIZE,), np.uint8)
        else:
            self.observation_space = spaces.Box(0, 255, SCREEN_SHAPE, np.uint8)
        video = obs_type == "rgb" or render_mode == "rgb_array"
        self._game = EmulatedGame(rom, video=video)

    def _observe(self) -> Any:
        if self.obs_type == "decoded":
            return self._game.observation()
        if self.obs_type == "ram":
            return self._game.ram
        return self._game.screen()

    def _info(self) -> dict:
        return {"frame": self._game.frame, "inconsistent_frames": self._game.inconsistent_frames}

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict] = None
    ) -> tuple[Any, dict]:
        """Power on and deal a new game; the observation at its first column."""
        self._check_open()
        super().reset(seed=seed)
        self._game.new_game(_generator_state(self.np_random, options))
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict]:
        """Hold ``action``'s buttons for ``frameskip`` frames (fewer if the game ends)."""
        self._check_open()
        if self._game.game_over:
            raise RuntimeError("the game is over: reset() the environment")
        points, cleared, frames, game_over = self._game.frames(action, self.frameskip)
        reward = {"points": points, "jewels": cleared, "survival": frames}[self.reward_kind]
        return self._observe(), float(reward), game_over, False, self._info()

    def render(self) -> Optional[np.ndarray]:
        """The screen, ``(240, 256, 3)`` ``uint8``, in ``"rgb_array"`` mode."""
        self._check_open()
        if self.render_mode == "rgb_array":
            return self._game.screen()
        return None

    def close(self) -> None:
        """Let the console go; any later call raises ``RuntimeError``."""
        if not self._closed:
            self._game.close()
            self._closed = True


class MagicJewelryPlacementsEnv(_Closable):
    """Magic Jewelry one column a step: the action is where the column in hand goes.

    Args:
        rules: ``"real"`` (the real game's generator, wild columns and scoring) or
            ``"reference"`` (independent colours, no wild columns; engine only).
        backend: ``"engine"`` (no emulator: fast) or ``"emulator"`` (the placement carried out
            in the console by the player's injector, frame by frame, and read back from RAM).
        rom: With the emulator, a Magic Jewelry dump or the open cartridge (``None``).
        reward: ``"points"``, ``"jewels"`` (cells cleared) or ``"survival"`` (1 a column).
        render_mode: ``"rgb_array"`` or ``None``.

    Actions are ``Discrete(18)``: ``x * 3 + arrangement`` (x 0-5, arrangement 0-2 presses of
    A). :meth:`action_masks` (bool, as MaskablePPO asks) and ``info["action_mask"]`` (``int8``,
    as ``action_space.sample(mask=...)`` asks) give those the column in hand can reach, by the
    breadth-first search over taps the player uses; any other raises ``ValueError``. Seeds
    deal the same game on both backends.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(
        self,
        rules: str = "real",
        backend: str = "engine",
        rom: Any = None,
        reward: str = "points",
        render_mode: Optional[str] = None,
    ) -> None:
        if rules not in ("real", "reference"):
            raise ValueError(f"rules is 'real' or 'reference', not {rules!r}")
        if backend not in ("engine", "emulator"):
            raise ValueError(f"backend is 'engine' or 'emulator', not {backend!r}")
        if backend == "emulator" and rules != "real":
            raise ValueError("the emulator plays the real rules: rules='real'")
        if backend == "engine" and rom is not None:
            raise ValueError("a rom is for backend='emulator'")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode is 'rgb_array' or None, not {render_mode!r}")
        self.rules = rules
        self.backend = backend
        self.reward_kind = _reward_kind(reward)
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(ACTIONS)
        self.observation_space = decoded_space()
        self._emulated = (
            EmulatedGame(rom, video=render_mode == "rgb_array") if backend == "emulator" else None
        )
        self._game: Optional[Game] = None
        self._mask = np.zeros(ACTIONS, dtype=bool)
        self._over = True

    def _source(self) -> Union[EmulatedGame, Game]:
        if self._emulated is not None:
            return self._emulated
        if self._game is None:
            raise RuntimeError("the game is not begun: reset() the environment")
        return self._game

    def _observe(self) -> tuple[dict, dict]:
        source = self._source()
        self._mask = source.action_mask()
        # int8, the mask Gymnasium's Discrete.sample takes.
        return source.observation(), {"action_mask": self._mask.astype(np.int8)}

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict] = None
    ) -> tuple[dict, dict]:
        """Deal a new game; the observation at its first column."""
        self._check_open()
        super().reset(seed=seed)
        if self._emulated is not None:
            self._emulated.new_game(_generator_state(self.np_random, options))
        elif self.rules == "real" and options and "generator_state" in options:
            state = _generator_state(self.np_random, options)
            self._game = Game("real", generator_state=state)
        else:
            if options and set(options) - {"game_seed"}:
                raise ValueError(
                    f"unknown reset options {sorted(set(options) - {'game_seed'})} "
                    "(game_seed; generator_state under the real rules)"
                )
            self._game = Game(self.rules, _game_seed(self.np_random, options))
        self._over = False
        return self._observe()

    def action_masks(self) -> np.ndarray:
        """The actions the column in hand can reach, as MaskablePPO asks for them."""
        self._check_open()
        return self._mask.copy()

    def step(self, action: Any) -> tuple[dict, SupportsFloat, bool, bool, dict]:
        """Place the column in hand as ``action``; the observation at the next column."""
        self._check_open()
        if self._over:
            raise RuntimeError("the game is over (or not begun): reset() the environment")
        if self._emulated is not None:
            points, cleared, _frames, lost = self._emulated.place(action)
        elif self._game is not None:
            turn = self._game.play(action)
            points, cleared, lost = turn["points"], turn["removed"], turn["lost"]
        else:
            raise RuntimeError("the game is not begun: reset() the environment")
        observation, info = self._observe()
        # A column that cannot move at its spawn loses the game too.
        lost = bool(lost or not self._mask.any())
        self._over = lost
        reward = {"points": points, "jewels": cleared, "survival": 1}[self.reward_kind]
        return observation, float(reward), lost, False, info

    def render(self) -> Optional[np.ndarray]:
        """The screen (emulator) or a drawing of the board and the columns (engine)."""
        self._check_open()
        if self.render_mode != "rgb_array":
            return None
        if self._emulated is not None:
            return self._emulated.screen()
        if self._game is None:
            return draw(None)
        return draw(self._game.observation())

    def close(self) -> None:
        """Let the game go; any later call raises ``RuntimeError``."""
        if not self._closed:
            if self._emulated is not None:
                self._emulated.close()
            self._closed = True


#: The jewels' colours for :func:`draw`: empty, red, yellow, orange, green, blue, purple, wild.
PALETTE = np.array(
    [
        [16, 16, 24],
        [220, 40, 40],
        [230, 210, 40],
        [240, 130, 30],
        [40, 180, 70],
        [50, 90, 230],
        [160, 60, 200],
        [240, 240, 240],
    ],
    dtype=np.uint8,
)

_CELL = 16


def draw(observation: Optional[dict]) -> np.ndarray:
    """A picture of a decoded game: the 13 visible rows and, beside them, the column in hand
    and the next, 16 pixels a cell, as a ``(208, 160, 3)`` ``uint8`` array."""
    picture = np.zeros((13 * _CELL, 10 * _CELL, 3), dtype=np.uint8)
    if observation is None:
        return picture
    planes = np.asarray(observation["board"])
    grid = (planes * np.arange(1, _PLANES + 1)[:, None, None]).sum(axis=0)[2:]
    cells = PALETTE[np.clip(grid, 0, 7)]
    picture[:, : _WIDTH * _CELL] = cells.repeat(_CELL, axis=0).repeat(_CELL, axis=1)
    for offset, column in ((0, observation["current"]), (4, observation["next"])):
        for i, jewel in enumerate(np.asarray(column)):
            top = (offset + i) * _CELL
            picture[top : top + _CELL, 8 * _CELL : 9 * _CELL] = PALETTE[min(int(jewel), 7)]
    return picture
