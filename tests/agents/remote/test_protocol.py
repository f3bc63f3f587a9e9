"""The published protocol document is current, and real messages conform to it."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import jsonschema
import pytest

import arena.agents.remote as remote
from arena.agents.model.parsing import read_act
from arena.agents.remote import RemoteAgent, check_health
from arena.agents.remote.protocol import BELIEFS, PROTOCOL, REVISION, HelloReply, render_schema
from arena.match import Limits, play
from arena.rules.config import GameConfig
from arena.rules.referee import Referee
from tests.agents.remote.support import InProcess

PUBLISHED = Path(remote.__file__).parent / "protocol.json"


def test_the_checked_in_document_is_the_generated_one() -> None:
    assert PUBLISHED.read_text(encoding="utf-8") == render_schema(), (
        "regenerate it: python -m arena.agents.remote > arena/agents/remote/protocol.json"
    )


@pytest.fixture(scope="module")
def exchanged() -> tuple[InProcess, list[dict], list[dict]]:
    """A whole game's requests and the example agent's replies."""
    replies: list[dict] = []
    agent = InProcess()

    def keep(message, response):
        replies.append({"type": message["type"], "reply": json.loads(response.content)})
        return response

    agent.misbehave = keep
    seats = {
        s: RemoteAgent("http://agent/agent", game_id="g", transport=agent.transport())
        for s in range(1, 13)
    }
    asyncio.run(play(Referee(GameConfig(board="wwk_guard"), 5), seats, limits=Limits()))
    return agent, [json.loads(b) for b in agent.bodies], replies


def validator(name: str) -> jsonschema.protocols.Validator:
    schema = json.loads(PUBLISHED.read_text(encoding="utf-8"))
    one = {**schema, "$ref": f"#/$defs/{name}"}
    cls = jsonschema.validators.validator_for(schema)
    return cls(one)


def test_requests_of_a_game_conform(exchanged) -> None:
    """Every start, and decisions from the start, middle and end (validation is slow)."""
    _, requests, _ = exchanged
    kinds = {"start": "Start", "decide": "Decide", "hello": "Hello"}
    assert {m["type"] for m in requests} == {"start", "decide"}
    decisions = [m for m in requests if m["type"] == "decide"]
    starts = [m for m in requests if m["type"] == "start"]
    sample = [*starts, decisions[0], decisions[len(decisions) // 2], decisions[-1]]
    for message in sample:
        validator(kinds[message["type"]]).validate(message)


def test_every_reply_of_the_example_conforms(exchanged) -> None:
    _, _, replies = exchanged
    kinds = {"start": "Ready", "decide": "Answer"}
    for reply in replies:
        validator(kinds[reply["type"]]).validate(reply["reply"])


def test_the_answer_shapes_refuse_what_the_parser_refuses() -> None:
    check = validator("Act")
    check.validate({"action": "vote", "target": 3})
    with pytest.raises(jsonschema.ValidationError):
        check.validate({"action": "vote"})
    with pytest.raises(jsonschema.ValidationError):
        check.validate({"action": "fly", "target": 3})


def test_the_docs_answer_shapes_conform_and_read_alike() -> None:
    """docs/agents.md's answers conform: a claimed check needs its seat and result only.

    The schema required a check's `role` and `acted` too (the strict tool's shape), so the
    docs' own speech was invalid against it though the arena reads it.
    """
    docs = (Path(__file__).parents[3] / "docs" / "agents.md").read_text(encoding="utf-8")
    start = docs.index("Other shapes: ")
    shapes = re.findall(r"`(\{\"action\".*?\})`", docs[start : docs.index("….", start)], re.S)
    check = validator("Act")
    assert len(shapes) == 3
    for text in shapes:
        answer = json.loads(" ".join(text.split()))
        check.validate(answer)
        assert read_act(answer, None).action is not None


@pytest.fixture(scope="module")
def believed() -> tuple[list[dict], list[dict]]:
    """A game of an agent whose hello lists `beliefs`: every request and reply."""
    replies: list[dict] = []
    agent = InProcess()

    def keep(message, response):
        replies.append({"type": message["type"], "reply": json.loads(response.content)})
        return response

    agent.misbehave = keep
    transport = agent.transport()
    hello = asyncio.run(check_health("http://agent/agent", transport=transport))
    seats = {
        s: RemoteAgent("http://agent/agent", game_id="g", transport=transport) for s in range(1, 13)
    }
    for seat in seats.values():
        seat.greeted(hello)
    asyncio.run(play(Referee(GameConfig(board="wwk_guard"), 5), seats, limits=Limits()))
    return [json.loads(b) for b in agent.bodies], replies


def test_belief_questions_and_their_answers_conform(believed) -> None:
    """Revision 1: the hello lists `beliefs`; questions and answers match the schema."""
    requests, replies = believed
    kinds = {"hello": "HelloReply", "start": "Ready", "decide": "Answer", "believe": "BeliefAnswer"}
    assert {m["type"] for m in requests} == set(kinds)
    assert replies[0]["reply"]["features"] == ["beliefs"]
    for reply in replies:
        validator(kinds[reply["type"]]).validate(reply["reply"])
    questions = [m for m in requests if m["type"] == "believe"]
    for message in (questions[0], questions[len(questions) // 2], questions[-1]):
        validator("Believe").validate(message)
    with pytest.raises(jsonschema.ValidationError):
        validator("BeliefAnswer").validate({**replies[-1]["reply"], "wolf_probability": {"1": 2}})


def test_the_document_names_its_revision_and_features() -> None:
    schema = json.loads(PUBLISHED.read_text(encoding="utf-8"))
    assert (schema["version"], schema["revision"]) == ("werewolf-arena-agent/1", REVISION)
    assert set(schema["features"]) == {BELIEFS}
    assert {"$ref": "#/$defs/Believe"} in schema["requests"]
    assert schema["replies"]["Believe"] == {"$ref": "#/$defs/BeliefAnswer"}


@pytest.mark.parametrize(
    ("extra", "features"),
    [
        ({}, ()),
        ({"features": ["beliefs", "telepathy"]}, ("beliefs", "telepathy")),
        ({"features": "beliefs"}, ()),
        ({"features": {"beliefs": True}}, ()),
        ({"features": ["beliefs", 3]}, ("beliefs",)),
    ],
)
def test_a_hello_reply_reads_features_leniently(extra: dict, features: tuple) -> None:
    """A reply of revision 0 may carry a `features` field of its own: it is no feature."""
    reply = HelloReply.model_validate({"protocol": PROTOCOL, "name": "x", **extra})
    assert reply.features == features
    seat = RemoteAgent("http://agent/agent", game_id="g")
    seat.greeted(reply)
    assert seat.answers_beliefs == (BELIEFS in features)
