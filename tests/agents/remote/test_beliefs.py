"""Belief questions (protocol revision 1): asked only of an agent whose hello lists `beliefs`.

An agent that lists it answers `believe` like a decision: bound to the game, its seat and
the question's step (`after_seq`), signed with the seat's secret, within the seat's limit.
A late, unsigned or unbound answer gives no report and is recorded in the trace with the
reason; it never changes the game. An agent that does not list it is sent exactly what it
was sent before revision 1.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from arena.agents.random_agent import RandomAgent
from arena.agents.remote import RemoteAgent, check_health
from arena.agents.remote.seat import preflight_remote
from arena.match import Limits, new_header, run_game
from arena.records import BeliefReport
from arena.rules import events as ev
from arena.rules.config import GameConfig
from arena.rules.observation import observe
from arena.rules.referee import Referee
from arena.rules.visibility import SeatViewer
from arena.storage.replay_file import Replay, read_replay
from tests.agents.remote.support import InProcess, example_process

URL = "http://agent.test/agent"
CONFIG = GameConfig(board="wwk_guard")
SEED = 8
BAD = 3


def greeted(agent: InProcess, **options: Any) -> dict[int, RemoteAgent]:
    """Twelve remote seats of game `g`, each told the features of the agent's hello."""
    transport = agent.transport()
    hello = asyncio.run(check_health(URL, transport=transport))
    seats = {s: RemoteAgent(URL, game_id="g", transport=transport, **options) for s in range(1, 13)}
    for remote in seats.values():
        remote.greeted(hello)
    return seats


def play(agent: InProcess, path: Path, beliefs: str = "daily", **options: Any) -> Replay:
    seats = greeted(agent, **options)
    limits = Limits(beliefs=beliefs, void_after_defaults=10_000)  # type: ignore[arg-type]
    asyncio.run(run_game(new_header("g", CONFIG, SEED, seats), seats, path, limits=limits))
    return read_replay(path)


def play_greeted(remote: dict[int, RemoteAgent], path: Path) -> Replay:
    """Greet `remote`'s seats (the real preflight), then play them among random seats,
    beliefs asked after every speech."""
    agents = {**{s: RandomAgent(s) for s in range(1, 13)}, **remote}

    async def go() -> None:
        try:
            await preflight_remote(agents)
            header = new_header("proc", CONFIG, 11, agents)
            await run_game(header, agents, path, limits=Limits(beliefs="per_speech"))
        finally:
            for seat in remote.values():
                await seat.aclose()

    asyncio.run(go())
    return read_replay(path)


def belief_traces(replay: Replay, seat: int) -> list[Any]:
    return [t for t in replay.traces if t.seat == seat and t.step == -1]


def questions(agent: InProcess, seat: int | None = None) -> list[dict[str, Any]]:
    """The belief questions the agent was sent (to `seat`, when given)."""
    sent = [json.loads(b) for b in agent.bodies]
    return [m for m in sent if m["type"] == "believe" and seat in (None, m["seat"])]


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> tuple[InProcess, Replay]:
    """The game of seed `SEED` with every seat answering its belief questions."""
    agent = InProcess()
    return agent, play(agent, tmp_path_factory.mktemp("honest") / "g.jsonl")


def test_an_agent_that_lists_beliefs_reports_in_every_seat(
    honest: tuple[InProcess, Replay],
) -> None:
    agent, replay = honest
    assert len(replay.beliefs) == len(questions(agent)) > 12
    assert {r.seat for r in replay.beliefs} == {m["seat"] for m in questions(agent)}
    for report in replay.beliefs:
        (call,) = report.calls
        assert call.step == -1 and call.error is None and call.parsed_action == {"beliefs": True}
        assert call.reply is not None
        assert json.loads(call.reply.text)["after_seq"] == report.after_seq
        assert report.seat not in report.wolf_probability
    asked = questions(agent, 4)
    assert [m["after_seq"] for m in asked] == [r.after_seq for r in replay.beliefs if r.seat == 4]
    for message in asked:
        out = set(message["observation"]["knowledge"]["out"])
        assert message["seats"] == sorted(set(range(1, 13)) - {4} - out)
        assert message["after_seq"] == message["observation"]["log_length"]
        assert 0 < message["deadline_ms"] <= message["limit_ms"] == 60_000


def test_an_agent_without_the_feature_is_sent_what_it_was_sent_before(tmp_path: Path) -> None:
    """Whatever the belief schedule, it gets the same messages, seat by seat, byte for byte.

    Only what differs on every run is masked: nonces, the seats' new secrets and the
    deadlines (the time left when each message is sent).
    """
    sent: dict[str, dict[int, list[bytes]]] = {}
    for beliefs in ("off", "per_speech"):
        agent = InProcess()
        agent.agent.features = []
        replay = play(agent, tmp_path / f"{beliefs}.jsonl", beliefs)
        assert not replay.beliefs and not [t for t in replay.traces if t.step == -1]
        messages = [json.loads(b) for b in agent.bodies]
        assert messages[0] == {"type": "hello", "protocol": "werewolf-arena-agent/1"} | {
            "nonce": messages[0]["nonce"]
        }
        assert {m["type"] for m in messages} == {"hello", "start", "decide", "end"}
        by_seat: dict[int, list[bytes]] = {}
        for body, message in zip(agent.bodies, messages, strict=True):
            by_seat.setdefault(message.get("seat", 0), []).append(masked(body, message))
        sent[beliefs] = by_seat
    assert sent["off"] == sent["per_speech"]
    assert sum(map(len, sent["off"].values())) > 100


def masked(body: bytes, message: dict[str, Any]) -> bytes:
    for field in ("nonce", "secret", "deadline_ms"):
        if field in message:
            body = body.replace(f'"{field}":{json.dumps(message[field])}'.encode(), b"")
    return body


def test_the_example_process_answers_beliefs_over_http(tmp_path: Path) -> None:
    """The example agent, its own process, is greeted by the preflight and reports."""
    remote_seats = (2, 5, 9)
    with example_process() as url:
        remote = {s: RemoteAgent(url, game_id="proc", limit_s=30) for s in remote_seats}
        replay = play_greeted(remote, tmp_path / "g.jsonl")
    assert all(seat.answers_beliefs for seat in remote.values())
    assert replay.header.result is not None and not replay.header.result.void
    assert not [e for e in replay.events if isinstance(e, ev.ActionDefaulted)]
    assert {r.seat for r in replay.beliefs} == set(remote_seats)
    assert len({r.after_seq for r in replay.beliefs}) > 3  # after speeches of several days
    for report in replay.beliefs:
        (call,) = report.calls
        assert call.error is None and call.reply is not None
        assert json.loads(call.reply.text)["after_seq"] == report.after_seq
    assert not [t for t in replay.traces if t.step == -1]  # no refused question


def test_the_example_process_without_beliefs_is_never_asked(tmp_path: Path) -> None:
    with example_process("--no-beliefs") as url:
        remote = RemoteAgent(url, game_id="proc")
        replay = play_greeted({4: remote}, tmp_path / "g.jsonl")
    assert not remote.answers_beliefs
    assert not replay.beliefs and not [t for t in replay.traces if t.step == -1]
    assert {t.seat for t in replay.traces} == {4}


Misbehave = Callable[[dict[str, Any], httpx.Response, InProcess], httpx.Response]


def signed(agent: InProcess, key: str, payload: dict[str, Any]) -> httpx.Response:
    data = json.dumps(payload).encode()
    return httpx.Response(
        200, content=data, headers={"X-Arena-Signature": agent.module.sign(key, data)}
    )


def another_seats_answer(message, response, agent):
    """Seat 5's proper answer to the same question, signed with seat 5's secret."""
    _, reply, key = agent.agent.reply({**message, "seat": 5})
    return signed(agent, key, reply)


def echoing_another_seat(message, response, agent):
    return signed(agent, agent.agent.secrets[("g", BAD)], {**response.json(), "seat": 5})


def echoing_another_step(message, response, agent):
    shifted = {**response.json(), "after_seq": message["after_seq"] - 1}
    return signed(agent, agent.agent.secrets[("g", BAD)], shifted)


def unsigned(message, response, agent):
    return httpx.Response(200, content=response.content)


def a_seat_left_out(message, response, agent):
    payload = response.json()
    payload["wolf_probability"].pop(str(message["seats"][0]))
    return signed(agent, agent.agent.secrets[("g", BAD)], payload)


def kept_first() -> Misbehave:
    """The agent's first belief answer, sent again to every later question."""
    kept: list[httpx.Response] = []

    def replaying(message, response, agent):
        if not kept:
            kept.append(response)
            return response
        return httpx.Response(200, content=kept[0].content, headers=kept[0].headers)

    return replaying


@pytest.mark.parametrize(
    ("misbehave", "reason", "answered"),
    [
        (another_seats_answer, "refused: the belief answer is not signed with seat 3's", 0),
        (echoing_another_seat, "refused: the belief answer is for game g seat 5 after", 0),
        (echoing_another_step, "refused: the belief answer is for game g seat 3 after", 0),
        (kept_first(), "refused: the belief answer is for game g seat 3 after", 1),
        (unsigned, "refused: the belief answer is not signed with seat 3's", 0),
        (a_seat_left_out, "wolf_probability must give seats", 0),
    ],
    ids=["other-seat", "echo-seat", "echo-step", "replayed", "unsigned", "seats"],
)
def test_a_bad_belief_answer_is_refused_and_recorded(
    misbehave: Misbehave,
    reason: str,
    answered: int,
    honest: tuple[InProcess, Replay],
    tmp_path: Path,
) -> None:
    """No report from the seat, the refusal in the trace; the game is the honest one."""
    agent = InProcess()

    def hook(message: dict[str, Any], response: httpx.Response) -> httpx.Response:
        if message["type"] == "believe" and message["seat"] == BAD:
            return misbehave(message, response, agent)
        return response

    agent.misbehave = hook
    replay = play(agent, tmp_path / "g.jsonl")
    asked = questions(agent, BAD)
    refusals = belief_traces(replay, BAD)
    assert len(asked) == len(refusals) + answered > 1
    assert all(t.error is not None and t.error.startswith(reason) for t in refusals)
    assert all(t.reply is not None and t.parsed_action is None for t in refusals)
    assert len([r for r in replay.beliefs if r.seat == BAD]) == answered
    assert len(replay.beliefs) == len(questions(agent)) - len(refusals)
    assert replay.events == honest[1].events and replay.answers == honest[1].answers


def test_a_belief_answer_past_the_limit_is_dropped_and_draws_no_overage() -> None:
    """Cut off at the per-decision limit, recorded; the overage budget is the game's moves'."""
    agent = InProcess()

    async def hang(request: httpx.Request) -> httpx.Response:
        if json.loads(request.content)["type"] == "believe":  # after the seat's start
            await asyncio.sleep(3600)
        return await agent.handle(request)

    transport = httpx.MockTransport(hang)
    remote = RemoteAgent(URL, game_id="g", limit_s=0.2, overage_s=5, transport=transport)
    remote.greeted(asyncio.run(check_health(URL, transport=transport)))
    view = observe(Referee(CONFIG, SEED).events, SeatViewer(seat=BAD))

    async def go() -> BeliefReport | None:
        try:
            return await remote.believe(view)
        finally:
            await remote.aclose()

    assert asyncio.run(go()) is None
    (record,) = remote.pending_traces()
    assert (record.seat, record.step, record.error) == (BAD, -1, "no answer within 0.2 s")
    assert remote.overage_s == 5
