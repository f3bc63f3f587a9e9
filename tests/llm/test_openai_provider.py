import asyncio

import pytest

from arena.agents.model.probe import VOTE
from arena.errors import ArenaError
from arena.llm.base import REPLY_RESERVE, ProviderError
from arena.llm.fallback import CHOICE_REPLY
from arena.llm.openai_provider import OpenAIChatModel
from arena.llm.pricing import PRICES, cost_usd
from arena.llm.types import ChatMessage, ToolCall
from arena.rules.actions import Pass, Vote
from tests.llm.helpers import Sleeps, openai_model
from tests.support.seats import ACT, QUESTION, answer_of, raw_answer
from tests.support.stub_policy import (
    HttpError,
    Text,
    first,
    hang,
    malformed_json,
    random_legal,
    rate_limited,
    server_error,
)
from tests.support.stub_server import StubModel, StubServer

CAPABILITIES = {
    "full": StubModel(),
    "loose": StubModel(strict=False),
    "stubborn": StubModel(tool_choice=False),
    "schema": StubModel(tools=False),
    "plain": StubModel(tools=False, json_schema=False),
}
PROBE_SYSTEM = "You are playing Werewolf as seat #4 at a table of 12"


def is_probe(body: dict) -> bool:
    return body["messages"][0]["content"].startswith(PROBE_SYSTEM)


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
def test_probe_falls_back_in_order_and_every_mode_yields_a_legal_answer(
    name: str, mode: str, tool_choice: bool | None
) -> None:
    with StubServer(capabilities=CAPABILITIES) as server:
        model = openai_model(server.url, name, mode=None)
        caps = asyncio.run(model.probe())
        reply = asyncio.run(model.generate(QUESTION, [ACT], "act"))
        body = server.requests_for(name)[-1]
    assert (caps.mode, caps.tool_choice, caps.probed) == (mode, tool_choice, True)
    assert caps.endpoint == f"openai:{name}@{server.url}"
    assert model.capabilities == caps
    action = answer_of(reply)
    assert action == Pass() or (
        isinstance(action, Vote) and action.target in VOTE.options[0].targets
    )
    if mode.startswith("tools"):
        assert [t["function"]["name"] for t in body["tools"]] == ["act"]
    else:
        assert "tools" not in body and "act" in body["messages"][0]["content"]
        assert (body.get("response_format") is not None) == (mode == "json_schema")


def test_generate_probes_once_when_no_mode_is_configured() -> None:
    with StubServer(capabilities=CAPABILITIES) as server:
        model = openai_model(server.url, "loose", mode=None)

        async def three() -> None:
            await asyncio.gather(*(model.generate(QUESTION, [ACT], "act") for _ in range(3)))

        asyncio.run(three())
        bodies = server.requests_for("loose")
    probes = [b for b in bodies if is_probe(b)]
    # json_legal: the json_object form is not enforced (one request), the json_schema form
    # is but counts as prompt (two); tools_strict is refused once (HTTP 400), then `tools`
    # answers the vote and the speech; then the three game calls
    assert len([b for b in bodies if "response_format" in b]) == 3
    assert len(probes) == 3
    assert len(bodies) == 9
    tooled = [b for b in bodies if "tools" in b]
    assert all("strict" not in t["function"] for b in tooled[1:] for t in b["tools"])


def test_rate_limit_is_retried_after_the_servers_retry_after() -> None:
    sleeps = Sleeps()
    script = first([HttpError(429, 0.02), HttpError(429, 0.03)], then=random_legal())
    with StubServer(models={"m": script}) as server:
        model = openai_model(server.url, "m", retries=3, sleeps=sleeps)
        reply = asyncio.run(model.generate(QUESTION, [ACT], "act"))
        assert len(server.requests) == 3
    assert reply.tool_calls and answer_of(reply) is not None
    assert sleeps.waits == [0.02, 0.03]


def test_the_sdk_does_not_retry_behind_our_back() -> None:
    with StubServer(models={"m": server_error}) as server:
        model = openai_model(server.url, "m", retries=0)
        with pytest.raises(ProviderError, match=r"HTTP 500 \(after 1 tries\)"):
            asyncio.run(model.generate(QUESTION, [ACT], "act"))
        assert len(server.requests) == 1


@pytest.mark.parametrize(
    ("policy", "message"),
    [(rate_limited(0.01), "HTTP 429"), (server_error, "HTTP 500")],
)
def test_persistent_transient_errors_end_in_a_provider_error(policy, message: str) -> None:
    with StubServer(models={"m": policy}) as server:
        model = openai_model(server.url, "m", retries=2)
        with pytest.raises(ProviderError, match=f"{message} \\(after 3 tries\\)"):
            asyncio.run(model.generate(QUESTION, [ACT], "act"))
        assert len(server.requests) == 3


def test_a_hang_past_the_timeout_is_a_timeout() -> None:
    with StubServer(models={"m": hang(10)}) as server:
        model = openai_model(server.url, "m", retries=1, timeout_s=0.2)
        with pytest.raises(ProviderError, match=r"timed out \(after 2 tries\)"):
            asyncio.run(model.generate(QUESTION, [ACT], "act"))


def test_a_client_error_is_not_retried() -> None:
    with StubServer(models={"m": lambda r: HttpError(400, None, "bad tool schema")}) as server:
        model = openai_model(server.url, "m", retries=3)
        with pytest.raises(ProviderError, match="HTTP 400: .*bad tool schema"):
            asyncio.run(model.generate(QUESTION, [ACT], "act"))
        assert len(server.requests) == 1


def test_malformed_arguments_and_prose_come_back_as_they_are() -> None:
    script = first([Text("I vote 2.")], then=malformed_json)
    with StubServer(models={"m": script}) as server:
        model = openai_model(server.url, "m")
        prose = asyncio.run(model.generate(QUESTION, [ACT], "act"))
        broken = asyncio.run(model.generate(QUESTION, [ACT], "act"))
    assert prose.tool_calls == () and prose.text == "I vote 2."
    assert broken.tool_calls[0].name == "act"
    assert raw_answer(broken).startswith('{"answer": {"action": "vote",,')


def test_usage_and_cost_are_accounted_with_cached_tokens_at_the_cached_rate() -> None:
    long_system = [QUESTION[0].model_copy(update={"content": "rules " * 3000}), QUESTION[1]]
    with StubServer() as server:
        model = openai_model(server.url, "gpt-4.1-mini")
        cold = asyncio.run(model.generate(long_system, [ACT], "act"))
        warm = asyncio.run(model.generate(long_system, [ACT], "act"))
        unknown = asyncio.run(openai_model(server.url, "local-7b").generate(QUESTION, [ACT], "act"))
    assert cold.usage.cached_tokens == 0 and warm.usage.cached_tokens > 1024
    assert 0 < warm.cost_usd < cold.cost_usd
    price = PRICES["gpt-4.1-mini"]
    assert price.cached_input is not None and price.cached_input < price.input
    expected = (cold.usage.prompt_tokens * 0.40 + cold.usage.completion_tokens * 1.60) / 1e6
    assert cold.cost_usd == pytest.approx(expected)
    assert warm.cost_usd == pytest.approx(cost_usd(warm.usage, price))
    assert unknown.cost_usd == 0.0
    assert model.capabilities is not None and model.capabilities.priced
    assert unknown.model == "local-7b"


def test_an_old_style_history_is_sent_as_text_turns_only() -> None:
    call = ToolCall(id="call_1", name="act", arguments='{"answer": {"action": "vote", "target": 9')
    history = [
        *QUESTION,
        ChatMessage(role="assistant", content="", tool_calls=(call,)),
        ChatMessage(role="tool", tool_call_id="call_1", content="not JSON"),
    ]
    with StubServer() as server:
        asyncio.run(openai_model(server.url, "m").generate(history, [ACT], "act"))
        sent = server.requests[-1]["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "user"]
    assert all(set(m) == {"role", "content"} and isinstance(m["content"], str) for m in sent)
    assert sent[2]["content"] == call.arguments
    assert sent[3]["content"] == "not JSON"


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


@pytest.mark.parametrize(
    ("slots", "seats", "pinned"), [(4, 3, True), (4, 5, False), (None, 3, False)]
)
def test_each_conversation_keeps_its_slot_when_the_server_has_one_for_each(
    slots: int | None, seats: int, pinned: bool
) -> None:
    with StubServer(slots=slots) as server:
        model = openai_model(server.url, "slotted", mode="tools")
        indexes = [model.join() for _ in range(seats)]

        async def go() -> None:
            try:
                caps = await model.probe()
                assert caps.slots == slots
                for index in reversed(indexes):
                    await model.generate(QUESTION, [ACT], "act", slot=index)
            finally:
                await model.aclose()

        asyncio.run(go())
        sent = [body.get("id_slot") for body in server.requests_for("slotted")[-seats:]]
    assert sent == (list(reversed(indexes)) if pinned else [None] * seats)


def test_a_server_whose_speeches_are_a_seat_number_passes_the_probe() -> None:
    # "no answer mode produced a legal decision" for a server that answered a speech "3號":
    # the parser read the speech as the number 3 and refused it as not a string
    with StubServer(random_legal(text=lambda: "3號")) as server:
        caps = asyncio.run(openai_model(server.url, "m", mode=None).probe())
    assert caps.mode == "tools_strict"


def test_a_legal_answer_without_a_configured_limit_gets_one_sized_to_the_question() -> None:
    """As for LangChain's seats (tests/llm/test_langchain_provider.py): a choice gets
    `CHOICE_REPLY`, free text the reply reserve, and a configured limit stands."""
    vote = {"type": "object", "properties": {"target": {"type": "integer", "enum": [2, 3]}}}
    speech = {"type": "object", "properties": {"text": {"type": "string"}}}
    with StubServer() as server:
        free = openai_model(server.url, "m", mode="json_legal")
        fixed = OpenAIChatModel(
            "m", base_url=server.url, api_key="k", mode="json_legal", max_tokens=77
        )

        async def go() -> None:
            for model, legal in ((free, vote), (free, speech), (fixed, speech)):
                await model.generate(QUESTION, [ACT], "act", legal=legal)

        asyncio.run(go())
        limits = [body.get("max_tokens") for body in server.requests_for("m")]
    assert limits == [CHOICE_REPLY, REPLY_RESERVE, 77]
