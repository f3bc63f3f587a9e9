"""The per-request schema of answer mode `json_legal` admits every legal answer, nothing else.

A grammar-constrained server samples only what the schema admits, so a model there can
make no illegal answer exactly when every value the schema admits is legal. Checked on
every request of seeded random games on every board: answers sampled from the schema
(as a grammar would let a model write them) all pass the referee's `check_legal`, and the
legal answers the random agent builds all validate against the schema.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import jsonschema
import pytest

from arena.agents.model.library import load_library
from arena.agents.model.parsing import parse_answer
from arena.agents.model.tools import (
    ANSWER,
    BELIEF_FIELD,
    PROBABILITIES,
    answer_tool,
    legal_answers,
    reported_fields,
    split_claims,
)
from arena.agents.random_agent import build
from arena.rules.actions import Action, Claims, Pass, Speak
from arena.rules.config import GameConfig
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest, check_legal
from arena.rules.errors import IllegalActionError
from arena.rules.referee import Referee
from tests.conftest import BOARD_REFS, play_random
from tests.support.stub_policy import sample


def as_answer(action: Action, told: frozenset[str] = frozenset()) -> dict[str, Any]:
    """`action` in the `act` tool's answer shape (`told`: a check's extra fields here)."""
    data = action.model_dump(mode="json")
    answer: dict[str, Any] = {"action": data.pop("kind")}
    if isinstance(action, Speak):
        claims = data.pop("claims")
        answer |= {
            "claimed_role": claims["role"],
            "claimed_checks": [
                {"seat": c["seat"], "result": "wolf" if c["is_wolf"] else "good"}
                | {name: c[name] for name in sorted(told)}
                for c in claims["checks"]
            ],
            "suspects": claims["suspects"],
            "trusts": claims["trusts"],
        }
    return answer | data


SCHEMA_BOARDS = sorted(BOARD_REFS)
"""Every built-in board and every example board file (the `site` ones included: there a
sheriff's speaking order after a peaceful night must name its start seat)."""


SCHEMA_SEEDS = [0, *(pytest.param(seed, marks=pytest.mark.slow) for seed in (1, 2))]
"""Three random games a board; `make check` plays the first only (every board still met)."""


@pytest.mark.parametrize("seed", SCHEMA_SEEDS)
@pytest.mark.parametrize("board", SCHEMA_BOARDS)
def test_the_schema_admits_exactly_the_legal_answers(board: str, seed: int) -> None:
    rng = random.Random(f"{board}/{seed}")
    checked = 0

    def check(referee: Referee, request: DecisionRequest) -> None:
        nonlocal checked
        seats = len(referee.state.roles)
        roles = sorted(set(referee.state.roles))
        schema = legal_answers(request, seats, roles)
        for _ in range(4):
            written = json.dumps(sample(schema, rng))
            action = parse_answer(written, request).action
            assert action is not None, written
            check_legal(request, action)
        for option in request.options:
            answer = as_answer(build(option, request, rng), reported_fields(roles))
            if "targets" in answer:
                answer["targets"] = sorted(answer["targets"])  # one spelling per seat set
            jsonschema.validate({ANSWER: answer}, schema)
        others = [s for s in range(1, seats + 1) if s != request.seat]
        assert not_objects(legal_answers(request, seats, roles, beliefs=others)) == []
        checked += 1

    play_random(GameConfig(board=BOARD_REFS[board]), seed, on_request=check)
    assert checked > 15


VOTE = DecisionRequest.model_validate(
    {
        "step": 0,
        "seat": 1,
        "kind": "vote",
        "day": 1,
        "night": False,
        "options": [{"action": "vote", "targets": [2, 3]}, {"action": "pass"}],
        "default": {"kind": "pass"},
    }
)
"""Seat 1's exile vote: seat 2, seat 3, or pass."""


def test_a_vote_carries_one_probability_per_seat_asked_and_a_report_nothing_else() -> None:
    schema = legal_answers(VOTE, 9, [], beliefs=[2, 3, 5])
    rng = random.Random(1)
    for _ in range(20):
        answer = sample(schema, rng)[ANSWER]
        if answer["action"] == "vote":
            report = answer[BELIEF_FIELD]
            assert list(report) == ["2", "3", "5"]
            assert all(p in PROBABILITIES for p in report.values())
            assert parse_answer(json.dumps({ANSWER: answer}), VOTE).beliefs == {
                int(s): p for s, p in report.items()
            }
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({ANSWER: {"action": "vote", "target": 4, BELIEF_FIELD: {}}}, schema)
    report = legal_answers(None, 9, [], beliefs=[2, 3])
    only = {ANSWER: {"action": "report_belief", BELIEF_FIELD: {"2": 0.5}}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(only, report)
    whole = {"2": 0.5, "3": 0.25}
    jsonschema.validate({ANSWER: {"action": "report_belief", BELIEF_FIELD: whole}}, report)


def test_a_keyed_report_costs_about_half_the_characters_of_rows() -> None:
    """What a model writes is what it pays for in generated tokens (issue 30): the narrowed
    report of eight seats, as a grammar writes it, against the rows it replaced."""
    seats = [2, 3, 4, 5, 6, 7, 8, 9]
    keyed = sample(legal_answers(None, 9, [], beliefs=seats), random.Random(2))[ANSWER]
    rows = [{"seat": int(s), "p": p} for s, p in keyed[BELIEF_FIELD].items()]
    assert len(json.dumps(keyed[BELIEF_FIELD])) * 1.8 < len(json.dumps(rows))


MIST = DecisionRequest.model_validate(
    {
        "step": 0,
        "seat": 1,
        "kind": "mist",
        "day": 1,
        "night": True,
        "options": [{"action": "mist", "targets": [2, 3, 4, 5, 6]}, {"action": "pass"}],
        "default": {"kind": "pass"},
    }
)
"""The alchemist witch's mist over three of seats 2-6 (or none tonight)."""


@pytest.mark.parametrize(
    ("kind", "count"), [("mist", 3), ("swap", 2), ("link", 2), ("recommend_exile", 1)]
)
def test_a_seat_list_admits_no_seat_twice_as_a_grammar_reads_it(kind: str, count: int) -> None:
    """A grammar writes any item of an `items` enum again; SmolLM2 misted one seat twice and
    its once-a-game skill was defaulted after three refusals (CI, stop 34). The schema lists
    the sets, so nothing a grammar can write names a seat twice, and every set is there."""
    option = ActionOption(action=kind, targets=(2, 3, 4, 5, 6))
    request = MIST.model_copy(update={"kind": DecisionKind(MIST.kind), "options": (option,)})
    field = legal_answers(request, 9, [])["properties"][ANSWER]["properties"]["targets"]
    written = [tuple(v) for v in field["enum"]]
    assert all(len(set(v)) == len(v) for v in written)
    assert {frozenset(v) for v in written if len(v) == count} == {
        frozenset(c) for c in itertools.combinations(range(2, 7), count)
    }
    for value in written:
        written_answer = json.dumps({ANSWER: {"action": kind, "targets": list(value)}})
        action = parse_answer(written_answer, request).action
        assert action is not None, written_answer
        check_legal(request, action)


def test_a_report_with_a_seat_not_asked_is_refused() -> None:
    report = legal_answers(None, 9, [], beliefs=[2, 3])
    extra = {"2": 0.5, "3": 0.25, "4": 0.25}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({ANSWER: {"action": "report_belief", BELIEF_FIELD: extra}}, report)


def not_objects(schema: Any, path: str = "#") -> list[str]:
    """Where `schema` holds a subschema that is not an object (a boolean schema).

    llama.cpp's own server (common/json-schema.cpp) refuses the whole request then, with
    HTTP 400 "JSON schema error at PATH: schema must be an object"; it reads `items`
    before `prefixItems`, so `"items": false` beside a tuple was refused too.
    """
    if not isinstance(schema, dict):
        return [path]
    found: list[str] = []
    for key in ("items", "not", "additionalItems"):
        if key in schema:
            found += not_objects(schema[key], f"{path}/{key}")
    for key in ("prefixItems", "anyOf", "oneOf", "allOf"):
        for i, sub in enumerate(schema.get(key, [])):
            found += not_objects(sub, f"{path}/{key}/{i}")
    for name, sub in schema.get("properties", {}).items():
        found += not_objects(sub, f"{path}/properties/{name}")
    extra = schema.get("additionalProperties")
    if extra is not None and not isinstance(extra, bool):
        found += not_objects(extra, f"{path}/additionalProperties")
    return found


def test_every_subschema_is_an_object_as_llama_server_requires() -> None:
    assert not_objects({"items": False}) == ["#/items"]
    assert not_objects(legal_answers(VOTE, 9, [], beliefs=[2, 3, 5])) == []
    assert not_objects(legal_answers(None, 9, [], beliefs=[2, 3])) == []
    assert not_objects(answer_tool(12, [], load_library("en").tools).parameters) == []


def test_a_split_speech_schema_keeps_the_lists_apart_as_the_refused_speech_meant() -> None:
    """After a speech that suspected and trusted seat 3 (and trusted 5, suspected 7), the
    re-ask's `trusts` may name only 5 and `suspects` every other seat: a
    seat in both stays a suspect, and the properties alone (all a grammar reads) exclude
    the contradiction."""
    refused = Claims(suspects=(3, 7), trusts=(3, 5))
    assert split_claims(refused) == (5,)
    assert split_claims(Claims(suspects=(3,), trusts=(5,))) is None
    speech = DecisionRequest(
        step=10,
        seat=2,
        kind=DecisionKind.SPEECH,
        day=1,
        night=False,
        options=(ActionOption(action="speak"),),
        default=Pass(),
    )
    schema = legal_answers(speech, 9, [], trusted=split_claims(refused))
    shape = schema["properties"][ANSWER]
    properties = {k: v for k, v in shape.items() if k != "allOf"}
    lists = {f: shape["properties"][f]["items"]["enum"] for f in ("suspects", "trusts")}
    assert lists == {"suspects": [1, 2, 3, 4, 6, 7, 8, 9], "trusts": [5]}
    rng = random.Random(0)
    for _ in range(200):
        answer = sample(properties, rng)
        assert not set(answer["suspects"]) & set(answer["trusts"])
        # a grammar may report one seat's check twice (the allOf says not; the referee
        # refuses it, `checks_conflict`): this test is about the lists, one check a seat
        answer["claimed_checks"] = list({c["seat"]: c for c in answer["claimed_checks"]}.values())
        jsonschema.validate({ANSWER: answer}, schema)
    nothing = legal_answers(speech, 9, [], trusted=())["properties"][ANSWER]["properties"]
    assert nothing["trusts"] == {"type": "array", "maxItems": 0}


def test_claimed_checks_are_one_result_per_seat_in_the_parser_and_the_narrowed_schema() -> None:
    """A check repeated word for word is said once (one speech listed 16); a seat called
    both wolf and good, or reported twice, is refused by the referee, and the narrowed
    schema says so: no more rows than other seats (all a grammar reads) and no seat in
    two rows (its `allOf`)."""
    speech = DecisionRequest(
        step=10, seat=2, kind=DecisionKind.SPEECH, day=1, night=False,
        options=(ActionOption(action="speak"),), default=Pass(),
    )  # fmt: skip
    looping = {
        "action": "speak",
        "text": "x",
        "claimed_role": None,
        "claimed_checks": [{"seat": 7, "result": "good"}] * 16,
        "suspects": [],
        "trusts": [],
    }
    (check,) = parse_answer(json.dumps(looping), speech).action.claims.checks  # type: ignore[union-attr]
    assert (check.seat, check.is_wolf) == (7, False)
    both = looping | {
        "claimed_checks": [{"seat": 7, "result": "wolf"}, {"seat": 7, "result": "good"}]
    }
    parsed = parse_answer(json.dumps(both), speech).action
    assert isinstance(parsed, Speak) and len(parsed.claims.checks) == 2
    with pytest.raises(IllegalActionError, match="seat 7 both wolf and good"):
        check_legal(speech, parsed)
    schema = legal_answers(speech, 9, [])
    checks = schema["properties"][ANSWER]["properties"]["claimed_checks"]
    assert checks["maxItems"] == 8  # every seat but the speaker's, once
    with pytest.raises(jsonschema.ValidationError, match="should not be valid"):
        jsonschema.validate({ANSWER: both}, schema)
    rows = [{"seat": s, "result": "good"} for s in (1, 3, 4, 5, 6, 7, 8, 9)]
    jsonschema.validate({ANSWER: looping | {"claimed_checks": rows}}, schema)
    tool = json.dumps(answer_tool(9, [], load_library("en").tools).parameters)
    assert "maxItems" not in tool and "minContains" not in tool  # the game's tool: no bounds
