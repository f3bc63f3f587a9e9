import json
import random
from typing import Any

import pytest

from arena.llm.stub_policy import sample
from arena.llm.types import ToolCall
from arena.prompting import load_library
from arena.rules.actions import CheckClaim, Claims, Speak, Vote
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionKind, DecisionRequest, check_legal
from arena.rules.errors import InvalidActionError
from arena.rules.observation import observe
from arena.rules.referee import Referee
from arena.rules.types import Role
from arena.rules.visibility import SeatViewer
from arena.toolschema import (
    BELIEF_TOOL,
    belief_tool,
    legal_tools,
    parse_belief,
    parse_tool_call,
    tool_name,
)
from tests.conftest import play_random

TEXTS = load_library("en").tools
BOARDS = [
    "std9",
    "wwk_guard",
    "wolfking_guard",
    "yunv",
    "wolf_beauty_knight",
    "wolfking_dreamweaver",
    "nightmare",
    "evil_knight",
]


def requests_of(board: str, seed: int) -> list[tuple[Referee, DecisionRequest]]:
    seen: list[tuple[Referee, DecisionRequest]] = []
    play_random(GameConfig(board=board), seed, lambda ref, req: seen.append((ref, req)))
    return seen


def knowledge(referee: Referee, seat: int):
    return observe(referee.events, SeatViewer(seat=seat)).knowledge


def strict_compatible(schema: dict[str, Any]) -> bool:
    if schema.get("type") == "object":
        props = schema["properties"]
        ok = schema["additionalProperties"] is False and schema["required"] == list(props)
        return ok and all(strict_compatible(p) for p in props.values())
    if schema.get("type") == "array":
        return strict_compatible(schema["items"])
    return True


@pytest.mark.parametrize("board", BOARDS)
def test_tools_are_exactly_the_legal_options_with_seat_enums(board: str) -> None:
    for referee, request in requests_of(board, seed=4)[:400]:
        tools = legal_tools(request, knowledge(referee, request.seat), TEXTS)
        assert [t.name for t in tools] == [tool_name(o.action) for o in request.options]
        for tool, option in zip(tools, request.options, strict=True):
            assert strict_compatible(tool.parameters)
            target = tool.parameters["properties"].get("target")
            if target is not None:
                assert [s for s in target["enum"] if s is not None] == list(option.targets)
            text = tool.parameters["properties"].get("text")
            if text is not None:
                assert text["maxLength"] == option.max_chars


@pytest.mark.parametrize("board", BOARDS)
def test_every_schema_valid_call_of_an_offered_tool_is_a_legal_action(board: str) -> None:
    rng = random.Random(7)
    for referee, request in requests_of(board, seed=9)[:400]:
        for tool in legal_tools(request, knowledge(referee, request.seat), TEXTS):
            for _ in range(3):
                arguments = json.dumps(sample(tool.parameters, rng))
                action = parse_tool_call(ToolCall(id="c", name=tool.name, arguments=arguments))
                check_legal(request, action)


def test_speech_claims_map_onto_the_action() -> None:
    arguments = {
        "text": "I am the seer; 5 is a wolf.",
        "claimed_role": "seer",
        "claimed_checks": [{"seat": 5, "result": "wolf"}, {"seat": 2, "result": "good"}],
        "suspects": [5],
        "trusts": [2],
    }
    action = parse_tool_call(ToolCall(id="c", name="speak", arguments=json.dumps(arguments)))
    assert action == Speak(
        text="I am the seer; 5 is a wolf.",
        claims=Claims(
            role=Role.SEER,
            checks=(CheckClaim(seat=5, is_wolf=True), CheckClaim(seat=2, is_wolf=False)),
            suspects=(5,),
            trusts=(2,),
        ),
    )


def test_renamed_tools_map_back_to_their_action() -> None:
    call = ToolCall(id="c", name="choose_speech_direction", arguments='{"direction": "descending"}')
    assert parse_tool_call(call).kind == "choose_order"
    assert parse_tool_call(ToolCall(id="c", name="vote", arguments='{"target": 4}')) == Vote(
        target=4
    )


@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        ("vote", '{"target": 3,,', "not valid JSON"),
        ("vote", "[3]", "must be a JSON object"),
        ("vote", '{"target": "three"}', "vote: target: "),
        ("vote", "{}", "vote: target: Field required"),
        ("vote", '{"target": 3, "why": "x"}', "vote: why: Extra inputs"),
        ("dance", "{}", "dance"),
        ("speak", '{"text": "hi", "mood": "calm"}', "unexpected argument"),
        (
            "speak",
            '{"text": "hi", "claimed_checks": [{"seat": 1, "result": "evil"}]}',
            "'wolf' or 'good'",
        ),
    ],
)
def test_malformed_calls_raise_invalid_action_with_a_clear_message(
    name: str, arguments: str, message: str
) -> None:
    with pytest.raises(InvalidActionError, match=message):
        parse_tool_call(ToolCall(id="c", name=name, arguments=arguments))


def test_an_illegal_seat_parses_but_is_not_legal() -> None:
    referee, request = next(
        (ref, req) for ref, req in requests_of("std9", 2) if req.kind is DecisionKind.SEER
    )
    action = parse_tool_call(ToolCall(id="c", name="inspect", arguments='{"target": 99}'))
    with pytest.raises(Exception, match="not a legal target"):
        check_legal(request, action)


def test_belief_tool_round_trip_and_errors() -> None:
    tool = belief_tool([2, 5], TEXTS)
    assert tool.name == BELIEF_TOOL
    assert list(tool.parameters["properties"]["wolf_probability"]["properties"]) == ["2", "5"]
    call = ToolCall(id="b", name=BELIEF_TOOL, arguments='{"wolf_probability": {"5": 0.9, "2": 0}}')
    assert parse_belief(call, [2, 5]) == {2: 0.0, 5: 0.9}
    for bad, message in [
        ('{"wolf_probability": {"2": 0.1}}', "missing"),
        ('{"wolf_probability": {"2": 0.1, "5": 1.5}}', "not in"),
        ('{"wolf_probability": {"2": 0.1, "5": true}}', "not in"),
        ('{"wolf_probability": [0.1]}', "must be an object"),
    ]:
        with pytest.raises(InvalidActionError, match=message):
            parse_belief(ToolCall(id="b", name=BELIEF_TOOL, arguments=bad), [2, 5])
