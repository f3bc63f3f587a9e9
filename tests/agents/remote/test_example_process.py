"""The example agent, run as a separate process, plays whole games over real HTTP."""

from __future__ import annotations

import asyncio
import os
import socket

import pytest

from arena.agents.bot.agent import BotAgent
from arena.agents.remote import RemoteAgent, check_health
from arena.errors import ArenaError
from arena.match import Limits, new_header, run_game
from arena.rules import events as ev
from arena.rules.config import GameConfig
from arena.storage.replay_file import read_replay
from tests.agents.remote.support import example_process

TOKEN = "a-token-for-tests"


def test_the_example_plays_a_signed_game_beside_bots(tmp_path) -> None:
    env = {**os.environ, "AGENT_TOKEN": TOKEN}
    with example_process("--token-env", "AGENT_TOKEN", env=env) as url:
        hello = asyncio.run(check_health(url, TOKEN))
        assert hello.name == "example-random"
        remote = {s: RemoteAgent(url, game_id="proc", token=TOKEN) for s in (2, 5, 9)}
        agents = {**{s: BotAgent(s) for s in range(1, 13)}, **remote}
        header = new_header("proc", GameConfig(board="wwk_guard"), 11, agents)

        async def go():
            try:
                await run_game(header, agents, tmp_path / "g.jsonl", limits=Limits())
            finally:
                for agent in remote.values():
                    await agent.aclose()

        asyncio.run(go())
    replay = read_replay(tmp_path / "g.jsonl")
    assert replay.header.result is not None and not replay.header.result.void
    assert not [e for e in replay.events if isinstance(e, ev.ActionDefaulted)]
    assert {s.agent for s in replay.header.seats if s.seat in remote} == {url}
    answered = {t.seat for t in replay.traces if t.prompt_id == "werewolf-arena-agent/1"}
    assert answered == set(remote)


def test_the_example_refuses_an_unsigned_hello() -> None:
    env = {**os.environ, "AGENT_TOKEN": TOKEN}
    with example_process("--token-env", "AGENT_TOKEN", env=env) as url:
        with pytest.raises(ArenaError, match="answered hello with HTTP 401"):
            asyncio.run(check_health(url))


def test_a_stopped_agent_is_one_line() -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    url = f"http://127.0.0.1:{port}/agent"
    with pytest.raises(ArenaError) as error:
        asyncio.run(check_health(url))
    assert str(error.value) == f"remote agent {url} is down: connection refused"
