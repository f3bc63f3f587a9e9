"""Environment steps per second against the referee's own decisions per second.

Run: .venv/bin/python benchmarks/rl_steps.py [--games N] [--board ID] [--best-of K] [--clock cpu]

Five loops on the same board, interleaved game by game so a loaded machine slows them
alike:

- `referee`: `benchmarks/core_speed.py`'s loop: the referee with the seeded random agent
  (`random_action`), answered synchronously; its decisions per second are the referee's
  games/s × decisions per game;
- `env, same games`: `arena.rl.env` played by the same random agent, its answer turned into
  an action index (`to_index`; a whisper, which has no index, gets a random legal one), each
  step preceded by `env.last()` as in any training loop. The referee sees the same answers,
  so these are the same games, and the difference is the environment's cost: observation
  vectors, masks, index decoding, the AEC bookkeeping;
- `env, uniform mask`: a uniformly random legal index (`np.flatnonzero` of the mask), the
  usual random baseline of RL code (other games: wolves explode far more often);
- `referee, recorded` and `env, recorded`: the same-games answers again, recorded in an
  untimed first pass, so neither loop pays for choosing: the referee's `submit` alone
  against the environment's `last()` and `step()`, decision for decision.

With `--best-of K` each loop plays each game K times and keeps its fastest: on a shared
machine the other processes' load then falls out of both sides instead of into either.
`--clock cpu` times each game by this thread's CPU time (`time.thread_time`) instead of
the wall clock, so the time the loop spent waiting for a core falls out too (what the
other processes do to the caches does not).
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

import arena.rl
from arena.agents.random_agent import random_action
from arena.rl.codec import to_index
from arena.rl.environment import WerewolfEnv, seat_of
from arena.rules.config import GameConfig
from arena.rules.referee import Answer, Referee


def referee_game(config: GameConfig, seed: int) -> int:
    rng = random.Random(seed)
    referee = Referee(config, seed)
    decisions = 0
    while not referee.finished:
        for request in referee.pending():
            referee.submit(request.seat, random_action(request, rng))
            decisions += 1
    return decisions


def env_same_games(env: WerewolfEnv, seed: int) -> int:
    rng = random.Random(seed)
    spare = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    for agent in env.agent_iter():
        obs, _, done, _, _ = env.last()
        if done:
            env.step(None)
            continue
        assert env.referee is not None
        request = env.referee.request_for(seat_of(agent))
        assert request is not None
        index = to_index(random_action(request, rng), nearest=True)
        if index is None:
            legal = np.flatnonzero(obs["action_mask"])
            index = int(legal[spare.integers(len(legal))])
        env.step(index)
        steps += 1
    return steps


def recorded(env: WerewolfEnv, seed: int) -> tuple[list[int], list[Answer]]:
    """The same-games loop once, untimed: its action indices and the referee's answers."""
    indices: list[int] = []
    step = env.step

    def record(action: int | None) -> None:
        if action is not None:
            indices.append(action)
        step(action)

    env.step = record  # type: ignore[method-assign]
    try:
        env_same_games(env, seed)
    finally:
        del env.step
    assert env.referee is not None
    return indices, list(env.referee.answers)


def referee_replay(config: GameConfig, seed: int, answers: list[Answer]) -> int:
    referee = Referee(config, seed)
    for answer in answers:
        referee.submit(answer.seat, answer.action)
    return len(answers)


def env_replay(env: WerewolfEnv, seed: int, indices: list[int]) -> int:
    env.reset(seed=seed)
    actions = iter(indices)
    for _ in env.agent_iter():
        _, _, done, _, _ = env.last()
        env.step(None if done else next(actions))
    return len(indices)


def env_uniform(env: WerewolfEnv, seed: int) -> int:
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    for _ in env.agent_iter():
        obs, _, done, _, _ = env.last()
        if done:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    return steps


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--board", default="wwk_guard", help="a built-in board (12 seats)")
    parser.add_argument("--best-of", type=int, default=1, help="keep each game's fastest of K")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = parser.parse_args()
    clock = time.perf_counter if args.clock == "wall" else time.thread_time
    config = GameConfig(board=args.board)
    env = arena.rl.env(board=args.board)
    record = {seed: recorded(env, seed) for seed in range(args.games)}
    loops = {
        "referee (core_speed)": lambda seed: referee_game(config, seed),
        "env, same games": lambda seed: env_same_games(env, seed),
        "env, uniform mask": lambda seed: env_uniform(env, seed),
        "referee, recorded": lambda seed: referee_replay(config, seed, record[seed][1]),
        "env, recorded": lambda seed: env_replay(env, seed, record[seed][0]),
    }
    seconds = dict.fromkeys(loops, 0.0)
    steps = dict.fromkeys(loops, 0)
    for seed in range(args.games):
        fastest = dict.fromkeys(loops, float("inf"))
        played = dict.fromkeys(loops, 0)
        for _ in range(args.best_of):
            for name, loop in loops.items():
                start = clock()
                played[name] = loop(seed)
                fastest[name] = min(fastest[name], clock() - start)
        for name in loops:
            steps[name] += played[name]
            seconds[name] += fastest[name]
    print(
        f"board {args.board}, {args.games} games per loop, best of {args.best_of}, "
        f"{args.clock} clock"
    )
    print(f"{'loop':<24}{'games/s':>9}{'steps/game':>12}{'steps/s':>10}{'vs referee':>12}")
    for name in loops:
        base = "referee, recorded" if "recorded" in name else "referee (core_speed)"
        reference = steps[base] / seconds[base]
        rate = steps[name] / seconds[name]
        print(
            f"{name:<24}{args.games / seconds[name]:>9.0f}{steps[name] / args.games:>12.0f}"
            f"{rate:>10.0f}{rate / reference:>11.0%}"
        )


if __name__ == "__main__":
    main()
