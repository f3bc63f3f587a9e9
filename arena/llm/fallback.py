"""Asking for the answer as JSON from endpoints without usable function tools.

The JSON answer modes (`json_legal`, `json_schema`, `json_text`) describe the game's one tool
in the system message and read the model's answer from its text (`arena.agents.model.parsing`
forgives fences and prose around the object). The description goes in the *system*
message, which never changes within a game, so it stays part of the cached prefix; a
`json_schema` endpoint also gets the tool's parameters as `response_format`, which
grammar-constrained servers enforce, and a `json_legal` endpoint gets, per request, the
schema of that request's legal answers, which is not part of its prompt. The agent
never knows which mode served it, and the answer is validated exactly as a tool call's
arguments would be.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from arena.llm.base import LegalFormat, Schema
from arena.llm.types import ChatMessage, ToolSpec


def response_schema(tools: Sequence[ToolSpec]) -> dict[str, Any]:
    """A `response_format` of type `json_schema` that admits the tool's arguments."""
    tool = tools[0]
    return {
        "type": "json_schema",
        "json_schema": {"name": tool.name, "schema": tool.parameters, "strict": False},
    }


def legal_format(schema: Schema, form: LegalFormat) -> dict[str, Any]:
    """A `response_format` that constrains the answer to `schema` (mode `json_legal`).

    `json_schema` is OpenAI's form (vLLM, llama.cpp's own server, Ollama); `json_object`
    with a `schema` key is the form llama-cpp-python's server enforces.
    """
    if form == "json_object":
        return {"type": "json_object", "schema": schema}
    return {"type": "json_schema", "json_schema": {"name": "answer", "schema": schema}}


def instruction(tools: Sequence[ToolSpec]) -> str:
    """The system-message text that stands in for the function tool."""
    tool = tools[0]
    return (
        "## Answer format\nAnswer every question with one JSON object and nothing else: the "
        f"arguments of `{tool.name}` ({tool.description}), following this JSON schema:\n"
        + json.dumps(tool.parameters, ensure_ascii=False, separators=(",", ":"))
    )


def brief_instruction(tools: Sequence[ToolSpec]) -> str:
    """The system-message text of mode `json_legal`: the answer's frame, not its schema.

    The server enforces each request's legal answers, and the question lists them, so
    the whole schema (about 6,000 tokens for a small model's tokenizer, prefilled on
    every new conversation) would tell the model nothing more.
    """
    tool = tools[0]
    return (
        "## Answer format\nAnswer every question with one JSON object and nothing else: the "
        f'arguments of `{tool.name}` ({tool.description}), {{"answer": <one of the legal '
        "answers listed with the question>}."
    )


def with_instruction(
    messages: Sequence[ChatMessage], tools: Sequence[ToolSpec], *, brief: bool = False
) -> list[ChatMessage]:
    """`messages` with the tool described at the end of the system message."""
    text = brief_instruction(tools) if brief else instruction(tools)
    if messages and messages[0].role == "system":
        head = messages[0].model_copy(update={"content": f"{messages[0].content}\n\n{text}"})
        return [head, *messages[1:]]
    return [ChatMessage(role="system", content=text), *messages]


def flatten(messages: Sequence[ChatMessage]) -> list[ChatMessage]:
    """The conversation with any tool calls and tool results written as text.

    Model seats send text only; this keeps older call shapes (a replay's requests re-sent
    by a benchmark, a test's scripted history) acceptable to every endpoint.
    """
    flat: list[ChatMessage] = []
    for message in messages:
        if message.role == "assistant" and message.tool_calls:
            calls = "\n".join(call.arguments for call in message.tool_calls)
            flat.append(
                ChatMessage(role="assistant", content=f"{message.content}\n{calls}".strip())
            )
        elif message.role == "tool":
            flat.append(ChatMessage(role="user", content=message.content))
        else:
            flat.append(message)
    return flat
