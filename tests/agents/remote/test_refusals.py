"""A remote agent that hangs, answers garbage, for another seat or an old question, is refused.

Each refusal is an answer without an action whose error says why: the runner asks again
with it as feedback, then applies the recorded default, exactly as for a model seat; the
exchange is kept in the replay's trace.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from arena.agents.random_agent import RandomAgent
from arena.agents.remote import RemoteAgent, check_health
from arena.errors import ArenaError
from arena.match import Limits, decide, new_header, run_game
from arena.rules import events as ev
from arena.rules.config import GameConfig
from arena.rules.observation import observe
from arena.rules.referee import Referee
from arena.rules.visibility import SeatViewer
from arena.storage.replay_file import read_replay
from tests.agents.remote.support import InProcess

URL = "http://agent.test/agent"
CONFIG = GameConfig(board="wwk_guard")
BAD = 3


def seats(agent: InProcess, **options: Any) -> dict[int, RemoteAgent]:
    transport = agent.transport()
    return {s: RemoteAgent(URL, game_id="g", transport=transport, **options) for s in range(1, 13)}


def play_recorded(agent: InProcess, path: Path, **options: Any):
    agents = {**{s: RandomAgent(s) for s in range(1, 13)}, **seats(agent, **options)}
    limits = Limits(beliefs="off", void_after_defaults=10_000)
    header = new_header("g", CONFIG, 8, agents)
    asyncio.run(run_game(header, agents, path, limits=limits))
    return read_replay(path)


def refused(replay, seat: int) -> list[ev.ActionDefaulted]:
    return [e for e in replay.events if isinstance(e, ev.ActionDefaulted) and e.seat == seat]


def proper(replay, seat: int) -> int:
    return sum(1 for t in replay.traces if t.seat == seat and t.error is None)


def misbehaving(bad):
    """Seat `BAD`'s answers go through `bad(message, response, agent)`."""
    agent = InProcess()

    def hook(message, response):
        if message["type"] == "decide" and message["seat"] == BAD:
            return bad(message, response, agent)
        return response

    agent.misbehave = hook
    return agent


def sign(agent: InProcess, key: str, payload: dict) -> httpx.Response:
    data = json.dumps(payload).encode()
    return httpx.Response(
        200, content=data, headers={"X-Arena-Signature": agent.module.sign(key, data)}
    )


def test_garbage_is_refused_re_asked_and_defaulted(tmp_path) -> None:
    def garbage(message, response, agent):
        return sign(agent, agent.agent.secrets[("g", BAD)], {"hello": "world"})

    replay = play_recorded(misbehaving(garbage), tmp_path / "g.jsonl")
    defaults = refused(replay, BAD)
    assert defaults and all("not an Answer" in d.reason for d in defaults)
    assert all(d.reason.startswith("after 3 tries") for d in defaults)
    traces = [t for t in replay.traces if t.seat == BAD]
    assert len(traces) == 3 * len(defaults)
    assert all(t.error and t.reply and '"hello"' in t.reply.text for t in traces)
    assert not refused(replay, 4) and proper(replay, 4)


def test_an_answer_for_another_seat_is_refused(tmp_path) -> None:
    def other_seat(message, response, agent):
        status, reply, key = agent.agent.reply({**message, "seat": 5})
        return sign(agent, key, reply)

    replay = play_recorded(misbehaving(other_seat), tmp_path / "g.jsonl")
    defaults = refused(replay, BAD)
    assert defaults and all("not signed with seat 3's secret" in d.reason for d in defaults)
    assert proper(replay, BAD) == 0


@pytest.mark.parametrize(
    ("resign", "named"),
    [
        (
            lambda key, data: "sha256=" + hmac.new(bytes.fromhex(key), data, "sha256").hexdigest(),
            "it is keyed with the secret decoded from hex; the HMAC key is the secret's 64 hex "
            "characters themselves, as ASCII text",
        ),
        (
            lambda key, data: hmac.new(key.encode(), data, "sha256").hexdigest(),
            "the X-Arena-Signature lacks its sha256= prefix",
        ),
    ],
    ids=["hex-decoded key", "no prefix"],
)
def test_a_signing_mistake_is_named_in_the_refusal(tmp_path, resign, named) -> None:
    """Seat 3's agent signs its Ready and its answers with the right secret, wrongly."""

    def hook(message, response):
        if message.get("seat") != BAD or message["type"] not in ("start", "decide"):
            return response
        key = message["secret"] if message["type"] == "start" else agent.agent.secrets[("g", BAD)]
        headers = {"X-Arena-Signature": resign(key, response.content)}
        return httpx.Response(response.status_code, content=response.content, headers=headers)

    agent = InProcess()
    agent.misbehave = hook
    replay = play_recorded(agent, tmp_path / "g.jsonl")
    defaults = refused(replay, BAD)
    assert defaults and proper(replay, BAD) == 0
    assert all(named in d.reason for d in defaults), defaults[0].reason


def test_an_answer_echoing_another_seat_is_refused_even_when_signed(tmp_path) -> None:
    def echo_other(message, response, agent):
        return sign(agent, agent.agent.secrets[("g", BAD)], {**response.json(), "seat": 5})

    replay = play_recorded(misbehaving(echo_other), tmp_path / "g.jsonl")
    defaults = refused(replay, BAD)
    assert defaults and all("answer is for game g seat 5" in d.reason for d in defaults)


def test_a_replayed_answer_is_refused(tmp_path) -> None:
    """The agent sends its first answer again and again: only the first counts."""
    kept: list[httpx.Response] = []

    def replay_first(message, response, agent):
        if not kept:
            kept.append(response)
            return response
        return httpx.Response(200, content=kept[0].content, headers=kept[0].headers)

    replay = play_recorded(misbehaving(replay_first), tmp_path / "g.jsonl")
    defaults = refused(replay, BAD)
    assert proper(replay, BAD) == 1
    assert defaults and all(
        "refused: the answer is for game g seat 3 step" in d.reason for d in defaults
    )


def first_request():
    referee = Referee(CONFIG, 8)
    request = referee.pending()[0]
    return observe(referee.events, SeatViewer(seat=request.seat)), request


def ask(agent: RemoteAgent, limits: Limits | None = None):
    limits = limits or Limits()
    view, request = first_request()

    async def go():
        try:
            return await decide(agent, view, request, limits, time.monotonic() + 600)
        finally:
            await agent.aclose()

    return asyncio.run(go())


def test_a_hanging_agent_is_cut_off_and_defaulted() -> None:
    agent = InProcess()

    async def hang(request: httpx.Request) -> httpx.Response:
        if json.loads(request.content)["type"] == "decide":
            await asyncio.sleep(3600)
        return await agent.handle(request)

    remote = RemoteAgent(
        URL, game_id="g", limit_s=0.2, overage_s=0.3, transport=httpx.MockTransport(hang)
    )
    outcome, replies = ask(remote, Limits(retries=1))
    assert outcome.defaulted == "after 2 tries: no answer within 0.2 s"
    assert [r.error for r in replies] == ["no answer within 0.5 s", "no answer within 0.2 s"]
    assert remote.overage_s == 0.0
    assert all(r.calls[0].error for r in replies)


def test_a_slow_answer_draws_on_the_overage_budget() -> None:
    agent = InProcess()

    async def slow(request: httpx.Request) -> httpx.Response:
        if json.loads(request.content)["type"] == "decide":
            await asyncio.sleep(1.5)
        return await agent.handle(request)

    remote = RemoteAgent(
        URL, game_id="g", limit_s=1.0, overage_s=30.0, transport=httpx.MockTransport(slow)
    )
    outcome, _ = ask(remote)
    assert outcome.defaulted is None
    assert remote.overage_s <= 29.5


def test_transport_faults_are_retried_within_the_deadline() -> None:
    agent = InProcess()
    faults = [httpx.ConnectError("[Errno 113] No route to host"), 503, httpx.ReadError("reset")]

    async def flaky(request: httpx.Request) -> httpx.Response:
        if faults:
            fault = faults.pop(0)
            if isinstance(fault, int):
                return httpx.Response(fault)
            raise fault
        return await agent.handle(request)

    outcome, replies = ask(RemoteAgent(URL, game_id="g", transport=httpx.MockTransport(flaky)))
    assert outcome.defaulted is None
    assert replies[0].calls[0].notes[:3] == (
        "cannot connect ([Errno 113] No route to host)",
        "HTTP 503",
        "connection reset",
    )


def test_a_refused_connection_fails_the_try_at_once() -> None:
    """Nobody listens (the agent's process is gone): each try is one connection attempt,
    refused, not retried until the deadline; the decision is defaulted after three."""
    tried: list[str] = []

    def down(request: httpx.Request) -> httpx.Response:
        tried.append(json.loads(request.content)["type"])
        raise httpx.ConnectError("[Errno 111] Connection refused")

    remote = RemoteAgent(
        URL, game_id="g", limit_s=2.0, overage_s=0, transport=httpx.MockTransport(down)
    )
    outcome, replies = ask(remote, Limits(retries=2))
    assert tried == ["start"] * 3, "one attempt a try"
    assert outcome.defaulted is not None and "connection refused" in outcome.defaulted
    assert [r.calls[0].notes for r in replies] == [("connection refused",)] * 3


def test_a_down_agent_is_defaulted_once_its_deadline_passes() -> None:
    def down(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("[Errno 111] Connection refused")

    remote = RemoteAgent(
        URL, game_id="g", limit_s=0.3, overage_s=0, transport=httpx.MockTransport(down)
    )
    outcome, replies = ask(remote, Limits(retries=0))
    assert outcome.defaulted is not None
    assert "could not be reached: connection refused" in outcome.defaulted


def test_the_agent_refuses_an_arena_without_its_token() -> None:
    agent = InProcess(token="s3cret")
    wrong = RemoteAgent(URL, game_id="g", token="guess", transport=agent.transport())
    outcome, _ = ask(wrong, Limits(retries=0))
    assert (
        outcome.defaulted
        == f"after 1 tries: the agent did not take seat {first_request()[1].seat}: HTTP 401"
    )
    right = RemoteAgent(URL, game_id="g", token="s3cret", transport=agent.transport())
    outcome, _ = ask(right, Limits(retries=0))
    assert outcome.defaulted is None


def test_the_agent_refuses_a_replayed_request() -> None:
    agent = InProcess(token="s3cret")
    remote = RemoteAgent(URL, game_id="g", token="s3cret", transport=agent.transport())
    assert ask(remote)[0].defaulted is None
    stolen = agent.bodies[-1]
    headers = {"X-Arena-Timestamp": str(int(time.time())), "X-Arena-Signature": "sha256=00"}
    assert not agent.agent.authentic(headers, stolen, json.loads(stolen))


def test_the_health_check_is_one_line_when_the_agent_is_down() -> None:
    def down(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("[Errno 111] Connection refused")

    with pytest.raises(ArenaError) as error:
        asyncio.run(check_health(URL, transport=httpx.MockTransport(down)))
    assert str(error.value) == f"remote agent {URL} is down: connection refused"
    hello = asyncio.run(check_health(URL, transport=InProcess().transport()))
    assert hello.name == "example-random"


def test_many_refusals_void_the_game(tmp_path) -> None:
    """A remote seat's defaults count toward the void rule, as a model seat's do."""

    def garbage(message, response, agent):
        return httpx.Response(200, content=b"{}")

    agents = {**{s: RandomAgent(s) for s in range(1, 13)}, **seats(misbehaving(garbage))}
    header = new_header("g", CONFIG, 8, agents)
    asyncio.run(run_game(header, agents, tmp_path / "g.jsonl", limits=Limits(beliefs="off")))
    result = read_replay(tmp_path / "g.jsonl").header.result
    assert result is not None and result.void and "seat 3's" in result.reason
