"""Asking one agent one question: within its time limit, after its slot, with re-asks.

Time is the running event loop's clock (`loop.time()`, `time.monotonic()` on asyncio's
own loops), the one `asyncio.timeout` and `wait_for` read: the game's deadline and each
call's limit keep one time, and a test loop on virtual time (tests/support/virtual_time.py)
drives every limit without waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Awaitable, Callable
from typing import TypeVar

from arena.agents.base import Agent, AgentReply, Gated, TimeLimited
from arena.agents.traits import trait
from arena.errors import ArenaError
from arena.match.limits import Limits, Outcome
from arena.rules.decisions import DecisionRequest, check_legal
from arena.rules.errors import IllegalActionError
from arena.rules.observation import Observation

T = TypeVar("T")


def now() -> float:
    """The running loop's clock, in seconds: the time every limit of a match is kept in."""
    return asyncio.get_running_loop().time()


async def timed_call(
    agent: Agent, call: Callable[[], Awaitable[T]], timeout_s: float, deadline: float
) -> T:
    """Run one call of `agent` within `timeout_s`.

    A `Gated` agent first waits for its slot, bounded only by the game's `deadline` (on
    the loop's clock, `now()`), and the call's clock starts once the slot is held.

    Raises:
        TimeoutError: the call took longer than `timeout_s`, or the game's deadline
            passed while waiting for the slot.
    """
    async with contextlib.AsyncExitStack() as held:
        if (gated := trait(agent, Gated)) is not None:
            async with asyncio.timeout(max(0.0, deadline - now())):
                await held.enter_async_context(gated.slot())
        remaining = max(0.0, deadline - now())
        return await asyncio.wait_for(call(), min(timeout_s, remaining))


def limit_of(agent: Agent, limits: Limits) -> float:
    """The seconds one question to `agent` may take.

    Its own limit (`TimeLimited`: a model seat's endpoint), else the match's; a belief
    question is held to the same limit as a decision.
    """
    timed = trait(agent, TimeLimited)
    own = timed.decision_timeout_s if timed is not None else None
    return own or limits.call_timeout_s


async def decide(
    agent: Agent, view: Observation, request: DecisionRequest, limits: Limits, deadline: float
) -> tuple[Outcome, list[AgentReply]]:
    """Ask one agent for one decision with bounded retries; never raises for agent faults.

    An agent that raises (any `Exception`, its bug or ours) or returns something other
    than an `AgentReply` is treated as a malformed answer: asked again with the error as
    feedback, then defaulted. Only cancellation (the game stopping) goes through.
    `deadline` is the game's, on the loop's clock (`now()`): past it the request is
    defaulted without asking.
    """
    replies: list[AgentReply] = []
    feedback: str | None = None
    timeout_s = limit_of(agent, limits)
    for _attempt in range(limits.retries + 1):
        remaining = deadline - now()
        if remaining <= 0:
            return Outcome(request.seat, request.default, "game time limit reached"), replies
        try:
            reply = await timed_call(
                agent,
                functools.partial(agent.decide, view, request, feedback),
                timeout_s,
                deadline,
            )
        except TimeoutError:
            feedback = f"no answer within {timeout_s:g} s"
            if (timed := trait(agent, TimeLimited)) is not None:
                replies.append(
                    AgentReply(action=None, error=feedback, calls=timed.pending_traces())
                )
            continue
        except ArenaError as exc:
            feedback = str(exc)
            continue
        except Exception as exc:  # an agent's bug is its seat's default, never the game's end
            feedback = f"the agent raised {type(exc).__name__}: {_one_line(exc)}"
            continue
        if not isinstance(reply, AgentReply):
            feedback = f"the agent returned {type(reply).__name__}, not an AgentReply"
            continue
        replies.append(reply)
        if reply.action is None and reply.late:
            reason = f"timed out: {reply.error or 'no answer'}"
            return Outcome(request.seat, request.default, reason), replies
        if reply.action is None:
            feedback = reply.error or "no action in the reply"
            continue
        try:
            check_legal(request, reply.action)
        except IllegalActionError as exc:
            feedback = str(exc)
            continue
        return Outcome(request.seat, reply.action, None), replies
    reason = f"after {limits.retries + 1} tries: {feedback}"
    return Outcome(request.seat, request.default, reason), replies


def _one_line(exc: BaseException, limit: int = 300) -> str:
    """An exception's message on one line, cut to `limit` characters (it goes in the log)."""
    text = " ".join(str(exc).split()) or "(no message)"
    return text if len(text) <= limit else text[: limit - 1] + "…"
