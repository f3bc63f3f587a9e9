"""Plug-in agents for tests (`py:tests.support.plugins:NAME`), good and bad on purpose."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from arena.api import (
    AgentReply,
    BeliefReport,
    DecisionRequest,
    GameOver,
    Observation,
    Side,
    actions,
)


def first_legal(request: DecisionRequest) -> actions.Action:
    """The request's first option, aimed at its first legal seat (or its default)."""
    for option in request.options:
        if option.action == "speak":
            return actions.Speak(text="I pass the word.")
        if option.action == "pass":
            return actions.Pass()
        if option.action in ("vote", "kill", "protect", "inspect", "shoot", "pass_badge"):
            if option.targets:
                return actions.parse_action({"kind": option.action, "target": option.targets[0]})
    return request.default


class Polite:
    """A class with no constructor arguments: a factory too."""

    name = "polite"

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        return AgentReply(action=first_legal(request))


class Seeded:
    """Takes the arguments it names; records what it was given."""

    made: list[dict[str, Any]] = []

    def __init__(self, seat: int, seed: int, options: dict[str, Any]) -> None:
        self.rng = random.Random(seed)
        self.options = options
        Seeded.made.append({"seat": seat, "seed": seed, "options": options})

    @property
    def name(self) -> str:
        return f"seeded-{self.options.get('style', 'plain')}"

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        return AgentReply(action=request.default)


def make_anything(**kwargs: Any) -> Polite:
    """A factory taking `**kwargs`: given every offered argument."""
    Seeded.made.append(dict(kwargs))
    return Polite()


class SyncBareAction:
    """A plain `def decide` (run in a thread) that returns a bare action."""

    name = "sync"

    def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> actions.Action:
        return first_legal(request)


class Believing(Polite):
    """Reports a flat belief about every other seat."""

    async def believe(self, view: Observation) -> BeliefReport:
        seat = view.viewer.seat  # type: ignore[union-attr]
        others = {s: 0.25 for s in range(1, view.knowledge.seats + 1) if s != seat}
        return BeliefReport(
            seat=seat, day=view.knowledge.day, after_seq=view.log_length, wolf_probability=others
        )


class Raising(Polite):
    """Raises in every decision (a bug)."""

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        raise KeyError("no such feature")


class Garbage(Polite):
    """Answers with a string."""

    async def decide(  # type: ignore[override]
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> str:
        return "I vote 3"


class Hanging(Polite):
    """Never answers (awaits forever)."""

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        await asyncio.sleep(3600)
        raise AssertionError("unreachable")


class BlockingHang(Polite):
    """A plain `def decide` that blocks its thread far past any time limit."""

    def decide(  # type: ignore[override]
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        time.sleep(3600)
        raise AssertionError("unreachable")


class Illegal(Polite):
    """Votes for a seat that does not exist, whatever it is asked."""

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        return AgentReply(action=actions.Vote(target=99))


def not_an_agent() -> str:
    """A factory that returns no agent."""
    return "agent"


def the_class() -> type:
    """A factory that returns the class instead of an instance."""
    return Polite


def needs_model(model: str) -> Polite:
    """A factory needing an argument the arena never passes."""
    return Polite()


def broken_factory(seat: int) -> Polite:
    """A factory that raises."""
    raise RuntimeError(f"cannot load the checkpoint for seat {seat}")


NOT_CALLABLE = 42


class Sloppy(Polite):
    """Answers illegally until told why, then legally: refused half the time, never defaulted."""

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        if feedback is None:
            return AgentReply(action=actions.Vote(target=99))
        return AgentReply(action=first_legal(request))


class Learning(Polite):
    """Keeps the end of every game it is told, with the last request's side (`Learner`)."""

    told: list[tuple[GameOver, Observation]] = []
    sides: dict[int, Side | None] = {}

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        Learning.sides[request.seat] = view.knowledge.side
        return await super().decide(view, request, feedback)

    async def game_over(self, view: Observation, end: GameOver) -> None:
        Learning.told.append((end, view))


class SyncLearningBadly(Polite):
    """A plain `def game_over` (run in a thread) that raises."""

    def game_over(self, view: Observation, end: GameOver) -> None:
        raise RuntimeError("no place to keep the reward")
