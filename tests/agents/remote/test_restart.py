"""A remote agent whose process dies mid-game fails fast, and gets back in once restarted.

The example agent runs as a real process on a fixed port. Seat 3's agent is killed at its
`CRASH`th question: that decision's three tries are refused at once (nothing listens) and
defaulted. Before the next decision a fresh process starts on the same port, with no
memory of the game: it answers the next question with HTTP 409, the arena sends `start`
again (a new secret), and the seat plays on with its own answers to the end.
"""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from pathlib import Path

from arena.agents.random_agent import RandomAgent
from arena.agents.remote import RemoteAgent
from arena.agents.remote.client import RESTARTED
from arena.match import Limits, new_header, run_game
from arena.rules import events as ev
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionRequest
from arena.rules.observation import Observation
from arena.storage.replay_file import read_replay
from tests.agents.remote.support import EXAMPLE

CONFIG = GameConfig(board="wwk_guard")
SEAT = 3
CRASH = 4
"""The question (counting tries) at which the agent's process is killed."""


class Process:
    """The example agent as a process on one port, to stop and start again."""

    def __init__(self) -> None:
        with socket.socket() as free:
            free.bind(("127.0.0.1", 0))
            self.port = free.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/agent"
        self.process: subprocess.Popen[str] | None = None
        self.starts = 0

    def start(self) -> None:
        command = [sys.executable, str(EXAMPLE), "--port", str(self.port), "--seed", "7"]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        assert self.process.stdout.readline().startswith("serving "), "the agent did not start"
        self.starts += 1

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=30)
            self.process = None


class Crashing(RemoteAgent):
    """Seat 3's agent, whose process dies at question `CRASH` and is back three later."""

    def __init__(self, process: Process) -> None:
        super().__init__(process.url, game_id="restart", limit_s=30.0, overage_s=0.0)
        self.agent = process
        self.asked = 0

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ):  # type: ignore[no-untyped-def]
        self.asked += 1
        if self.asked == CRASH:
            await asyncio.to_thread(self.agent.stop)
        if self.asked == CRASH + 3:  # the crashed decision had its three tries
            await asyncio.to_thread(self.agent.start)
        return await super().decide(view, request, feedback)


def test_a_restarted_agent_gets_back_in_the_middle_of_a_game(tmp_path: Path) -> None:
    agent = Process()
    agent.start()
    try:
        seat = Crashing(agent)
        agents = {**{s: RandomAgent(s) for s in range(1, 13)}, SEAT: seat}
        header = new_header("restart", CONFIG, 11, agents)
        limits = Limits(beliefs="off", void_after_defaults=10_000)
        asyncio.run(run_game(header, agents, tmp_path / "g.jsonl", limits=limits))
    finally:
        agent.stop()
    replay = read_replay(tmp_path / "g.jsonl")
    assert replay.header.result is not None and not replay.header.result.void
    assert agent.starts == 2 and seat.asked > CRASH + 6, "the seat must play on after it"
    defaults = [e for e in replay.events if isinstance(e, ev.ActionDefaulted) and e.seat == SEAT]
    assert len(defaults) == 1 and "connection refused" in defaults[0].reason
    traces = [t for t in replay.traces if t.seat == SEAT]
    down = traces[CRASH - 1 : CRASH + 2]
    assert [t.notes for t in down] == [("connection refused",)] * 3
    back, *after = traces[CRASH + 2 :]
    assert back.error is None and RESTARTED in back.notes, back
    assert after and all(t.error is None for t in after)
    assert all(t.error is None for t in traces[: CRASH - 1])
