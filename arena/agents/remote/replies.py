"""Reading a remote agent's replies: what each means, or why it is refused, and the trace.

Every reply is checked in the same order: its HTTP status, its signature under the seat's
secret, its shape (the protocol's message), its echo of the question (game, seat, step,
attempt; or the belief question's `after_seq`), then its content. The first failure is
the reply's one-line error; the match runner re-asks with it, as for a model seat.
"""

from __future__ import annotations

import time
from typing import NamedTuple

from pydantic import ValidationError

from arena.agents.model.parsing import check_beliefs, read_act
from arena.agents.remote.auth import is_signed, why_unsigned
from arena.agents.remote.protocol import PROTOCOL, Answer, BeliefAnswer, Ready
from arena.agents.remote.transport import Reply
from arena.errors import one_line
from arena.llm.types import ModelCallRecord, ModelReply
from arena.rules.actions import Action
from arena.rules.decisions import DecisionRequest
from arena.rules.errors import InvalidActionError

BELIEF_STEP = -1
"""The `step` of a belief question's trace record (`ModelCallRecord.step`)."""
KEPT_REPLY_CHARS = 2000
"""How much of a refused answer's body its trace keeps."""
CUT_OFF = "cut off by the match's time limit"


class Exchange(NamedTuple):
    """One question's outcome: the action or why not, and what to record."""

    action: Action | None
    error: str | None
    body: str | None
    notes: tuple[str, ...]


class Estimate(NamedTuple):
    """One belief question's outcome: the probabilities or why not, and what to record."""

    wolf_probability: dict[int, float] | None
    error: str | None
    body: str | None
    faults: tuple[str, ...]


def read_ready(response: Reply, secret: str, asked: tuple[str, str, int]) -> str | None:
    """Why `response` is not the agent's `Ready` for the (protocol, game, seat) `asked`.

    None when it is: the agent took the seat and its new secret.
    """
    if response.status_code != 200:
        return f"HTTP {response.status_code}"
    if not is_signed(secret, response.content, response.signature):
        why = why_unsigned(secret, response.content, response.signature)
        return f"its Ready is not signed with the seat's new secret: {why}"
    try:
        ready = Ready.model_validate_json(response.content)
    except ValidationError:
        return "its reply is not a Ready"
    if (ready.protocol, ready.game_id, ready.seat, ready.ready) != (*asked, True):
        return f"its Ready is for {ready.protocol} game {ready.game_id} seat {ready.seat}"
    return None


def read_answer(
    response: Reply, secret: str, request: DecisionRequest, attempt: int, game_id: str
) -> tuple[Action | None, str | None, tuple[str, ...]]:
    """The action in an agent's reply, or why the reply is refused (and parser notes)."""
    if response.status_code != 200:
        return None, f"the agent answered HTTP {response.status_code}", ()
    if not is_signed(secret, response.content, response.signature):
        why = why_unsigned(secret, response.content, response.signature)
        return (
            None,
            f"refused: the answer is not signed with seat {request.seat}'s secret: {why}",
            (),
        )
    try:
        answer = Answer.model_validate_json(response.content)
    except ValidationError as exc:
        return None, f"the answer is not an Answer ({one_line(exc, default='body')})", ()
    asked = (PROTOCOL, game_id, request.seat, request.step, attempt)
    echoed = (answer.protocol, answer.game_id, answer.seat, answer.step, answer.attempt)
    if echoed != asked:
        return (
            None,
            (
                f"refused: the answer is for game {answer.game_id} seat {answer.seat} step "
                f"{answer.step} attempt {answer.attempt}, not seat {request.seat} step "
                f"{request.step} attempt {attempt}"
            ),
            (),
        )
    try:
        parsed = read_act(answer.answer, request)
    except InvalidActionError as exc:
        return None, str(exc), ()
    if parsed.action is None:
        return None, "the answer is not an action", parsed.notes
    return parsed.action, None, parsed.notes


def read_beliefs(
    response: Reply, secret: str, asked: tuple[str, str, int, int], seats: tuple[int, ...]
) -> tuple[dict[int, float] | None, str | None]:
    """The probabilities in an agent's `BeliefAnswer`, or why it is refused.

    `asked` is the question's (protocol, game, seat, after_seq), which the answer must echo;
    the answer must give every seat of `seats` and no other, as a model seat's must.
    """
    seat, after = asked[2], asked[3]
    if response.status_code != 200:
        return None, f"the agent answered HTTP {response.status_code}"
    if not is_signed(secret, response.content, response.signature):
        why = why_unsigned(secret, response.content, response.signature)
        return None, f"refused: the belief answer is not signed with seat {seat}'s secret: {why}"
    try:
        answer = BeliefAnswer.model_validate_json(response.content)
    except ValidationError as exc:
        return None, f"the answer is not a BeliefAnswer ({one_line(exc, default='body')})"
    echoed = (answer.protocol, answer.game_id, answer.seat, answer.after_seq)
    if echoed != asked:
        return None, (
            f"refused: the belief answer is for game {answer.game_id} seat {answer.seat} "
            f"after {answer.after_seq}, not seat {seat} after {after}"
        )
    error = check_beliefs(answer.wolf_probability, list(seats))
    if error is not None:
        return None, error
    return dict(answer.wolf_probability), None


def decision_record(
    name: str,
    request: DecisionRequest,
    attempt: int,
    started: float,
    outcome: Exchange | None,
    *,
    cut_off: bool = False,
) -> ModelCallRecord:
    """The trace of one decision's exchange (`outcome` None: the match cut it off)."""
    action = outcome.action if outcome is not None else None
    body = outcome.body if outcome is not None else None
    return ModelCallRecord(
        seat=request.seat,
        step=request.step,
        attempt=attempt,
        model=name,
        prompt_id=PROTOCOL,
        messages=(),
        tools=None,
        reply=ModelReply(text=body) if body is not None else None,
        parsed_action=action.model_dump(mode="json") if action is not None else None,
        error=outcome.error if outcome is not None else CUT_OFF,
        latency_ms=(time.monotonic() - started) * 1000,
        notes=outcome.notes if outcome is not None else (),
        cut_off=cut_off,
    )


def belief_record(
    name: str, seat: int, started: float, estimate: Estimate | None, *, cut_off: bool = False
) -> ModelCallRecord:
    """The trace of one belief question's exchange (`estimate` None: cut off)."""
    error = estimate.error if estimate is not None else CUT_OFF
    body = estimate.body if estimate is not None else None
    answered = estimate is not None and estimate.wolf_probability is not None
    return ModelCallRecord(
        seat=seat,
        step=BELIEF_STEP,
        attempt=1,
        model=name,
        prompt_id=PROTOCOL,
        messages=(),
        tools=None,
        reply=ModelReply(text=body) if body is not None else None,
        parsed_action={"beliefs": True} if answered else None,
        error=error,
        latency_ms=(time.monotonic() - started) * 1000,
        notes=estimate.faults if estimate is not None else (),
        cut_off=cut_off,
    )
