"""A seat that answers late on purpose: a model's latency without a model.

Benchmarks and crash drills seat `delay:MS:SPEC` (a tournament's agent spec) to give a
cheap agent the pace of a real one, so games overlap on a worker as model games do.
"""

from __future__ import annotations

import asyncio
from typing import Any

from arena.agents.base import Agent, AgentReply
from arena.rules.decisions import DecisionRequest
from arena.rules.observation import Observation


class Delayed:
    """Another agent, answering after a fixed delay (an injected model latency)."""

    def __init__(self, inner: Agent, delay_s: float) -> None:
        self._inner = inner
        self._delay_s = delay_s

    @property
    def name(self) -> str:
        """The inner agent's name."""
        return self._inner.name

    def __getattr__(self, attribute: str) -> Any:
        """Everything else (`model`, `chat`, `believe`…) is the inner agent's."""
        return getattr(self._inner, attribute)

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """Wait, then ask the inner agent."""
        await asyncio.sleep(self._delay_s)
        return await self._inner.decide(view, request, feedback)
