"""The compact notation of scenario files: actions, deaths, phases and check points.

Scenario files are written by hand, so the common things have a short form:

- an answer is `"protect 7"`, `"pass"`, `"speak 我是預言家"`, `"choose_order descending"`,
  `"recommend_exile 3 5"`, `"swap 3 5"`, `"link 3 5"`, `"mist 2 5 9"`, `"trade 3 check"`, or
  just `7` where the key names one targeted action (`knife: 7` is `kill 7`); the full action
  mapping (`{kind: speak, text: …, claims: …}`) also works;
- a death is `"7 knife night 1"` (seat, cause, `night`/`day`, number);
- a phase is `"night 2"` or `"day 2"` (day 2 includes its sheriff election and morning);
- a check point is `"night 2"`, `"morning 2"`, `"exile 2"` or `"end"`; `"exile 2 or end"`
  accepts a game that ends first.
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple, cast

from pydantic import ValidationError

from arena.errors import clip, one_line
from arena.rules.actions import ACTION_ADAPTER, Action, ActionKind
from arena.rules.decisions import DecisionKind
from arena.rules.types import DeathCause

ACTION_KINDS: frozenset[str] = frozenset(ActionKind.__args__)  # type: ignore[attr-defined]
DECISION_KINDS: frozenset[str] = frozenset(k.value for k in DecisionKind)

_BARE = frozenset({"pass", "save", "run_for_sheriff", "withdraw", "tear_badge", "reveal"})
_TARGETED = frozenset(
    {"vote", "shoot", "pass_badge", "protect", "kill", "poison", "inspect"}
    | {"charm", "dream", "duel", "fear", "hunt", "block", "admire", "confuse", "mask"}
    | {"take_card"}
)
INTEGER_ANSWER: dict[str, str] = {
    "guard": "protect",
    "knife": "kill",
    "seer": "inspect",
    "identify": "inspect",
    "heal": "protect",
    "watch": "inspect",
    "autopsy": "inspect",
    "thief": "take_card",
    "vote": "vote",
    "sheriff_vote": "vote",
    "shoot": "shoot",
    "badge": "pass_badge",
    "fear": "fear",
    "claw": "kill",
    **{kind: kind for kind in _TARGETED | {"self_explode"}},
}
"""Keys whose answer may be a bare seat number, and the action that number is a target of."""

_PHASE = re.compile(r"^(night|day) ([1-9][0-9]*)$")
_POINT = re.compile(r"^(?:(night|morning|exile) ([1-9][0-9]*)( or end)?|end)$")
_DEATH = re.compile(r"^([1-9][0-9]*) ([a-z_]+) (night|day) ([1-9][0-9]*)$")


def parse_action(value: object, key: str) -> Action:
    """Parse one scripted answer given under `key` (a decision or action kind).

    Raises:
        ValueError: the answer is not an action, with a message naming what is wrong.
    """
    if isinstance(value, bool) or value is None:
        raise ValueError(f"{value!r} is not an answer")
    if isinstance(value, int):
        verb = INTEGER_ANSWER.get(key)
        if verb is None:
            raise ValueError(
                f"a bare seat number needs a key with one targeted action, not {key!r}"
            )
        return _validate({"kind": verb, "target": value})
    if isinstance(value, dict):
        return _validate(value)
    if isinstance(value, str):
        return _validate(_parse_text(value.strip()))
    raise ValueError(f"{value!r} is not an answer (use a string, a seat number or a mapping)")


def _parse_text(text: str) -> dict[str, object]:
    verb, _, rest = text.partition(" ")
    rest = rest.strip()
    if verb in ("speak", "whisper"):
        return {"kind": verb, "text": rest}
    args = rest.split()
    if verb in _BARE:
        _arity(verb, args, 0, 0)
        return {"kind": verb}
    if verb in _TARGETED:
        _arity(verb, args, 1, 1)
        return {"kind": verb, "target": _seat(args[0])}
    if verb == "self_explode":
        _arity(verb, args, 0, 1)
        return {"kind": verb, "target": _seat(args[0]) if args else None}
    if verb == "trade":
        _arity(verb, args, 2, 2)
        return {"kind": verb, "target": _seat(args[0]), "gift": args[1]}
    if verb in ("swap", "link"):
        _arity(verb, args, 2, 2)
        return {"kind": verb, "targets": [_seat(a) for a in args]}
    if verb == "recommend_exile":
        _arity(verb, args, 1, 2)
        return {"kind": verb, "targets": [_seat(a) for a in args]}
    if verb == "mist":
        _arity(verb, args, 3, 3)
        return {"kind": verb, "targets": [_seat(a) for a in args]}
    if verb == "choose_order":
        _arity(verb, args, 1, 2)
        start = _seat(args[1]) if len(args) > 1 else None
        return {"kind": verb, "direction": args[0], "start": start}
    raise ValueError(f"unknown action {verb!r}; known actions: {', '.join(sorted(ACTION_KINDS))}")


def _arity(verb: str, args: list[str], low: int, high: int) -> None:
    if not low <= len(args) <= high:
        wanted = str(low) if low == high else f"{low} to {high}"
        raise ValueError(f"{verb} takes {wanted} argument(s), got {len(args)}")


def _seat(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"{text!r} is not a seat number")
    return int(text)


def _validate(data: dict[str, object]) -> Action:
    try:
        return ACTION_ADAPTER.validate_python(data)
    except ValidationError as exc:
        raise ValueError(f"bad action {clip(repr(data))}: {one_line(exc)}") from None


def format_action(action: Action) -> str:
    """An action in the compact notation (for messages)."""
    data = action.model_dump(exclude_defaults=True, exclude={"kind"})
    parts: list[str] = [action.kind]
    for value in data.values():
        if isinstance(value, list | tuple):
            parts.extend(str(v) for v in value)
        elif isinstance(value, str | int):
            parts.append(str(value))
    return " ".join(parts)


def parse_phase(text: str) -> str:
    """Check a phase label (`night N` / `day N`) and return it.

    Raises:
        ValueError: not a phase label.
    """
    if not _PHASE.match(text):
        raise ValueError(f"{text!r} is not a phase; write 'night N' or 'day N'")
    return text


def phase_key(label: str) -> tuple[int, int]:
    """Sort key of a phase label: night N comes before day N."""
    match = _PHASE.match(label)
    if match is None:
        return (0, 0)
    return (int(match.group(2)), 0 if match.group(1) == "night" else 1)


class CheckPoint(NamedTuple):
    """Where the expectations are checked."""

    kind: Literal["night", "morning", "exile", "end"]
    day: int
    """The night or day number (0 for `end`)."""
    or_end: bool = False
    """`exile 2 or end`: the game may end before the point; the check is then at the end."""

    @property
    def phase(self) -> str | None:
        """The phase label the point lies in (None for `end`)."""
        if self.kind == "end":
            return None
        return f"{'night' if self.kind == 'night' else 'day'} {self.day}"

    def __str__(self) -> str:
        if self.kind == "end":
            return "end"
        return f"{self.kind} {self.day}{' or end' if self.or_end else ''}"


def parse_point(text: str) -> CheckPoint:
    """Parse `night N`, `morning N`, `exile N` (each optionally `… or end`) or `end`.

    Raises:
        ValueError: not a check point.
    """
    match = _POINT.match(text.strip())
    if match is None:
        raise ValueError(
            f"{text!r} is not a check point; write night N, morning N, exile N (optionally "
            "followed by 'or end') or end"
        )
    if match.group(1) is None:
        return CheckPoint("end", 0)
    kind = cast(Literal["night", "morning", "exile"], match.group(1))
    return CheckPoint(kind, int(match.group(2)), match.group(3) is not None)


class Death(NamedTuple):
    """An expected or observed death."""

    seat: int
    cause: DeathCause
    at_night: bool
    day: int

    def __str__(self) -> str:
        return f"{self.seat} {self.cause} {'night' if self.at_night else 'day'} {self.day}"


def parse_death(text: str) -> Death:
    """Parse `"7 knife night 1"`.

    Raises:
        ValueError: not a death.
    """
    match = _DEATH.match(text.strip())
    if match is None:
        raise ValueError(f"{text!r} is not a death; write 'SEAT CAUSE night|day N'")
    seat, cause, when, day = match.groups()
    try:
        why = DeathCause(cause)
    except ValueError:
        known = ", ".join(c.value for c in DeathCause)
        raise ValueError(f"unknown cause of death {cause!r}; known causes: {known}") from None
    return Death(int(seat), why, when == "night", int(day))
