"""What a seat is besides an answerer: declared capabilities, found through any wrapper.

Every agent answers (`Agent.decide`); some can do more, and say so by implementing a
protocol: report beliefs (`Believer`), fold them into a vote (`BeliefFolder`), keep their
own time limit (`TimeLimited`), count toward the void rule (`Accountable`), hold an
endpoint's slot (`Gated`; all in `arena.agents.base`), play through a chat model
(`ModelSeat`), name their model and prompts for the replay header (`Described`,
`Prompted`), or hand their seat over (`HandsOver`). The arena asks for a capability
with `trait(agent, Protocol)`, never by guessing an attribute.

A `Wrapper` changes how a seat is asked (later, behind a slot, at a pace, timed), never
what the seat is: it forwards `name` and `decide` and declares the one seat it wraps
(`inner`); `trait` looks through every wrapper to the first layer that has the capability,
so a wrapper forwards nothing else by hand, and no twin class exists to keep a capability
through a wrapper. A wrapper that changes a capability (a paced seat's longer time limit)
implements it itself, and is found first.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol, TypeVar, runtime_checkable

from arena.agents.base import Agent, AgentReply
from arena.llm.base import ChatModel
from arena.rules.decisions import DecisionRequest
from arena.rules.observation import Observation
from arena.storage.replay_file import SeatHandover

T = TypeVar("T")

DEPTH = 8
"""The most wrappers `layers` looks through (a wrapper loop is a bug, not a seat)."""


@runtime_checkable
class ModelSeat(Protocol):
    """A seat played through a chat model (the arena's model seats).

    Its endpoint is probed before the game and its connection pool closed after
    (`arena.agents.preflight`), its calls may hold the endpoint's slots
    (`arena.agents.slots`), and its defaults count toward the void rule.
    """

    @property
    def chat(self) -> ChatModel:
        """The chat model the seat asks (shared by the seats of one spec and endpoint)."""
        ...


@runtime_checkable
class Described(Protocol):
    """A seat that names the model it plays with, for the replay header."""

    @property
    def model(self) -> str | None:
        """The model's name (None: none to name)."""
        ...


@runtime_checkable
class Prompted(Protocol):
    """A seat that plays from the prompt library, for the replay header."""

    @property
    def prompt_version(self) -> str | None:
        """The prompt library's version it plays with."""
        ...


@runtime_checkable
class HandsOver(Protocol):
    """A person's seat that another player may take over (a bot, or the arena's defaults)."""

    @property
    def handover(self) -> SeatHandover | None:
        """Who took the seat over, from when (None: the person kept it)."""
        ...


class Wrapper:
    """An agent around another (`inner`): asked differently, the same seat."""

    def __init__(self, inner: Agent) -> None:
        self.inner = inner

    @property
    def name(self) -> str:
        """The wrapped agent's name."""
        return self.inner.name

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """The wrapped agent's answer (a wrapper overrides this to ask differently)."""
        return await self.inner.decide(view, request, feedback)


def layers(agent: object) -> Iterator[object]:
    """`agent`, then each agent it wraps, outermost first."""
    for _ in range(DEPTH):
        yield agent
        if not isinstance(agent, Wrapper):
            return
        agent = agent.inner


def trait(agent: object, kind: type[T]) -> T | None:
    """The first layer of `agent` that is a `kind` (a capability protocol or a class)."""
    return next((layer for layer in layers(agent) if isinstance(layer, kind)), None)
