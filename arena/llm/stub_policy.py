"""How the stub server answers: replies, faults, and policies that choose them.

A policy is a function of the request (`StubRequest`) returning a `StubReply`. The
building blocks are a schema-driven sampler (`sample`) that writes arguments valid for an
offered tool, and one policy per fault a real endpoint shows: malformed JSON, an illegal
seat, no tool call, an ignored `tool_choice`, 429 with Retry-After, 500, a hang.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

Schema = dict[str, Any]


@dataclass(frozen=True, slots=True)
class StubTool:
    """An offered tool, as the stub read it from the request."""

    name: str
    parameters: Schema


@dataclass(frozen=True, slots=True)
class StubRequest:
    """One chat-completions request, as a policy sees it."""

    body: dict[str, Any]
    model: str
    tools: tuple[StubTool, ...]
    """The offered tools: real function tools, or those a JSON mode described."""
    forced: str | None
    """The tool `tool_choice` names (None for `auto`/`required`)."""
    native_tools: bool
    """Whether tools came as function tools (else the answer must be JSON text)."""

    def tool(self, name: str) -> StubTool | None:
        """The offered tool called `name`."""
        return next((t for t in self.tools if t.name == name), None)


@dataclass(frozen=True, slots=True)
class CallTool:
    """Answer with one tool call; `arguments` is sent verbatim (malformed if you like)."""

    name: str
    arguments: str


@dataclass(frozen=True, slots=True)
class Text:
    """Answer with text only."""

    text: str


@dataclass(frozen=True, slots=True)
class HttpError:
    """Answer with an HTTP error status (and optionally a Retry-After header)."""

    status: int
    retry_after_s: float | None = None
    message: str = "stub error"


@dataclass(frozen=True, slots=True)
class Hang:
    """Hold the request this long before answering (past the client's timeout)."""

    seconds: float
    then: StubReply = field(default_factory=lambda: Text("too late"))


StubReply = CallTool | Text | HttpError | Hang
Policy = Callable[[StubRequest], StubReply]


def sample(schema: Schema, rng: random.Random, text: Callable[[], str] | None = None) -> Any:
    """A random value valid for `schema` (the subset of JSON schema the tools use).

    Arrays of an enum never repeat an item, so a sampled seat list is also a legal one.
    """
    if "enum" in schema:
        return rng.choice(schema["enum"])
    if "anyOf" in schema:
        return sample(rng.choice(schema["anyOf"]), rng, text)
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        concrete = [k for k in kind if k != "null"]
        if not concrete or rng.random() < 0.3:
            return None
        kind = rng.choice(concrete)
    match kind:
        case "object":
            props: dict[str, Schema] = schema.get("properties", {})
            required = set(schema.get("required", ()))
            return {
                k: sample(s, rng, text)
                for k, s in props.items()
                if k in required or rng.random() < 0.5
            }
        case "array":
            return _sample_array(schema, rng, text)
        case "string":
            value = text() if text is not None else f"stub {rng.randrange(10**6)}"
            return value[: schema.get("maxLength", len(value))]
        case "integer":
            return rng.randint(schema.get("minimum", 1), schema.get("maximum", 12))
        case "number":
            return rng.uniform(schema.get("minimum", 0.0), schema.get("maximum", 1.0))
        case "boolean":
            return rng.random() < 0.5
    return None


def _sample_array(schema: Schema, rng: random.Random, text: Callable[[], str] | None) -> list[Any]:
    items: Schema = schema.get("items", {})
    low = schema.get("minItems", 0)
    high = max(low, min(schema.get("maxItems", 2), 2))
    count = rng.randint(low, high)
    if "enum" in items:
        return rng.sample(items["enum"], min(count, len(items["enum"])))
    return [sample(items, rng, text) for _ in range(count)]


def random_legal(
    seed: int = 0,
    text: Callable[[], str] | None = None,
    weights: Mapping[str, float] | None = None,
) -> Policy:
    """Call the forced tool (or a random offered one) with schema-valid arguments.

    `weights` biases the choice among offered tools by name (default weight 1): a game
    whose wolves explode at half their chances is short and unlike any real one.
    """
    rng = random.Random(seed)
    weight = weights or {}

    def policy(request: StubRequest) -> StubReply:
        if not request.tools:
            return Text("Nothing to do.")
        tool = (
            request.tool(request.forced or "")
            or rng.choices(request.tools, [weight.get(t.name, 1.0) for t in request.tools])[0]
        )
        arguments = sample(tool.parameters, rng, text)
        return CallTool(tool.name, json.dumps(arguments, ensure_ascii=False))

    return policy


def markers(prefix: str = "MARK") -> Callable[[], str]:
    """A text source whose every string is unique (`MARK-0001`, …), for leak tests."""
    counter = itertools.count(1)
    return lambda: f"{prefix}-{next(counter):04d}"


def malformed_json(request: StubRequest) -> StubReply:
    """Call a tool with arguments that are not JSON."""
    name = request.forced or (request.tools[0].name if request.tools else "vote")
    return CallTool(name, '{"target": 3,, "text": "unterminated')


def illegal_seat(request: StubRequest) -> StubReply:
    """Call a seat-taking tool with seat 99 (or the first tool with random arguments)."""
    for tool in request.tools:
        props = tool.parameters.get("properties", {})
        if "target" in props:
            return CallTool(tool.name, json.dumps({"target": 99}))
    return random_legal()(request)


def no_tool_call(request: StubRequest) -> StubReply:
    """Answer in prose only."""
    return Text("I think seat 3 is a wolf, but I will not call any tool.")


def ignore_tool_choice(request: StubRequest) -> StubReply:
    """Call an offered tool other than the forced one, or answer in prose."""
    others = [t for t in request.tools if t.name != request.forced]
    if request.forced is not None and others:
        return CallTool(others[0].name, json.dumps(sample(others[0].parameters, random.Random(0))))
    return no_tool_call(request)


def rate_limited(retry_after_s: float = 0.01) -> Policy:
    """Always 429 with a Retry-After header."""
    return lambda request: HttpError(429, retry_after_s, "rate limited")


def server_error(request: StubRequest) -> StubReply:
    """Always 500."""
    return HttpError(500, None, "internal error")


def hang(seconds: float) -> Policy:
    """Always hold the request `seconds` before answering."""
    return lambda request: Hang(seconds)


def first(replies: list[StubReply] | tuple[StubReply, ...], then: Policy) -> Policy:
    """Answer with `replies` in order, then follow `then`."""
    queue: Iterator[StubReply] = iter(list(replies))
    return lambda request: next(queue, None) or then(request)


def text_call(reply: CallTool) -> str:
    """A tool call written as JSON text, for endpoints asked in a JSON mode."""
    try:
        arguments: Any = json.loads(reply.arguments)
    except json.JSONDecodeError:
        return '{"tool": "' + reply.name + '", "arguments": ' + reply.arguments + "}"
    return json.dumps({"tool": reply.name, "arguments": arguments}, ensure_ascii=False)
