"""The self-explosion is a question of its own, asked after the seat's speech (issue 30).

A wolf's speech turn listed `self_explode` beside `speak`, and its answer was the shorter
one: small models ended every day with it at the first wolf speech. The wolves here are
model seats of a stub model (over HTTP) that explodes whenever it is offered the chance:
their speech questions must not offer it, and each explosion comes after the seat spoke,
in the window that follows its own speech.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from arena.agents.model.agent import LLMAgent
from arena.rules import events as ev
from tests.llm.helpers import openai_model
from tests.support.seats import play_game
from tests.support.stub_policy import (
    CallTool,
    StubReply,
    StubRequest,
    answer_from,
    legal_options,
    random_legal,
)
from tests.support.stub_server import StubServer

WOLVES = (3, 5, 8)
"""`CONFIG`'s wolf seats."""
EXPLODE = '"action": "self_explode"'
OTHERWISE = random_legal(5)


def explodes_when_offered(request: StubRequest) -> StubReply:
    """A model that answers `self_explode` the first time (and every time) it may."""
    offered = [o for o in legal_options(request) if EXPLODE in o]
    if not offered:
        return OTHERWISE(request)
    answer = answer_from(offered[0], random.Random(0), None)
    return CallTool("act", json.dumps({"answer": answer}))


def test_a_wolf_is_asked_its_speech_first_and_the_explosion_apart(tmp_path: Path) -> None:
    with StubServer(models={"wolf": explodes_when_offered}) as server:
        agents = {s: LLMAgent(openai_model(server.url, "wolf"), lang="en") for s in WOLVES}
        _, replay = play_game(agents, tmp_path / "g.jsonl")
        questions = [
            "\n".join(legal_options(_last_user(body))) for body in server.requests_for("wolf")
        ]
    speech_turns = [q for q in questions if '"action": "speak"' in q]
    assert speech_turns and not [q for q in speech_turns if EXPLODE in q]
    assert any(EXPLODE in q for q in questions)  # offered, as a question of its own
    events = replay.events
    exploded = [i for i, e in enumerate(events) if isinstance(e, ev.SelfExploded)]
    assert exploded  # the model took its first chance...
    for i in exploded:  # ...after its speech, in the window that follows it
        seat = events[i].seat  # type: ignore[attr-defined]
        spoke = [e for e in events[:i] if isinstance(e, ev.Spoke | ev.SelfExploded)][-1]
        assert isinstance(spoke, ev.Spoke) and spoke.seat == seat


def _last_user(body: dict[str, object]) -> StubRequest:
    """The request's last user turn, as the stub's own policies read it."""
    messages = body["messages"]
    assert isinstance(messages, list)
    question = next(m["content"] for m in reversed(messages) if m["role"] == "user")
    return StubRequest(body, "wolf", (), None, True, question)
