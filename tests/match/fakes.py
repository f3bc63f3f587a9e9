"""Fake seats for the match runner's tests, played on virtual time.

A `Fake` answers each request after a chosen number of (virtual) seconds, with a chosen
outcome, and writes every time it is asked into a shared `Call` log: the tests read
who was asked when, with what feedback, and which calls the runner cut off. Its legal
answer is keyed by seat and step only, so a resumed game asks fresh fakes for exactly
what the originals answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

from arena.agents.base import AgentReply
from arena.agents.random_agent import random_action
from arena.llm.types import ModelCallRecord
from arena.match import Limits, new_header, now, run_game
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionRequest
from arena.rules.observation import Observation
from arena.rules.referee import Referee
from tests.support.virtual_time import run

CONFIG = GameConfig(board="wwk_guard")
SHORT = GameConfig(board="wwk_guard", overrides={"max_days": 4})
"""For games past their time limit: they play on to the end on defaults alone, which is
the draw at `max_days` (30 by default, a long tail of defaulted days)."""
SEATS = range(1, 13)


@dataclass
class Call:
    """One time the runner asked a seat."""

    request: DecisionRequest
    attempt: int
    """1 for the first ask of this request, 2+ for re-asks."""
    feedback: str | None
    asked_at: float
    answered_at: float | None = None
    cancelled: bool = False

    @property
    def seat(self) -> int:
        return self.request.seat

    @property
    def step(self) -> int:
        return self.request.step


Behaviour = Callable[[DecisionRequest, int], tuple[float, object]]
"""`(request, attempt) -> (seconds to think, what to answer)`: an `AgentReply`, another
object, or an exception to raise."""


def legal(request: DecisionRequest) -> AgentReply:
    """A legal answer that depends on the seat and the step only."""
    rng = random.Random(f"{request.seat}:{request.step}")
    return AgentReply(action=random_action(request, rng), calls=(trace(request),))


def trace(request: DecisionRequest, **fields: object) -> ModelCallRecord:
    """A model call record for `request` (what a model seat attaches to its answer)."""
    return ModelCallRecord.model_validate(
        {
            "seat": request.seat,
            "step": request.step,
            "attempt": 1,
            "model": "fake",
            "prompt_id": "fake@1",
            "messages": (),
            "tools": None,
            "reply": None,
            **fields,
        }
    )


def seat_seconds(request: DecisionRequest, attempt: int) -> tuple[float, AgentReply]:
    """Seat N thinks N seconds, then answers legally."""
    return float(request.seat), legal(request)


def prompt(think_s: float = 0.0) -> Behaviour:
    """Answer legally after `think_s` seconds."""
    return lambda request, attempt: (think_s, legal(request))


class Fake:
    """A seat whose every ask is logged, answered per its `behaviour`."""

    def __init__(self, log: list[Call], behaviour: Behaviour | None = None) -> None:
        self.log = log
        self.behaviour = behaviour or prompt()
        self.calls: list[Call] = []
        """This seat's own calls."""

    @property
    def name(self) -> str:
        return "fake"

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        attempt = 1 + sum(1 for c in self.log if c.request == request)
        call = Call(request, attempt, feedback, asked_at=now())
        self.log.append(call)
        self.calls.append(call)
        think_s, answer = self.behaviour(request, attempt)
        try:
            await asyncio.sleep(think_s)
        except asyncio.CancelledError:
            call.cancelled = True
            raise
        call.answered_at = now()
        if isinstance(answer, BaseException):
            raise answer
        return answer  # type: ignore[return-value]


class AccountableFake(Fake):
    """A fake whose defaults count toward the void rule, as a plug-in's do."""

    accountable = True


class TimeLimitedFake(Fake):
    """A fake with its own decision limit, handing over a cut-off call's trace."""

    def __init__(self, log: list[Call], behaviour: Behaviour, limit_s: float) -> None:
        super().__init__(log, behaviour)
        self.decision_timeout_s = limit_s

    def pending_traces(self) -> tuple[ModelCallRecord, ...]:
        last = self.calls[-1]
        return (trace(last.request, attempt=last.attempt, cut_off=True),)


class GatedFake(Fake):
    """A fake whose every call must first hold a slot that frees up at `free_at`."""

    def __init__(self, log: list[Call], free_at: float) -> None:
        super().__init__(log)
        self.free_at = free_at

    @contextlib.asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        await asyncio.sleep(max(0.0, self.free_at - now()))
        yield


def fakes(log: list[Call], behaviour: Behaviour | None = None) -> dict[int, Fake]:
    """A table of fakes sharing `log`, all with `behaviour`."""
    return {seat: Fake(log, behaviour) for seat in SEATS}


def play(
    agents: dict[int, Fake],
    *,
    limits: Limits | None = None,
    path: Path | None = None,
    seed: int = 4,
    config: GameConfig = CONFIG,
) -> tuple[Referee, float]:
    """Play a whole game on virtual time; the referee and the seconds it took."""
    header = new_header("fake", config, seed, agents)
    referee, elapsed = run(run_game(header, agents, path, limits=limits or Limits()))
    return referee, elapsed


def by_step(log: list[Call]) -> dict[int, list[Call]]:
    """The log's calls grouped by the referee's step, in step order."""
    steps: dict[int, list[Call]] = {}
    for call in log:
        steps.setdefault(call.step, []).append(call)
    return dict(sorted(steps.items()))


def cut_calls(log: list[Call]) -> list[Call]:
    """Calls the runner cancelled before they answered."""
    return [c for c in log if c.cancelled]
