"""Answer mode `json_legal` over real HTTP: chosen only where it is enforced off the prompt.

The stub emulates the two kinds of server: llama.cpp-like (`schema_in_prompt=False`: the
output schema only builds the sampling grammar; llama-cpp-python enforces only the
`json_object` form) and OpenAI-like (the default: the schema counts as prompt tokens and
heads the cached prefix). A model that ignores the question (`uniform`: any answer the
schema admits) shows what enforcement buys: in `json_legal` it makes no illegal answer,
through the stable tool it makes many.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from arena.agents.model.agent import LLMAgent
from arena.agents.model.parsing import parse_answer
from arena.agents.model.probe import SPEECH
from arena.agents.preflight import preflight
from arena.llm.endpoint import ProbedEndpoint
from arena.rules.actions import EXCLUSIVE, Speak
from tests.llm.helpers import langchain_model, openai_model
from tests.support.seats import ACT, QUESTION, check_extensions, defaults, play_game, raw_answer
from tests.support.stub_policy import (
    CallTool,
    Policy,
    StubReply,
    StubRequest,
    Text,
    first,
    sample,
    uniform,
)
from tests.support.stub_server import StubModel, StubServer

PROVIDERS = {"openai": openai_model, "langchain": langchain_model}
LLAMA_PY = StubModel(schema_in_prompt=False, json_object_schema=True, json_schema=False)
"""llama-cpp-python's server: `json_object` + `schema` enforced, `json_schema` refused."""
VLLM = StubModel(schema_in_prompt=False)
"""vLLM, llama.cpp's own server, Ollama: the `json_schema` form enforced off the prompt."""


def probe(model: ProbedEndpoint) -> dict:
    async def go() -> dict:
        try:
            return await preflight({1: LLMAgent(model, lang="en")})
        finally:
            await model.aclose()  # type: ignore[attr-defined]

    (record,) = asyncio.run(go()).values()
    return record


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
@pytest.mark.parametrize(("caps", "form"), [(LLAMA_PY, "json_object"), (VLLM, "json_schema")])
def test_the_probe_chooses_json_legal_where_the_schema_is_enforced_off_the_prompt(
    provider: str, caps: StubModel, form: str
) -> None:
    with StubServer(capabilities={"local": caps}) as server:
        record = probe(PROVIDERS[provider](server.url, "local", mode=None))
    assert (record["mode"], record["legal_format"]) == ("json_legal", form)


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_a_schema_counted_as_prompt_keeps_the_stable_tool(provider: str) -> None:
    with StubServer() as server:
        record = probe(PROVIDERS[provider](server.url, "hosted", mode=None))
    assert record["mode"] == "tools_strict" and record["legal_format"] is None
    assert any("json_schema: the schema counts as prompt" in n for n in record["notes"])


def test_a_server_that_does_not_enforce_the_schema_keeps_the_stable_tool() -> None:
    caps = StubModel(schema_in_prompt=False, json_schema=False)
    with StubServer(capabilities={"loose": caps}) as server:
        record = probe(openai_model(server.url, "loose", mode=None))
    assert record["mode"] == "tools_strict"
    assert any("json_object: the schema was not enforced" in n for n in record["notes"])


def illegal_answers(mode: str, caps: StubModel, tmp_path: Path) -> tuple[int, int, list]:
    """(re-asked answers, decisions, requests) of seats 1 and 4 played by `uniform`."""
    with StubServer(uniform(5), capabilities={"m": caps}) as server:
        model = openai_model(server.url, "m", mode=mode)  # type: ignore[arg-type]
        if mode == "json_legal":
            model.capabilities = model.capabilities.model_copy(  # type: ignore[union-attr]
                update={"legal_format": "json_object"}
            )
        agents = {seat: LLMAgent(model, lang="en") for seat in (1, 4)}
        referee, replay = play_game(agents, tmp_path / f"{mode}.jsonl")
        bodies = server.requests_for("m")
    traces = [t for t in replay.traces if t.seat in (1, 4) and t.step >= 0]
    refused = [t for t in traces if t.attempt > 1]
    decisions = {(t.seat, t.step) for t in traces}
    assert referee.finished or replay.header.result.void
    return len(refused), len(decisions), bodies


def test_json_legal_leaves_a_question_ignoring_model_no_illegal_answer(tmp_path: Path) -> None:
    refused, decisions, bodies = illegal_answers("json_legal", LLAMA_PY, tmp_path)
    assert decisions > 10 and refused == 0
    assert all(b["response_format"]["type"] == "json_object" for b in bodies)
    assert not any("tools" in b for b in bodies)
    check_extensions(bodies)
    stable, _, _ = illegal_answers("tools_strict", StubModel(), tmp_path)
    assert stable > 0  # the same model through the stable tool: refusals, re-asks


def test_json_legal_games_record_no_default_for_the_model_seats(tmp_path: Path) -> None:
    with StubServer(uniform(9), capabilities={"m": LLAMA_PY}) as server:
        model = openai_model(server.url, "m", mode=None)
        agents = {seat: LLMAgent(model, lang="zh") for seat in (1, 4)}

        async def go() -> dict:
            return await preflight(agents)

        endpoints = asyncio.run(go())
        referee, replay = play_game(agents, tmp_path / "zh.jsonl", endpoints=endpoints)
    (record,) = replay.header.endpoints.values()
    assert record["mode"] == "json_legal"
    assert not defaults(referee, 1) and not defaults(referee, 4)


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_a_reply_cut_by_max_tokens_in_json_legal_is_kept_up_to_the_cut(provider: str) -> None:
    # ChatOpenAI given `response_format=` asks the SDK's `parse`, which raises on a cut
    # reply; the schema goes in the body instead, and the parser closes the reply
    cut = Text('{"answer": {"action": "speak", "text": "I am the se', finish_reason="length")
    with StubServer(first([cut], then=uniform(1)), capabilities={"m": VLLM}) as server:
        model = PROVIDERS[provider](server.url, "m", mode="json_legal")

        async def go():
            try:
                return await model.generate(QUESTION, [ACT], "act", legal=ACT.parameters)
            finally:
                await model.aclose()  # type: ignore[attr-defined]

        reply = asyncio.run(go())
        (body,) = server.requests_for("m")
    assert reply.finish_reason == "length"
    assert parse_answer(raw_answer(reply), SPEECH).action == Speak(text="I am the se")
    assert body["response_format"]["json_schema"]["schema"] == ACT.parameters


def _speech_shape(schema: dict[str, Any]) -> dict[str, Any] | None:
    """The speech among a legal-answers schema's shapes, if it offers one."""
    answer = schema.get("properties", {}).get("answer", {})
    for shape in answer.get("anyOf", [answer]):
        if shape.get("properties", {}).get("action", {}).get("enum") == ["speak"]:
            return shape
    return None


def stubborn(then: Policy, seed: int = 0) -> Policy:
    """A small model's habit on a grammar-constrained server: every speech suspects and
    trusts one seat whenever the schema's properties let it (a grammar reads no `allOf`,
    so llama.cpp's never stops it); other questions are answered by `then`."""
    rng = random.Random(seed)

    def policy(request: StubRequest) -> StubReply:
        shape = _speech_shape(request.tools[0].parameters) if request.tools else None
        if shape is None:
            return then(request)
        answer = sample({k: v for k, v in shape.items() if k != "allOf"}, rng)
        enums = [shape["properties"][f].get("items", {}).get("enum", []) for f in EXCLUSIVE]
        both = [s for s in enums[0] if s in enums[1]][:1]
        answer |= {"suspects": both or enums[0][:1], "trusts": both}
        return CallTool(request.tools[0].name, json.dumps({"answer": answer}))

    return policy


def test_a_speech_refused_for_contradicting_claims_is_asked_again_split(tmp_path: Path) -> None:
    """The re-ask's schema splits the table (`split_claims`), so the grammar itself keeps
    the model from naming a seat in both lists again: no speech defaults."""
    with StubServer(stubborn(uniform(2)), capabilities={"m": VLLM}) as server:
        model = openai_model(server.url, "m", mode="json_legal")
        agents = {seat: LLMAgent(model, lang="en") for seat in (1, 4)}
        referee, replay = play_game(agents, tmp_path / "split.jsonl")
        bodies = server.requests_for("m")
    speeches = [t for t in replay.traces if t.seat in (1, 4) and t.step >= 0]
    assert any(t.attempt == 2 for t in speeches), "no speech was refused: the test proves nothing"
    assert all(t.attempt <= 2 for t in speeches), "a split re-ask was refused again"
    assert not defaults(referee, 1) and not defaults(referee, 4)
    split = [
        shape
        for body in bodies
        if (shape := _speech_shape(body["response_format"]["json_schema"]["schema"]))
        and "items" not in shape["properties"]["trusts"]
    ]
    assert split and all(
        s["properties"]["trusts"] == {"type": "array", "maxItems": 0} for s in split
    )
