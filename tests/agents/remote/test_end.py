"""The end of a game (protocol revision 2): every remote seat is told how it ended.

Before, no message carried the result (0 of 404 requests in the issue's run), so a
learning agent behind a URL never learned its reward. Now each seat gets `end` once the
game is over: the result, every card, its side and its reward; and every view says the
seat's own side as far as it knows it (`observation.knowledge.side`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import httpx
import pytest

from arena.agents.remote import RemoteAgent
from arena.match import Limits, new_header, run_game
from arena.rules.outcome import seat_rewards, seat_side
from arena.rules.state import GameState
from arena.rules.state import replay as fold
from arena.rules.types import Side
from arena.storage.replay_file import Replay, read_replay
from tests.agents.remote.support import InProcess, example_process
from tests.agents.remote.test_beliefs import CONFIG, SEED, greeted, play, play_greeted


def test_every_seat_is_told_the_end_with_its_side_and_reward(tmp_path: Path) -> None:
    agent = InProcess()
    replay = play(agent, tmp_path / "g.jsonl")
    messages = [json.loads(b) for b in agent.bodies]
    ends = {m["seat"]: m for m in messages if m["type"] == "end"}
    assert sorted(ends) == list(range(1, 13))
    assert [m["type"] for m in messages][-12:] == ["end"] * 12  # after every question
    result = replay.header.result
    assert result is not None and not result.void and result.winner is not None
    state = _state(replay)
    for seat, message in ends.items():
        end = message["end"]
        assert end["seat"] == seat and end["winner"] == result.winner and not end["voided"]
        assert end["roles"] == {str(s): state.role(s) for s in range(1, 13)}
        assert end["side"] == seat_side(state, seat) and end["reward"] == seat_rewards(state)[seat]
        assert message["observation"]["knowledge"]["winner"] == result.winner
        asked = [m for m in messages if m["type"] == "decide" and m["seat"] == seat]
        assert {m["observation"]["knowledge"]["side"] for m in asked} == {end["side"]}
    assert sum(agent.agent.rewards.values()) == sum(seat_rewards(state).values())
    assert set(agent.agent.rewards) == {Side.GOOD, Side.WOLF}


def test_an_agent_that_does_not_know_end_loses_nothing(tmp_path: Path) -> None:
    """An agent written before revision 2 answers `end` with HTTP 400: the game stands."""

    def old(message: dict[str, object], response: httpx.Response) -> httpx.Response:
        if message["type"] == "end":
            return httpx.Response(400, json={"error": "unknown message type 'end'"})
        return response

    agent = InProcess(misbehave=old)
    replay = play(agent, tmp_path / "g.jsonl")
    assert replay.header.result is not None and not replay.header.result.void
    assert [json.loads(b)["type"] for b in agent.bodies].count("end") == 12


def test_a_voided_game_is_told_too(tmp_path: Path) -> None:
    """A seat that keeps defaulting voids the game; every seat still hears the end."""
    agent = InProcess(misbehave=lambda m, r: httpx.Response(500) if m["type"] == "decide" else r)
    seats = greeted(agent, limit_s=0.2, overage_s=0)
    limits = Limits(beliefs="off", retries=0, void_after_defaults=2)
    path = tmp_path / "g.jsonl"
    asyncio.run(run_game(new_header("g", CONFIG, SEED, seats), seats, path, limits=limits))
    ends = [json.loads(b) for b in agent.bodies if json.loads(b)["type"] == "end"]
    assert len(ends) == 12
    assert all(e["end"]["voided"] and e["end"]["winner"] is None for e in ends)
    assert all(e["end"]["reward"] == 0 for e in ends)
    result = read_replay(path).header.result
    assert result is not None and result.void


def test_the_example_process_takes_the_end_over_http(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The example, its own process, answers every `end` with HTTP 200."""
    caplog.set_level(logging.INFO, logger="arena.match")
    with example_process() as url:
        remote = {s: RemoteAgent(url, game_id="proc", limit_s=30) for s in (2, 7)}
        replay = play_greeted(remote, tmp_path / "g.jsonl")
    assert replay.header.result is not None and not replay.header.result.void
    assert not [r for r in caplog.records if "end of the game" in r.getMessage()]


def test_an_agent_that_is_gone_at_the_end_is_one_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="arena.match")
    agent = InProcess(misbehave=lambda m, r: httpx.Response(404) if m["type"] == "end" else r)
    play(agent, tmp_path / "g.jsonl")
    said = [r.getMessage() for r in caplog.records if "end of the game" in r.getMessage()]
    assert len(said) == 12 and "answered HTTP 404" in said[0]


def _state(replay: Replay) -> GameState:
    return fold(replay.header.config.board_spec.seats, replay.events)
