"""The referee refuses bad answers with one clear error and loses nothing."""

from __future__ import annotations

import random

import pytest

from arena.agents.random_agent import random_action
from arena.rules.actions import Inspect, Pass, Protect, Speak, Vote, parse_action
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionKind
from arena.rules.errors import IllegalActionError, InvalidActionError
from arena.rules.referee import Referee
from arena.rules.types import Role

DEAL = (
    Role.SEER,
    Role.WITCH,
    Role.HUNTER,
    Role.GUARD,
    Role.VILLAGER,
    Role.VILLAGER,
    Role.VILLAGER,
    Role.VILLAGER,
    Role.WEREWOLF,
    Role.WEREWOLF,
    Role.WEREWOLF,
    Role.WHITE_WOLF_KING,
)


def _referee() -> Referee:
    return Referee(GameConfig(board="wwk_guard", deal=DEAL), seed=1)


def test_night_one_asks_guard_seer_and_wolves_together() -> None:
    kinds = {r.seat: r.kind for r in _referee().pending()}
    assert kinds[1] is DecisionKind.SEER and kinds[4] is DecisionKind.GUARD
    assert {kinds[s] for s in (9, 10, 11, 12)} == {DecisionKind.WOLF_TALK}
    assert set(kinds) == {1, 4, 9, 10, 11, 12}


@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (5, Pass(), "seat 5 has no decision pending"),
        (1, Inspect(target=1), "seat 1 is not a legal target for inspect"),
        (1, Vote(target=3), "seat 1 cannot vote now"),
        (4, Protect(target=40), "seat 40 is not a legal target"),
        (9, Speak(text="hi"), "cannot speak now"),
    ],
)
def test_illegal_answers_are_refused_and_change_nothing(seat: int, action, message: str) -> None:
    referee = _referee()
    before = (len(referee.events), referee.pending())
    with pytest.raises(IllegalActionError, match=message):
        referee.submit(seat, action)
    assert (len(referee.events), referee.pending()) == before


def test_an_answer_cannot_be_given_twice() -> None:
    referee = _referee()
    referee.submit(1, Inspect(target=9))
    with pytest.raises(IllegalActionError, match="no decision pending"):
        referee.submit(1, Inspect(target=10))


def test_too_long_text_is_refused_with_the_limit() -> None:
    referee = Referee(
        GameConfig(board="wwk_guard", deal=DEAL, overrides={"last_words_chars": 5}), seed=1
    )
    from arena.rules.actions import Whisper

    with pytest.raises(IllegalActionError, match="the limit is 5"):
        referee.submit(9, Whisper(text="knife the seer"))


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("{not json", "malformed action"),
        ('{"kind": "teleport"}', "malformed action"),
        ('{"kind": "vote"}', "target"),
        ('{"kind": "vote", "target": "three"}', "target"),
        ({"kind": "inspect", "target": 3, "extra": 1}, "extra"),
    ],
)
def test_malformed_actions_are_invalid_not_crashes(raw, message: str) -> None:
    with pytest.raises(InvalidActionError, match=message):
        parse_action(raw)


def test_parse_action_round_trips() -> None:
    assert parse_action('{"kind":"vote","target":3}') == Vote(target=3)
    assert parse_action({"kind": "pass"}) == Pass()


def test_a_defaulted_answer_is_accepted_and_recorded() -> None:
    referee = _referee()
    request = referee.request_for(1)
    assert request is not None
    referee.submit(1, request.default, defaulted="timeout after 60 s")
    for r in referee.pending():
        referee.submit(r.seat, r.default)
    defaulted = [e for e in referee.events if e.kind == "action_defaulted"]
    assert len(defaulted) == 1 and defaulted[0].seat == 1
    assert defaulted[0].visibility.to == "seats"


def test_submit_legal_takes_only_the_seats_open_request() -> None:
    referee = _referee()
    seer = referee.request_for(1)
    assert seer is not None
    stale = seer.model_copy()  # equal, but not the request the referee issued
    with pytest.raises(IllegalActionError, match="no such decision pending"):
        referee.submit_legal(stale, Inspect(target=9))
    referee.submit_legal(seer, Inspect(target=9))
    assert referee.answers[-1].action == Inspect(target=9) and referee.request_for(1) is None
    with pytest.raises(IllegalActionError, match="no such decision pending"):
        referee.submit_legal(seer, Inspect(target=10))
    assert len(referee.answers) == 1


def test_submit_legal_plays_the_same_game_as_submit() -> None:
    checked, trusted, rng = _referee(), _referee(), random.Random(3)
    while not checked.finished:
        for request in checked.pending():
            action = random_action(request, rng)
            checked.submit(request.seat, action)
            mine = trusted.request_for(request.seat)
            assert mine == request
            trusted.submit_legal(mine, action)
    assert trusted.finished and trusted.events == checked.events
    assert trusted.answers == checked.answers
