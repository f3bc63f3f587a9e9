"""The bytes a remote agent is sent hold its own seat's view and nothing more.

A fixed 12-seat game is played by remote agents (the example, in-process) whose every
speech and wolf whisper is a unique marker, and whose hello lists `beliefs` (protocol
revision 1), so each seat is also asked its beliefs after every speech. Every `decide`
and `believe` body sent, byte for byte, is checked against the independent oracle of who
may know what (`tests/rules/knowledge.py`, which states audiences from the rules, not from
`arena.rules.visibility`): the events sent are exactly those in the seat's audience so
far, each as the log holds it; no marker of any other event appears anywhere in the body;
what the body says the seat can conclude is the fold of those events alone.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import re

import pytest

from arena.agents.remote import RemoteAgent, check_health
from arena.match import Limits, play
from arena.rules import events as ev
from arena.rules.config import GameConfig
from arena.rules.observation import know
from arena.rules.referee import Referee
from arena.rules.visibility import SeatViewer
from tests.agents.remote.support import InProcess
from tests.rules.knowledge import audiences

CONFIG = GameConfig(board="wwk_guard")
MARK = re.compile(r"(?:SPEECH|WHISPER)MARK-\d+-\d+")


@pytest.fixture(scope="module")
def game():
    agent = InProcess()
    counter = itertools.count(1)
    plain = agent.module.choose

    def marking(message: dict, rng: random.Random) -> dict:
        answer = plain(message, rng)
        if answer["action"] == "speak":
            answer["text"] = f"SPEECHMARK-{message['seat']}-{next(counter)}"
        if answer["action"] == "whisper":
            answer["text"] = f"WHISPERMARK-{message['seat']}-{next(counter)}"
        return answer

    agent.choose = marking
    transport = agent.transport()
    hello = asyncio.run(check_health("http://a/agent", transport=transport))
    seats = {
        s: RemoteAgent("http://a/agent", game_id="leak", transport=transport) for s in range(1, 13)
    }
    for seat in seats.values():
        seat.greeted(hello)
    referee = asyncio.run(play(Referee(CONFIG, 21), seats, limits=Limits(beliefs="per_speech")))
    events = referee.events
    return events, audiences(events, CONFIG), agent.bodies


def decisions(bodies: list[bytes]) -> list[tuple[bytes, dict]]:
    """Every body that carries a seat's view: decisions and belief questions."""
    parsed = [(b, json.loads(b)) for b in bodies]
    return [(b, m) for b, m in parsed if m["type"] in ("decide", "believe")]


def test_the_game_exercised_secrets(game) -> None:
    events, _, bodies = game
    kinds = {type(e) for e in events}
    assert {ev.WolfWhispered, ev.SeerChecked, ev.GuardProtected, ev.WitchActed} <= kinds
    sent = decisions(bodies)
    assert {m["seat"] for _, m in sent} == set(range(1, 13))
    questions = [m for _, m in sent if m["type"] == "believe"]
    assert {m["seat"] for m in questions} == set(range(1, 13)) and len(questions) > 100
    assert any(isinstance(e, ev.WolfWhispered) and MARK.match(e.text) for e in events)


def test_each_seat_is_sent_exactly_its_audience(game) -> None:
    events, audience, bodies = game
    for _, message in decisions(bodies):
        viewer = SeatViewer(seat=message["seat"])
        observation = message["observation"]
        cut = observation["log_length"]
        allowed = {i for i in range(cut) if audience[i].allows(viewer)}
        sent = {seq: event for seq, event in observation["seen"]}
        assert set(sent) == allowed, (message["seat"], cut)
        for seq, event in sent.items():
            assert event == json.loads(events[seq].model_dump_json())
        assert observation["viewer"] == {"kind": "seat", "seat": message["seat"]}


def test_no_marker_of_another_event_is_in_the_bytes(game) -> None:
    events, audience, bodies = game
    marks = [set(MARK.findall(e.model_dump_json())) for e in events]
    assert sum(map(len, marks)) > 50
    for body, message in decisions(bodies):
        viewer = SeatViewer(seat=message["seat"])
        cut = message["observation"]["log_length"]
        hidden = set().union(
            *(m for i, m in enumerate(marks) if i >= cut or not audience[i].allows(viewer))
        )
        found = set(MARK.findall(body.decode())) & hidden
        assert not found, (message["seat"], cut, sorted(found)[:3])


def test_what_the_seat_concludes_comes_from_its_audience_alone(game) -> None:
    events, audience, bodies = game
    for _, message in decisions(bodies)[::7]:
        viewer = SeatViewer(seat=message["seat"])
        cut = message["observation"]["log_length"]
        visible = [events[i] for i in range(cut) if audience[i].allows(viewer)]
        expected = json.loads(know(viewer, visible).model_dump_json())
        assert message["observation"]["knowledge"] == expected


def test_a_start_carries_only_the_seat_and_its_secret(game) -> None:
    _, _, bodies = game
    starts = [json.loads(b) for b in bodies if json.loads(b)["type"] == "start"]
    assert sorted(m["seat"] for m in starts) == list(range(1, 13))
    assert len({m["secret"] for m in starts}) == 12
    for message in starts:
        assert set(message) == {
            "type",
            "protocol",
            "nonce",
            "game_id",
            "seat",
            "secret",
            "limit_ms",
            "overage_ms",
            "lang",  # the game's language (protocol revision 3): the table's, not a card
        }


def test_a_belief_question_names_the_seats_its_seat_knows_present(game) -> None:
    """`seats` and `day` follow from the seat's own view; `after_seq` is where it is cut."""
    events, audience, bodies = game
    for _, message in decisions(bodies):
        if message["type"] != "believe":
            continue
        viewer = SeatViewer(seat=message["seat"])
        cut = message["observation"]["log_length"]
        known = know(viewer, [events[i] for i in range(cut) if audience[i].allows(viewer)])
        others = [s for s in known.present() if s != message["seat"]]
        assert message["seats"] == others
        assert (message["after_seq"], message["day"]) == (cut, known.day)
