"""One instance of every event kind for each value its closed fields can take.

Built from the event models' own annotations, so a new event kind, enum member or literal
value is covered without editing this file; free-text fields take the values below.
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel

from arena.rules import events as ev
from arena.rules.actions import CheckClaim, Claims
from arena.rules.boards import BOARDS
from arena.rules.custom import parse_board
from arena.rules.types import Role
from arena.rules.visibility import PUBLIC

SPEECH = {"zh": "我是好人，請相信我", "en": "I am good, trust me"}
"""Player text in each language (it is the player's words, shown as written)."""

END_REASONS = (
    "every wolf is dead",
    "the wolves killed every god or every villager",
    "the wolves took the town",
    "the knife landed first (狼刀在先)",
    "only the lovers and their side are left",
    "no winner after 30 days",
)
"""Every game-end reason the referee writes."""

DEFAULT_REASONS = (
    "game time limit reached",
    "after 3 tries: no action in the reply",
    "after 3 tries: no answer within 60 s",
)
"""The match runner's own default reasons (other feedback quotes an error verbatim)."""

CLAIMS = Claims(
    role=Role.SEER,
    checks=(CheckClaim(seat=4, is_wolf=True), CheckClaim(seat=5, is_wolf=False)),
    suspects=(6,),
    trusts=(7,),
)


def event_kinds() -> tuple[type[BaseModel], ...]:
    """Every member of the `Event` union."""
    return typing.get_args(typing.get_args(ev.Event)[0])


def samples(kind: type[BaseModel], lang: str) -> Iterator[BaseModel]:
    """Instances of `kind`: a base one, then one per value of each closed or text field."""
    field = f"{kind.__name__}.{{}}"
    base = {n: _values(field.format(n), f.annotation, lang)[0] for n, f in _fields(kind)}
    yield kind(visibility=PUBLIC, **base)
    for name, info in _fields(kind):
        for value in _values(field.format(name), info.annotation, lang)[1:]:
            yield kind(visibility=PUBLIC, **{**base, name: value})


def _fields(kind: type[BaseModel]) -> list[tuple[str, Any]]:
    return [(n, f) for n, f in kind.model_fields.items() if n not in ("kind", "visibility")]


CUSTOM_BOARD = parse_board(
    {
        "id": "sample_custom",
        "zh": "自訂樣板局",
        "en": "Sample custom board",
        "roles": {"seer": 1, "witch": 1, "villager": 3, "werewolf": 2},
        "win": "city",
    }
)
"""A custom board, carried whole by `GameStarted.board`."""


def _values(name: str, annotation: Any, lang: str) -> list[Any]:  # noqa: C901 - a type table
    if name == "GameStarted.board":
        return [*BOARDS, CUSTOM_BOARD]
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Literal:
        return list(args)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return [*_values(name, inner[0], lang), None]
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return list(annotation)
    if annotation is bool:
        return [True, False]
    if annotation is int:
        return [3]
    if annotation is float:
        return [1.0, 1.5]
    if annotation is str:
        return list(_texts(name, lang))
    if annotation is Claims:
        return [Claims(), CLAIMS]
    if origin is tuple:
        return _tuples(name, args, lang)
    if origin is dict:
        return [{Role.WEREWOLF: 3, Role.VILLAGER: 3}]
    raise TypeError(f"no sample values for {name}: {annotation!r}")


def _tuples(name: str, args: tuple[Any, ...], lang: str) -> list[Any]:
    if args[-1] is Ellipsis:
        item = args[0]
        if typing.get_origin(item) is tuple:
            return [((2, 3.0), (5, 1.5)), ()]
        if item is int:
            return [(2, 5), ()]
        return [tuple(_values(name, item, lang))]
    return [tuple(_values(name, a, lang)[0] for a in args)]


def _texts(name: str, lang: str) -> tuple[str, ...]:
    match name:
        case "Spoke.text" | "WolfWhispered.text":
            return (SPEECH[lang], "")
        case "GameEnded.reason":
            return END_REASONS
        case "ActionDefaulted.reason":
            return DEFAULT_REASONS
    raise TypeError(f"no sample texts for the field {name!r}")
