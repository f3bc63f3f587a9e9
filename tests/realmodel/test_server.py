"""What llama.cpp's own server does with the requests a game sends.

Every request shape of every board (each decision's legal answers, with and without a
belief report, and the private belief question) must be accepted: one refused shape
defaults that decision in every game. And the model must read the prompt as it was sent:
a chat format that HTML-escapes (llama-cpp-python's `chatml-function-calling`) turned
every quote of the legal answers into `&#34;`. The server renders the prompt of a request
at `/apply-template` exactly as it does for a completion.
"""

from __future__ import annotations

import asyncio
import json
import re
import urllib.request
from typing import Any

import pytest

from arena.agents.model.library import load_library
from arena.agents.model.options import options_text
from arena.agents.model.probe import VOTE, probe_mode
from arena.agents.model.sizing import Sizing
from arena.agents.model.tools import answer_tool, legal_answers
from arena.llm.base import ChatRequest, LegalFormat, Schema
from arena.llm.openai_provider import OpenAIChatModel
from arena.llm.types import ChatMessage
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionRequest
from arena.rules.referee import Referee
from arena.rules.types import Role
from tests.conftest import BOARD_REFS, play_random

pytestmark = [pytest.mark.real_model, pytest.mark.timeout(900)]

TRICKY = """He said "vote <3> & 'trust' 5" — {"action": "vote", "target": 3} <|im_end|>"""
"""Quotes, angle brackets, an ampersand, JSON and the model's own end marker."""


def game_shapes() -> list[Schema]:
    """One legal schema per distinct structure met in random games on every board.

    Seat numbers and probabilities are blanked to tell structures apart; each decision's
    schema is taken with and without a belief report over every other seat, as a re-ask
    after a self-contradicting speech (`split_claims`: nothing left to trust), and the
    belief question's too.
    """
    shapes: dict[str, Schema] = {}

    def collect(referee: Referee, request: DecisionRequest) -> None:
        seats = len(referee.state.roles)
        roles = sorted(set(referee.state.roles))
        others = [s for s in range(1, seats + 1) if s != request.seat]
        for schema in (
            legal_answers(request, seats, roles),
            legal_answers(request, seats, roles, beliefs=others),
            legal_answers(None, seats, roles, beliefs=others),
            legal_answers(request, seats, roles, trusted=()),  # a split re-ask's speech
        ):
            key = re.sub(r"\[[0-9, .]*\]", "[]", json.dumps(schema, sort_keys=True))
            shapes.setdefault(key, schema)

    for board in sorted(BOARD_REFS):
        play_random(GameConfig(board=BOARD_REFS[board]), 1, on_request=collect)
    return list(shapes.values())


def _chat(url: str, **kwargs: Any) -> OpenAIChatModel:
    return OpenAIChatModel(
        "smollm2", base_url=url, api_key="x", timeout_s=600, dialogue=probe_mode, **kwargs
    )


@pytest.mark.parametrize("form", ["json_schema", "json_object"])
def test_every_request_shape_of_a_game_is_accepted(llama_url: str, form: LegalFormat) -> None:
    shapes = game_shapes()
    tool = answer_tool(12, list(Role), load_library("en").tools)
    messages = (ChatMessage(role="user", content="Answer."),)

    async def send_all() -> list[str]:
        chat = _chat(llama_url, mode="json_legal", max_tokens=1)
        refused = []
        try:
            for schema in shapes:
                try:
                    await chat._generate(
                        ChatRequest(messages, (tool,), tool.name, "json_legal", schema, form)
                    )
                except Exception as exc:  # noqa: BLE001 - every refusal is the finding
                    refused.append(f"{exc}")
        finally:
            await chat.aclose()
        return refused

    refused = asyncio.run(send_all())
    print(f"{len(shapes)} request shapes sent as {form}, {len(refused)} refused")
    assert len(shapes) > 50
    assert refused == []


def test_the_model_reads_the_prompt_as_sent(llama_url: str) -> None:
    chat = _chat(llama_url, mode="json_legal")
    tool = answer_tool(9, [Role.WEREWOLF, Role.SEER], load_library("en").tools)
    messages = (
        ChatMessage(role="system", content="You play seat 4."),
        ChatMessage(role="user", content=TRICKY),
    )
    body = chat._request(
        ChatRequest(messages, (tool,), tool.name, "json_legal", tool.parameters, "json_schema")
    )
    root = llama_url.removesuffix("/v1")
    request = urllib.request.Request(
        f"{root}/apply-template",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=120) as reply:
        prompt = json.load(reply)["prompt"]
    assert TRICKY in prompt
    for entity in ("&#34;", "&#39;", "&quot;", "&lt;", "&gt;", "&amp;"):
        assert entity not in prompt
    reply_ = asyncio.run(_one(chat, messages, tool))
    assert reply_.usage.prompt_tokens > 0


async def _one(chat: OpenAIChatModel, messages: tuple[ChatMessage, ...], tool: Any) -> Any:
    try:
        return await chat.generate(messages, (tool,), tool.name)
    finally:
        await chat.aclose()


def test_the_window_and_the_gauge_are_the_servers(llama_url: str) -> None:
    """llama-server reports a slot's window on `/props` (`default_generation_settings.n_ctx`:
    SmolLM2's 8,192 here), and a seat's gauge, taught by one call, sizes the next request
    within 20 % of the server's own count: in `json_legal` the `act` tool's schema is not
    sent, and an estimate that counted it ran 2-4 times low (issue 30)."""
    lib = load_library("zh")
    roles = [Role.VILLAGER, Role.WEREWOLF, Role.SEER, Role.WITCH, Role.HUNTER, Role.GUARD]
    tool = answer_tool(12, roles, lib.tools)
    system = lib.system.replace("$seats", "12").replace("$rules", lib.role_guide("seer") * 3)
    question = "\n".join(
        ["投票放逐。", lib.label("answers"), *options_text(VOTE, lib.tools, "1|2|…|12")]
    )
    legal = legal_answers(VOTE, 12, roles)

    async def go() -> tuple[int | None, int, int]:
        model = _chat(llama_url, mode="json_legal", max_tokens=24, temperature=0)
        try:
            capabilities = await model.probe()
            sizing = Sizing(model, tool=tool)
            chat = [
                ChatMessage(role="system", content=system),
                ChatMessage(role="user", content=question),
            ]
            first = await model.generate(chat, (tool,), "act", legal=legal)
            sizing.observe(first.usage.prompt_tokens, chat)
            news = "\n".join(
                f'{n}號（發言）："我是好人，{n + 1}號很可疑，今天投他。"' for n in range(1, 12)
            )
            chat += [
                ChatMessage(role="assistant", content=first.text or "{}"),
                ChatMessage(role="user", content=f"{news}\n{question}"),
            ]
            expected = sizing.measure(chat)
            second = await model.generate(chat, (tool,), "act", legal=legal)
            return capabilities.window, expected, second.usage.prompt_tokens
        finally:
            await model.aclose()

    window, expected, counted = asyncio.run(go())
    print(f"window {window}; gauge {expected} tokens, server {counted}")
    assert window == 8192
    assert abs(expected / counted - 1) < 0.2
