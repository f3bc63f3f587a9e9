"""Legal options become tools, and a tool call becomes an action.

`legal_tools` turns a `DecisionRequest` into one tool per legal option: a tool that is
not legal now is absent, and every seat parameter is an enum of the seats legal for it,
so a well-formed call is almost always a legal action. Schemas are written for strict
function calling (every property required, no extra properties, optional values
nullable); the same schema serves non-strict tools and the JSON answer modes.

`parse_tool_call` is the parse step of parse → check → apply: it raises
`InvalidActionError` for malformed JSON or arguments outside the schema. Legality (a seat
outside the enum, a kind not offered) is the runner's `check_legal`, in one place.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from arena.llm.types import ToolCall, ToolSpec
from arena.rules.actions import ACTION_ADAPTER, Action, ActionKind
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest
from arena.rules.errors import InvalidActionError
from arena.rules.observation import Knowledge
from arena.rules.types import Direction, Role, SeatId

TOOL_NAMES: dict[ActionKind, str] = {"choose_order": "choose_speech_direction"}
"""Tool names that differ from the action kind (the rest are the kind itself)."""
ACTION_KINDS: dict[str, ActionKind] = {name: kind for kind, name in TOOL_NAMES.items()}
BELIEF_TOOL = "report_belief"

_TARGETED = frozenset(
    {"vote", "shoot", "pass_badge", "protect", "kill", "poison", "inspect", "self_explode"}
    | {"charm", "dream", "duel", "fear"}
)
"""Actions with a `target` seat; `save` lists the knife target only as information."""

Schema = dict[str, Any]


@dataclass(frozen=True, slots=True)
class ToolTexts:
    """The words of the tools, in one language (loaded from `prompts/<version>/<lang>/`)."""

    actions: Mapping[str, str]
    """Tool descriptions by action kind, or by `kind.decision` where the decision matters
    (`pass.vote` abstains, `pass.run_for_sheriff` stays out of the race)."""
    fields: Mapping[str, str]
    """Parameter descriptions by field key (`speech_text`, `target`, `belief`, …)."""

    def action(self, kind: ActionKind, decision: DecisionKind) -> str:
        """The description of the tool for `kind` when deciding `decision`."""
        return self.actions.get(f"{kind}.{decision}") or self.actions[kind]

    def field(self, key: str) -> str:
        """The description of parameter `key`."""
        return self.fields[key]


def tool_name(kind: ActionKind) -> str:
    """The tool that performs `kind`."""
    return TOOL_NAMES.get(kind, kind)


def legal_tools(
    request: DecisionRequest, knowledge: Knowledge, texts: ToolTexts
) -> tuple[ToolSpec, ...]:
    """One tool per legal option of `request`, in the request's order.

    `knowledge` gives the seats and the board's roles, which the structured claims of a
    speech may name (a claim may name any seat, even a dead one; only targets are limited).
    """
    return tuple(
        ToolSpec(
            name=tool_name(option.action),
            description=texts.action(option.action, request.kind),
            parameters=_object(_parameters(option, knowledge, texts)),
        )
        for option in request.options
    )


def _parameters(option: ActionOption, knowledge: Knowledge, texts: ToolTexts) -> dict[str, Schema]:
    targets = list(option.targets)
    match option.action:
        case "speak":
            return _speech(option.max_chars, knowledge, texts)
        case "whisper":
            return {"text": _text(option.max_chars, texts.field("whisper_text"))}
        case "choose_order":
            params: dict[str, Schema] = {
                "direction": {
                    "type": "string",
                    "enum": [d.value for d in Direction],
                    "description": texts.field("direction"),
                }
            }
            if targets:
                params["start"] = _seats(targets, texts.field("start"))
            return params
        case "recommend_exile":
            return {
                "targets": {
                    "type": "array",
                    "items": {"type": "integer", "enum": targets},
                    "minItems": 1,
                    "maxItems": 2,
                    "description": texts.field("recommend"),
                }
            }
        case "self_explode" if targets and not option.target_required:
            return {"target": _nullable(_seats(targets, texts.field("take")))}
    if targets and option.action in _TARGETED:
        return {"target": _seats(targets, texts.field("target"))}
    return {}


def _speech(max_chars: int | None, knowledge: Knowledge, texts: ToolTexts) -> dict[str, Schema]:
    seats = list(range(1, knowledge.seats + 1))
    roles = [r.value for r in knowledge.role_counts] or [r.value for r in Role]
    check = _object(
        {
            "seat": _seats(seats, texts.field("check_seat")),
            "result": {"type": "string", "enum": ["wolf", "good"]},
        }
    )
    return {
        "text": _text(max_chars, texts.field("speech_text")),
        "claimed_role": {
            "type": ["string", "null"],
            "enum": [*roles, None],
            "description": texts.field("claimed_role"),
        },
        "claimed_checks": {
            "type": "array",
            "items": check,
            "description": texts.field("claimed_checks"),
        },
        "suspects": {
            "type": "array",
            "items": {"type": "integer", "enum": seats},
            "description": texts.field("suspects"),
        },
        "trusts": {
            "type": "array",
            "items": {"type": "integer", "enum": seats},
            "description": texts.field("trusts"),
        },
    }


def belief_tool(seats: Sequence[SeatId], texts: ToolTexts) -> ToolSpec:
    """The private `report_belief` tool: a wolf probability for each of `seats`."""
    probability = {"type": "number", "minimum": 0, "maximum": 1}
    return ToolSpec(
        name=BELIEF_TOOL,
        description=texts.field("belief"),
        parameters=_object(
            {
                "wolf_probability": _object({str(s): dict(probability) for s in seats}),
            }
        ),
    )


def parse_tool_call(call: ToolCall) -> Action:
    """The action a tool call asks for.

    Raises:
        InvalidActionError: unknown tool, arguments that are not a JSON object, or
            arguments that do not fit the action (the message names the field).
    """
    kind = ACTION_KINDS.get(call.name, call.name)
    arguments = _arguments(call)
    if kind == "speak":
        payload = _speech_action(arguments, call.name)
    else:
        payload = {k: v for k, v in arguments.items() if v is not None}
    try:
        return ACTION_ADAPTER.validate_python({**payload, "kind": kind})
    except ValidationError as exc:
        raise InvalidActionError(_first_error(call.name, exc)) from None


def parse_belief(call: ToolCall, seats: Iterable[SeatId]) -> dict[SeatId, float]:
    """The wolf probabilities of a `report_belief` call, one for each of `seats`.

    Raises:
        InvalidActionError: another tool, malformed JSON, a missing or unknown seat, or a
            value that is not a number in [0, 1].
    """
    if call.name != BELIEF_TOOL:
        raise InvalidActionError(f"expected a call of {BELIEF_TOOL}, got {call.name!r}")
    table = _arguments(call).get("wolf_probability")
    if not isinstance(table, dict):
        raise InvalidActionError(f"{BELIEF_TOOL}: wolf_probability must be an object")
    wanted = {str(s): s for s in seats}
    unknown = sorted(set(table) - set(wanted))
    missing = sorted(set(wanted) - set(table), key=int)
    if unknown or missing:
        raise InvalidActionError(
            f"{BELIEF_TOOL}: seats must be exactly {', '.join(wanted)}"
            f" (missing {missing or 'none'}, unknown {unknown or 'none'})"
        )
    out: dict[SeatId, float] = {}
    for key, value in table.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
            raise InvalidActionError(f"{BELIEF_TOOL}: seat {key}: {value!r} is not in [0, 1]")
        out[wanted[key]] = float(value)
    return dict(sorted(out.items()))


def _arguments(call: ToolCall) -> dict[str, Any]:
    try:
        value = json.loads(call.arguments or "{}")
    except json.JSONDecodeError as exc:
        raise InvalidActionError(
            f"the arguments of {call.name} are not valid JSON ({exc.msg} at char {exc.pos})"
        ) from None
    if not isinstance(value, dict):
        raise InvalidActionError(f"the arguments of {call.name} must be a JSON object")
    return value


_SPEECH_KEYS = {"text", "claimed_role", "claimed_checks", "suspects", "trusts"}


def _speech_action(arguments: dict[str, Any], name: str) -> dict[str, Any]:
    unknown = sorted(set(arguments) - _SPEECH_KEYS)
    if unknown:
        raise InvalidActionError(f"{name}: unexpected argument(s) {', '.join(unknown)}")
    checks = arguments.get("claimed_checks") or []
    if not isinstance(checks, list) or not all(isinstance(c, dict) for c in checks):
        raise InvalidActionError(f"{name}: claimed_checks must be a list of objects")
    if any(c.get("result") not in ("wolf", "good") for c in checks):
        raise InvalidActionError(f"{name}: a claimed check's result must be 'wolf' or 'good'")
    claims = {
        "role": arguments.get("claimed_role"),
        "checks": [{"seat": c.get("seat"), "is_wolf": c.get("result") == "wolf"} for c in checks],
        "suspects": arguments.get("suspects") or [],
        "trusts": arguments.get("trusts") or [],
    }
    return {"text": arguments.get("text"), "claims": claims}


def _first_error(name: str, exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"][1:]) or "arguments"
    return f"{name}: {where}: {first['msg']}"


def _object(properties: dict[str, Schema]) -> Schema:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _seats(seats: Sequence[SeatId], description: str) -> Schema:
    return {"type": "integer", "enum": list(seats), "description": description}


def _nullable(schema: Schema) -> Schema:
    return {**schema, "type": [schema["type"], "null"], "enum": [*schema["enum"], None]}


def _text(max_chars: int | None, description: str) -> Schema:
    schema: Schema = {"type": "string", "description": description}
    if max_chars is not None:
        schema["maxLength"] = max_chars
    return schema
