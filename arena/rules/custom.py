"""A custom board from its written form (docs/boards.md).

The form is a mapping of id, names, role counts, win, preset, settings and an optional
night order. Pure: the mapping comes from a YAML file read elsewhere (`arena.board_file`).
Every mistake is a `ConfigError` of one line naming the field, e.g. `roles: unknown role
'seeer'; did you mean 'seer'?`; the reader puts the file's name in front.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, cast, get_args

from arena.rules.boards import BOARDS, Board, NightStep, PresetName, WinMode
from arena.rules.composition import check_board, default_orders, suggest
from arena.rules.config import PRESETS, RuleSet, resolve_rules
from arena.rules.errors import ConfigError
from arena.rules.roles import ROLES
from arena.rules.types import Role

FIELDS = (
    "id",
    "zh",
    "en",
    "roles",
    "win",
    "preset",
    "settings",
    "night_order",
    "first_night_order",
    "source",
)
"""The fields of a board file, in the order docs/boards.md describes them."""
BOARD_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
NOT_SETTINGS = ("win",)
"""Knobs a board sets with its own field (`win:`), not under `settings:`."""
_BY_NAME: dict[str, Role] = {spec.zh: role for role, spec in ROLES.items()}


def parse_board(data: Mapping[str, Any]) -> Board:
    """The `Board` a board file describes, checked (`check_board`) and with its rules resolved.

    Raises:
        ConfigError: one line naming the field and the problem.
    """
    for name in data:
        if name not in FIELDS:
            raise ConfigError(f"unknown field {name!r}{suggest(str(name), FIELDS)}")
    board_id = _id(data.get("id"))
    roles = _roles(data.get("roles"))
    names = [_text(data, "zh"), _text(data, "en")]
    zh = names[0] or names[1] or board_id
    en = names[1] or names[0] or board_id
    win = _choice(data, "win", get_args(WinMode), "side")
    preset = _choice(data, "preset", tuple(PRESETS), "tournament")
    settings = _settings(data.get("settings"))
    later, first = default_orders(roles)
    if "night_order" in data:
        later = _steps("night_order", data["night_order"])
        first = None
    if "first_night_order" in data:
        first = _steps("first_night_order", data["first_night_order"])
    board = Board(
        id=board_id,
        zh=zh,
        en=en,
        roles=roles,
        win=cast(WinMode, win),
        preset=cast(PresetName, preset),
        night_order=later,
        source=_text(data, "source") or "custom board",
        first_night_order=first,
        settings=settings,
    )
    check_board(board)
    check_settings(board)
    return board


def check_settings(board: Board) -> None:
    """Refuse settings the rules reject (an unknown knob, a value of the wrong kind).

    Raises:
        ConfigError: `settings.KNOB: …`, one line.
    """
    try:
        resolve_rules(board, board.preset)
    except ConfigError as exc:
        message = str(exc).removeprefix("rules knob ").removeprefix("rules: ")
        raise ConfigError(f"settings.{message}") from None


def _id(value: object) -> str:
    if value is None:
        raise ConfigError("id: missing; name the board, e.g. id: my_board")
    if not isinstance(value, str) or not BOARD_ID.match(value):
        raise ConfigError(
            f"id: {value!r} is not a board id; use 1-40 lowercase letters, digits, '_' or '-'"
        )
    if value in BOARDS:
        raise ConfigError(f"id: {value!r} is a built-in board's id; choose another")
    return value


def _text(data: Mapping[str, Any], name: str) -> str:
    value = data.get(name)
    if value is None:
        return ""
    if not isinstance(value, str) or not value.strip() or "\n" in value:
        raise ConfigError(f"{name}: expects one line of text")
    return value.strip()


def _choice(data: Mapping[str, Any], name: str, known: tuple[str, ...], default: str) -> str:
    value = data.get(name, default)
    if value not in known:
        raise ConfigError(f"{name}: {value!r} is not one of {', '.join(known)}")
    return str(value)


def _roles(value: object) -> tuple[Role, ...]:
    """The cards, in `Role` order: the file's order of roles never changes a deal."""
    if value is None:
        raise ConfigError("roles: missing; map each role to its count, e.g. roles: {seer: 1, …}")
    if not isinstance(value, Mapping) or not value:
        raise ConfigError("roles: map each role to its count, e.g. roles: {seer: 1, werewolf: 3}")
    counts: dict[Role, int] = {}
    ids = [r.value for r in Role]
    for name, count in value.items():
        role = _role(str(name), ids)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ConfigError(f"roles.{name}: a count is a whole number from 1 up, got {count!r}")
        if role in counts:
            raise ConfigError(f"roles: {role.value} is listed twice")
        counts[role] = count
    return tuple(role for role in Role for _ in range(counts.get(role, 0)))


def _role(name: str, ids: list[str]) -> Role:
    if name in ids:
        return Role(name)
    if name in _BY_NAME:
        return _BY_NAME[name]
    raise ConfigError(f"roles: unknown role {name!r}{suggest(name, ids)}")


def _settings(value: object) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ConfigError("settings: map rules knobs to values, e.g. settings: {sheriff: false}")
    knobs = [k for k in RuleSet.model_fields if k not in NOT_SETTINGS]
    for knob in value:
        if knob in NOT_SETTINGS:
            raise ConfigError(f"settings.{knob}: set it with the board's own {knob}: field")
        if knob not in knobs:
            raise ConfigError(f"settings: unknown setting {knob!r}{suggest(str(knob), knobs)}")
    return dict(value)


def _steps(name: str, value: object) -> tuple[NightStep, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{name}: a list of night steps, e.g. [guard, wolves, witch, seer]")
    known = get_args(NightStep)
    for step in value:
        if step not in known:
            raise ConfigError(f"{name}: unknown step {step!r}{suggest(step, known)}")
    return tuple(cast(NightStep, v) for v in value)
