import asyncio

import pytest

from arena.llm.base import ProviderError
from arena.llm.types import ChatMessage, ModelReply
from tests.support.scripted import (
    ScriptedCall,
    ScriptedChatModel,
    ScriptError,
    text_reply,
    tool_reply,
)

HELLO = [ChatMessage(role="user", content="hello")]


def test_steps_are_replayed_in_order_and_calls_recorded() -> None:
    def echo(call: ScriptedCall) -> ModelReply:
        return text_reply(f"{len(call.messages)} messages, choice {call.tool_choice}")

    model = ScriptedChatModel([tool_reply("vote", {"target": 3}), echo])
    first = asyncio.run(model.generate(HELLO, [], "required"))
    second = asyncio.run(model.generate(HELLO, [], "vote"))
    assert first.tool_calls[0].name == "vote"
    assert first.tool_calls[0].arguments == '{"target": 3}'
    assert second.text == "1 messages, choice vote"
    assert [c.tool_choice for c in model.calls] == ["required", "vote"]
    model.assert_done()


def test_an_extra_call_fails_loudly() -> None:
    model = ScriptedChatModel([text_reply("only one")], model="tiny")
    asyncio.run(model.generate(HELLO, [], "auto"))
    with pytest.raises(ScriptError, match="unexpected call #2 to tiny"):
        asyncio.run(model.generate(HELLO, [], "auto"))


def test_unused_steps_are_reported() -> None:
    model = ScriptedChatModel([text_reply("a"), text_reply("b"), text_reply("c")])
    asyncio.run(model.generate(HELLO, [], "auto"))
    assert model.remaining == 2
    with pytest.raises(ScriptError, match="2 of 3 scripted steps"):
        model.assert_done()


def test_an_exception_step_is_raised() -> None:
    model = ScriptedChatModel([ProviderError("endpoint down")])
    with pytest.raises(ProviderError, match="endpoint down"):
        asyncio.run(model.generate(HELLO, [], "auto"))
    model.assert_done()


def test_raw_string_arguments_are_sent_verbatim() -> None:
    reply = tool_reply("vote", '{"target": 3,,')
    assert reply.tool_calls[0].arguments == '{"target": 3,,'
