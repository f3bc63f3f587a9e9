import asyncio
import json

import pytest

from arena.agents.model.probe import VOTE
from arena.errors import ArenaError
from arena.llm.base import REPLY_RESERVE, ProviderError
from arena.llm.fallback import CHOICE_REPLY, reply_cap
from arena.llm.langchain_provider import LangChainChatModel
from arena.llm.types import ChatMessage, ToolCall
from arena.rules.actions import Pass, Vote
from tests.llm.helpers import Sleeps, langchain_model
from tests.support.seats import ACT, QUESTION, answer_of, raw_answer
from tests.support.stub_policy import (
    HttpError,
    first,
    hang,
    malformed_json,
    random_legal,
    server_error,
)
from tests.support.stub_server import StubModel, StubServer


@pytest.mark.parametrize(
    ("name", "mode"), [("full", "tools_strict"), ("loose", "tools"), ("plain", "json_text")]
)
def test_probe_picks_the_best_mode_and_every_mode_yields_a_legal_answer(
    name: str, mode: str
) -> None:
    caps = {"loose": StubModel(strict=False), "plain": StubModel(tools=False, json_schema=False)}
    with StubServer(capabilities=caps) as server:
        model = langchain_model(server.url, name, mode=None)

        async def go():
            try:
                return await model.probe(), await model.generate(QUESTION, [ACT], "act")
            finally:
                await model.aclose()

        found, reply = asyncio.run(go())
        body = server.requests_for(name)[-1]
    assert found.mode == mode
    assert found.endpoint == f"langchain:openai:{name}@{server.url}"
    action = answer_of(reply)
    assert action == Pass() or (
        isinstance(action, Vote) and action.target in VOTE.options[0].targets
    )
    if mode == "json_text":
        assert "tools" not in body and "`act`" in body["messages"][0]["content"]
    else:
        assert [t["function"]["name"] for t in body["tools"]] == ["act"]


def test_tool_calls_usage_and_a_forced_choice_go_through_bind_tools() -> None:
    with StubServer() as server:
        reply = asyncio.run(
            langchain_model(server.url, "gpt-4.1-mini").generate(QUESTION, [ACT], "act")
        )
        body = server.requests[-1]
    assert body["tool_choice"] == {"type": "function", "function": {"name": "act"}}
    assert len(body["tools"]) == 1 and body["tools"][0]["function"]["strict"] is True
    assert reply.tool_calls[0].name == "act" and answer_of(reply) is not None
    assert reply.usage.prompt_tokens > 0 and reply.usage.completion_tokens > 0
    assert reply.cost_usd > 0


def test_an_old_style_history_is_sent_as_text_turns_only() -> None:
    call = ToolCall(id="call_1", name="act", arguments='{"answer": {"action": "vote", "target": 9')
    history = [
        *QUESTION,
        ChatMessage(role="assistant", content="", tool_calls=(call,)),
        ChatMessage(role="tool", tool_call_id="call_1", content="not JSON"),
    ]
    with StubServer() as server:
        asyncio.run(langchain_model(server.url, "m").generate(history, [ACT], "act"))
        sent = server.requests[-1]["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "user"]
    assert all(isinstance(m.get("content"), str) and "tool_calls" not in m for m in sent)
    assert sent[2]["content"] == call.arguments
    assert sent[3]["content"] == "not JSON"


def test_malformed_arguments_come_back_as_a_raw_call() -> None:
    with StubServer(models={"m": malformed_json}) as server:
        reply = asyncio.run(langchain_model(server.url, "m").generate(QUESTION, [ACT], "act"))
    assert reply.tool_calls[0].name == "act"
    with pytest.raises(json.JSONDecodeError):
        json.loads(raw_answer(reply))


def test_rate_limits_are_retried_by_our_layer_only() -> None:
    sleeps = Sleeps()
    script = first([HttpError(429, 0.02)], then=random_legal())
    with StubServer(models={"m": script}) as server:
        model = langchain_model(server.url, "m", retries=2, sleeps=sleeps)
        reply = asyncio.run(model.generate(QUESTION, [ACT], "act"))
        assert len(server.requests) == 2
    assert reply.tool_calls and sleeps.waits == [0.02]


def test_server_errors_and_hangs_end_in_provider_errors() -> None:
    with StubServer(models={"down": server_error, "slow": hang(10)}) as server:
        with pytest.raises(ProviderError, match=r"HTTP 500 \(after 2 tries\)"):
            asyncio.run(langchain_model(server.url, "down").generate(QUESTION, [ACT], "act"))
        assert len(server.requests_for("down")) == 2
        slow = langchain_model(server.url, "slow", retries=0, timeout_s=0.2)
        with pytest.raises(ProviderError, match=r"after 1 tries"):
            asyncio.run(slow.generate(QUESTION, [ACT], "act"))


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


def test_the_reply_limit_reaches_an_openai_compatible_server_under_its_old_name() -> None:
    # ChatOpenAI sends `max_completion_tokens`, which llama-cpp-python ignores: a speech
    # under a grammar then ran to the context's end. `max_tokens` goes too.
    with StubServer() as server:
        model = LangChainChatModel(
            "openai:m", base_url=server.url, api_key="k", mode="tools_strict", max_tokens=77
        )

        async def go():
            try:
                await model.generate(QUESTION, [ACT], "act")
            finally:
                await model.aclose()

        asyncio.run(go())
        (body,) = server.requests_for("m")
    assert body["max_tokens"] == 77 and body["max_completion_tokens"] == 77


def test_a_seat_configured_from_the_environment_records_its_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("OPENAI_API_BASE", raising=False)
    with StubServer() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        model = LangChainChatModel("openai:env-seat", api_key="test-key", mode="tools")
        assert model.endpoint == f"langchain:openai:env-seat@{server.url}"

        async def go() -> None:
            try:
                await model.generate(QUESTION, [ACT], "act")
            finally:
                await model.aclose()

        asyncio.run(go())
        assert server.requests_for("env-seat"), "the request went elsewhere"
    monkeypatch.setenv("OPENAI_API_BASE", "http://proxy.example/v1/")
    assert model.base_url == "http://proxy.example/v1"
    monkeypatch.delenv("OPENAI_API_BASE")
    monkeypatch.delenv("OPENAI_BASE_URL")
    assert model.base_url == "https://api.openai.com/v1"
    other = LangChainChatModel("bedrock_converse:claude", mode="tools")
    assert other.endpoint == "langchain:bedrock_converse:claude@default"


def test_a_legal_answer_without_a_configured_limit_gets_one_sized_to_the_question() -> None:
    """llama-server lets a reply run to the window's end; under a grammar SmolLM2 wrote over
    2,000 tokens into one speech (issue 30's check). A choice gets a short limit, a
    question with free text the reply reserve, and a configured limit stands."""
    vote = {"type": "object", "properties": {"target": {"type": "integer", "enum": [2, 3]}}}
    speech = {"type": "object", "properties": {"text": {"type": "string"}}}
    assert (reply_cap(vote), reply_cap(speech)) == (CHOICE_REPLY, REPLY_RESERVE)
    with StubServer() as server:
        free = LangChainChatModel("openai:m", base_url=server.url, api_key="k", mode="json_legal")
        fixed = LangChainChatModel(
            "openai:m", base_url=server.url, api_key="k", mode="json_legal", max_tokens=77
        )

        async def go() -> None:
            for model, legal in ((free, vote), (free, speech), (fixed, speech)):
                try:
                    await model.generate(QUESTION, [ACT], "act", legal=legal)
                finally:
                    await model.aclose()

        asyncio.run(go())
        limits = [body.get("max_tokens") for body in server.requests_for("m")]
    assert limits == [CHOICE_REPLY, REPLY_RESERVE, 77]
