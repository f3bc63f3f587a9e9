"""The `act` answer shapes of the remote protocol's published schema (`protocol.json`).

A remote agent answers a decision in the model seats' `act` shapes, read by the same
parser, so the schema's `Act` is built from the model tool (`arena.agents.model.tools`)
for a table of any size and every role: the tool's seat enums become any seat number, a
claimed check needs only its seat and result, and a vote's report takes both the keyed
shape of revision 4 and the rows of revisions 0-3 (`VOTE_REPORT`).
"""

from __future__ import annotations

from typing import Any

from arena.rules.actions import action_models
from arena.rules.types import Role

_SEATS = 99
"""A table size no board reaches: seat enums of this length become any seat number."""


def act_schema() -> dict[str, Any]:
    """The answer shapes of the model seats' `act` tool, seats unbounded, all roles.

    What is legal for one decision is in its `request.options`; the referee checks it.
    """
    from arena.agents.model.library import load_library
    from arena.agents.model.tools import ANSWER, BELIEF_ACTION, BELIEF_FIELD, answer_tool

    texts = load_library("en").tools
    tool = answer_tool(_SEATS, list(Role), texts)
    shapes = tool.parameters["properties"][ANSWER]["anyOf"]
    models = action_models()
    actions = []
    for shape in shapes:
        (kind,) = shape["properties"]["action"]["enum"]
        if kind == BELIEF_ACTION:
            continue
        fields = models[kind].model_fields
        needed = [n for n, f in fields.items() if n != "kind" and f.is_required()]
        if BELIEF_FIELD in shape["properties"]:
            shape["properties"][BELIEF_FIELD] = VOTE_REPORT
        actions.append(_needs_only(_any_seat(shape)) | {"required": ["action", *needed]})
    return {
        "description": (
            "One action, in the shapes of the model seats' `act` tool (the tool lists every "
            "field as required for strict function calling; here only what the action "
            "needs is, and a missing optional field means none)."
        ),
        "anyOf": actions,
    }


VOTE_REPORT: dict[str, Any] = {
    "description": (
        "Optional, with a vote: your private wolf probability by seat number, "
        '{"3": 0.7, …} (revision 4), or as rows [{"seat": 3, "p": 0.7}, …]; null or '
        "absent when not asked."
    ),
    "anyOf": [
        {
            "type": "object",
            "patternProperties": {"^[1-9][0-9]*$": {"type": ["number", "null"]}},
            "additionalProperties": False,
        },
        {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"seat": {"type": "integer", "minimum": 1}, "p": {"type": "number"}},
                "required": ["seat", "p"],
                "additionalProperties": False,
            },
        },
        {"type": "null"},
    ],
}
"""A vote's report in the published schema: the model tool's keyed shape for any table
(its own lists every seat of one), and the rows of revisions 0-3."""


CHECK_NEEDS = ["seat", "result"]
"""What a claimed check needs: its `role` and `acted` are optional (none when absent), as
the parser reads them (the tool lists every field as required for strict calling)."""


def _needs_only(shape: dict[str, Any]) -> dict[str, Any]:
    """`shape` with a claimed check's items requiring `CHECK_NEEDS` alone."""
    checks = shape.get("properties", {}).get("claimed_checks")
    if isinstance(checks, dict) and isinstance(checks.get("items"), dict):
        checks["items"]["required"] = CHECK_NEEDS
    return shape


def _any_seat(node: Any) -> Any:
    """`node` with every `1…_SEATS` enum replaced by any seat number (1 or more)."""
    if isinstance(node, dict):
        if node.get("enum") == list(range(1, _SEATS + 1)):
            return {k: v for k, v in node.items() if k != "enum"} | {"minimum": 1}
        return {k: _any_seat(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_any_seat(v) for v in node]
    return node
