"""An endpoint's call slots, held by the seats that call it before their clocks start.

A server with fewer slots than the seats asking it at once queues the rest; a seat that
first holds one of its endpoint's slots (`Throttled`, a `Gated` agent) waits before its
decision's clock starts, so the wait never turns into a default; only the game's time
limit bounds it. `hold_slots` gates the model seats of one process (`arena play`) by
their endpoint's slots; the queue's workers share an endpoint's slots over every worker
(`arena.queue.seating.EndpointGate`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Mapping
from typing import Any, Protocol

from arena.agents.base import Agent
from arena.agents.traits import ModelSeat, Wrapper, trait
from arena.llm.base import Probed


class Gate(Protocol):
    """Where an endpoint's call slots are held (`LocalGate`, the queue's `EndpointGate`)."""

    def hold(self) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold one slot for the block."""
        ...


class LocalGate:
    """One of `limit` call slots of an endpoint, within one process (`arena play`)."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._free: asyncio.Semaphore | None = None

    @contextlib.asynccontextmanager
    async def hold(self) -> AsyncIterator[None]:
        """Hold a slot for the block; waits while all are taken."""
        if self._free is None:
            self._free = asyncio.Semaphore(self._limit)
        async with self._free:
            yield


class Throttled(Wrapper):
    """An agent whose calls each hold one of its endpoint's slots (a `Gated` agent).

    The match runner holds `slot()` around every decision and belief call, outside the
    call's time limit; the calls themselves are the wrapped agent's.
    """

    def __init__(self, inner: Agent, gate: Gate) -> None:
        super().__init__(inner)
        self._gate = gate

    def slot(self) -> contextlib.AbstractAsyncContextManager[None]:
        """One of the endpoint's slots."""
        return self._gate.hold()


def throttle(agent: Agent, gate: Gate | None) -> Agent:
    """`agent` behind `gate` (unchanged without one)."""
    return agent if gate is None else Throttled(agent, gate)


def hold_slots(
    agents: Mapping[int, Agent],
    endpoints: Mapping[str, Mapping[str, Any]],
    configured: Mapping[int, int | None] | None = None,
) -> dict[int, Agent]:
    """`agents` with each model seat's calls behind its endpoint's slots (`arena play`).

    An endpoint's limit is the one configured for its seats (`configured`, a spec's
    `slots`), else the slot count its probe read (`endpoints`, the replay header's
    records); an endpoint with neither is not gated. Seats sharing a chat model share
    one gate.
    """
    gates: dict[int, LocalGate] = {}
    out: dict[int, Agent] = {}
    for seat, agent in agents.items():
        model = trait(agent, ModelSeat)
        limit = (configured or {}).get(seat)
        if model is not None and limit is None and isinstance(model.chat, Probed):
            limit = endpoints.get(model.chat.endpoint, {}).get("slots")
        if model is None or not isinstance(limit, int) or limit <= 0:
            out[seat] = agent
            continue
        gate = gates.setdefault(id(model.chat), LocalGate(limit))
        out[seat] = throttle(agent, gate)
    return out
