"""MaskablePPO (sb3-contrib) on the placements environment, measured as ``jewelbot sim`` is.

    pip install "./python[train]"
    python examples/python/maskable_ppo.py --timesteps 100000 --seed 1

The agent sees the board planes, both columns one-hot and the counters that set the pace,
chooses only among the placements the column can reach (``action_masks()``), and is paid the
jewels it clears. After training, ``jewelbot.evaluate`` plays it on the lab's column sequences
beside the player and a random agent. Figures reached are in ``docs/python.md``.
"""

from __future__ import annotations

import argparse

import gymnasium as gym
import numpy as np
from sb3_contrib import MaskablePPO

import jewelbot

_COLOURS = 8


def one_hot(column: np.ndarray) -> np.ndarray:
    """A column's jewels, one-hot over the 8 cell values."""
    encoded = np.zeros((3, _COLOURS), np.float32)
    encoded[np.arange(3), np.clip(np.asarray(column), 0, _COLOURS - 1)] = 1
    return encoded.ravel()


def encode(observation: dict) -> np.ndarray:
    """The decoded game as one vector: planes, columns, and the pace counters scaled to ~1."""
    counters = np.asarray(observation["counters"], np.float32)
    speed, combo, since_wild = counters[3], counters[4], counters[5]
    return np.concatenate(
        [
            np.asarray(observation["board"], np.float32).ravel(),
            one_hot(observation["current"]),
            one_hot(observation["next"]),
            [speed / 63.0, combo / 9.0, since_wild / 70.0],
        ]
    ).astype(np.float32)


class Encoded(gym.ObservationWrapper):
    """The placements environment with :func:`encode`'s observation."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        size = encode(env.observation_space.sample()).shape[0]
        self.observation_space = gym.spaces.Box(0.0, np.inf, (size,), np.float32)

    def observation(self, observation: dict) -> np.ndarray:
        """The encoded observation."""
        return encode(observation)

    def action_masks(self) -> np.ndarray:
        """The reachable placements, as MaskablePPO asks for them."""
        return self.env.unwrapped.action_masks()


def main() -> None:
    """Train, then measure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--measure", type=int, default=5000, help="columns measured")
    parser.add_argument("--save", help="where to save the trained model (.zip)")
    args = parser.parse_args()
    env = Encoded(gym.make("jewelbot/MagicJewelryPlacements-v0", reward="jewels"))
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0)
    model.learn(total_timesteps=args.timesteps)
    if args.save:
        model.save(args.save)

    def agent(observation, mask):
        action, _ = model.predict(encode(observation), action_masks=mask, deterministic=True)
        return int(action)

    rng = np.random.default_rng(args.seed)
    player = jewelbot.Player(strategy="smart")
    for name, policy in (
        (f"MaskablePPO {args.timesteps} steps", agent),
        ("smart", lambda o, m: player.choose(o)[0]),
        ("random", lambda o, m: int(rng.choice(np.flatnonzero(m)))),
    ):
        r = jewelbot.evaluate(policy, columns=args.measure, seed=args.seed + 1)
        print(
            f"{name:26} mean jewels {r['mean_jewels']:6.2f}  game overs {r['game_overs']:4}  "
            f"points a column {r['points_per_column']:8.1f}"
        )


if __name__ == "__main__":
    main()
