"""A plug-in's agent at the table: its faults become feedback, never a crashed game.

`wrap` puts what a plug-in's factory made into the seat the match runner asks: a
`PluginAgent` whose `decide` turns a raise, a hang or garbage into a refused answer, and
which passes on the optional protocols the plug-in implements — its belief reports
(`Believer`), its role guesses (`RoleGuesser`, asked by exams) and the end of its games
(`Learner`) — and only those, so the runner asks the plug-in exactly what it implements.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
import threading
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ValidationError

from arena.agents.base import Agent, AgentReply, Believer, Learner, RoleGuesser
from arena.records import BeliefReport, RoleGuess
from arena.rules.actions import ACTION_ADAPTER, Action
from arena.rules.decisions import DecisionRequest
from arena.rules.observation import Observation
from arena.rules.outcome import GameOver

log = logging.getLogger("arena.agents.plugin")


class PluginAgent:
    """A plug-in's agent at the table: its faults become feedback, never crashes.

    - Its `name` in the replay header and the ratings is the spec (`py:…` or the
      entry-point name), so two plug-ins cannot pass for each other or for a built-in
      seat; the agent's own `name` is kept as the header's `model`.
    - `decide` may be `async def` (run on the game's event loop: it must not block it) or
      a plain `def` (run in a thread of its own, so a blocking policy is cut off at the
      time limit; a thread that never returns is abandoned, it cannot be killed).
    - Raising, or returning anything but an `AgentReply` (a bare `Action` is accepted),
      is an answer with an error: the runner asks again with it as feedback, then
      records the default. The first traceback is logged, later ones only counted.
    - Its defaults count toward the void rule, as a model seat's do (`accountable`).
    """

    accountable = True
    """Defaults of this seat count toward `Limits.void_after_defaults`."""

    def __init__(self, inner: Agent, spec: str, *, decision_timeout_s: float | None = None) -> None:
        self.inner = inner
        self.spec = spec
        self.faults = 0
        """Times `decide` or `believe` raised."""
        self._timeout_s = decision_timeout_s

    @property
    def name(self) -> str:
        """The spec that named the plug-in: its identity in replays and ratings."""
        return self.spec

    @property
    def model(self) -> str | None:
        """The agent's own name, as it gives it."""
        try:
            own = self.inner.name
        except Exception:
            return None
        return own[:200] if isinstance(own, str) else None

    @property
    def decision_timeout_s(self) -> float | None:
        """The operator's limit per decision for this seat (None: the match's)."""
        return self._timeout_s

    def pending_traces(self) -> tuple[()]:
        """None: the arena makes no model calls for a plug-in."""
        return ()

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """The plug-in's answer, or an answer carrying why there is none."""
        try:
            answer = await _run(self.inner.decide, view, request, feedback)
        except Exception as exc:
            self._fault("decide", exc)
            return AgentReply(action=None, error=f"the agent raised {described(exc)}")
        return _as_reply(answer)

    def _fault(self, method: str, exc: Exception) -> None:
        self.faults += 1
        if self.faults == 1:
            log.warning(
                "%s: %s raised (the seat defaults; said once)", self.spec, method, exc_info=exc
            )


class PluginBeliever(PluginAgent):
    """A plug-in that also reports its beliefs (`Believer`)."""

    async def believe(self, view: Observation) -> BeliefReport | None:
        """The plug-in's report, or None when it raises or gives something else."""
        inner = self.inner
        assert isinstance(inner, Believer)
        try:
            report = await _run(inner.believe, view)
        except Exception as exc:
            self._fault("believe", exc)
            return None
        return report if isinstance(report, BeliefReport) else None


class PluginGuesser(PluginAgent):
    """A plug-in that also guesses other seats' cards (`RoleGuesser`, asked by exams)."""

    async def guess_roles(self, view: Observation, seats: tuple[int, ...]) -> RoleGuess | None:
        """The plug-in's guess, or None when it raises or gives something else."""
        inner = self.inner
        assert isinstance(inner, RoleGuesser)
        try:
            guess = await _run(inner.guess_roles, view, seats)
        except Exception as exc:
            self._fault("guess_roles", exc)
            return None
        return guess if isinstance(guess, RoleGuess) else None


class PluginLearner(PluginAgent):
    """A plug-in told how each of its games ended (`Learner`)."""

    async def game_over(self, view: Observation, end: GameOver) -> None:
        """Tell the plug-in; what it raises is logged (once) and goes no further."""
        inner = self.inner
        assert isinstance(inner, Learner)
        try:
            await _run(inner.game_over, view, end)
        except Exception as exc:
            self._fault("game_over", exc)
            raise


CAPABILITIES: tuple[tuple[type, type[PluginAgent]], ...] = (
    (Believer, PluginBeliever),
    (RoleGuesser, PluginGuesser),
    (Learner, PluginLearner),
)
"""Each optional protocol a plug-in may implement, and the seat class that passes it on."""


def wrap(made: Agent, spec: str, decision_timeout_s: float | None = None) -> PluginAgent:
    """`made`'s seat: a `PluginAgent` that passes on the optional protocols `made` has."""
    kinds = tuple(kind for protocol, kind in CAPABILITIES if isinstance(made, protocol))
    return _seat_class(kinds)(made, spec, decision_timeout_s=decision_timeout_s)


@functools.cache
def _seat_class(kinds: tuple[type[PluginAgent], ...]) -> type[PluginAgent]:
    """The seat class with exactly `kinds`' methods (`PluginAgent` alone for none)."""
    if len(kinds) < 2:
        return kinds[0] if kinds else PluginAgent
    name = "Plugin" + "".join(k.__name__.removeprefix("Plugin") for k in kinds)
    made: type[PluginAgent] = type(name, kinds, {"__doc__": f"A plug-in seat: {name}."})
    return made


async def _run(method: Callable[..., Any], *args: object) -> object:
    """Call `method`: awaited if async, else in a thread of its own."""
    if inspect.iscoroutinefunction(method):
        return await method(*args)
    result = await _in_thread(method, *args)
    if inspect.isawaitable(result):
        return await result
    return result


async def _in_thread(function: Callable[..., object], *args: object) -> object:
    """`function(*args)` in a daemon thread, so a call that never returns blocks nothing.

    Not `asyncio.to_thread`: its executor's threads are joined when the loop closes, so
    one hung call would hang the process at the end of the game.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[object] = loop.create_future()

    def settle(value: object, error: BaseException | None) -> None:
        if future.done():  # cancelled: the runner gave up on this call
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(value)

    def work() -> None:
        try:
            value, error = function(*args), None
        except BaseException as exc:
            value, error = None, exc
        try:
            loop.call_soon_threadsafe(settle, value, error)
        except RuntimeError:  # the loop is closed: nobody waits for this answer any more
            pass

    threading.Thread(target=work, name="arena-plugin-decide", daemon=True).start()
    return await future


def _as_reply(answer: object) -> AgentReply:
    if isinstance(answer, AgentReply):
        return answer
    action = _as_action(answer)
    if action is not None:
        return AgentReply(action=action)
    return AgentReply(
        action=None, error=f"the agent returned {type(answer).__name__}, not an AgentReply"
    )


def _as_action(answer: object) -> Action | None:
    if not isinstance(answer, BaseModel) or not isinstance(getattr(answer, "kind", None), str):
        return None
    try:
        return ACTION_ADAPTER.validate_python(answer)
    except ValidationError:
        return None


def described(exc: BaseException) -> str:
    """`TYPE: message`, the message on one line and clipped."""
    return f"{type(exc).__name__}: {one_line(exc)}"


def one_line(exc: BaseException, limit: int = 300) -> str:
    """The exception's message on one line, clipped to `limit` characters."""
    text = " ".join(str(exc).split()) or "(no message)"
    return text if len(text) <= limit else text[: limit - 1] + "…"
