"""Plug-ins for the exam's tests (`py:tests.exam.agents:NAME`)."""

from __future__ import annotations

from arena.agents.bot.agent import BotAgent
from arena.api import Observation, RoleGuess


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
