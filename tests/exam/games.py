"""Signed bot games for the exam's tests, played once per test module into a folder.

`play_games` plays seeded games of bots (belief reports off: an exam asks its own) and
writes each as the arena writes any game, signed under the tests' key. `MarkedBot` is a
bot whose every speech and wolf whisper is a unique marker, so a leak test can tell from
the bytes alone which event a text came from.
"""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

from arena.agents.base import AgentReply
from arena.agents.bot.agent import BotAgent
from arena.match import Limits, new_header, run_game
from arena.rules.actions import Speak, Whisper
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionRequest
from arena.rules.observation import Observation

MARKS = itertools.count(1)
PLAYED_AT = "2026-01-01T00:00:00+00:00"
"""Every test game's `created_at`: a file's hash seeds the exam's draw, so a real clock
would draw other items whenever two runs straddle a second."""


class MarkedBot(BotAgent):
    """A bot whose speeches and whispers are markers `SPEECHMARK-<seat>-<n>`, `WHISPERMARK-…`."""

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        reply = await super().decide(view, request, feedback)
        action = reply.action
        if isinstance(action, Speak):
            text = f"SPEECHMARK-{request.seat}-{next(MARKS)}"
            return AgentReply(action=action.model_copy(update={"text": text}))
        if isinstance(action, Whisper):
            text = f"WHISPERMARK-{request.seat}-{next(MARKS)}"
            return AgentReply(action=action.model_copy(update={"text": text}))
        return reply


def play_games(
    folder: Path, board: str = "std9", seeds: range = range(1, 4), *, marked: bool = False
) -> list[Path]:
    """Play one signed bot game per seed into `folder`; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for seed in seeds:
        config = GameConfig(board=board)
        kind = MarkedBot if marked else BotAgent
        agents = {s: kind(seed * 1000 + s) for s in range(1, config.board_spec.seats + 1)}
        header = new_header(f"{board}-t{seed}", config, seed, agents, created_at=PLAYED_AT)
        path = folder / f"{board}-{seed}.jsonl"
        asyncio.run(run_game(header, agents, path, limits=Limits(beliefs="off")))
        paths.append(path)
    return paths
