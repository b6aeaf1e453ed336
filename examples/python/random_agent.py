"""A random agent on both Magic Jewelry environments: the floor any agent should beat.

    python examples/python/random_agent.py --episodes 5 --seed 1

On the placements environment it picks uniformly among the reachable placements; on the
frames environment it presses random buttons for a few frames at a time.
"""

from __future__ import annotations

import argparse

import gymnasium as gym
import numpy as np

import jewelbot  # noqa: F401  (registers the environments)


def placements(episodes: int, seed: int) -> None:
    """Random reachable placements, one column a step."""
    env = gym.make("jewelbot/MagicJewelryPlacements-v0")
    rng = np.random.default_rng(seed)
    for episode in range(episodes):
        _, info = env.reset(seed=seed + episode)
        columns, points, terminated = 0, 0.0, False
        while not terminated:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, terminated, _, info = env.step(action)
            columns, points = columns + 1, points + reward
        print(f"placements episode {episode}: {columns} columns, {points:.0f} points")
    env.close()


def frames(episodes: int, seed: int, most: int) -> None:
    """Random buttons, held 8 frames a step."""
    env = gym.make("jewelbot/MagicJewelry-v0", obs_type="ram", frameskip=8)
    env.action_space.seed(seed)
    for episode in range(episodes):
        env.reset(seed=seed + episode)
        steps, points, terminated = 0, 0.0, False
        while not terminated and steps < most:
            _, reward, terminated, _, _ = env.step(env.action_space.sample())
            steps, points = steps + 1, points + reward
        ending = "game over" if terminated else "still playing"
        print(f"frames episode {episode}: {steps * 8} frames, {points:.0f} points, {ending}")
    env.close()


def main() -> None:
    """Play and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--most-steps", type=int, default=2000, help="frames env: steps cap")
    args = parser.parse_args()
    placements(args.episodes, args.seed)
    frames(args.episodes, args.seed, args.most_steps)


if __name__ == "__main__":
    main()
