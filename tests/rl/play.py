"""Helpers: play environment games with a seeded random policy over the action mask."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from arena.rl.environment import WerewolfEnv

Probe = Callable[[WerewolfEnv, str], None]


def random_index(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def play(env: WerewolfEnv, seed: int, probe: Probe | None = None) -> list[int]:
    """Play one game from `reset(seed=seed)`; the actions taken, in order."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    actions = []
    for agent in env.agent_iter():
        obs, _, done, _, _ = env.last()
        if done:
            env.step(None)
            continue
        if probe is not None:
            probe(env, agent)
        action = random_index(obs["action_mask"], rng)
        actions.append(action)
        env.step(action)
    return actions


def replay_actions(env: WerewolfEnv, seed: int, actions: list[int]) -> Iterator[str]:
    env.reset(seed=seed)
    queue = iter(actions)
    for agent in env.agent_iter():
        _, _, done, _, _ = env.last()
        env.step(None if done else next(queue))
        yield agent
