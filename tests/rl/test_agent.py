"""A policy seated at a real table sees what the environment would show it."""

import asyncio
import importlib.util
from pathlib import Path

import numpy as np
import pytest

from arena.agents.random_agent import RandomAgent
from arena.match import new_header, run_game
from arena.rl.agent import PolicyAgent, random_policy
from arena.rl.codec import legal_mask
from arena.rl.observation import Tracker
from arena.rules import events as ev
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionRequest
from arena.rules.types import Role
from arena.storage.replay_file import read_replay

EXAMPLE = Path(__file__).parents[2] / "examples" / "agents" / "rl_policy_agent.py"


def _example():
    spec = importlib.util.spec_from_file_location("rl_policy_agent", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("board", ["std9", "wwk_guard", "mist_raven", "secret_admirer"])
def test_the_example_policy_plays_a_real_game_without_a_default(board: str, tmp_path: Path) -> None:
    config = GameConfig(board=board)
    seats = config.board_spec.seats
    agents: dict = {s: RandomAgent(s) for s in range(1, seats + 1)}
    agents[3] = _example().make_agent(seed=1)
    path = tmp_path / "game.jsonl"
    referee = asyncio.run(run_game(new_header("rl", config, 9, agents), agents, path))
    assert referee.finished
    replay = read_replay(path)
    assert replay.header.result is not None
    assert not [e for e in replay.events if isinstance(e, ev.ActionDefaulted) and e.seat == 3]
    assert any(a.seat == 3 for a in referee.answers)
    assert [s.agent for s in replay.header.seats if s.seat == 3] == ["rl-policy"]


def test_the_agents_observation_is_the_environments() -> None:
    """Every vector and mask the policy gets equal the env's, from the whole log to then."""
    shown: list[tuple[DecisionRequest, int, dict]] = []

    class Spy(PolicyAgent):
        async def decide(self, view, request, feedback=None):  # type: ignore[no-untyped-def]
            shown.append((request, view.log_length, self.observation(view, request)))
            return await super().decide(view, request, feedback)

    config = GameConfig(board="wolfking_magician")
    agents: dict = {s: Spy(random_policy(s)) for s in range(1, 13)}
    referee = asyncio.run(run_game(new_header("rl", config, 4, agents), agents, None))
    claimable = tuple(r for r in Role if r in config.board_spec.roles)
    assert len(shown) > 50
    for request, cut, obs in shown:
        tracker = Tracker(range(1, 13))
        tracker.feed(referee.events[:cut])
        assert np.array_equal(obs["observation"], tracker.vector(request.seat, request))
        assert np.array_equal(obs["action_mask"], legal_mask(request, 12, claimable))


def test_the_example_sits_at_the_table_as_a_py_plugin(tmp_path: Path, monkeypatch) -> None:
    """`py:rl_policy_agent:make_agent`, as a seat spec names it, plays a whole game."""
    from arena.agents.plugin import plugin_agent

    monkeypatch.syspath_prepend(str(EXAMPLE.parent))
    spec = "py:rl_policy_agent:make_agent"
    config = GameConfig(board="wwk_guard")
    agents: dict = {s: RandomAgent(s) for s in range(1, 13)}
    for seat in (2, 7):
        agents[seat] = plugin_agent(spec, seat=seat, seed=seat, lang="en")
    path = tmp_path / "game.jsonl"
    asyncio.run(run_game(new_header("py", config, 3, agents), agents, path))
    replay = read_replay(path)
    assert replay.header.result is not None and not replay.header.result.void
    defaulted = {e.seat for e in replay.events if isinstance(e, ev.ActionDefaulted)}
    assert not defaulted & {2, 7}
    assert {s.agent for s in replay.header.seats if s.seat in (2, 7)} == {spec}


def test_arena_play_seats_the_example_by_its_py_spec(tmp_path: Path, monkeypatch) -> None:
    """`arena play --seat 3=py:rl_policy_agent:make_agent`, as a user runs it."""
    from arena.cli import main

    monkeypatch.syspath_prepend(str(EXAMPLE.parent))
    out = tmp_path / "game.jsonl"
    seat = ["--seat", "3=py:rl_policy_agent:make_agent", "--seat", "1-2=random"]
    argv = ["play", "--board", "std9", "--seed", "4", *seat, "--out", str(out), "--quiet"]
    assert main(argv) == 0
    replay = read_replay(out)
    assert replay.header.result is not None and not replay.header.result.void
    assert [s.agent for s in replay.header.seats if s.seat == 3] == [
        "py:rl_policy_agent:make_agent"
    ]
    assert any(a.seat == 3 for a in replay.answers)
    assert not [e for e in replay.events if isinstance(e, ev.ActionDefaulted) and e.seat == 3]
