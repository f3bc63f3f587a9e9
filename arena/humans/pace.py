"""Pacing a game with people, so how fast the seats answer tells nobody what they hold.

A page sees the game move in real time. Without pacing, the clock itself would tell a
person hidden things: a night of bots is over in a blink while a night with a person
holding a night role takes as long as they think; a night in which the witch is dead
or out of potions has one step fewer; a wolf played by a person makes the table wait
after every speech, while a bot wolf passes its self-explosion window at once.

`Pace` (`arena.storage.desk`, part of a game's card) sets three floors, and the host
applies them to every seat alike, people, bots and models:

- `step_s`: every batch of night decisions takes at least this long;
- `night_s`: every night lasts at least this long, from its first request to the moment
  what follows it (the dawn) reaches any page; nothing of the day is asked or published
  before then;
- `window_s`: the self-explosion window after each speech lasts exactly this long (a
  person's answer is taken until then; their silence there is the ordinary "no
  explosion", not a timeout that counts towards handing the seat to a bot).

What pacing cannot hide (docs/play.md, "Pace"): a person slower than the floors
still stretches the night or a step beyond them; the order of night steps still lets a
later actor (the witch) feel how long the earlier ones took past their floors. Zero
turns a floor off.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from arena.agents.base import Agent, AgentReply, TimeLimited
from arena.agents.traits import Wrapper, trait
from arena.llm.types import ModelCallRecord
from arena.rules.decisions import DecisionKind, DecisionRequest
from arena.rules.observation import Observation
from arena.storage.desk import Pace


class Pacer:
    """The pacing of one running game: when its night began, and when its dawn is out.

    The host's publisher calls `batch` with each new batch of pending requests; seat
    agents wrapped by `paced` wait at `gate` before they are asked anything and are held
    to the floors after they answer. `clock` and `sleep` are injected (a test runs a
    whole game on a fake clock).
    """

    def __init__(
        self,
        pace: Pace,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.pace = pace
        self.clock = clock
        self.sleep = sleep
        self.release_at: float | None = None
        """While set and not yet reached, what followed a night is held back."""
        self.on_release: Callable[[], None] = lambda: None
        """Called once the hold is over (the publisher publishes what it held)."""
        self._night_began: float | None = None

    def batch(self, requests: tuple[DecisionRequest, ...]) -> None:
        """Note the batch now pending: a night begins, or a night has just ended."""
        night = any(r.night for r in requests)
        if night and self._night_began is None:
            self._night_began = self.clock()
        elif not night and self._night_began is not None:
            self.release_at = self._night_began + self.pace.night_s
            self._night_began = None

    def held(self) -> bool:
        """Whether what follows the last night may not be published yet."""
        return self.release_at is not None and self.clock() < self.release_at

    async def gate(self) -> None:
        """Wait until the night's floor has passed, then let the held lines out."""
        if self.release_at is None:
            return
        wait = self.release_at - self.clock()
        if wait > 0:
            await self.sleep(wait)
        if self.release_at is not None:
            self.release_at = None
            self.on_release()

    def floor(self, request: DecisionRequest) -> float:
        """How long answering `request` must take at least."""
        if request.kind is DecisionKind.INTERRUPT:
            return self.pace.window_s
        return self.pace.step_s if request.night else 0.0

    async def hold(self, request: DecisionRequest, started: float) -> None:
        """Sleep out the rest of `request`'s floor, counted from `started`."""
        wait = started + self.floor(request) - self.clock()
        if wait > 0:
            await self.sleep(wait)


class Paced(Wrapper):
    """A seat's agent held to the game's pace (what else the seat is, is the agent's own)."""

    def __init__(self, inner: Agent, pacer: Pacer) -> None:
        super().__init__(inner)
        self.pacer = pacer

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """Wait out a night's hold, ask the agent, then hold the answer to its floor."""
        await self.pacer.gate()
        started = self.pacer.clock()
        reply = await self.inner.decide(view, request, feedback)
        await self.pacer.hold(request, started)
        return reply


class PacedTimed(Paced):
    """A `Paced` seat with a time limit of its own: the limit grows by what pacing may add.

    It changes a capability, so it declares it (`TimeLimited`), and the runner finds this
    limit before the wrapped seat's (`arena.agents.traits.trait`).
    """

    def __init__(self, inner: Agent, pacer: Pacer, timed: TimeLimited) -> None:
        super().__init__(inner, pacer)
        self._timed = timed

    @property
    def decision_timeout_s(self) -> float | None:
        """The agent's limit plus the longest hold (None: the match's limit)."""
        own = self._timed.decision_timeout_s
        return None if own is None else own + self.pacer.pace.longest_hold_s

    def pending_traces(self) -> tuple[ModelCallRecord, ...]:
        """The agent's traces cut off by a time limit."""
        return self._timed.pending_traces()


def paced(agent: Agent, pacer: Pacer) -> Agent:
    """`agent` held to `pacer`'s floors."""
    timed = trait(agent, TimeLimited)
    return Paced(agent, pacer) if timed is None else PacedTimed(agent, pacer, timed)
