"""A seat that answers late on purpose: a model's latency without a model.

Benchmarks and crash drills seat `delay:MS:SPEC` (a tournament's agent spec) to give a
cheap agent the pace of a real one, so games overlap on a worker as model games do.
"""

from __future__ import annotations

import asyncio

from arena.agents.base import Agent, AgentReply
from arena.agents.traits import Wrapper
from arena.rules.decisions import DecisionRequest
from arena.rules.observation import Observation


class Delayed(Wrapper):
    """Another agent, answering after a fixed delay (an injected model latency).

    Only its decisions wait: what else the seat is (`model`, `chat`, `believe`…) is the
    inner agent's, found through the wrapper (`arena.agents.traits.trait`).
    """

    def __init__(self, inner: Agent, delay_s: float) -> None:
        super().__init__(inner)
        self._delay_s = delay_s

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """Wait, then ask the inner agent."""
        await asyncio.sleep(self._delay_s)
        return await self.inner.decide(view, request, feedback)
