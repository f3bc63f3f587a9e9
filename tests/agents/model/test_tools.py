"""One answer tool per game: every action shape, derived from the referee's actions."""

import json
import typing

import pytest

from arena.agents.model.library import load_library
from arena.agents.model.options import options_text
from arena.agents.model.tools import TOOL_NAME, answer_tool
from arena.rules.actions import ActionKind, Pass, action_models
from arena.rules.boards import BOARDS
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest
from arena.rules.types import Role


def shapes(tool) -> dict[str, dict]:
    return {
        s["properties"]["action"]["enum"][0]: s
        for s in tool.parameters["properties"]["answer"]["anyOf"]
    }


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_action_kind_has_a_shape_and_words(lang: str) -> None:
    texts = load_library(lang).tools
    tool = answer_tool(12, [Role.SEER, Role.WEREWOLF], texts)
    kinds = set(typing.get_args(ActionKind))
    assert set(shapes(tool)) == kinds | {"report_belief"}
    assert set(action_models()) == kinds
    assert all(kind in texts.actions for kind in kinds | {"report_belief"})


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_actions_seats_say_what_they_are_for(lang: str) -> None:
    """The magician's swap and cupid's link once read "the seat(s) to exile" (issue 31)."""
    tool = answer_tool(12, [Role.SEER, Role.WEREWOLF], load_library(lang).tools)
    said = {
        kind: shape["properties"]["targets"]["description"]
        for kind, shape in shapes(tool).items()
        if "targets" in shape["properties"]
    }
    assert len(said) >= 4 and len(set(said.values())) == len(said), said


@pytest.mark.parametrize("board_id", sorted(BOARDS))
def test_the_tool_is_the_same_for_every_seat_and_strict_ready(board_id: str) -> None:
    board = BOARDS[board_id]
    texts = load_library("en").tools
    tool = answer_tool(board.seats, list(board.role_counts()), texts)
    assert tool.name == TOOL_NAME
    assert tool == answer_tool(board.seats, list(board.role_counts()), texts)
    text = json.dumps(tool.parameters)
    for unsupported in ("maxLength", "minItems", "maxItems", "minimum", "maximum"):
        assert unsupported not in text

    def strict(schema: object) -> None:
        if isinstance(schema, dict):
            if schema.get("type") == "object":
                assert schema["additionalProperties"] is False
                assert set(schema["required"]) == set(schema["properties"])
            for value in schema.values():
                strict(value)
        elif isinstance(schema, list):
            for value in schema:
                strict(value)

    strict(tool.parameters)
    seats = list(range(1, board.seats + 1))
    for shape in shapes(tool).values():
        target = shape["properties"].get("target")
        if target is not None:
            assert (target.get("enum") or target["anyOf"][0]["enum"]) == seats


def test_options_text_lists_exactly_the_legal_answers_with_their_meaning() -> None:
    request = DecisionRequest(
        step=1, seat=2, kind=DecisionKind.VOTE, day=1, night=False,
        options=(ActionOption(action="vote", targets=(3, 5, 7)), ActionOption(action="pass")),
        default=Pass(),
    )  # fmt: skip
    lines = options_text(request, load_library("en").tools, "1|2|3")
    assert lines == [
        '- {"action": "vote", "target": 3|5|7} — Vote to exile this seat.',
        '- {"action": "pass"} — Abstain from the exile vote.',
    ]


def test_a_speech_option_states_its_limit_in_words() -> None:
    request = DecisionRequest(
        step=1, seat=2, kind=DecisionKind.SPEECH, day=1, night=False,
        options=(ActionOption(action="speak", max_chars=600),), default=Pass(),
    )  # fmt: skip
    (line,) = options_text(request, load_library("zh").tools, "1|2")
    assert '"text": <你自己的發言：你怎麼看場上、懷疑誰、為什麼> （至多600字）' in line
    assert '"claimed_role": null|"<role>"' in line


def test_a_list_of_seats_says_or_fewer_only_where_fewer_are_legal() -> None:
    def line(kind: DecisionKind, action: str) -> str:
        request = DecisionRequest(
            step=1, seat=2, kind=kind, day=1, night=kind is DecisionKind.SWAP,
            options=(ActionOption(action=action, targets=(3, 5, 7)),), default=Pass(),
        )  # fmt: skip
        (text,) = options_text(request, load_library("en").tools, "1|2|3")
        return text

    swap = line(DecisionKind.SWAP, "swap")
    assert '"targets": [3|5|7, 3|5|7]}' in swap and "or fewer" not in swap
    assert '"targets": [3|5|7, 3|5|7] (or fewer)' in line(DecisionKind.RECOMMEND, "recommend_exile")


def test_a_reported_check_tells_what_the_boards_information_roles_learn() -> None:
    """A coroner's card (000:30) and a watchman's watch (000:29) fit a claimed check on the
    boards that deal them; elsewhere the tool stays as it was."""
    texts = load_library("en").tools

    def check_item(roles: list[Role]) -> dict:
        speak = shapes(answer_tool(12, roles, texts))["speak"]
        return speak["properties"]["claimed_checks"]["items"]

    plain = check_item([Role.SEER, Role.WEREWOLF, Role.VILLAGER])
    assert set(plain["properties"]) == {"seat", "result"}
    roles = [Role.CORONER, Role.WATCHMAN, Role.WEREWOLF, Role.VILLAGER]
    item = check_item(roles)
    assert set(item["required"]) == {"seat", "result", "role", "acted"}
    assert item["properties"]["role"]["anyOf"][0]["enum"] == [r.value for r in roles]
    assert item["properties"]["acted"]["anyOf"] == [{"type": "boolean"}, {"type": "null"}]
    assert "coroner" in item["properties"]["role"]["description"]
    request = DecisionRequest(
        step=1, seat=2, kind=DecisionKind.SPEECH, day=1, night=False,
        options=(ActionOption(action="speak", max_chars=600),), default=Pass(),
    )  # fmt: skip
    (line,) = options_text(request, texts, "1|2", roles)
    assert '"result": "wolf"|"good", "role": null|"<role>", "acted": null|true|false}]' in line
    (line,) = options_text(request, texts, "1|2", [Role.SEER])
    assert '"result": "wolf"|"good"}]' in line
