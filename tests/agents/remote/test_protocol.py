"""The published protocol document is current, and real messages conform to it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import jsonschema
import pytest

import arena.agents.remote as remote
from arena.agents.remote import RemoteAgent
from arena.agents.remote.protocol import render_schema
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
