"""Plug-ins for the exam's tests (`py:tests.exam.agents:NAME`)."""

from __future__ import annotations

from arena.agents.bot.agent import BotAgent


def bot_twin(seed: int = 0) -> BotAgent:
    """The arena's bot under another name: the same answers as `bot` to every item."""
    return BotAgent(seed)
