"""The one agent interface: given what a seat sees and what it is asked, answer.

Scripted bots, random agents, LLM agents, human seats and plug-ins (your own class,
`arena.agents.plugin`) all implement `Agent`. The match runner validates every answer with
the referee; an invalid or illegal one is asked again with the error as `feedback` (a
bounded number of times) before the arena's default.

`Agent`, `AgentReply`, `Believer`, `RoleGuesser` and `Learner` are a public API
(docs/agents.md), re-exported with the types they use by `arena.api` and versioned by
`CONTRACT_VERSION`. The other protocols here are the arena's own seats' business.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict

from arena.llm.types import ModelCallRecord
from arena.records import BeliefReport, RoleGuess
from arena.rules.actions import Action
from arena.rules.decisions import DecisionRequest
from arena.rules.observation import Observation
from arena.rules.outcome import GameOver

DECISION_TIMEOUT_S = 60.0
"""The one default limit per decision, for every seat kind: bots, plug-ins, remote agents
and model seats (in `arena play` a model endpoint's longer request limit raises the
game's, every seat's without a limit of its own).
Set it for every seat with `arena play --decision-timeout`, a spec file's
`decision_timeout_s`, a tournament's `limits.call_timeout_s` or `arena agent check
--timeout`; for one seat kind with its `endpoints` entry or tournament entry."""

CONTRACT_VERSION = 1
"""The version of the public agent contract (`arena.api`, docs/agents.md).

Raised on any change that can break an agent written against it: a removed or renamed
name, field or argument, or a changed meaning. Within a version the arena may add decision
kinds, action kinds, event kinds and optional fields, so an agent must accept what it does
not know (answering `request.default` is legal for every request but a wolves' `knife`,
whose default, no kill, only the arena may apply).
"""


class AgentReply(BaseModel):
    """An agent's answer: an action, or the reason it could not produce one."""

    model_config = ConfigDict(frozen=True)

    action: Action | None
    error: str | None = None
    """Why no action came back (malformed tool call, no tool call, provider failure)."""
    calls: tuple[ModelCallRecord, ...] = ()
    """Model calls made for this answer (empty for bots)."""
    belief: BeliefReport | None = None
    """A belief report that came with the answer (a model seat's exile vote, `daily`)."""
    late: bool = False
    """The agent's own deadline passed without an answer (a person's clock ran out): the
    runner asks no more and records the default as timed out (`timed out: …`), not as a
    failure after retries."""


@runtime_checkable
class Agent(Protocol):
    """Anything that can sit at the table."""

    @property
    def name(self) -> str:
        """A short label: `bot`, `random`, `openai:gpt-4.1-mini`, `human`."""
        ...

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """Answer `request`, seeing only `view`; `feedback` explains a rejected answer."""
        ...


@runtime_checkable
class Believer(Protocol):
    """An agent that can also report its beliefs (optional; bots and LLM agents do)."""

    async def believe(self, view: Observation) -> BeliefReport | None:
        """Probability that each other present seat is a wolf, or None to decline.

        The report's `seat`, `day` and `after_seq` come from `view` (its viewer, its
        `knowledge.day` and its `log_length`).
        """
        ...


@runtime_checkable
class RoleGuesser(Protocol):
    """An agent that can guess other seats' cards (optional; asked by exams only).

    An exam's `role` item asks it for every seat in `seats` (the other seats whose card
    the view does not show). An agent without it answers from its belief report instead
    (`arena.exam.guess.from_beliefs`, docs/agents.md: The exam), or not at all.
    """

    async def guess_roles(self, view: Observation, seats: tuple[int, ...]) -> RoleGuess | None:
        """One of the board's cards (`view.knowledge.role_counts`) for each of `seats`.

        The guess's `seat` and `after_seq` come from `view` (its viewer and `log_length`).
        None declines.
        """
        ...


@runtime_checkable
class Learner(Protocol):
    """An agent told how each of its games ended (optional; remote agents always are).

    A learning agent needs its reward, and the last request it was asked may come long
    before the end (a seat knifed on night 2). Once a game is over, finished or voided,
    the match calls `game_over` of every seat that has it, all at once, each held to the
    per-decision limit; nothing it does changes the game or its replay.
    """

    async def game_over(self, view: Observation, end: GameOver) -> None:
        """Take the end of a game: how it ended, every card, the seat's side and reward.

        `view` is the seat's last view (`GameEnded` and `RolesRevealed` in it when the game
        finished), `end` the `arena.rules.outcome.GameOver` told to this seat.
        """
        ...


@runtime_checkable
class Gated(Protocol):
    """An agent whose calls must each hold a shared slot (optional).

    The slot is one of an endpoint's concurrency limit, across all matches and workers.
    The match runner enters `slot()` before it starts a call's clock, so time spent queueing
    behind other matches never counts against `Limits.call_timeout_s` and never turns into
    a defaulted decision; only the game's time limit bounds the wait.
    """

    def slot(self) -> AbstractAsyncContextManager[None]:
        """Hold one slot for the duration of the `async with` block."""
        ...


@runtime_checkable
class BeliefFolder(Protocol):
    """An agent that can report its daily beliefs with its exile vote (optional).

    The runner then skips the separate belief question for that seat when it has a vote
    to cast, and asks it only if the vote came without a usable report.
    """

    @property
    def folds_beliefs(self) -> bool:
        """Whether the daily report rides on the exile vote."""
        ...


@runtime_checkable
class TimeLimited(Protocol):
    """An agent with its own time limit per decision (optional; model seats per endpoint)."""

    @property
    def decision_timeout_s(self) -> float | None:
        """Seconds one decision may take (None: the match's limit)."""
        ...

    def pending_traces(self) -> tuple[ModelCallRecord, ...]:
        """Traces of calls a time limit cut off, not yet handed over (then forgotten)."""
        ...


@runtime_checkable
class Accountable(Protocol):
    """An agent whose defaults count toward the void rule (optional; plug-ins are).

    Model seats count by having a `chat` model; any other agent counts when this is true.
    A game whose accountable seat mostly plays the arena's defaults is voided, not rated.
    """

    @property
    def accountable(self) -> bool:
        """Whether this seat's defaults count toward `Limits.void_after_defaults`."""
        ...
