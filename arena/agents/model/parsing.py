"""A model's answer becomes an action: lenient about form, never about meaning.

This is the parse step of parse → check → apply. It forgives what real servers and small
models do to well-meant JSON and nothing else:

- raw newlines and tabs inside strings (llama.cpp's grammar lets them through; strict
  `json.loads` refuses them), a code fence or prose around the object;
- numbers written as strings (`"3"`, `"#3"`, `"3号"`, `"0.7"`, `"70%"`) where the action
  wants a number (a seat, a probability), and only there: a speech `"3號"` or `"70%"` is
  words, and a number given for words is written as words;
- a shape that is not wrapped in `answer`, a missing optional field, an unknown extra key;
- a seat repeated in a claim list, and a claimed check repeated word for word (said once;
  a seat reported with two results is the referee's refusal, `checks_conflict`);
- a speech longer than its limit, which is cut at the limit (the seeds' speech time limit
  cuts a speaker off in the same way) and noted.

Whether the answer is legal — the action offered now, the seat a legal target — is the
referee's `check_legal`, in one place; a well-formed but illegal answer passes here.
"""

from __future__ import annotations

import json
import re
import typing
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from arena.agents.model.tools import ANSWER, BELIEF_ACTION, BELIEF_FIELD
from arena.errors import one_line
from arena.rules.actions import ACTION_ADAPTER, Action, action_models
from arena.rules.decisions import DecisionRequest
from arena.rules.errors import InvalidActionError
from arena.rules.types import SeatId

_FENCE = re.compile(r"^\s*```(?:json)?\s*|\s*```\s*$", re.IGNORECASE)
_NUMBER = re.compile(
    r"^\s*(?:seat|座位|#|No\.?)?\s*#?(-?\d+(?:\.\d+)?)\s*(%|号|號|號位)?\s*$", re.I
)


@dataclass(frozen=True, slots=True)
class Parsed:
    """What an answer said: an action, and a belief report when one came with it."""

    action: Action | None
    beliefs: dict[SeatId, float] | None = None
    belief_error: str | None = None
    """Why a belief report that came with the answer was not usable."""
    notes: tuple[str, ...] = ()
    """What was forgiven (a speech cut to its limit)."""


def loads_lenient(text: str) -> Any:
    """The first JSON value in `text`, forgiving control characters, fences and prose.

    Raises:
        InvalidActionError: no JSON value can be read from `text`.
    """
    body = _FENCE.sub("", text or "").strip() or "{}"
    decoder = json.JSONDecoder(strict=False)
    try:
        return decoder.decode(body)
    except json.JSONDecodeError as exc:
        error = exc
    start = body.find("{")
    if start != -1:
        try:
            value, _ = decoder.raw_decode(body, start)
            return value
        except json.JSONDecodeError:
            pass
    # An object cut off mid-way is closed before any later "{" is tried: those may be
    # objects nested in it (a claimed check), which would lose the answer around them.
    repaired = _closed(body)
    if repaired is not None:
        return repaired
    start = body.find("{", start + 1) if start != -1 else -1
    while start != -1:
        try:
            value, _ = decoder.raw_decode(body, start)
            return value
        except json.JSONDecodeError:
            start = body.find("{", start + 1)
    raise InvalidActionError(f"the answer is not valid JSON ({error.msg} at char {error.pos})")


def _closed(text: str) -> Any:
    """An object cut off mid-way (a reply stopped by `max_tokens`), closed where it stopped.

    A speech cut short is what the seeds' speech time limit does to a speaker, so the
    words up to the cut stand; an object cut off inside a list (a claimed check whose
    verdict was never written) is left out of it; anything that does not close cleanly
    stays an error.
    """
    start = text.find("{")
    if start == -1:
        return None
    stack: list[tuple[str, int]] = []
    in_string = escaped = False
    for at, ch in enumerate(text[start:]):
        if in_string:
            escaped = not escaped and ch == "\\"
            in_string = escaped or ch != '"'
            continue
        if ch == '"':
            in_string = True
        elif ch in "{[":
            stack.append(("}" if ch == "{" else "]", at))
        elif ch in "}]" and stack:
            stack.pop()
    if not stack:
        return None
    body = text[start:].rstrip()
    if len(stack) >= 2 and stack[-1][0] == "}" and stack[-2][0] == "]":
        body, in_string = body[: stack[-1][1]].rstrip().rstrip(","), False
        stack.pop()
    if in_string:
        body = body.rstrip("\\") + '"'
    body = re.sub(r',\s*("[^"]*"\s*:?\s*)?$', "", body)
    try:
        return json.JSONDecoder(strict=False).decode(body + "".join(c for c, _ in reversed(stack)))
    except json.JSONDecodeError:
        return None


def parse_answer(raw: str, request: DecisionRequest | None) -> Parsed:
    """The action (and beliefs) in the raw arguments of an `act` call or a JSON text answer.

    Args:
        raw: the tool call's argument text, or the text that holds the JSON object.
        request: the request being answered (its text limits); None for a belief question.

    Raises:
        InvalidActionError: not JSON, no `action`, or fields that do not fit the action
            (the message names the field).
    """
    return read_act(loads_lenient(raw), request)


def read_act(value: object, request: DecisionRequest | None) -> Parsed:
    """The action (and beliefs) in one `act` answer, as JSON decoded it.

    The `act` answer's one reader: a model seat's text goes through `parse_answer` to
    here, and a remote agent's `Answer.answer` (already JSON) comes here directly, so the
    two can never read one answer apart.

    Raises:
        InvalidActionError: no `action`, or fields that do not fit the action.
    """
    shape = _unwrap(value)
    kind = shape.get("action", shape.get("kind"))
    if not isinstance(kind, str) or not kind:
        raise InvalidActionError('the answer has no "action"; give one of the legal answers')
    kind = kind.strip().lower()
    beliefs, belief_error = _beliefs_of(shape)
    if kind == BELIEF_ACTION:
        if belief_error is not None:
            raise InvalidActionError(belief_error)
        return Parsed(action=None, beliefs=beliefs)
    payload, notes = _payload(kind, shape, request)
    try:
        action = ACTION_ADAPTER.validate_python(payload)
    except ValidationError as exc:
        raise InvalidActionError(_first_error(kind, exc)) from None
    return Parsed(action=action, beliefs=beliefs, belief_error=belief_error, notes=notes)


def check_beliefs(beliefs: dict[SeatId, float] | None, seats: list[SeatId]) -> str | None:
    """Why `beliefs` do not cover exactly `seats` with probabilities, or None when they do."""
    if beliefs is None:
        return f"{BELIEF_FIELD} is missing"
    missing = sorted(set(seats) - set(beliefs))
    unknown = sorted(set(beliefs) - set(seats))
    if missing or unknown:
        return (
            f"{BELIEF_FIELD} must give seats {', '.join(map(str, seats))} exactly "
            f"(missing {missing or 'none'}, unknown {unknown or 'none'})"
        )
    return None


def _unwrap(value: Any) -> dict[str, Any]:
    if isinstance(value, dict) and isinstance(value.get(ANSWER), dict):
        return dict(value[ANSWER])
    if isinstance(value, dict) and len(value) == 1:
        (inner,) = value.values()
        if isinstance(inner, dict) and ("action" in inner or "kind" in inner):
            return dict(inner)
    if isinstance(value, dict):
        return dict(value)
    raise InvalidActionError("the answer must be a JSON object")


def _payload(
    kind: str, shape: dict[str, Any], request: DecisionRequest | None
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The action model's fields from the flat shape (claims folded back, numbers read)."""
    model = action_models().get(kind)
    if model is None:
        raise InvalidActionError(f"unknown action {kind!r}")
    payload: dict[str, Any] = {"kind": kind}
    notes: list[str] = []
    for name in model.model_fields:
        if name == "kind":
            continue
        if name == "claims":
            payload["claims"] = _claims(shape)
        elif name in shape and shape[name] is not None:
            payload[name] = _as_field(model.model_fields[name].annotation, shape[name])
    text = payload.get("text")
    limit = _limit(kind, request)
    if isinstance(text, str) and limit is not None and len(text) > limit:
        payload["text"] = text[:limit]
        notes.append(f"text cut from {len(text)} to {limit} characters")
    return payload, tuple(notes)


def _claims(shape: dict[str, Any]) -> dict[str, Any]:
    checks = shape.get("claimed_checks") or []
    if not isinstance(checks, list) or not all(isinstance(c, dict) for c in checks):
        raise InvalidActionError("speak: claimed_checks must be a list of objects")
    rows = []
    for check in checks:
        result = str(check.get("result", "")).strip().lower()
        if result not in ("wolf", "good"):
            raise InvalidActionError("speak: a claimed check's result must be 'wolf' or 'good'")
        row = {"seat": _number(check.get("seat")), "is_wolf": result == "wolf"}
        card, acted = check.get("role"), _flag(check.get("acted"))
        if isinstance(card, str) and card.strip():
            row["role"] = card.strip().lower()
        if acted is not None:
            row["acted"] = acted
        if row not in rows:  # a looping model repeats a check word for word: said once
            rows.append(row)
    role = shape.get("claimed_role")
    return {
        "role": role.strip().lower() if isinstance(role, str) and role.strip() else None,
        "checks": rows,
        "suspects": _unique(_number(shape.get("suspects") or [])),
        "trusts": _unique(_number(shape.get("trusts") or [])),
    }


def _as_field(annotation: Any, value: Any) -> Any:
    """`value` read as the field wants it: numbers from strings only where it wants numbers.

    A seat (`int`, a tuple of them, optional or not) reads `"3"`, `"3號"` as 3; a text
    field keeps `"3號"` and `"70%"` as written (a one-word speech is a speech) and takes a
    bare JSON number as its digits.
    """
    if _wants_number(annotation):
        return _number(value)
    if _wants_text(annotation) and isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return value


def _wants_number(annotation: Any) -> bool:
    """Whether a field of this type holds numbers (seats, probabilities), alone or in a tuple."""
    if annotation in (int, float):
        return True
    return any(_wants_number(arg) for arg in typing.get_args(annotation) if arg is not Ellipsis)


def _wants_text(annotation: Any) -> bool:
    return annotation is str or str in typing.get_args(annotation)


def _flag(value: Any) -> bool | None:
    """A reported watch's yes or no: a JSON boolean, or its spelling as a string (lenient)."""
    if isinstance(value, bool) or value is None:
        return value
    word = str(value).strip().lower()
    if word not in ("true", "false"):
        raise InvalidActionError("speak: a claimed check's acted must be true, false or null")
    return word == "true"


def _beliefs_of(shape: dict[str, Any]) -> tuple[dict[SeatId, float] | None, str | None]:
    """The report in an answer, by seat; None when there is none, or why it is malformed.

    Keyed by seat (`{"3": 0.7}`, the tool's shape; nulls for seats not asked are left
    out), or as rows `[{"seat": 3, "p": 0.7}]` (the shape of earlier releases, which a
    model may still write).
    """
    rows = shape.get(BELIEF_FIELD)
    if rows is None:
        return None, None
    if isinstance(rows, dict):
        rows = [{"seat": k, "p": v} for k, v in rows.items() if v is not None]
    if not isinstance(rows, list):
        return None, f'{BELIEF_FIELD} must be an object of seat: probability, {{"3": 0.7}}'
    table: dict[SeatId, float] = {}
    for row in rows:
        seat = _number(row.get("seat")) if isinstance(row, dict) else None
        p = _number(row.get("p", row.get("wolf_probability"))) if isinstance(row, dict) else None
        if isinstance(p, int) and not isinstance(p, bool):
            p = float(p)
        if not isinstance(seat, int) or not isinstance(p, float) or not 0 <= p <= 1:
            return None, f"{BELIEF_FIELD}: {row!r} is not a seat with a probability in [0, 1]"
        table[seat] = p
    return dict(sorted(table.items())), None


def _unique(values: Any) -> Any:
    """A seat list without repeats (a looping model may repeat the whole table)."""
    return list(dict.fromkeys(values)) if isinstance(values, list) else values


def _number(value: Any) -> Any:
    """`value` with numbers written as strings read as numbers (lists element-wise)."""
    if isinstance(value, list):
        return [_number(v) for v in value]
    if not isinstance(value, str):
        return value
    match = _NUMBER.match(value)
    if match is None:
        return value
    number, unit = match.group(1), match.group(2)
    if unit == "%":
        return float(number) / 100
    return float(number) if "." in number else int(number)


def _limit(kind: str, request: DecisionRequest | None) -> int | None:
    option = request.option(kind) if request is not None else None  # type: ignore[arg-type]
    return option.max_chars if option is not None else None


def _first_error(kind: str, exc: ValidationError) -> str:
    return f"{kind}: {one_line(exc, skip=1, default='arguments')}"
