"""Model seats against the refusals and manglings of real OpenAI-compatible servers.

Each `StubModel` fault, and each hopeless endpoint, over real HTTP through the OpenAI
provider and LangChain's OpenAI integration (`langchain:openai:<model>` pointed at the
stub). A fault a server shows on some requests must cost the seats nothing: our requests
never take the shape it refuses, or the answer is read leniently. An endpoint that cannot
play at all must fail the preflight in one line that names it, before any game.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arena.agents.model.agent import LLMAgent
from arena.agents.preflight import preflight
from arena.errors import ArenaError
from arena.llm.base import AnswerMode, ProviderError
from arena.llm.endpoint import ProbedEndpoint
from tests.llm.helpers import langchain_model, openai_model
from tests.support.seats import (
    ACT,
    QUESTION,
    check_extensions,
    defaults,
    messages_of,
    play_game,
)
from tests.support.stub_policy import (
    HttpError,
    Policy,
    first,
    illegal_seat,
    malformed_json,
    no_tool_call,
    random_legal,
    raw_newlines,
    unknown_tool,
)
from tests.support.stub_server import StubModel, StubServer

Build = Callable[..., ProbedEndpoint]
PROVIDERS: dict[str, Build] = {"openai": openai_model, "langchain": langchain_model}
SEATS = (1, 4)
"""The model seats of a fault game (4 is the seer: its first decision takes a seat)."""


def seats_of(model: ProbedEndpoint) -> dict[int, LLMAgent]:
    return {seat: LLMAgent(model, lang="en") for seat in SEATS}


def play_probed(server: StubServer, provider: str, name: str, tmp_path: Path):
    """A game whose model seats' endpoint is probed first, as `arena play` does."""
    model = PROVIDERS[provider](server.url, name, mode=None)
    agents = seats_of(model)
    endpoints = asyncio.run(preflight(agents))
    referee, replay = play_game(agents, tmp_path / "game.jsonl", endpoints=endpoints)
    return referee, replay, endpoints[model.endpoint]


def assert_played_its_own_game(referee, replay) -> None:
    """The model seats' every call was answered and every answer accepted."""
    assert referee.finished and not replay.header.result.void
    for seat in SEATS:
        assert not defaults(referee, seat), defaults(referee, seat)
    traces = [t for t in replay.traces if t.seat in SEATS]
    assert traces and all(t.error is None and t.parsed_action for t in traces)
    assert all(t.attempt == 1 for t in traces)


def one_line_failure(model: ProbedEndpoint) -> str:
    agents = seats_of(model)
    with pytest.raises(ArenaError) as failure:
        asyncio.run(preflight(agents))
    message = str(failure.value)
    assert "\n" not in message
    assert model.endpoint in message and "seats 1,4" in message
    return message


# Faults a server shows only on some request shapes: the seats play through them.

SURVIVED: dict[str, tuple[StubModel, Callable[[], Policy]]] = {
    "required_choice": (StubModel(required_choice=False), random_legal),
    "null_content": (StubModel(null_content=False), random_legal),
    "tool_messages": (StubModel(tool_messages=False), random_legal),
    "max_length": (StubModel(max_length=500), random_legal),
    "raw_newlines": (StubModel(), raw_newlines),
}


def check_bodies(fault: str, bodies: list[dict[str, Any]]) -> None:
    """What each fault's refusal would need, never sent."""
    game = [b for b in bodies if b.get("tools")]
    assert game, "no request offered the act tool"
    if fault == "required_choice":
        named = {"type": "function", "function": {"name": "act"}}
        assert all(len(b["tools"]) == 1 and b["tool_choice"] == named for b in game)
    if fault == "null_content":
        assert all(isinstance(m.get("content"), str) for m in messages_of(bodies))
    if fault == "tool_messages":
        assert all(m["role"] in ("system", "user", "assistant") for m in messages_of(bodies))
        assert all("tool_calls" not in m for m in messages_of(bodies))
    if fault == "max_length":
        assert all("maxLength" not in json.dumps(b["tools"]) for b in game)


@pytest.mark.parametrize("fault", sorted(SURVIVED))
@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_model_seats_play_through_a_fault(provider: str, fault: str, tmp_path: Path) -> None:
    caps, policy = SURVIVED[fault]
    with StubServer(models={"llama": policy(7)}, capabilities={"llama": caps}) as server:
        referee, replay, record = play_probed(server, provider, "llama", tmp_path)
        bodies = server.requests_for("llama")
    assert record["mode"] == "tools_strict"
    assert_played_its_own_game(referee, replay)
    check_bodies(fault, bodies)
    if fault == "raw_newlines":
        texts = [
            t.parsed_action["text"]
            for t in replay.traces
            if t.parsed_action and "text" in t.parsed_action
        ]
        assert any("\n\t" in text for text in texts), texts
        raw = [c.arguments for t in replay.traces if t.reply for c in t.reply.tool_calls]
        assert any("\n" in r or '号"' in r for r in raw)


# A prompt past the context window: the probe's 4k-token prompt meets it first.


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_a_context_window_too_small_for_the_game_fails_the_preflight(provider: str) -> None:
    with StubServer(capabilities={"tiny": StubModel(context_tokens=2048)}) as server:
        message = one_line_failure(PROVIDERS[provider](server.url, "tiny", mode=None))
        assert server.requests_for("tiny")
    assert "cannot play" in message and "maximum context length" in message


WINDOW = 9000
"""A context window the probe's ~4k-token prompt fits and a game's chats outgrow by day 3."""


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_a_window_the_game_outgrows_is_met_by_condensing_and_asking_again(
    provider: str, tmp_path: Path
) -> None:
    """Past the window a seat's request is refused for length (HTTP 400): the seat
    condenses at once and asks again in a chat that fits; no decision is lost."""
    speech = ("I weigh every claim at this table before I vote, and so should you. " * 9)[:600]
    caps = {"llama": StubModel(context_tokens=WINDOW)}
    policy = random_legal(7, text=lambda: speech, reproducible=True)  # the same game every run
    with StubServer(models={"llama": policy}, capabilities=caps) as server:
        model = PROVIDERS[provider](server.url, "llama", mode=None)
        agents = {seat: LLMAgent(model, lang="en") for seat in range(1, 10)}
        endpoints = asyncio.run(preflight(agents))
        referee, replay = play_game(agents, tmp_path / "game.jsonl", endpoints=endpoints)
    refused = [t for t in replay.traces if t.error and "maximum context length" in t.error]
    assert refused, "no request outgrew the window: this game proves nothing"
    assert referee.finished and not replay.header.result.void
    assert not [d for seat in agents for d in defaults(referee, seat)]
    for t in refused:
        (retry,) = [
            u
            for u in replay.traces
            if (u.seat, u.step, u.attempt) == (t.seat, t.step, t.attempt + 1)
        ]
        assert retry.error is None and retry.parsed_action, retry.error


# An HTTP 200 whose body is not JSON: a provider fault, never a crash.


def test_a_body_that_is_not_json_is_retried_then_a_provider_error() -> None:
    with StubServer(capabilities={"proxy": StubModel(json_body=False)}) as server:
        model = openai_model(server.url, "proxy", retries=2)
        with pytest.raises(ProviderError, match=r"HTTP 200 but the body is not JSON.*after 3"):
            asyncio.run(model.generate(QUESTION, [ACT], "act"))
        assert len(server.requests_for("proxy")) == 3


def test_a_body_that_is_not_json_through_langchain_is_retried_then_a_provider_error() -> None:
    with StubServer(capabilities={"proxy": StubModel(json_body=False)}) as server:
        model = langchain_model(server.url, "proxy", retries=2)
        with pytest.raises(ProviderError, match="langchain:openai:proxy@.*not JSON"):
            asyncio.run(model.generate(QUESTION, [ACT], "act"))
        assert len(server.requests_for("proxy")) == 3


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_a_body_that_is_not_json_fails_the_preflight_in_one_line(provider: str) -> None:
    with StubServer(capabilities={"proxy": StubModel(json_body=False)}) as server:
        message = one_line_failure(PROVIDERS[provider](server.url, "proxy", mode=None))
    assert "cannot play" in message


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_a_game_against_a_body_that_is_not_json_ends_on_recorded_defaults(
    provider: str, tmp_path: Path
) -> None:
    with StubServer(capabilities={"proxy": StubModel(json_body=False)}) as server:
        model = PROVIDERS[provider](server.url, "proxy", retries=1, mode="tools")
        referee, replay = play_game({4: LLMAgent(model, lang="en")}, tmp_path / "g.jsonl")
    fallbacks = defaults(referee, 4)
    assert fallbacks and all("after 3 tries" in e.reason for e in fallbacks)
    traces = [t for t in replay.traces if t.seat == 4]
    assert traces and all(t.reply is None and t.error for t in traces)
    result = replay.header.result
    assert result is not None and (referee.finished or result.void)


# Endpoints that can never play: the probe finds out before the game.

HOPELESS: dict[str, tuple[Policy, str]] = {
    "malformed": (malformed_json, "not valid JSON"),
    "prose": (no_tool_call, "not valid JSON"),
    "unknown_tool": (unknown_tool, 'no "action"'),
    "illegal": (illegal_seat, "seat 99 is not a legal target"),
}
"""Endpoint → (its policy, what the preflight's line says was wrong)."""


@pytest.mark.parametrize("name", sorted(HOPELESS))
@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_a_hopeless_endpoint_fails_the_preflight_in_one_line(provider: str, name: str) -> None:
    policy, problem = HOPELESS[name]
    with StubServer(models={name: policy}) as server:
        model = PROVIDERS[provider](server.url, name, mode=None)
        message = one_line_failure(model)
        asked = len(server.requests_for(name))
    assert f"{model.endpoint} cannot play" in message and problem in message
    assert "no answer mode produced a legal decision" in message
    assert asked >= 3, "the probe re-asks a refused answer before giving up"


@pytest.mark.parametrize("mode", ["tools", "json_text"])
def test_a_configured_mode_is_still_checked_by_the_preflight(mode: AnswerMode) -> None:
    with StubServer(models={"illegal": illegal_seat}) as server:
        model = openai_model(server.url, "illegal", mode=mode)
        message = one_line_failure(model)
        bodies = server.requests_for("illegal")
    assert f"{mode}:" in message
    assert all(("tools" in b) == (mode == "tools") for b in bodies)


# A server error names URLs and statuses: the model never reads it.


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_server_errors_never_enter_a_seats_prompt(provider: str, tmp_path: Path) -> None:
    error = HttpError(500, None, "upstream http://10.0.0.7:8000/v1/chat/completions failed")
    script = first([error], then=random_legal(4))
    with StubServer(models={"flaky": script}) as server:
        model = PROVIDERS[provider](server.url, "flaky", retries=0)
        referee, replay = play_game({4: LLMAgent(model, lang="en")}, tmp_path / "g.jsonl")
        bodies = server.requests_for("flaky")
    [failed, *_] = [t for t in replay.traces if t.seat == 4]
    assert failed.reply is None and "HTTP 500" in (failed.error or "")
    assert len(bodies) > 2 and not defaults(referee, 4)
    assert sum(check_extensions(bodies).values()) == 0
    assert len(bodies[1]["messages"]) == len(bodies[0]["messages"])
    for body in bodies[1:]:
        sent = json.dumps(body, ensure_ascii=False)
        assert "http://" not in sent and "HTTP 500" not in sent and "10.0.0.7" not in sent
