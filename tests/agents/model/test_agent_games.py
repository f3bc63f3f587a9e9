"""Whole games with LLM seats over real HTTP: every endpoint fault ends in a legal game.

Seat 4 (the seer, so its first decision is a seat-taking night check) is played by a
model whose endpoint misbehaves; seats 1 and 2 by a well-behaved model; the rest by
random agents. Each game must end (finished, or voided when the faulty seat keeps falling
back), re-run identically from its recorded answers, and record the fallback:
`ActionDefaulted` events naming the fault, and traces with errors. Other games check the
requests themselves: one append-only conversation per seat, one tool for the whole game,
cached tokens priced, and the limits (void rule, per-endpoint time limit).
"""

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.agents.model.agent import LLMAgent
from arena.agents.preflight import aclose_models, preflight
from arena.agents.random_agent import RandomAgent
from arena.agents.seats import EndpointSettings, MatchSpec, build_agents, parse_seats
from arena.llm.pricing import PRICES, cost_usd
from arena.match import Limits, new_header, run_game
from arena.rules import events as ev
from arena.rules.referee import play_answers
from arena.storage.calls import expand_calls
from arena.storage.replay_file import read_replay
from tests.llm.helpers import langchain_model, openai_model
from tests.support.seats import CONFIG, LIMITS, check_extensions, defaults, play_game
from tests.support.stub_policy import (
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
from tests.support.stub_server import StubServer

FAULTY = 4
SEAT_1_REPORTS = 10
"""A game (random agents elsewhere) where seat 1 reports twice, once on its vote, once alone."""
SEAT_4_VOIDS = 5
"""A game (random agents elsewhere) where seat 4 lives long enough to void it."""

FAULTS: dict[str, tuple[Callable[[], Policy], str]] = {
    "malformed": (lambda: malformed_json, "not valid JSON"),
    "illegal": (lambda: illegal_seat, "not a legal target"),
    "silent": (lambda: no_tool_call, "not valid JSON"),
    "stubborn": (lambda: ignore_tool_choice, "not valid JSON"),
    "limited": (lambda: rate_limited(0.01), "HTTP 429"),
    "down": (lambda: server_error, "HTTP 500"),
    "hang": (lambda: first([Hang(10)] * 6, then=random_legal(1)), "timed out"),
}
"""Fault → (a fresh policy, the text its fallback reason must contain). Prose answers
are read as JSON text, so they fail as text that holds no JSON. A hang is only six
requests long: the three tries (of two requests each) of the seer's first check."""
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
    result = replay.header.result
    assert result is not None and (referee.finished or result.void)
    assert play_answers(CONFIG, 3, replay.answers).events == referee.events
    assert set(replay.header.endpoints) == {good.endpoint}
    return referee, replay


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_well_behaved_models_play_a_whole_game_without_fallbacks(provider, tmp_path) -> None:
    with StubServer(models={"valid": random_legal(5)}) as server:
        referee, replay = play(server, provider, "valid", tmp_path)
    llm_seats = {1, 2, FAULTY}
    assert referee.finished and not replay.header.result.void
    assert not [
        e for e in referee.events if isinstance(e, ev.ActionDefaulted) and e.seat in llm_seats
    ]
    traces = [t for t in replay.traces if t.seat in llm_seats]
    assert traces and all(t.error is None and t.parsed_action for t in traces)
    assert {t.prompt_id for t in traces} == {"werewolf-en@v2", "werewolf-zh@v2"}
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
    if replay.header.result.void:
        assert f"seat {FAULTY}" in replay.header.result.reason


def test_a_rate_limit_that_clears_is_absorbed_by_the_retry_layer(tmp_path: Path) -> None:
    script = first([HttpError(429, 0.01), HttpError(429, 0.01)], then=random_legal(2))
    with StubServer(models={"flaky": script}) as server:
        referee, replay = play(server, "openai", "flaky", tmp_path, retries=3)
        statuses = len(server.requests_for("flaky"))
    assert not defaults(referee, FAULTY)
    faulty_calls = [t for t in replay.traces if t.seat == FAULTY]
    # every try is recorded (issue 19): the two refused ones are marked `retried`
    retried = [t for t in faulty_calls if t.retried]
    assert statuses == len(faulty_calls) and len(retried) == 2
    assert all(t.error is not None for t in retried)
    assert all(t.error is None for t in faulty_calls if not t.retried)


def test_a_hang_past_the_runners_call_timeout_is_re_asked(tmp_path: Path) -> None:
    script = first([Hang(10)], then=random_legal(3))
    limits = Limits(beliefs="off", call_timeout_s=1.0)
    with StubServer(models={"sleepy": script}) as server:
        model = openai_model(server.url, "sleepy", timeout_s=30)
        referee, replay = play_game(
            {FAULTY: LLMAgent(model, lang="en")}, tmp_path / "g.jsonl", limits=limits
        )
        bodies = server.requests_for("sleepy")
    assert referee.finished
    # the question that got no answer is continued in the same user turn
    assert check_extensions(bodies) == {bodies[0]["messages"][0]["content"]: 0}
    assert len(bodies[1]["messages"]) == len(bodies[0]["messages"])
    assert not defaults(referee, FAULTY)
    [cut] = [t for t in replay.traces if t.cut_off]
    assert (cut.seat, cut.attempt, cut.reply) == (FAULTY, 1, None)
    retried = [t for t in replay.traces if t.seat == FAULTY and t.step == cut.step]
    assert [t.attempt for t in retried] == [1, 2] and retried[1].parsed_action


def test_beliefs_are_recorded_from_llm_seats(tmp_path: Path) -> None:
    with StubServer() as server:
        agents = {1: LLMAgent(openai_model(server.url, "believer"), lang="en")}
        limits = Limits(beliefs="daily")
        _, replay = play_game(agents, tmp_path / "b.jsonl", limits=limits, seed=SEAT_1_REPORTS)
    beliefs = replay.beliefs
    assert beliefs and all(b.seat == 1 for b in beliefs)
    assert all(0 <= p <= 1 for b in beliefs for p in b.wolf_probability.values())
    assert all(1 not in b.wolf_probability for b in beliefs)
    folded = [b for b in beliefs if not b.calls]
    votes = [t for t in replay.traces if t.parsed_action and t.parsed_action["kind"] == "vote"]
    assert len(folded) <= len(votes), "a report without its own call rides on a vote"
    assert all(t.step == -1 for b in beliefs for t in b.calls)


def test_an_always_hanging_model_still_ends_the_game(tmp_path: Path) -> None:
    with StubServer(models={"stuck": hang(10)}) as server:
        model = openai_model(server.url, "stuck", retries=0, timeout_s=0.05)
        referee, replay = play_game({FAULTY: LLMAgent(model, lang="en")}, tmp_path / "g.jsonl")
    assert defaults(referee, FAULTY)
    result = replay.header.result
    assert referee.finished or (result.void and f"seat {FAULTY}" in result.reason)


# The requests themselves.


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_each_seats_requests_extend_its_previous_one_and_cached_tokens_are_priced(
    provider: str, tmp_path: Path
) -> None:
    seats = (1, 2, 3, 4, 5)
    with StubServer(random_legal(11)) as server:
        model = PROVIDERS[provider](server.url, "gpt-4.1-mini")
        # small budgets, so that the chats are condensed (seats 4 and 5 from the first night)
        budgets = {1: 2500, 2: 2500, 3: 2500, 4: 600, 5: 600}
        agents = {s: LLMAgent(model, lang="en", history_tokens=budgets[s]) for s in seats}
        referee, replay = play_game(agents, tmp_path / "g.jsonl")
        bodies = server.requests_for("gpt-4.1-mini")
    assert referee.finished and len(bodies) > 20
    condensed = check_extensions(bodies)
    assert len(condensed) == len(seats)
    days = referee.state.day
    assert sum(condensed.values()) >= 1
    assert all(n <= 2 * days for n in condensed.values()), (condensed, days)
    assert len({json.dumps(b["tools"]) for b in bodies}) == 1
    assert all(len(b["tools"]) == 1 for b in bodies)

    whole = expand_calls(replay.traces)
    for system in {b["messages"][0]["content"] for b in bodies}:
        sent = [b["messages"] for b in bodies if b["messages"][0]["content"] == system]
        mine = [t for t in whole if t.messages[0].content == system]
        mine.sort(key=lambda t: t.call)
        assert [[m.model_dump(include={"role", "content"}) for m in t.messages] for t in mine] == [
            [{"role": m["role"], "content": m["content"]} for m in messages] for messages in sent
        ]

    price = PRICES["gpt-4.1-mini"]
    usage = [t.usage for t in replay.traces]
    cached = sum(u.cached_tokens for u in usage)
    prompt = sum(u.prompt_tokens for u in usage)
    assert cached > 0.5 * prompt, (cached, prompt)
    assert all(t.cost_usd == pytest.approx(cost_usd(t.usage, price)) for t in replay.traces)


# Limits: the void rule and the per-endpoint time limit.


def stub_agents(url: str, specs: list[str], **settings) -> dict:
    endpoint = EndpointSettings(base_url=url, mode="tools", retries=0, **settings)
    spec = MatchSpec(lang="en", endpoints={"openai": endpoint})
    return build_agents(parse_seats(specs, 9), CONFIG, seed=1, spec=spec, beliefs="off")


def test_a_seat_that_keeps_answering_illegal_seats_voids_the_game(tmp_path: Path) -> None:
    limits = Limits()
    with StubServer(models={"illegal": illegal_seat}) as server:
        agents = stub_agents(server.url, ["4=openai:illegal", "1-3,5-9=random"])
        referee, replay = play_game(agents, tmp_path / "v.jsonl", seed=SEAT_4_VOIDS)
    result = replay.header.result
    assert not referee.finished and not any(isinstance(e, ev.GameEnded) for e in referee.events)
    assert result.void and result.winner is None
    assert f"seat {FAULTY}'s agent fell back to defaults" in result.reason
    assert "not a legal target" in result.reason
    fallbacks = defaults(referee, FAULTY)
    decided = {t.step for t in replay.traces if t.seat == FAULTY}
    assert len(fallbacks) == limits.void_after_defaults
    assert len(fallbacks) >= limits.void_default_share * len(decided)
    tried = [t for t in replay.traces if t.seat == FAULTY and t.parsed_action]
    assert any(t.parsed_action.get("target") == 99 for t in tried)
    assert play_answers(CONFIG, SEAT_4_VOIDS, replay.answers).events == referee.events


def test_a_decision_past_the_endpoints_time_limit_is_cut_off_and_traced(tmp_path: Path) -> None:
    with StubServer(models={"sleepy": hang(30)}) as server:
        agents = stub_agents(
            server.url, ["4=openai:sleepy", "1-3,5-9=random"], decision_timeout_s=0.3
        )
        assert agents[FAULTY].decision_timeout_s == 0.3
        referee, replay = play_game(agents, tmp_path / "t.jsonl")
    fallbacks = defaults(referee, FAULTY)
    assert fallbacks and all("no answer within 0.3 s" in e.reason for e in fallbacks)
    mine = [t for t in replay.traces if t.seat == FAULTY]
    assert mine and all(t.cut_off and t.reply is None and t.error for t in mine)
    assert len(mine) >= 3 * len(fallbacks)
    # Cancelled requests may reach the server out of order, so the chat is checked as the
    # seat sent it: every cut-off question is continued in the same user turn.
    sent = sorted(expand_calls(mine), key=lambda r: r.call)
    for before, after in zip(sent, sent[1:], strict=False):
        assert len(after.messages) == len(before.messages) == 2
        assert after.messages[0] == before.messages[0]
        assert after.messages[1].content.startswith(before.messages[1].content)
