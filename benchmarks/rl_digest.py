"""A digest of everything the RL environment hands out: to compare two versions of its code.

Run: .venv/bin/python benchmarks/rl_digest.py [--games N]
(with `PYTHONPATH=<other checkout>` for the other version; both must print the same line.)

Plays `--games` seeded games (seeds 0, 1, …) with a seeded random policy over the mask on
every built-in and example board, and hashes, at every step, every seat's `observe` (its
vector and mask), then the selected seat's `last()` (observation, reward, done flags) and
the action taken; at the end every seat's final `last()`. A change that only makes the
environment faster must leave the digest as it was: the same observations, masks and
rewards, so the same games.
"""

from __future__ import annotations

import argparse
import hashlib
from collections.abc import Callable

import numpy as np

import arena.rl
from arena.board_file import example_boards
from arena.rules.boards import BOARDS


def digest(board: str, games: int, update: Callable[[bytes], None]) -> int:
    """Feed `games` games of `board` to a hash's `update`; the number of steps played."""
    env = arena.rl.env(board=board)
    steps = 0
    for seed in range(games):
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        for agent in env.agent_iter():
            for other in env.agents:
                seen = env.observe(other)
                update(seen["observation"].tobytes())
                update(seen["action_mask"].tobytes())
            obs, reward, terminated, truncated, _ = env.last()
            update(obs["observation"].tobytes() + obs["action_mask"].tobytes())
            update(f"{agent} {reward} {terminated} {truncated};".encode())
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[rng.integers(len(legal))])
            update(f"{action},".encode())
            env.step(action)
            steps += 1
    return steps


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    total = hashlib.sha256()
    steps = 0
    for board in [*BOARDS, *example_boards()]:
        steps += digest(board, args.games, total.update)
    print(f"{total.hexdigest()} ({steps} steps)")


if __name__ == "__main__":
    main()
