"""A seat a bot or the arena's defaults played is rated as neither its player nor the bot."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from arena.agents.base import Agent, AgentReply
from arena.agents.bot.agent import BotAgent
from arena.agents.terminal import TerminalHuman
from arena.cli import main
from arena.match import new_header, run_game
from arena.ratings.results import STOOD_IN, game_result, stood_in
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionRequest
from arena.rules.observation import Observation
from arena.storage.replay_file import SeatHandover, read_header, read_replay

PERSON = 4


class HandedOver:
    """A person's seat (`human:carol`) whose bot took over from request `step` on, as the
    Play page's `BrowserSeat` does after repeated timeouts."""

    def __init__(self, step: int) -> None:
        self.bot = BotAgent(seed=7)
        self.step = step
        self.handover: SeatHandover | None = None

    @property
    def name(self) -> str:
        return "human:carol"

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        if request.step >= self.step and self.handover is None:
            self.handover = SeatHandover(
                seat=request.seat, step=request.step, agent="bot", reason="2 timeouts in a row"
            )
        return await self.bot.decide(view, request, feedback)


def _play(path: Path, seat_agent: Agent, seed: int = 3) -> Path:
    config = GameConfig(board="std9")
    agents: dict[int, Agent] = {s: BotAgent(seed=s) for s in range(1, 10)}
    agents[PERSON] = seat_agent
    asyncio.run(run_game(new_header(path.stem, config, seed, agents), agents, path))
    return path


def test_a_seat_handed_over_early_is_not_rated_as_the_person(tmp_path: Path) -> None:
    path = _play(tmp_path / "early.jsonl", HandedOver(step=2))
    header = read_header(path)
    assert [(h.seat, h.agent) for h in header.handovers] == [(PERSON, "bot")]
    replay = read_replay(path)
    assert stood_in(replay, PERSON) and not stood_in(replay, 1)
    agents = {s.seat: s.agent for s in game_result(replay).seats}
    assert agents[PERSON] == "human:carol" + STOOD_IN and agents[1] == "bot"


def test_a_seat_handed_over_near_the_end_is_the_person_s(tmp_path: Path) -> None:
    path = _play(tmp_path / "late.jsonl", HandedOver(step=10**6))  # never, in fact
    replay = read_replay(path)
    assert not replay.header.handovers and not stood_in(replay, PERSON)
    late = replay.header.model_copy(
        update={"handovers": (SeatHandover(seat=PERSON, step=10**6, agent="bot", reason="x"),)}
    )
    assert not stood_in(replay.model_copy(update={"header": late}), PERSON)


def test_a_terminal_whose_input_closed_is_not_rated_as_the_person(tmp_path: Path) -> None:
    def closed(prompt: str) -> str:
        raise EOFError

    lines: list[str] = []
    person = TerminalHuman("en", read=closed, write=lines.append, person="ann")
    path = _play(tmp_path / "closed.jsonl", person)
    header = read_header(path)
    assert [(h.seat, h.agent) for h in header.handovers] == [(PERSON, "default")]
    replay = read_replay(path)
    mine = [a for a in replay.answers if a.seat == PERSON]
    assert mine and all(a.defaulted for a in mine)
    agents = {s.seat: s.agent for s in game_result(replay).seats}
    assert agents[PERSON] == "human:ann" + STOOD_IN


def test_the_leaderboard_shows_the_stood_in_seat_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    for seed in (3, 4):
        _play(folder / f"g{seed}.jsonl", HandedOver(step=2), seed=seed)
    assert main(["leaderboard", str(folder), "--bootstrap", "0"]) == 0
    rows = [line.split()[:4] for line in capsys.readouterr().out.splitlines()]
    assert any(row[:4] == ["human:carol", "(stood", "in)", "2"] for row in rows), rows
    assert not any(row[:2] == ["human:carol", "2"] for row in rows)
