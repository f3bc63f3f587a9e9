"""Building a job's seat agents on a worker, and throttling their calls per endpoint.

`make_agent` is the worker's one way to turn an `AgentEntry` into an `Agent`:

- `random`: `StepSeededRandom`, random legal play whose choice depends only on the seed
  and the request, so a match resumed on another worker plays exactly as it would have.
- `bot`: `arena.agents.bot.BotAgent`.
- `delay:MS:SPEC`: SPEC answering each decision after MS milliseconds, a stand-in for a
  model's latency in benchmarks and crash drills.
- anything else (`openai:…`, `langchain:…`): `arena.agents.factory`, imported only then,
  so a worker that plays bots needs no model SDK.

`throttle` wraps an agent so that its decisions hold one of the endpoint's call slots
(`JobQueue.try_slot`), which bounds the model calls in flight over all workers. The wait
for a slot is inside the runner's decision timeout, so a limit far below the demand can
turn waits into defaults; size `call_timeout_s` accordingly.
"""

from __future__ import annotations

import asyncio
import importlib
import random
import uuid
from collections.abc import Awaitable, Callable
from typing import TypeVar

from arena.agents.base import Agent, AgentReply, Believer, BeliefReport
from arena.agents.random_agent import random_action
from arena.queue.base import JobQueue
from arena.queue.jobs import AgentEntry
from arena.rules.decisions import DecisionRequest
from arena.rules.errors import ArenaError
from arena.rules.observation import Observation

T = TypeVar("T")
AgentMaker = Callable[[AgentEntry, int, int], Agent]
"""`(entry, seat, seed) -> Agent`: how a worker seats a job's agents."""


class StepSeededRandom:
    """Uniformly random legal play, a pure function of (seed, seat, step, feedback)."""

    def __init__(self, seed: int) -> None:
        self._seed = seed

    @property
    def name(self) -> str:
        """`random`."""
        return "random"

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """A random legal action drawn from a generator seeded by this request."""
        rng = random.Random(f"{self._seed}/{request.seat}/{request.step}/{feedback or ''}")
        return AgentReply(action=random_action(request, rng))


class Delayed:
    """Another agent, answering after a fixed delay (an injected model latency)."""

    def __init__(self, inner: Agent, delay_s: float) -> None:
        self._inner = inner
        self._delay_s = delay_s

    @property
    def name(self) -> str:
        """The inner agent's name."""
        return self._inner.name

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """Wait, then ask the inner agent."""
        await asyncio.sleep(self._delay_s)
        return await self._inner.decide(view, request, feedback)


def make_agent(entry: AgentEntry, seat: int, seed: int) -> Agent:
    """The agent for one seat of a job (see the module docstring for the specs).

    Raises:
        ArenaError: an unknown or malformed spec.
    """
    return _build(entry.spec, entry, seat, seed)


def _build(spec: str, entry: AgentEntry, seat: int, seed: int) -> Agent:
    if spec == "random":
        return StepSeededRandom(seed)
    if spec == "bot":
        bot: Agent = importlib.import_module("arena.agents.bot").BotAgent(seed)
        return bot
    if spec.startswith("delay:"):
        _, ms, inner = spec.split(":", 2) if spec.count(":") >= 2 else (spec, "", "")
        if not ms.isdigit() or not inner:
            raise ArenaError(f"agent spec {spec!r}: expected delay:MILLISECONDS:SPEC")
        return Delayed(_build(inner, entry, seat, seed), int(ms) / 1000)
    factory = importlib.import_module("arena.agents.factory")
    built: Agent = factory.build_agent(
        entry.model_copy(update={"spec": spec}), seat=seat, seed=seed
    )
    return built


class EndpointGate:
    """One of `limit` call slots of an endpoint, shared by every worker of the queue."""

    def __init__(self, queue: JobQueue, endpoint: str, limit: int, ttl_s: float) -> None:
        self._queue = queue
        self._endpoint = endpoint
        self._limit = limit
        self._ttl_s = ttl_s

    async def run(self, call: Callable[[], Awaitable[T]]) -> T:
        """Run `call` holding a slot; waits (polling with backoff) while all are taken."""
        holder = uuid.uuid4().hex
        pause = 0.005
        while not await self._queue.try_slot(self._endpoint, self._limit, holder, self._ttl_s):
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.1)
        try:
            return await call()
        finally:
            await self._queue.release_slot(self._endpoint, holder)


class Throttled:
    """An agent whose decisions each hold an endpoint call slot."""

    def __init__(self, inner: Agent, gate: EndpointGate) -> None:
        self._inner = inner
        self._gate = gate

    @property
    def name(self) -> str:
        """The inner agent's name."""
        return self._inner.name

    @property
    def model(self) -> str | None:
        """The inner agent's model, for the replay header."""
        return getattr(self._inner, "model", None)

    @property
    def prompt_version(self) -> str | None:
        """The inner agent's prompt version, for the replay header."""
        return getattr(self._inner, "prompt_version", None)

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """Ask the inner agent while holding a slot."""
        return await self._gate.run(lambda: self._inner.decide(view, request, feedback))


class ThrottledBeliever(Throttled):
    """A throttled agent that also reports beliefs (through a slot as well)."""

    async def believe(self, view: Observation) -> BeliefReport | None:
        """Ask the inner agent's beliefs while holding a slot."""
        inner = self._inner
        assert isinstance(inner, Believer)
        return await self._gate.run(lambda: inner.believe(view))


def throttle(agent: Agent, gate: EndpointGate | None) -> Agent:
    """`agent` behind `gate` (unchanged without one), keeping its `Believer` ability."""
    if gate is None:
        return agent
    if isinstance(agent, Believer):
        return ThrottledBeliever(agent, gate)
    return Throttled(agent, gate)
