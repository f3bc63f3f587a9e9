"""A refused answer is asked again with the reason, `Limits.retries` times, per decision.

Seat 3 answers each request badly in one way; the runner must pass the same one-line
reason back as feedback, and only after the last try apply the default.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from arena.agents.base import AgentReply
from arena.match import Limits
from arena.rules import events as ev
from arena.rules.actions import Vote
from arena.rules.decisions import DecisionRequest, check_legal
from arena.rules.errors import IllegalActionError, InvalidActionError
from tests.match.fakes import Call, Fake, fakes, legal, play

CALL_LIMIT_S = 10.0


def illegal_reason(request: DecisionRequest) -> str:
    with pytest.raises(IllegalActionError) as refused:
        check_legal(request, Vote(target=99))
    return str(refused.value)


FAULTS: dict[str, tuple[Callable[[], tuple[float, object]], Callable[[DecisionRequest], str]]] = {
    "illegal": (lambda: (0.0, AgentReply(action=Vote(target=99))), illegal_reason),
    "invalid": (
        lambda: (0.0, InvalidActionError("malformed tool call: not JSON")),
        lambda r: "malformed tool call: not JSON",
    ),
    "no action": (
        lambda: (0.0, AgentReply(action=None, error="answered without a tool call")),
        lambda r: "answered without a tool call",
    ),
    "empty": (lambda: (0.0, AgentReply(action=None)), lambda r: "no action in the reply"),
    "crash": (
        lambda: (0.0, ZeroDivisionError("division\n  by zero")),
        lambda r: "the agent raised ZeroDivisionError: division by zero",
    ),
    "not a reply": (
        lambda: (0.0, "vote 3"),
        lambda r: "the agent returned str, not an AgentReply",
    ),
    "too slow": (lambda: (100.0, None), lambda r: f"no answer within {CALL_LIMIT_S:g} s"),
}
"""Each fault: what seat 3 does on a bad try, and the feedback the runner owes it."""


def faulty(bad_tries: int, fault: str) -> dict[int, Fake]:
    """A table where seat 3 answers each request badly `bad_tries` times, then legally."""
    log: list[Call] = []
    agents = fakes(log)
    do_fault, _ = FAULTS[fault]

    def seat_3(request: DecisionRequest, attempt: int) -> tuple[float, object]:
        return do_fault() if attempt <= bad_tries else (0.0, legal(request))

    agents[3] = Fake(log, seat_3)
    return agents


def seat_3_calls(agents: dict[int, Fake]) -> dict[DecisionRequest, list[Call]]:
    asked: dict[DecisionRequest, list[Call]] = {}
    for call in agents[3].log:
        if call.seat == 3:
            asked.setdefault(call.request, []).append(call)
    return asked


@pytest.mark.parametrize("fault", FAULTS)
def test_a_refused_answer_is_asked_again_with_the_reason(fault: str) -> None:
    agents = faulty(bad_tries=2, fault=fault)
    limits = Limits(call_timeout_s=CALL_LIMIT_S, retries=2)
    referee, _ = play(agents, limits=limits)
    assert not [e for e in referee.events if isinstance(e, ev.ActionDefaulted)]
    _, reason = FAULTS[fault]
    asked = seat_3_calls(agents)
    assert asked
    for request, calls in asked.items():
        assert [c.feedback for c in calls] == [None, reason(request), reason(request)]
    assert all(a.defaulted is None for a in referee.answers)


@pytest.mark.parametrize("fault", FAULTS)
def test_after_the_last_try_the_default_is_applied(fault: str) -> None:
    agents = faulty(bad_tries=2, fault=fault)
    limits = Limits(call_timeout_s=CALL_LIMIT_S, retries=1)
    referee, _ = play(agents, limits=limits)
    _, reason = FAULTS[fault]
    asked = seat_3_calls(agents)
    defaulted = {(a.step, a.seat): a for a in referee.answers if a.defaulted is not None}
    assert {(r.step, 3) for r in asked} == set(defaulted)
    for request, calls in asked.items():
        assert len(calls) == 2, "one try and one re-ask"
        answer = defaulted[request.step, 3]
        assert answer.action == request.default
        assert answer.defaulted == f"after 2 tries: {reason(request)}"


def test_the_tries_are_counted_per_decision_not_per_game() -> None:
    """Two bad tries on every decision, two re-asks allowed: no decision is defaulted."""
    agents = faulty(bad_tries=2, fault="illegal")
    referee, _ = play(agents, limits=Limits(retries=2))
    assert len(seat_3_calls(agents)) > 3
    assert not [a for a in referee.answers if a.defaulted is not None]


def test_a_late_reply_is_defaulted_at_once_without_a_re_ask() -> None:
    """A person's own clock ran out (`late`): asking again cannot help."""
    log: list[Call] = []
    agents = fakes(log)
    late = AgentReply(action=None, error="the seat's clock ran out", late=True)
    agents[3] = Fake(log, lambda request, attempt: (0.0, late))
    referee, _ = play(agents, limits=Limits(retries=2))
    asked = seat_3_calls(agents)
    assert asked and all(len(calls) == 1 for calls in asked.values())
    reasons = {a.defaulted for a in referee.answers if a.seat == 3}
    assert reasons == {"timed out: the seat's clock ran out"}
