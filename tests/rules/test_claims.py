"""Claims that contradict themselves are refused by the rules, with the reason."""

import asyncio
import time

import pytest

from arena.agents.bot.speech import consistent
from arena.agents.model.agent import LLMAgent
from arena.match import Limits, decide
from arena.rules.actions import CheckClaim, Claims, Speak
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionKind, DecisionRequest, check_legal
from arena.rules.errors import IllegalActionError
from arena.rules.observation import Observation, observe
from arena.rules.referee import Referee
from arena.rules.visibility import SeatViewer
from tests.support.scripted import ScriptedChatModel, act


def speech_request() -> tuple[Referee, Observation, DecisionRequest]:
    referee = Referee(GameConfig(board="std9"), 1)
    while True:
        for request in referee.pending():
            if request.kind is DecisionKind.SPEECH:
                view = observe(referee.events, SeatViewer(seat=request.seat))
                return referee, view, request
            referee.submit(request.seat, request.default, defaulted="test")


def other_seats(request: DecisionRequest) -> tuple[int, int]:
    a, b, *_ = (s for s in range(1, 10) if s != request.seat)
    return a, b


@pytest.mark.parametrize(
    ("claims", "reason"),
    [
        (lambda me, a, b: Claims(suspects=(a, b), trusts=(b,)), "both suspect and trust seat"),
        (lambda me, a, b: Claims(trusts=(a, me)), "trust the speaker's own seat"),
        (lambda me, a, b: Claims(checks=(CheckClaim(seat=me, is_wolf=False),)), "own seat"),
        (
            lambda me, a, b: Claims(
                checks=(CheckClaim(seat=a, is_wolf=True), CheckClaim(seat=a, is_wolf=False))
            ),
            "both wolf and good",
        ),
        (
            lambda me, a, b: Claims(checks=(CheckClaim(seat=b, is_wolf=False),) * 10),
            "more than once: report one result per seat",
        ),
    ],
)
def test_a_contradicting_speech_is_illegal_with_its_reason(claims, reason) -> None:
    _, _, request = speech_request()
    a, b = other_seats(request)
    with pytest.raises(IllegalActionError, match=reason):
        check_legal(request, Speak(text="...", claims=claims(request.seat, a, b)))
    check_legal(request, Speak(text="...", claims=Claims(suspects=(a,), trusts=(b,))))


def test_the_referee_refuses_it_live_but_re_runs_a_recorded_one() -> None:
    referee, _, request = speech_request()
    a, _ = other_seats(request)
    bad = Speak(text="...", claims=Claims(suspects=(a,), trusts=(a,)))
    with pytest.raises(IllegalActionError):
        referee.submit(request.seat, bad)
    referee.submit(request.seat, bad, recorded=True)  # files written before the check
    assert referee.answers[-1].action == bad


def test_bot_claims_are_made_consistent() -> None:
    claims = Claims(
        suspects=(2, 5, 12),
        trusts=(12, 5, 3),
        checks=(CheckClaim(seat=5, is_wolf=True), CheckClaim(seat=3, is_wolf=False)),
    )
    fixed = consistent(claims, me=3)
    assert fixed.suspects == (2, 5, 12) and fixed.trusts == ()
    assert fixed.checks == (CheckClaim(seat=5, is_wolf=True),)
    twice = (CheckClaim(seat=5, is_wolf=True), CheckClaim(seat=4, is_wolf=False))
    again = consistent(Claims(checks=(*twice, CheckClaim(seat=5, is_wolf=False))), me=3)
    assert again.checks == twice  # a seat's first result is its one result


def test_a_model_seat_hears_the_refusal_and_answers_again() -> None:
    _, view, request = speech_request()
    a, b = other_seats(request)
    bad = {"action": "speak", "text": "both", "suspects": [a], "trusts": [a, b]}
    good = {"action": "speak", "text": "I suspect one seat", "suspects": [a]}
    model = ScriptedChatModel([act(bad), act(good)], model="scripted-7b")
    llm = LLMAgent(model, lang="en", label="openai:scripted-7b")
    deadline = time.monotonic() + 60
    outcome, replies = asyncio.run(decide(llm, view, request, Limits(), deadline))
    assert outcome.defaulted is None and isinstance(outcome.action, Speak)
    assert outcome.action.claims.suspects == (a,) and outcome.action.claims.trusts == ()
    refused = model.calls[1].messages[-1]
    assert refused.role == "user" and f"both suspect and trust seat {a}" in refused.content
    model.assert_done()
