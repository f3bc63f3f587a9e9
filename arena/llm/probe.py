"""The capability probe's questions and how its answers choose an answer mode.

A probe asks an endpoint one tiny question per answer mode, best mode first, and stops at
the first that works: strict function tools, then non-strict tools, then JSON-schema
output; JSON in the text needs nothing from the endpoint and is the last resort. The
question asks in words for one tool while `tool_choice` forces another, so a returned call
also tells whether the endpoint honours a forced choice. Adapters send the questions;
this module is vendor-free.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from arena.llm.base import ANSWER_MODES, AnswerMode, Capabilities
from arena.llm.types import ChatMessage, ModelReply, ToolSpec, Usage

FORCED_TOOL = "skip_turn"
"""The tool the probe forces; the prompt asks for `choose_seat` instead."""


def probe_tools() -> list[ToolSpec]:
    """Two tools using the schema features real decisions use (enum, maxLength, null, bounds)."""
    choose = ToolSpec(
        name="choose_seat",
        description="Choose a seat.",
        parameters={
            "type": "object",
            "properties": {
                "seat": {"type": "integer", "enum": [1, 2, 3]},
                "note": {"type": ["string", "null"], "maxLength": 40},
                "confidence": {"type": "number", "minimum": 0, "maximum": 1},
            },
            "required": ["seat", "note", "confidence"],
            "additionalProperties": False,
        },
    )
    skip = ToolSpec(
        name=FORCED_TOOL,
        description="Do nothing this turn.",
        parameters={
            "type": "object",
            "properties": {},
            "required": [],
            "additionalProperties": False,
        },
    )
    return [choose, skip]


def probe_messages() -> list[ChatMessage]:
    """The probe's question."""
    return [
        ChatMessage(role="system", content="You are checking that tool calls work."),
        ChatMessage(role="user", content="Call choose_seat: seat 2, note null, confidence 0.5."),
    ]


@dataclass(frozen=True, slots=True)
class ProbeOutcome:
    """What one probe question showed."""

    mode: AnswerMode
    ok: bool
    tool_choice: bool | None = None
    """Whether the forced tool (not another, not none) came back."""
    note: str | None = None
    usage: Usage = Usage()

    @classmethod
    def of(cls, mode: AnswerMode, reply: ModelReply, forced: str = FORCED_TOOL) -> ProbeOutcome:
        """Judge a reply: a mode works when it yields an offered tool's call with an object."""
        names = {t.name for t in probe_tools()}
        call = reply.tool_calls[0] if reply.tool_calls else None
        if call is None or call.name not in names:
            return cls(mode, False, None, f"{mode}: no tool call came back", reply.usage)
        try:
            arguments = json.loads(call.arguments or "{}")
        except json.JSONDecodeError:
            return cls(mode, False, None, f"{mode}: malformed tool arguments", reply.usage)
        if not isinstance(arguments, dict):
            return cls(mode, False, None, f"{mode}: tool arguments are not an object", reply.usage)
        return cls(mode, True, call.name == forced, None, reply.usage)


def choose_mode(
    endpoint: str, model: str, outcomes: Mapping[AnswerMode, ProbeOutcome], *, priced: bool
) -> Capabilities:
    """The capability record: the first mode that worked, else JSON in the text."""

    def ok(mode: AnswerMode) -> bool | None:
        outcome = outcomes.get(mode)
        return None if outcome is None else outcome.ok

    mode = next((m for m in ANSWER_MODES if ok(m)), "json_text")
    tool_outcome = next((outcomes[m] for m in ("tools_strict", "tools") if ok(m)), None)
    tools = ok("tools_strict") or ok("tools")
    usage = sum((o.usage for o in outcomes.values()), Usage())
    return Capabilities(
        endpoint=endpoint,
        model=model,
        tools=bool(tools),
        strict_tools=ok("tools_strict"),
        tool_choice=tool_outcome.tool_choice if tool_outcome is not None else None,
        json_schema=ok("json_schema"),
        mode=mode,
        priced=priced,
        notes=tuple(o.note for o in outcomes.values() if o.note),
        usage=usage,
    )
