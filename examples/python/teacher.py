"""The player as a teacher: imitation of its placements by a linear policy, measured on the
lab's column sequences against the player and a random agent.

    python examples/python/teacher.py --columns 3000 --epochs 20

The player plays the placements environment and its (observation, action) pairs are kept; a
softmax policy over simple board features learns to pick its action among the reachable ones;
``jewelbot.evaluate`` then plays the student, the teacher and a random agent on the same
column sequences and prints what ``jewelbot sim`` would report for each.
"""

from __future__ import annotations

import argparse

import gymnasium as gym
import numpy as np

import jewelbot

ACTIONS = jewelbot.ACTIONS


_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def _run(grid: np.ndarray, row: int, x: int) -> int:
    """The longest line of the jewel at (row, x)'s colour through it."""
    colour, longest = grid[row, x], 1
    for dr, dx in _DIRECTIONS:
        length = 1
        for sign in (1, -1):
            r, c = row + sign * dr, x + sign * dx
            while 0 <= r < 15 and 0 <= c < 6 and grid[r, c] == colour:
                length, r, c = length + 1, r + sign * dr, c + sign * dx
        longest = max(longest, length)
    return longest


def features(observation: dict) -> np.ndarray:
    """For every action, what dropping the arranged column there does: lines of three it
    completes, pairs it makes, the height it leaves and whether it reaches the hidden rows."""
    planes = np.asarray(observation["board"])
    grid = (planes * np.arange(1, 8)[:, None, None]).sum(axis=0)
    filled = grid > 0
    tops = np.where(filled.any(axis=0), filled.argmax(axis=0), 15)
    current = np.asarray(observation["current"])
    rows = []
    for action in range(ACTIONS):
        x, arrangement = divmod(action, 3)
        bottom = tops[x] - 1
        if bottom < 2:
            rows.append([0, 0, 1, 1, 1])
            continue
        after = grid.copy()
        after[bottom - 2 : bottom + 1, x] = np.roll(current, arrangement)
        runs = [_run(after, r, x) for r in range(bottom - 2, bottom + 1)]
        height = (15 - (bottom - 2)) / 15
        rows.append([sum(r >= 3 for r in runs), sum(r == 2 for r in runs), height, height**2, 0])
    return np.asarray(rows, dtype=np.float64)


def demonstrations(columns: int, seed: int) -> list[tuple[np.ndarray, np.ndarray, int]]:
    """The teacher's choices on the placements environment."""
    teacher = jewelbot.Player(strategy="smart")
    env = gym.make("jewelbot/MagicJewelryPlacements-v0")
    observation, info = env.reset(seed=seed)
    kept = []
    for _ in range(columns):
        action, _ = teacher.choose(observation)
        kept.append((features(observation), info["action_mask"], action))
        observation, _, terminated, _, info = env.step(action)
        if terminated:
            observation, info = env.reset()
    return kept


def train(examples, epochs: int, rate: float, seed: int) -> np.ndarray:
    """Softmax regression over the reachable actions, by stochastic gradient ascent."""
    rng = np.random.default_rng(seed)
    weights = np.zeros(examples[0][0].shape[1])
    for _ in range(epochs):
        for index in rng.permutation(len(examples)):
            x, mask, action = examples[index]
            logits = np.where(mask, x @ weights, -np.inf)
            p = np.exp(logits - logits.max())
            p /= p.sum()
            weights += rate * (x[action] - p @ x)
    return weights


def main() -> None:
    """Learn from the player and measure the student."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--columns", type=int, default=3000, help="demonstrations")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--rate", type=float, default=0.05)
    parser.add_argument("--measure", type=int, default=5000, help="columns measured")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    examples = demonstrations(args.columns, args.seed)
    weights = train(examples, args.epochs, args.rate, args.seed)
    agreed = np.mean([np.argmax(np.where(m, x @ weights, -np.inf)) == a for x, m, a in examples])
    print(f"{len(examples)} demonstrations; the student agrees with the teacher on {agreed:.1%}")

    def student(observation, mask):
        return int(np.argmax(np.where(mask, features(observation) @ weights, -np.inf)))

    rng = np.random.default_rng(args.seed)
    teacher = jewelbot.Player(strategy="smart")
    for name, policy in (
        ("teacher (smart)", lambda o, m: teacher.choose(o)[0]),
        ("student", student),
        ("random", lambda o, m: int(rng.choice(np.flatnonzero(m)))),
    ):
        r = jewelbot.evaluate(policy, columns=args.measure, seed=args.seed + 1)
        print(
            f"{name:16} mean jewels {r['mean_jewels']:6.2f}  game overs {r['game_overs']:4}  "
            f"points a column {r['points_per_column']:8.1f}"
        )


if __name__ == "__main__":
    main()
