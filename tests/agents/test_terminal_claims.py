"""A person at the terminal reports what a coroner or a watchman learns, as a bot or a
model seat does: the card found on a body (`check=5:good:seer`) and whether a watched
seat acted (`check=5:wolf:acted`), only where the board deals that role (000:29-30)."""

from __future__ import annotations

import asyncio

import pytest

from arena.agents.terminal import HELP, TerminalHuman, help_text
from arena.board_file import EXAMPLES, load_board_file
from arena.rules import events as ev
from arena.rules.actions import CheckClaim, Claims, Speak
from arena.rules.boards import Board, board
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest
from arena.rules.errors import InvalidActionError
from arena.rules.observation import Observation, observe
from arena.rules.types import Role
from arena.rules.visibility import PUBLIC, SeatViewer
from arena.text import Lang
from arena.text.commands import ClaimRefused, claim_roles, parse_command, report_fields

READERS = load_board_file(EXAMPLES / "site_watchman_coroner12.yaml")
"""A board with a coroner and a watchman."""
PLAIN = board("std9")
"""A board with neither."""
SPEECH = DecisionRequest(
    step=7, seat=4, kind=DecisionKind.SPEECH, day=2, night=False,
    options=(ActionOption(action="speak", max_chars=100),), default=Speak(text=""),
)  # fmt: skip


def cards(b: Board) -> tuple[Role, ...]:
    return claim_roles(b.role_counts())


def started(b: Board) -> Observation:
    start = ev.GameStarted(
        visibility=PUBLIC, board=b.id, seats=b.seats, role_counts=b.role_counts()
    )
    return observe([start], SeatViewer(seat=4))


def spoke(*checks: CheckClaim) -> Speak:
    return Speak(text="hi", claims=Claims(checks=checks))


def test_the_board_decides_which_fields_a_check_has() -> None:
    assert report_fields(cards(READERS)) == {"role", "acted"}
    assert report_fields(cards(PLAIN)) == frozenset()
    assert report_fields((Role.WATCHMAN, Role.WEREWOLF)) == {"acted"}


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("speak hi | check=5:good:seer", spoke(CheckClaim(seat=5, is_wolf=False, role=Role.SEER))),
        ("speak hi | check=5:wolf:acted", spoke(CheckClaim(seat=5, is_wolf=True, acted=True))),
        ("speak hi | check=5:good:idle", spoke(CheckClaim(seat=5, is_wolf=False, acted=False))),
        ("speak hi | 查驗=5：狼：有行動", spoke(CheckClaim(seat=5, is_wolf=True, acted=True))),
        ("speak hi | 查驗=6:好:預言家", spoke(CheckClaim(seat=6, is_wolf=False, role=Role.SEER))),
        (
            "speak hi | check=3:wolf:werewolf:acted check=8:good",
            spoke(
                CheckClaim(seat=3, is_wolf=True, role=Role.WEREWOLF, acted=True),
                CheckClaim(seat=8, is_wolf=False),
            ),
        ),
    ],
)
def test_a_check_adds_the_card_found_or_whether_it_acted(line: str, action: Speak) -> None:
    assert parse_command(line, cards(READERS)) == action
    assert parse_command(line) == action  # no board known yet: either field


@pytest.mark.parametrize(
    ("line", "b", "key", "english"),
    [
        ("check=5:good:idiot", READERS, "no_card", "no idiot card on this board in check="),
        ("check=5:good:seer", PLAIN, "no_coroner", "no coroner on this board"),
        ("check=5:wolf:acted", PLAIN, "no_watchman", "no watchman on this board"),
        ("check=5:good:dancing", READERS, "unknown", "unknown word 'dancing'"),
        ("check=5:good:seer:witch", READERS, "twice", "gives a card or acted|idle twice"),
        ("check=5:wolf:acted:idle", READERS, "twice", "gives a card or acted|idle twice"),
        ("check=5:maybe", READERS, "verdict", "SEAT:wolf or SEAT:good"),
    ],
)
def test_a_card_or_field_the_board_lacks_is_refused_with_a_reason(
    line: str, b: Board, key: str, english: str
) -> None:
    with pytest.raises(ClaimRefused, match=english) as refused:
        parse_command(f"speak hi | {line}", cards(b))
    assert refused.value.key == key and isinstance(refused.value, InvalidActionError)
    zh = refused.value.say("zh")
    assert "\n" not in zh and any("\u4e00" <= c <= "\u9fff" for c in zh)


def scripted(lang: Lang, lines: list[str]) -> tuple[TerminalHuman, list[str]]:
    shown: list[str] = []
    feed = iter(lines)
    return TerminalHuman(lang=lang, read=lambda _: next(feed), write=shown.append), shown


@pytest.mark.parametrize(
    ("lang", "bad", "why"),
    [
        (
            "zh",
            "我驗了 | 查驗=5:好:預言家",
            "! 本局沒有仵作，查驗=5:好:預言家 不能附上驗屍得知的角色",
        ),
        (
            "en",
            "checked | check=5:wolf:acted",
            "! no watchman on this board, so check=5:wolf:acted",
        ),
    ],
)
def test_the_terminal_explains_a_refused_check_in_the_games_language(
    lang: Lang, bad: str, why: str
) -> None:
    """On a board without coroner or watchman the fields are refused, and asked again."""
    human, shown = scripted(lang, [bad, "ok | check=5:good"])
    reply = asyncio.run(human.decide(started(PLAIN), SPEECH))
    assert reply.action == Speak(
        text="ok", claims=Claims(checks=(CheckClaim(seat=5, is_wolf=False),))
    )
    assert [line for line in shown if line.startswith("! ")][0].startswith(why)


def test_the_terminal_takes_a_card_and_acted_on_a_board_that_deals_them() -> None:
    lines = ["help", "我驗了 | 查驗=5:好:白痴", "我驗了 | 查驗=5:狼:狼人:沒行動"]
    human, shown = scripted("zh", lines)
    reply = asyncio.run(human.decide(started(READERS), SPEECH))
    check = CheckClaim(seat=5, is_wolf=True, role=Role.WEREWOLF, acted=False)
    assert reply.action == Speak(text="我驗了", claims=Claims(checks=(check,)))
    assert any(line.startswith("! 本局沒有白痴這張牌") for line in shown)


@pytest.mark.parametrize(
    ("lang", "card", "acted"),
    [
        ("en", "check=5:good:seer", "check=5:wolf:acted, check=5:good:idle"),
        ("zh", "查驗=5:好:預言家", "查驗=5:狼:有行動、查驗=5:好:沒行動"),
    ],
)
def test_help_documents_a_checks_card_and_acted_where_the_board_has_them(
    lang: Lang, card: str, acted: str
) -> None:
    for line in (card, acted):
        assert line in help_text(lang) and line in help_text(lang, cards(READERS))
        assert line not in help_text(lang, cards(PLAIN))
    assert help_text(lang, (Role.WATCHMAN, Role.WEREWOLF)).count(acted) == 1
    assert card not in help_text(lang, (Role.WATCHMAN, Role.WEREWOLF))
    assert "{reports}" in HELP[lang] and "{reports}" not in help_text(lang)


def test_the_terminal_refuses_claims_that_contradict_themselves_and_asks_again() -> None:
    """The rules' refusal (`claim_contradiction`) reaches a person as it does a model."""
    human, shown = scripted("en", ["hi | suspect=3 trust=3,7", "hi | trust=4", "hi | trust=7"])
    reply = asyncio.run(human.decide(started(PLAIN), SPEECH))
    assert reply.action == Speak(text="hi", claims=Claims(trusts=(7,)))
    refusals = [line for line in shown if line.startswith("! ")]
    assert "both suspect and trust seat 3" in refusals[0]
    assert "trust the speaker's own seat 4" in refusals[1]
