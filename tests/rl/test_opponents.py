"""`arena.rl.env(opponents=...)`: any seat spec at the seats the policy does not play."""

from __future__ import annotations

import asyncio
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

import arena.rl
from arena.agents.seats import MatchSpec, build_agents, parse_seats
from arena.match import new_header, run_game
from arena.rl.agent import EnvObservation, PolicyAgent
from arena.rl.environment import WerewolfEnv
from arena.rules.config import GameConfig
from arena.rules.errors import ConfigError
from arena.rules.events import ActionDefaulted


def play_seat_one(env: WerewolfEnv, seed: int, paid: dict[str, float] | None = None) -> list[int]:
    """A seeded random policy's game at the env's agents; its actions in order.

    `paid` gets each agent's reward at the end.
    """
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    taken = []
    for agent in env.agent_iter():
        obs, reward, done, _truncated, _info = env.last()
        if done:
            (paid if paid is not None else {})[agent] = reward
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        taken.append(int(legal[rng.integers(len(legal))]))
        env.step(taken[-1])
    return taken


def test_the_policy_plays_only_its_seats_and_is_paid_alone() -> None:
    env = arena.rl.env(board="std9", seed=4, opponents={s: "bot" for s in range(3, 10)})
    assert env.possible_agents == ["seat_1", "seat_2"]
    paid: dict[str, float] = {}
    play_seat_one(env, 4, paid)
    assert env.referee is not None and env.referee.winner is not None
    assert set(paid) == {"seat_1", "seat_2"} and all(r in (-1, 0, 1) for r in paid.values())
    env.close()


def test_the_spec_syntax_and_the_mapping_seat_the_same_game() -> None:
    by_map = arena.rl.env(board="std9", opponents={s: "random" for s in range(2, 10)})
    by_spec = arena.rl.env(board="std9", opponents=["2-5=random", "6-9=random"])
    assert play_seat_one(by_map, 7) == play_seat_one(by_spec, 7)
    assert by_map.referee.events == by_spec.referee.events  # type: ignore[union-attr]


def test_the_opponents_are_the_seats_a_game_seats() -> None:
    """Seat 1's answers replayed at a real game beside `arena play`'s bots: the same log."""
    env = arena.rl.env(board="std9", opponents="2-9=bot")
    taken = iter(play_seat_one(env, 11))
    trained = env.referee.events  # type: ignore[union-attr]

    def replayed(obs: EnvObservation) -> int:
        return next(taken)

    config = GameConfig(board="std9")
    agents = build_agents(parse_seats(["2-9=bot"], 9), config, 11, MatchSpec(lang="en"))
    agents[1] = PolicyAgent(replayed)
    referee = asyncio.run(run_game(new_header("g", config, 11, agents), agents, None))
    assert referee.events == trained
    assert not [e for e in trained if isinstance(e, ActionDefaulted)]


def test_pettingzoo_api_test_with_opponents() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(arena.rl.env(board="wwk_guard", seed=3, opponents="4-12=noisy:0.3:bot"))


@pytest.mark.parametrize(
    ("opponents", "says"),
    [
        ("1-9=bot", "every seat is taken"),
        ({3: "human"}, "seat 3: a person cannot sit"),
        (["2-4=bot", "4=random"], "seat 4 is named twice"),
        ("2=nonsense-agent", "opponents: "),
        ("12=bot", "seats must be within 1-9"),
    ],
)
def test_bad_opponents_are_one_line(opponents: object, says: str) -> None:
    with pytest.raises(ConfigError, match="^opponents: ") as caught:
        arena.rl.env(board="std9", opponents=opponents)
    assert says in str(caught.value) and "\n" not in str(caught.value)
