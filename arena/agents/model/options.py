"""The legal options of a request written out in words, one line per option.

The question a model seat reads lists each legal answer in the `act` tool's shape with
its legal seats, e.g. `- {"action": "vote", "target": 3|5|7} — vote to exile`, then
what it means (`prompts/<version>/<lang>/tools.yaml`). A text's place says what to write
there, in angle brackets and unquoted (`"text": <your speech in your own words: …>`): a
quoted placeholder such as `"…"` is what small models copy as their whole speech. The
shapes are derived from the referee's action models as the tool's are
(`arena.agents.model.tools`).
"""

from __future__ import annotations

import json
import typing
from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from arena.agents.model.library import ToolTexts
from arena.agents.model.tools import is_seat, item_counts, reported_fields
from arena.rules.actions import Claims, action_models
from arena.rules.decisions import ActionOption, DecisionRequest
from arena.rules.types import Role


def example(
    option: ActionOption, seats_hint: str, texts: ToolTexts, roles: Sequence[Role] = ()
) -> str:
    """One legal answer shape written out, e.g. `{"action": "vote", "target": 3|5|7}`.

    `roles` are the board's, which decide what a reported check may tell.
    """
    model = action_models()[option.action]
    parts = [f'"action": "{option.action}"']
    for name, field in model.model_fields.items():
        if name == "kind":
            continue
        if field.annotation is Claims:
            parts += [
                '"claimed_role": null|"<role>"',
                f'"claimed_checks": [{{"seat": N, "result": "wolf"|"good"{_told(roles)}}}]',
                '"suspects": [N, …]',
                '"trusts": [N, …]',
            ]
        elif name == "text":
            parts.append(f'"text": {texts.text_slot(option.action)}{_limit(option, texts)}')
        elif typing.get_origin(field.annotation) is tuple:
            counts = item_counts(field)
            least, most = counts.get("minItems", 0), counts.get("maxItems")
            many = f", {seats_hint}" * (most - 1) if most else ", …"
            fewer = most is not None and most > 1 and least < most
            parts.append(f'"{name}": [{seats_hint}{many}]' + (" (or fewer)" if fewer else ""))
        elif is_seat(field.annotation):
            optional = not option.target_required and _optional(field.annotation)
            hint = seats_hint if option.targets else "null"
            parts.append(f'"{name}": {hint}{"|null" if optional and option.targets else ""}')
        else:
            values = _enum_values(field.annotation)
            parts.append(f'"{name}": ' + "|".join(json.dumps(v) for v in values))
    return "{" + ", ".join(parts) + "}"


def _limit(option: ActionOption, texts: ToolTexts) -> str:
    if option.max_chars is None:
        return ""
    return " " + texts.field("text_limit").format(n=option.max_chars)


def _optional(annotation: Any) -> bool:
    return type(None) in typing.get_args(annotation)


def _enum_values(annotation: Any) -> list[str]:
    inner = next((a for a in typing.get_args(annotation) if a is not type(None)), annotation)
    return (
        [v.value for v in inner] if isinstance(inner, type) and issubclass(inner, StrEnum) else []
    )


def _told(roles: Sequence[Role]) -> str:
    """The extra fields of a reported check, written out for the question."""
    told = reported_fields(roles)
    return (', "role": null|"<role>"' if "role" in told else "") + (
        ', "acted": null|true|false' if "acted" in told else ""
    )


def options_text(
    request: DecisionRequest, texts: ToolTexts, seat_list: str, roles: Sequence[Role] = ()
) -> list[str]:
    """One line per legal option: the answer to give and what it means here."""
    lines = []
    for option in request.options:
        hint = "|".join(str(s) for s in option.targets) if option.targets else ""
        shape = example(option, hint or seat_list, texts, roles)
        lines.append(f"- {shape} — {texts.action(option.action, request.kind)}")
    return lines
