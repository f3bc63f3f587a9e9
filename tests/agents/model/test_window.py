"""A seat's chat within the server's window, measured as the server counts it (issue 30).

The stub emulates llama.cpp, vLLM and Ollama in answer mode `json_legal`: the output
schema builds the sampling grammar and is not prompt (`schema_in_prompt=False`), and a
request longer than the window is refused (HTTP 400). Every game is seeded and its
answers are drawn from each question alone, so it is the same game on every run.
"""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from arena.agents.model.agent import LLMAgent
from arena.agents.preflight import preflight
from arena.llm.tokens import estimate_tokens
from tests.llm.helpers import openai_model
from tests.support.seats import defaults, play_game
from tests.support.stub_policy import random_legal
from tests.support.stub_server import StubModel, StubServer

SPEECH = ("I weigh every claim at this table before I vote, and so should you. " * 9)[:600]
"""A long speech, so a day's round is a large part of a small window."""


def local(window: int | None = None) -> StubModel:
    """A llama.cpp-like endpoint: the legal answers' schema off the prompt."""
    return StubModel(schema_in_prompt=False, context_tokens=window)


def play(
    tmp_path: Path, caps: StubModel, *, props: int | None = None, history_tokens: int = 24_000
):
    """A std9 game of nine model seats on one probed endpoint; the requests it sent."""
    policy = random_legal(7, text=lambda: SPEECH, reproducible=True)
    with StubServer(models={"local": policy}, capabilities={"local": caps}, window=props) as stub:
        model = openai_model(stub.url, "local", mode=None)
        agents = {
            seat: LLMAgent(model, lang="en", history_tokens=history_tokens) for seat in range(1, 10)
        }
        endpoints = asyncio.run(preflight(agents))
        referee, replay = play_game(agents, tmp_path / "game.jsonl", endpoints=endpoints)
        sent = stub.requests_for("local")
    assert endpoints[model.endpoint]["mode"] == "json_legal"
    assert referee.finished and not replay.header.result.void
    return agents, referee, replay, sent


def counted(body: dict[str, Any]) -> int:
    """The prompt tokens the stub counts for a request (and refuses it by)."""
    return estimate_tokens(json.dumps([body.get("tools"), body["messages"]], ensure_ascii=False))


def refused_for_length(replay) -> list:
    return [t for t in replay.traces if t.error and "maximum context length" in t.error]


def test_the_gauge_counts_what_a_json_legal_endpoint_is_sent(tmp_path: Path) -> None:
    """The `act` tool's schema is not sent in `json_legal`: an estimate that counted it ran
    2-4 times low. After its first call each seat's gauge is within 20 % of the count."""
    agents, _, _, _ = play(tmp_path, local())
    errors = [e for agent in agents.values() for e in agent.sizing.gauge.errors]
    assert len(errors) > 20
    assert max(abs(e) for e in errors) < 0.2, sorted(errors)[:3]


def test_a_budget_under_the_window_is_kept_without_a_refusal(tmp_path: Path) -> None:
    """`history_tokens: 6000` under a 7,000-token window: condensed before the server
    refuses (the undercounting gauge waited for the refusal, issue 30)."""
    _, referee, replay, sent = play(tmp_path, local(7000), history_tokens=6000)
    assert not refused_for_length(replay)
    assert max(counted(b) for b in sent) <= 7000
    assert not [d for seat in range(1, 10) for d in defaults(referee, seat)]


def test_the_window_is_learned_from_the_server(tmp_path: Path) -> None:
    """llama-server reports a slot's window on `/props` (SmolLM2: 8,192 whatever `-c`): a
    seat keeps the default 24,000 budget under it, less a reply, and is never refused."""
    _, referee, replay, sent = play(tmp_path, local(9000), props=9000)
    assert replay.header.endpoints
    assert [e["window"] for e in replay.header.endpoints.values()] == [9000]
    assert not refused_for_length(replay)
    assert max(counted(b) for b in sent) <= 9000 - 1024
    assert not [d for seat in range(1, 10) for d in defaults(referee, seat)]


def test_a_round_that_alone_fills_the_window_is_condensed_too(tmp_path: Path) -> None:
    """A window the system message and one day's speeches overfill: older rounds are all
    summarized already, so the current round is condensed too; no decision is lost."""
    _, referee, replay, sent = play(tmp_path, local(5200), props=5200)
    assert not refused_for_length(replay)
    assert max(counted(b) for b in sent) <= 5200
    assert not [d for seat in range(1, 10) for d in defaults(referee, seat)]


def test_a_request_refused_for_length_is_never_sent_again_as_long(tmp_path: Path) -> None:
    """A window the server does not report, and too small to hold a day: each refusal is
    followed, for that seat, only by shorter requests for the same question, never by the
    same chat plus the refusal (which grew 8,375 → 8,534 → 8,693 tokens, issue 30)."""
    _, _, replay, sent = play(tmp_path, local(4600))
    assert refused_for_length(replay), "no request outgrew the window: this proves nothing"
    by_seat: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for body in sent:
        by_seat[body["messages"][0]["content"]].append(body)
    for bodies in by_seat.values():
        for before, after in zip(bodies, bodies[1:], strict=False):
            if counted(before) > 4600 and same_question(before, after):
                assert counted(after) < counted(before)


def same_question(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Whether `after` asks the question `before` asked (its last user turn ends alike)."""
    question = before["messages"][-1]["content"].rsplit("\n\n", 1)[0][-200:]
    return question in after["messages"][-1]["content"]
