"""How the stub server answers: replies, faults, and policies that choose them.

A policy is a function of the request (`StubRequest`) returning a `StubReply`. The
building blocks are a schema-driven sampler (`sample`) that writes arguments valid for an
offered tool, and one policy per fault a real endpoint shows: malformed JSON, an illegal
seat, no tool call, an ignored `tool_choice`, 429 with Retry-After, 500, a hang.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import jsonschema

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
    question: str = ""
    """The last user message: the question and its listed legal answers."""

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
    """Answer with text only (`finish_reason` "length": as if cut by `max_tokens`)."""

    text: str
    finish_reason: str = "stop"


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
            return _sample_object(schema, rng, text)
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


def _sample_object(
    schema: Schema, rng: random.Random, text: Callable[[], str] | None
) -> dict[str, Any]:
    """An object of `schema`'s properties that also meets its `allOf` (drawn again until so).

    A legal speech's `allOf` says no seat is both suspected and trusted; a validator reads
    it, llama.cpp's grammars pass over it (`arena.agents.model.tools._claim_rule`).
    """
    props: dict[str, Schema] = schema.get("properties", {})
    required = set(schema.get("required", ()))
    for _ in range(100):
        drawn = {
            k: sample(s, rng, text) for k, s in props.items() if k in required or rng.random() < 0.5
        }
        if all(
            jsonschema.Draft202012Validator(rule).is_valid(drawn)
            for rule in schema.get("allOf", ())
        ):
            return drawn
    raise ValueError(f"no value drawn meets the schema's allOf: {schema['allOf']}")


def _sample_array(schema: Schema, rng: random.Random, text: Callable[[], str] | None) -> list[Any]:
    if "prefixItems" in schema:
        return [sample(item, rng, text) for item in schema["prefixItems"]]
    items: Schema = schema.get("items", {})
    low = schema.get("minItems", 0)
    high = max(low, min(schema.get("maxItems", 2), 2))
    count = rng.randint(low, high)
    if "enum" in items:
        return rng.sample(items["enum"], min(count, len(items["enum"])))
    return [sample(items, rng, text) for _ in range(count)]


_OPTION = re.compile(r"^- (\{.*\}) — ", re.MULTILINE)
_BELIEFS = re.compile(r"(?:seats|座位) ((?:\d+, )*\d+)")


def legal_options(request: StubRequest) -> list[str]:
    """The legal answers the question lists (`- {"action": …} — meaning`), as written."""
    return _OPTION.findall(request.question)


def belief_seats(request: StubRequest) -> list[int]:
    """The seats the question wants wolf probabilities for (none when it wants none)."""
    if "wolf_probability" not in request.question:
        return []
    found = _BELIEFS.findall(request.question)
    return [int(n) for n in found[-1].split(", ")] if found else []


def answer_from(option: str, rng: random.Random, text: Callable[[], str] | None) -> dict[str, Any]:
    """A concrete answer for one listed option, choosing among the alternatives it lists."""
    answer: dict[str, Any] = {"action": re.search(r'"action": "(\w+)"', option).group(1)}  # type: ignore[union-attr]
    for name, alternatives in re.findall(r'"(\w+)": ((?:-?\d+\|?)+)(?=[,}|])', option):
        answer[name] = rng.choice([int(n) for n in alternatives.split("|") if n])
    for name, places in re.findall(r'"(\w+)": \[((?:\d+\|?)+(?:, (?:\d+\|?)+)*)\]', option):
        # `[2|3|5]`: any of them; `[2|3|5, 2|3|5] (or fewer)`: up to that many distinct seats
        items = places.split(", ")
        seats = [int(n) for n in items[0].split("|") if n]
        if len(items) == 1:
            answer[name] = rng.sample(seats, min(len(seats), rng.randint(1, 2)))
        else:
            answer[name] = sorted(rng.sample(seats, min(len(seats), rng.randint(1, len(items)))))
    for name, values in re.findall(r'"(\w+)": ((?:"[a-z_]+"\|?)+)(?=[,}])', option):
        if name != "action":
            answer[name] = rng.choice(re.findall(r'"([a-z_]+)"', values))
    if '"text"' in option:
        words = text() if text is not None else f"stub {rng.randrange(10**6)}"
        limit = re.search(r"at most (\d+)|至多(\d+)|最多(\d+)", option)
        cap = int(next(g for g in limit.groups() if g)) if limit else len(words)
        answer["text"] = words[:cap]
    if answer["action"] == "speak":
        answer |= {"claimed_role": None, "claimed_checks": [], "suspects": [], "trusts": []}
    for name in re.findall(r'"(\w+)": null(?![|])', option):
        answer.setdefault(name, None)
    return answer


def random_legal(
    seed: int = 0,
    text: Callable[[], str] | None = None,
    weights: Mapping[str, float] | None = None,
    *,
    reproducible: bool = False,
) -> Policy:
    """A model that reads the question: picks one listed legal answer and fills it in.

    `weights` biases the choice among the listed actions by name (default weight 1): a
    game whose wolves explode at half their chances is short and unlike any real one.
    Belief questions get random probabilities for every seat asked about.

    `reproducible` draws each answer from the seed and the request's last user turn alone
    (what the seat saw since its last question, its state, the question): not from the
    order concurrent requests arrive in, nor from the rest of the chat. A seeded game
    then plays the same way every time, and two designs of the conversation that ask the
    same questions (a different system message, other condensations) play the same game.
    """
    shared = random.Random(seed)
    weight = weights or {}

    def policy(request: StubRequest) -> StubReply:
        rng = shared
        if reproducible:
            key = f"{seed}:{request.question}".encode()
            rng = random.Random(hashlib.sha256(key).hexdigest())
        if not request.tools:
            return Text("Nothing to do.")
        tool = request.tool(request.forced or "") or request.tools[0]
        options = legal_options(request)
        seats = belief_seats(request)
        if options:
            names = [re.search(r'"action": "(\w+)"', o).group(1) for o in options]  # type: ignore[union-attr]
            chosen = rng.choices(options, [weight.get(n, 1.0) for n in names])[0]
            answer = answer_from(chosen, rng, text)
            if seats and answer["action"] == "vote":
                answer["wolf_probability"] = _probabilities(seats, rng)
        elif seats:
            answer = {"action": "report_belief", "wolf_probability": _probabilities(seats, rng)}
        else:
            return CallTool(tool.name, json.dumps(sample(tool.parameters, rng, text)))
        return CallTool(tool.name, json.dumps({"answer": answer}, ensure_ascii=False))

    return policy


def uniform(seed: int = 0) -> Policy:
    """A model that ignores the question: any well-formed answer, every seat equally likely.

    The baseline for the illegal-answer rate of the stable tool: a model that only obeys
    the schema (as a grammar-constrained server makes a weak model do).
    """
    rng = random.Random(seed)

    def policy(request: StubRequest) -> StubReply:
        if not request.tools:
            return Text("Nothing to do.")
        tool = request.tool(request.forced or "") or request.tools[0]
        return CallTool(tool.name, json.dumps(sample(tool.parameters, rng), ensure_ascii=False))

    return policy


def _probabilities(seats: list[int], rng: random.Random) -> dict[str, float]:
    return {str(s): round(rng.random(), 2) for s in seats}


def markers(prefix: str = "MARK") -> Callable[[], str]:
    """A text source whose every string is unique (`MARK-0001`, …), for leak tests."""
    counter = itertools.count(1)
    return lambda: f"{prefix}-{next(counter):04d}"


def malformed_json(request: StubRequest) -> StubReply:
    """Call the tool with arguments that are not JSON."""
    name = request.forced or (request.tools[0].name if request.tools else "act")
    return CallTool(name, '{"answer": {"action": "vote",, "target": 3')


def illegal_seat(request: StubRequest) -> StubReply:
    """Answer every listed action with seat 99 where it takes a seat (else the action).

    A re-ask that does not list the answers again is answered from the latest question
    that did, so the endpoint stays illegal rather than turning random.
    """
    for option in _latest_options(request):
        answer = answer_from(option, random.Random(0), None)
        if "target" in answer:
            answer["target"] = 99
            return CallTool(_tool(request), json.dumps({"answer": answer}))
    return random_legal()(request)


def unknown_tool(request: StubRequest) -> StubReply:
    """Call a tool that was not offered."""
    return CallTool("launch_rockets", '{"target": 3}')


def no_tool_call(request: StubRequest) -> StubReply:
    """Answer in prose only."""
    return Text("I think seat 3 is a wolf, but I will not call any tool.")


def raw_newlines(seed: int = 0) -> Policy:
    """Legal answers whose strings hold raw newlines and tabs (as llama.cpp's grammar lets
    through), and whose seats are written as strings (an unenforced schema)."""
    legal = random_legal(seed, text=lambda: "line one\n\tline two")

    def policy(request: StubRequest) -> StubReply:
        reply = legal(request)
        if not isinstance(reply, CallTool):
            return reply
        answer = json.loads(reply.arguments)
        body = answer.get("answer", answer)
        for key in ("target", "start"):
            if isinstance(body.get(key), int):
                body[key] = f"{body[key]}号"
        raw = json.dumps(answer, ensure_ascii=False).replace("\\n", "\n").replace("\\t", "\t")
        return CallTool(reply.name, raw)

    return policy


def _latest_options(request: StubRequest) -> list[str]:
    """The legal answers of the latest user message that lists any."""
    for message in reversed(request.body.get("messages") or []):
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, str):
            options = _OPTION.findall(content)
            if options:
                return options
    return legal_options(request)


def _tool(request: StubRequest) -> str:
    return request.forced or (request.tools[0].name if request.tools else "act")


def ignore_tool_choice(request: StubRequest) -> StubReply:
    """Answer in prose although a tool was forced."""
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
    """The answer written as JSON text, for endpoints asked in a JSON mode."""
    return reply.arguments
