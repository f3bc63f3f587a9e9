"""The bot's parts on small hand-written logs: judgement, talk, belief reports, edge cases."""

from __future__ import annotations

import asyncio

import pytest

from arena.agents.bot.agent import BotAgent
from arena.agents.bot.beliefs import calibrate, credibility, own_outlook, wolf_probabilities
from arena.agents.bot.reading import read
from arena.agents.bot.talk import jumps, knife_in, speech_text, whisper_text
from arena.errors import ArenaError
from arena.rules import events as ev
from arena.rules.actions import CheckClaim, Claims, Pass, Speak, Vote
from arena.rules.boards import BOARDS
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest
from arena.rules.observation import observe
from arena.rules.types import Phase, Role
from arena.rules.visibility import PUBLIC, PublicViewer, SeatViewer, to_seats

STD9 = BOARDS["std9"]


def log(me: int, role: Role, *later: ev.Event) -> list[ev.Event]:
    return [
        ev.GameStarted(visibility=PUBLIC, board="std9", seats=9, role_counts=STD9.role_counts()),
        ev.RoleAssigned(visibility=to_seats(me), seat=me, role=role),
        ev.PhaseStarted(visibility=PUBLIC, phase=Phase.SPEECHES, day=1),
        *later,
    ]


def claim(seat: int, *checks: tuple[int, bool]) -> ev.Spoke:
    claims = Claims(role=Role.SEER, checks=tuple(CheckClaim(seat=s, is_wolf=w) for s, w in checks))
    return ev.Spoke(visibility=PUBLIC, seat=seat, text="", claims=claims, context="day")


def vote_request(seat: int, targets: tuple[int, ...]) -> DecisionRequest:
    return DecisionRequest(
        step=9,
        seat=seat,
        kind=DecisionKind.VOTE,
        day=1,
        night=False,
        options=(
            ActionOption(action="vote", targets=targets, target_required=True),
            ActionOption(action="pass"),
        ),
        default=Pass(),
    )


def test_calibrate_keeps_the_order_and_meets_the_expected_count() -> None:
    p = calibrate({1: 2.0, 2: 0.0, 3: -1.0, 4: 0.0, 5: 5.0}, 2)
    assert p[5] > p[1] > p[2] == p[4] > p[3]
    assert abs(sum(p.values()) - 2) < 0.02
    assert calibrate({}, 3) == {}


def test_a_counter_claim_accusing_the_first_seer_is_believed_less() -> None:
    view = observe(
        log(1, Role.VILLAGER, claim(2, (5, False)), claim(3, (2, True))), SeatViewer(seat=1)
    )
    r, _ = read(view)
    cred = credibility(r, own_outlook(r))
    p = wolf_probabilities(r, own_outlook(r))
    assert cred[2] > cred[3]
    assert p[3] > p[2]
    assert p[5] < p[4]


def test_a_claim_that_calls_me_a_wolf_is_a_lie_to_me() -> None:
    view = observe(log(4, Role.HUNTER, claim(2, (4, True))), SeatViewer(seat=4))
    r, _ = read(view)
    assert credibility(r, own_outlook(r))[2] == 0.0
    assert wolf_probabilities(r, own_outlook(r))[2] > 0.8


def test_good_seats_vote_the_checked_wolf() -> None:
    view = observe(log(1, Role.VILLAGER, claim(2, (6, True))), SeatViewer(seat=1))
    reply = asyncio.run(BotAgent(1).decide(view, vote_request(1, tuple(range(1, 10)))))
    assert reply.action == Vote(target=6)


def test_a_wolf_believes_exactly_what_it_knows() -> None:
    events = log(3, Role.WEREWOLF, claim(2, (3, True)))
    events.insert(
        2, ev.WolvesMet(visibility=to_seats(3, 7, 8), seats=(3, 7, 8), roles=(Role.WEREWOLF,) * 3)
    )
    report = asyncio.run(BotAgent(1).believe(observe(events, SeatViewer(seat=3))))
    assert report is not None
    assert report.seat == 3 and report.after_seq == len(events)
    assert set(report.wolf_probability) == {1, 2, 4, 5, 6, 7, 8, 9}
    assert {s for s, p in report.wolf_probability.items() if p == 1.0} == {7, 8}
    assert {p for s, p in report.wolf_probability.items() if s not in (7, 8)} == {0.0}


def test_a_good_seat_spreads_the_wolves_it_cannot_place() -> None:
    events = log(
        1, Role.SEER, ev.SeerChecked(visibility=to_seats(1), seat=1, target=4, is_wolf=True)
    )
    report = asyncio.run(BotAgent(1).believe(observe(events, SeatViewer(seat=1))))
    assert report is not None
    assert report.wolf_probability[4] == 1.0
    others = [p for s, p in report.wolf_probability.items() if s != 4]
    assert max(others) < 0.5
    assert abs(sum(others) - 2) < 0.05


def test_views_that_are_not_a_seats_are_refused() -> None:
    bot = BotAgent(1)
    events = log(1, Role.VILLAGER)
    public = asyncio.run(bot.decide(observe(events, PublicViewer()), vote_request(1, (2, 3))))
    assert public.action is None and public.error is not None
    other = asyncio.run(bot.decide(observe(events, SeatViewer(seat=1)), vote_request(2, (1, 3))))
    assert other.action is None and "seat 2" in (other.error or "")
    assert asyncio.run(bot.believe(observe(events, PublicViewer()))) is None


def test_after_a_rejected_answer_the_bot_takes_the_default() -> None:
    view = observe(log(1, Role.VILLAGER, claim(2, (6, True))), SeatViewer(seat=1))
    reply = asyncio.run(BotAgent(1).decide(view, vote_request(1, (6, 7)), feedback="nope"))
    assert reply.action == Pass()


def test_an_unknown_language_is_a_clear_error() -> None:
    with pytest.raises(ArenaError, match="unknown bot language 'fr'"):
        BotAgent(1, lang="fr")  # type: ignore[arg-type]


def test_speech_text_says_exactly_the_claims() -> None:
    claims = Claims(role=Role.SEER, checks=(CheckClaim(seat=5, is_wolf=True),), trusts=(2,))
    zh = speech_text(claims, "zh", "day", 5, None)
    en = speech_text(claims, "en", "day", 5, None)
    assert "預言家" in zh and "5號查殺" in zh and "2號" in zh and "今天出5號" in zh
    assert "seer" in en and "#5 is a wolf" in en and "#2" in en
    assert speech_text(Claims(), "en", "day", None, None) == "I am good; nothing more to add."
    assert len(speech_text(claims, "zh", "last_words", 5, 6)) == 6


def test_wolf_talk_round_trips_and_parses_other_agents_leniently() -> None:
    assert knife_in(whisper_text(7, True, "zh", None)) == 7
    assert jumps(whisper_text(7, True, "zh", None))
    assert knife_in(whisper_text(12, False, "en", None)) == 12
    assert not jumps(whisper_text(12, False, "en", None))
    assert knife_in("let's kill 3 tonight") == 3
    assert knife_in("刀誰？") is None


def test_the_seer_speech_reports_its_checks() -> None:
    events = log(
        1, Role.SEER, ev.SeerChecked(visibility=to_seats(1), seat=1, target=4, is_wolf=True)
    )
    request = DecisionRequest(
        step=3,
        seat=1,
        kind=DecisionKind.SPEECH,
        day=1,
        night=False,
        options=(ActionOption(action="speak", max_chars=1200),),
        default=Speak(text=""),
        context="day",
    )
    reply = asyncio.run(BotAgent(1).decide(observe(events, SeatViewer(seat=1)), request))
    assert isinstance(reply.action, Speak)
    assert reply.action.claims.role is Role.SEER
    assert reply.action.claims.checks == (CheckClaim(seat=4, is_wolf=True),)
    assert "4號查殺" in reply.action.text


def shoot_request(seat: int, targets: tuple[int, ...]) -> DecisionRequest:
    return DecisionRequest(
        step=9,
        seat=seat,
        kind=DecisionKind.SHOOT,
        day=1,
        night=False,
        options=(ActionOption(action="shoot", targets=targets), ActionOption(action="pass")),
        default=Pass(),
    )


def test_the_hunter_holds_a_blind_shot() -> None:
    """Nothing points at anyone: every seat is as likely a wolf as the next (3 in 8), and a
    shot would more likely take a good seat than a wolf."""
    r, _ = read(observe(log(5, Role.HUNTER), SeatViewer(seat=5)))
    targets = (1, 2, 3, 4, 6, 7, 8, 9)
    assert BotAgent(3).choose(r, shoot_request(5, targets)) == Pass()


def test_the_hunter_shoots_the_seat_a_believed_seer_checked_wolf() -> None:
    r, _ = read(observe(log(5, Role.HUNTER, claim(1, (7, True))), SeatViewer(seat=5)))
    action = BotAgent(3).choose(r, shoot_request(5, (1, 2, 3, 4, 6, 7, 8, 9)))
    assert getattr(action, "target", None) == 7
