"""Plug-ins for the exam's tests (`py:tests.exam.agents:NAME`)."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import ClassVar

from arena.agents.bot.agent import BotAgent
from arena.api import AgentReply, DecisionRequest, Observation, RoleGuess


def bot_twin(seed: int = 0) -> BotAgent:
    """The arena's bot under another name: the same answers as `bot` to every item."""
    return BotAgent(seed)


class CardGuesser(BotAgent):
    """The bot, guessing every seat asked the board's first card (`RoleGuesser`)."""

    async def guess_roles(self, view: Observation, seats: tuple[int, ...]) -> RoleGuess:
        card = next(iter(view.knowledge.role_counts))
        me = view.viewer.seat  # type: ignore[union-attr]
        return RoleGuess(seat=me, after_seq=view.log_length, roles=dict.fromkeys(seats, card))


class BrokenGuesser(BotAgent):
    """Raises when asked to guess (a bug): the role item gets no guess, the game none of it."""

    async def guess_roles(self, view: Observation, seats: tuple[int, ...]) -> RoleGuess:
        raise RuntimeError("no guess today")


class Overlapping(BotAgent):
    """The bot, taking a while to answer, counting the answers in flight (per seat, and all)."""

    active: ClassVar[Counter[int]] = Counter()
    peak_seat: ClassVar[int] = 0
    peak_all: ClassVar[int] = 0

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        cls = Overlapping
        cls.active[request.seat] += 1
        cls.peak_seat = max(cls.peak_seat, cls.active[request.seat])
        cls.peak_all = max(cls.peak_all, sum(cls.active.values()))
        try:
            await asyncio.sleep(0.02)
            return await super().decide(view, request, feedback)
        finally:
            cls.active[request.seat] -= 1
