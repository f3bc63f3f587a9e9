import asyncio
import json

import pytest

from arena.llm.base import ProviderError
from arena.llm.openai_provider import OpenAIChatModel
from arena.llm.stub_policy import (
    HttpError,
    Text,
    first,
    hang,
    malformed_json,
    random_legal,
    rate_limited,
    server_error,
)
from arena.llm.stub_server import StubModel, StubServer
from arena.rules.errors import ArenaError
from tests.llm.helpers import ASK, VOTE, Sleeps, openai_model

CAPABILITIES = {
    "full": StubModel(),
    "loose": StubModel(strict=False),
    "stubborn": StubModel(tool_choice=False),
    "schema": StubModel(tools=False),
    "plain": StubModel(tools=False, json_schema=False),
}


@pytest.mark.parametrize(
    ("name", "mode", "tool_choice"),
    [
        ("full", "tools_strict", True),
        ("loose", "tools", True),
        ("stubborn", "tools_strict", False),
        ("schema", "json_schema", None),
        ("plain", "json_text", None),
    ],
)
def test_probe_falls_back_in_order_and_every_mode_yields_a_tool_call(
    name: str, mode: str, tool_choice: bool | None
) -> None:
    with StubServer(capabilities=CAPABILITIES) as server:
        model = openai_model(server.url, name, mode=None)
        caps = asyncio.run(model.probe())
        reply = asyncio.run(model.generate(ASK, [VOTE], "vote"))
    assert (caps.mode, caps.tool_choice, caps.probed) == (mode, tool_choice, True)
    assert caps.endpoint == f"openai:{name}@{server.url}"
    assert model.capabilities == caps
    assert reply.tool_calls[0].name == "vote"
    assert json.loads(reply.tool_calls[0].arguments)["target"] in (1, 2, 3)


def test_generate_probes_once_when_no_mode_is_configured() -> None:
    with StubServer(capabilities=CAPABILITIES) as server:
        model = openai_model(server.url, "loose", mode=None)

        async def three() -> None:
            await asyncio.gather(*(model.generate(ASK, [VOTE], "vote") for _ in range(3)))

        asyncio.run(three())
        bodies = server.requests_for("loose")
    probes = [b for b in bodies if b["tools"][0]["function"]["name"] == "choose_seat"]
    assert len(probes) == 2
    assert len(bodies) == 5
    assert all("strict" not in t["function"] for b in bodies[2:] for t in b["tools"])


def test_rate_limit_is_retried_after_the_servers_retry_after() -> None:
    sleeps = Sleeps()
    script = first([HttpError(429, 0.02), HttpError(429, 0.03)], then=random_legal())
    with StubServer(models={"m": script}) as server:
        model = openai_model(server.url, "m", retries=3, sleeps=sleeps)
        reply = asyncio.run(model.generate(ASK, [VOTE], "vote"))
        assert len(server.requests) == 3
    assert reply.tool_calls
    assert sleeps.waits == [0.02, 0.03]


def test_the_sdk_does_not_retry_behind_our_back() -> None:
    with StubServer(models={"m": server_error}) as server:
        model = openai_model(server.url, "m", retries=0)
        with pytest.raises(ProviderError, match=r"HTTP 500 \(after 1 tries\)"):
            asyncio.run(model.generate(ASK, [VOTE], "vote"))
        assert len(server.requests) == 1


@pytest.mark.parametrize(
    ("policy", "message"),
    [(rate_limited(0.01), "HTTP 429"), (server_error, "HTTP 500")],
)
def test_persistent_transient_errors_end_in_a_provider_error(policy, message: str) -> None:
    with StubServer(models={"m": policy}) as server:
        model = openai_model(server.url, "m", retries=2)
        with pytest.raises(ProviderError, match=f"{message} \\(after 3 tries\\)"):
            asyncio.run(model.generate(ASK, [VOTE], "vote"))
        assert len(server.requests) == 3


def test_a_hang_past_the_timeout_is_a_timeout() -> None:
    with StubServer(models={"m": hang(10)}) as server:
        model = openai_model(server.url, "m", retries=1, timeout_s=0.2)
        with pytest.raises(ProviderError, match=r"timed out \(after 2 tries\)"):
            asyncio.run(model.generate(ASK, [VOTE], "vote"))


def test_a_client_error_is_not_retried() -> None:
    with StubServer(models={"m": lambda r: HttpError(400, None, "bad tool schema")}) as server:
        model = openai_model(server.url, "m", retries=3)
        with pytest.raises(ProviderError, match="HTTP 400: .*bad tool schema"):
            asyncio.run(model.generate(ASK, [VOTE], "vote"))
        assert len(server.requests) == 1


def test_malformed_arguments_and_prose_come_back_as_they_are() -> None:
    script = first([Text("I vote 2.")], then=malformed_json)
    with StubServer(models={"m": script}) as server:
        model = openai_model(server.url, "m")
        prose = asyncio.run(model.generate(ASK, [VOTE], "vote"))
        broken = asyncio.run(model.generate(ASK, [VOTE], "vote"))
    assert prose.tool_calls == () and prose.text == "I vote 2."
    assert broken.tool_calls[0].arguments.startswith('{"target": 3,,')


def test_usage_and_cost_are_accounted_with_cached_tokens() -> None:
    long_system = [ASK[0].model_copy(update={"content": "rules " * 3000}), ASK[1]]
    with StubServer() as server:
        model = openai_model(server.url, "gpt-4.1-mini")
        cold = asyncio.run(model.generate(long_system, [VOTE], "vote"))
        warm = asyncio.run(model.generate(long_system, [VOTE], "vote"))
        unknown = asyncio.run(openai_model(server.url, "local-7b").generate(ASK, [VOTE], "vote"))
    assert cold.usage.cached_tokens == 0 and warm.usage.cached_tokens > 1024
    assert 0 < warm.cost_usd < cold.cost_usd
    expected = (cold.usage.prompt_tokens * 0.40 + cold.usage.completion_tokens * 1.60) / 1e6
    assert cold.cost_usd == pytest.approx(expected)
    assert unknown.cost_usd == 0.0
    assert model.capabilities is not None and model.capabilities.priced
    assert raw_model(unknown) == "local-7b"


def raw_model(reply) -> str:
    return reply.raw["model"]


def test_probe_errors_are_clear_before_a_game() -> None:
    with StubServer(models={"locked": lambda r: HttpError(401, None, "invalid api key")}) as server:
        with pytest.raises(ArenaError, match="rejected the API key"):
            asyncio.run(openai_model(server.url, "locked", mode=None).probe())
        missing = lambda r: HttpError(404, None, "no such model")  # noqa: E731
        server.models["gone"] = missing
        with pytest.raises(ArenaError, match="model or route not found"):
            asyncio.run(openai_model(server.url, "gone", mode=None).probe())
        url = server.url
    with pytest.raises(ArenaError, match="is unreachable"):
        asyncio.run(openai_model(url, "m", mode=None, retries=0, timeout_s=1).probe())


def test_a_missing_key_for_openai_itself_fails_without_network(monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    model = OpenAIChatModel("gpt-4.1-mini")
    with pytest.raises(ArenaError, match="OPENAI_API_KEY is not set"):
        model.check_credentials()
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    OpenAIChatModel("llama3.1:8b").check_credentials()
