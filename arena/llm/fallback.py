"""Asking for a tool call from endpoints without function tools.

The answer modes below `tools` (`json_schema`, `json_text`) describe the offered tools in
the prompt and read the model's answer back as a JSON object
`{"tool": <name>, "arguments": {...}}`, which becomes an ordinary `ToolCall`. The agent
never knows which mode served it, and the answer is validated exactly as a real tool call
would be. The conversation's earlier tool calls and tool results are flattened to plain
text, since such an endpoint cannot take tool messages.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from arena.llm.base import ToolChoice
from arena.llm.types import ChatMessage, ToolCall, ToolSpec

TEXT_CALL_ID = "text_call"
"""The id given to a tool call read from text (the model made no real call)."""


def response_schema(tools: Sequence[ToolSpec], tool_choice: ToolChoice) -> dict[str, Any]:
    """A `response_format` of type `json_schema` that admits one call of an offered tool."""
    chosen = [t for t in tools if t.name == tool_choice] or list(tools)
    schema = {
        "type": "object",
        "properties": {
            "tool": {"type": "string", "enum": [t.name for t in chosen]},
            "arguments": {"anyOf": [t.parameters for t in chosen]},
        },
        "required": ["tool", "arguments"],
        "additionalProperties": False,
    }
    return {"type": "json_schema", "json_schema": {"name": "tool_call", "schema": schema}}


def instruction(tools: Sequence[ToolSpec], tool_choice: ToolChoice) -> str:
    """The prompt text that stands in for function tools."""
    chosen = [t for t in tools if t.name == tool_choice] or list(tools)
    specs = [
        {"tool": t.name, "description": t.description, "arguments": t.parameters} for t in chosen
    ]
    return (
        "Answer by calling exactly one of these tools. Reply with one JSON object and "
        'nothing else: {"tool": "<tool name>", "arguments": {...}}, where the arguments '
        "follow that tool's JSON schema.\nTools:\n" + json.dumps(specs, ensure_ascii=False)
    )


def flatten(messages: Sequence[ChatMessage]) -> list[ChatMessage]:
    """The conversation with tool calls and tool results written as text."""
    flat: list[ChatMessage] = []
    for message in messages:
        if message.role == "assistant" and message.tool_calls:
            calls = "\n".join(as_text(call) for call in message.tool_calls)
            text = f"{message.content}\n{calls}".strip()
            flat.append(ChatMessage(role="assistant", content=text))
        elif message.role == "tool":
            flat.append(ChatMessage(role="user", content=f"Tool result: {message.content}"))
        else:
            flat.append(message)
    return flat


def with_instruction(
    messages: Sequence[ChatMessage], tools: Sequence[ToolSpec], tool_choice: ToolChoice
) -> list[ChatMessage]:
    """`flatten(messages)` plus the tool instruction as a final user message."""
    return [*flatten(messages), ChatMessage(role="user", content=instruction(tools, tool_choice))]


def as_text(call: ToolCall) -> str:
    """A tool call written the way `json_text` mode asks the model to write one."""
    try:
        arguments: Any = json.loads(call.arguments)
    except json.JSONDecodeError:
        arguments = call.arguments
    return json.dumps({"tool": call.name, "arguments": arguments}, ensure_ascii=False)


def call_from_text(text: str) -> ToolCall | None:
    """The tool call written in `text`, or None when there is none.

    The first JSON object with a string `tool` (or `name`) is taken; its `arguments` are
    re-encoded as the call's raw argument text. Arguments that are not an object are kept
    as given so the schema check reports them.
    """
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        try:
            value, _ = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            start = text.find("{", start + 1)
            continue
        if isinstance(value, dict):
            name = value.get("tool", value.get("name"))
            if isinstance(name, str):
                arguments = value.get("arguments", {})
                raw = json.dumps(arguments, ensure_ascii=False)
                return ToolCall(id=TEXT_CALL_ID, name=name, arguments=raw)
        start = text.find("{", start + 1)
    return None
