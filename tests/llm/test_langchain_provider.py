import asyncio
import json

import pytest

from arena.llm.base import ProviderError
from arena.llm.langchain_provider import LangChainChatModel
from arena.llm.scripted import tool_reply
from arena.llm.stub_policy import HttpError, first, hang, malformed_json, random_legal, server_error
from arena.llm.stub_server import StubModel, StubServer
from arena.llm.types import ChatMessage
from arena.rules.errors import ArenaError
from tests.llm.helpers import ASK, VOTE, Sleeps, langchain_model


@pytest.mark.parametrize(
    ("name", "mode"), [("full", "tools_strict"), ("loose", "tools"), ("plain", "json_text")]
)
def test_probe_picks_the_best_mode_and_every_mode_yields_a_tool_call(name: str, mode: str) -> None:
    caps = {"loose": StubModel(strict=False), "plain": StubModel(tools=False, json_schema=False)}
    with StubServer(capabilities=caps) as server:
        model = langchain_model(server.url, name, mode=None)

        async def go():
            return await model.probe(), await model.generate(ASK, [VOTE], "vote")

        found, reply = asyncio.run(go())
    assert found.mode == mode
    assert found.endpoint == f"langchain:openai:{name}@{server.url}"
    assert reply.tool_calls[0].name == "vote"
    assert json.loads(reply.tool_calls[0].arguments)["target"] in (1, 2, 3)


def test_tool_calls_usage_and_a_forced_choice_go_through_bind_tools() -> None:
    with StubServer() as server:
        reply = asyncio.run(
            langchain_model(server.url, "gpt-4.1-mini").generate(ASK, [VOTE], "vote")
        )
        body = server.requests[-1]
    assert body["tool_choice"] == {"type": "function", "function": {"name": "vote"}}
    assert body["tools"][0]["function"]["strict"] is True
    assert reply.usage.prompt_tokens > 0 and reply.usage.completion_tokens > 0
    assert reply.cost_usd > 0


def test_a_rejected_call_is_sent_back_as_history_even_when_malformed() -> None:
    rejected = tool_reply("vote", '{"target": 9')
    messages = [
        *ASK,
        ChatMessage(role="assistant", content="", tool_calls=rejected.tool_calls),
        ChatMessage(role="tool", tool_call_id=rejected.tool_calls[0].id, content="not JSON"),
    ]
    with StubServer() as server:
        asyncio.run(langchain_model(server.url, "m").generate(messages, [VOTE], "required"))
        sent = server.requests[-1]["messages"]
    assert sent[2]["tool_calls"][0]["function"]["arguments"] == '{"target": 9'
    assert sent[3] == {
        "role": "tool",
        "content": "not JSON",
        "tool_call_id": rejected.tool_calls[0].id,
    }


def test_malformed_arguments_come_back_as_a_raw_call() -> None:
    with StubServer(models={"m": malformed_json}) as server:
        reply = asyncio.run(langchain_model(server.url, "m").generate(ASK, [VOTE], "vote"))
    assert reply.tool_calls[0].name == "vote"
    with pytest.raises(json.JSONDecodeError):
        json.loads(reply.tool_calls[0].arguments)


def test_rate_limits_are_retried_by_our_layer_only() -> None:
    sleeps = Sleeps()
    script = first([HttpError(429, 0.02)], then=random_legal())
    with StubServer(models={"m": script}) as server:
        model = langchain_model(server.url, "m", retries=2, sleeps=sleeps)
        reply = asyncio.run(model.generate(ASK, [VOTE], "vote"))
        assert len(server.requests) == 2
    assert reply.tool_calls and sleeps.waits == [0.02]


def test_server_errors_and_hangs_end_in_provider_errors() -> None:
    with StubServer(models={"down": server_error, "slow": hang(10)}) as server:
        with pytest.raises(ProviderError, match=r"HTTP 500 \(after 2 tries\)"):
            asyncio.run(langchain_model(server.url, "down").generate(ASK, [VOTE], "vote"))
        assert len(server.requests_for("down")) == 2
        slow = langchain_model(server.url, "slow", retries=0, timeout_s=0.2)
        with pytest.raises(ProviderError, match=r"after 1 tries"):
            asyncio.run(slow.generate(ASK, [VOTE], "vote"))


def test_missing_keys_and_packages_are_clear_errors(monkeypatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(ArenaError, match="ANTHROPIC_API_KEY is not set"):
        LangChainChatModel("anthropic:claude-sonnet-4-5").check_credentials()
    with pytest.raises(ArenaError, match="provider:model"):
        LangChainChatModel("claude-sonnet-4-5")
    monkeypatch.setenv("NO_SUCH_PROVIDER_KEY", "x")
    with pytest.raises(ArenaError, match="no_such_provider"):
        LangChainChatModel("no_such_provider:model").check_credentials()


def test_a_key_the_server_rejects_fails_the_probe() -> None:
    with StubServer(models={"m": lambda r: HttpError(401, None, "bad key")}) as server:
        with pytest.raises(ArenaError, match="rejected the API key"):
            asyncio.run(langchain_model(server.url, "m", mode=None).probe())
