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

from arena.llm.base import REPLY_RESERVE, LegalFormat, Schema
from arena.llm.types import ChatMessage, ToolSpec

CHOICE_REPLY = 384
"""A `json_legal` reply's token limit, when none is configured, for a question whose legal
answers hold no free text (a vote with a 12-seat belief report, pretty-printed by a small
model, takes about 250)."""


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


def reply_cap(schema: Schema) -> int:
    """A `json_legal` reply's token limit, sized to the question, when none is configured.

    A grammar forces the answer's shape but not its end: llama-server's default lets a
    reply run until the slot's window is full, and a small model looping inside a speech's
    string did (SmolLM2 wrote over 2,000 tokens into one speech on a 12-seat board before
    the game was stopped, issue 30's check). A question whose legal answers hold free text
    (a speech, a whisper, last words) gets the reply reserve the window already keeps
    (`REPLY_RESERVE`); any other gets `CHOICE_REPLY`. A reply cut at the limit is closed
    where it stopped by the parser, and a speech keeps what it said.
    """
    return REPLY_RESERVE if _free_text(schema) else CHOICE_REPLY


def _free_text(node: Any) -> bool:
    """Whether a schema admits a string it does not enumerate, anywhere in it."""
    if isinstance(node, dict):
        if node.get("type") == "string" and "enum" not in node:
            return True
        return any(_free_text(v) for v in node.values())
    return isinstance(node, list) and any(_free_text(v) for v in node)


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
