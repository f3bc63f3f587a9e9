"""Whole games with LLM seats over real HTTP: every endpoint fault ends in a legal game.

Seat 4 (the seer, so its first decision is a seat-taking night check) is played by a
model whose endpoint misbehaves; seats 1 and 2 by a well-behaved model; the rest by
random agents. Each game must finish, re-run identically from its recorded answers, and
record the fallback: `ActionDefaulted` events naming the fault, and traces with errors.
"""

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.agents.factory import aclose_models, preflight
from arena.agents.llm_agent import LLMAgent
from arena.agents.random_agent import RandomAgent
from arena.llm.stub_policy import (
    Hang,
    HttpError,
    Policy,
    first,
    hang,
    ignore_tool_choice,
    illegal_seat,
    malformed_json,
    no_tool_call,
    random_legal,
    rate_limited,
    server_error,
)
from arena.llm.stub_server import StubServer
from arena.match import Limits, new_header, run_game
from arena.rules import events as ev
from arena.rules.config import GameConfig
from arena.rules.referee import play_answers
from arena.rules.types import Role
from arena.storage.replay_file import read_replay
from tests.llm.helpers import langchain_model, openai_model

CONFIG = GameConfig(
    board="std9",
    deal=(
        Role.VILLAGER,
        Role.WITCH,
        Role.WEREWOLF,
        Role.SEER,
        Role.WEREWOLF,
        Role.HUNTER,
        Role.VILLAGER,
        Role.WEREWOLF,
        Role.VILLAGER,
    ),
)
FAULTY = 4
LIMITS = Limits(beliefs="off", call_timeout_s=5.0)

FAULTS: dict[str, tuple[Callable[[], Policy], str]] = {
    "malformed": (lambda: malformed_json, "not valid JSON"),
    "illegal": (lambda: illegal_seat, "not a legal target"),
    "silent": (lambda: no_tool_call, "no tool call"),
    "stubborn": (lambda: ignore_tool_choice, "no tool call"),
    "limited": (lambda: rate_limited(0.01), "HTTP 429"),
    "down": (lambda: server_error, "HTTP 500"),
    "hang": (lambda: first([Hang(10)] * 6, then=random_legal(1)), "timed out"),
}
"""Fault → (a fresh policy, the text its fallback reason must contain). A hang is only
six requests long: the three tries (of two requests each) of the seer's first check."""
PROVIDERS = {"openai": openai_model, "langchain": langchain_model}


def play(server: StubServer, provider: str, fault: str, tmp_path: Path, retries: int = 1):
    build = PROVIDERS[provider]
    good = build(server.url, "good", mode=None)
    bad = build(server.url, fault, retries=retries, timeout_s=0.3 if fault == "hang" else 3.0)
    agents = {seat: RandomAgent(seat) for seat in range(1, 10)}
    agents |= {
        1: LLMAgent(good, lang="en"),
        2: LLMAgent(good, lang="zh"),
        FAULTY: LLMAgent(bad, lang="en"),
    }
    path = tmp_path / "game.jsonl"

    async def go():
        endpoints = await preflight({1: agents[1]})
        header = new_header("g", CONFIG, 3, agents, endpoints=endpoints)
        try:
            return await run_game(header, agents, path, limits=LIMITS)
        finally:
            await aclose_models(agents)

    referee = asyncio.run(go())
    replay = read_replay(path)
    assert referee.finished and replay.header.result is not None
    assert play_answers(CONFIG, 3, replay.answers).events == referee.events
    assert set(replay.header.endpoints) == {good.endpoint}
    return referee, replay


def defaults(referee, seat: int) -> list[ev.ActionDefaulted]:
    return [e for e in referee.events if isinstance(e, ev.ActionDefaulted) and e.seat == seat]


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_well_behaved_models_play_a_whole_game_without_fallbacks(provider, tmp_path) -> None:
    with StubServer(models={"valid": random_legal(5)}) as server:
        referee, replay = play(server, provider, "valid", tmp_path)
    llm_seats = {1, 2, FAULTY}
    assert not [
        e for e in referee.events if isinstance(e, ev.ActionDefaulted) and e.seat in llm_seats
    ]
    traces = [t for t in replay.traces if t.seat in llm_seats]
    assert traces and all(t.error is None and t.parsed_action for t in traces)
    assert {t.prompt_id for t in traces} == {"werewolf-en@v1", "werewolf-zh@v1"}
    assert all(t.usage.prompt_tokens > 0 for t in traces)
    assert replay.header.endpoints[next(iter(replay.header.endpoints))]["mode"] == "tools_strict"


@pytest.mark.parametrize("fault", sorted(FAULTS))
@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_every_endpoint_fault_ends_in_a_legal_game_with_the_fallback_recorded(
    provider: str, fault: str, tmp_path: Path
) -> None:
    policy, reason = FAULTS[fault]
    with StubServer(models={fault: policy()}) as server:
        referee, replay = play(server, provider, fault, tmp_path)
    fallbacks = defaults(referee, FAULTY)
    assert fallbacks, f"no ActionDefaulted for seat {FAULTY}"
    assert all(reason in e.reason and "after 3 tries" in e.reason for e in fallbacks), [
        e.reason for e in fallbacks
    ]
    mine = [t for t in replay.traces if t.seat == FAULTY]
    if fault == "illegal":
        failed = [t for t in mine if t.parsed_action and t.parsed_action.get("target") == 99]
    else:
        failed = [t for t in mine if t.error]
        assert all(reason in (t.error or "") for t in failed)
    assert len(failed) >= 3 * len(fallbacks)
    assert not defaults(referee, 1) and not defaults(referee, 2)


def test_a_rate_limit_that_clears_is_absorbed_by_the_retry_layer(tmp_path: Path) -> None:
    script = first([HttpError(429, 0.01), HttpError(429, 0.01)], then=random_legal(2))
    with StubServer(models={"flaky": script}) as server:
        referee, replay = play(server, "openai", "flaky", tmp_path, retries=3)
        statuses = len(server.requests_for("flaky"))
    assert not defaults(referee, FAULTY)
    faulty_calls = [t for t in replay.traces if t.seat == FAULTY]
    assert statuses == len(faulty_calls) + 2
    assert all(t.error is None for t in faulty_calls)


def test_a_hang_past_the_runners_call_timeout_is_re_asked(tmp_path: Path) -> None:
    script = first([Hang(10)], then=random_legal(3))
    limits = Limits(beliefs="off", call_timeout_s=1.0)
    with StubServer(models={"sleepy": script}) as server:
        build = PROVIDERS["openai"]
        agents = {seat: RandomAgent(seat) for seat in range(1, 10)}
        agents[FAULTY] = LLMAgent(build(server.url, "sleepy", timeout_s=30), lang="en")
        referee = asyncio.run(
            run_game(new_header("g", CONFIG, 3, agents), agents, None, limits=limits)
        )
    assert referee.finished
    assert not defaults(referee, FAULTY)


def test_beliefs_are_recorded_from_llm_seats(tmp_path: Path) -> None:
    with StubServer() as server:
        agents = {seat: RandomAgent(seat) for seat in range(1, 10)}
        agents[1] = LLMAgent(openai_model(server.url, "believer"), lang="en")
        path = tmp_path / "b.jsonl"
        asyncio.run(
            run_game(
                new_header("b", CONFIG, 3, agents), agents, path, limits=Limits(beliefs="daily")
            )
        )
    beliefs = read_replay(path).beliefs
    assert beliefs and all(b.seat == 1 and b.calls for b in beliefs)
    assert all(0 <= p <= 1 for b in beliefs for p in b.wolf_probability.values())
    assert all(1 not in b.wolf_probability for b in beliefs)


def test_an_always_hanging_model_still_finishes_the_game(tmp_path: Path) -> None:
    with StubServer(models={"stuck": hang(10)}) as server:
        agents = {seat: RandomAgent(seat) for seat in range(1, 10)}
        agents[FAULTY] = LLMAgent(
            openai_model(server.url, "stuck", retries=0, timeout_s=0.05), lang="en"
        )
        referee = asyncio.run(
            run_game(new_header("g", CONFIG, 3, agents), agents, None, limits=LIMITS)
        )
    assert referee.finished and defaults(referee, FAULTY)
