"""The Play page's answers (`arena.humans.answer`): what a seat is offered, what a pick sends.

No browser: the forms are built from seat pages made here, from hand-written requests
and from every request of seeded random games on every board, whose offered answers the
referee must all accept.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from arena.humans.access import SeatPage
from arena.humans.answer import (
    SeatPick,
    SpeechForm,
    TradePick,
    WhisperForm,
    answer_form,
    asked,
    claim_form,
    kept_window,
    standing_offer,
)
from arena.rules import events as ev
from arena.rules.actions import (
    CheckClaim,
    Claims,
    Link,
    Mist,
    Pass,
    SelfExplode,
    Speak,
    Swap,
    Trade,
    Whisper,
)
from arena.rules.boards import board
from arena.rules.config import GameConfig
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest, check_legal
from arena.rules.errors import InvalidActionError
from arena.rules.observation import observe
from arena.rules.referee import Referee
from arena.rules.types import Gift, Phase, Role
from arena.rules.visibility import PUBLIC, SeatViewer
from arena.storage.desk import Pending, Status
from arena.text.commands import build_menu, claim_roles
from tests.conftest import BOARD_REFS, play_random

READERS = "site_watchman_coroner12"
"""An example board that deals a coroner and a watchman (a check's card, acted or idle)."""


def page_of(
    ref: str,
    request: DecisionRequest | None = None,
    events: Sequence[ev.Event] = (),
    *,
    seat: int = 1,
    speaking: int | None = None,
) -> SeatPage:
    """Seat `seat`'s page of a game on board `ref` that has seen `GameStarted`, then `events`."""
    spec = board(BOARD_REFS[ref])
    start = ev.GameStarted(
        visibility=PUBLIC, board=BOARD_REFS[ref], seats=spec.seats,
        role_counts=spec.role_counts(),
    )  # fmt: skip
    return SeatPage(
        game_id="g",
        board=BOARD_REFS[ref],
        lang="en",
        seat=seat,
        name="ann",
        seats=spec.seats,
        observation=observe([start, *events], SeatViewer(seat=seat)),
        pending=None if request is None else Pending(request=request, deadline=0.0),
        status=Status(state="running", speaking=speaking),
    )


def request_of(
    kind: DecisionKind, *options: ActionOption, day: int = 1, night: bool = True
) -> DecisionRequest:
    return DecisionRequest(
        step=0, seat=1, kind=kind, day=day, night=night, options=options, default=Pass()
    )


def speech(max_chars: int = 120) -> DecisionRequest:
    return DecisionRequest(
        step=0, seat=1, kind=DecisionKind.SPEECH, day=1, night=False,
        options=(ActionOption(action="speak", max_chars=max_chars),), default=Speak(text=""),
    )  # fmt: skip


def window(day: int = 1) -> DecisionRequest:
    """The window after a speech offering seat 1 its self-explosion (silence: pass)."""
    options = (ActionOption(action="self_explode"), ActionOption(action="pass"))
    return request_of(DecisionKind.INTERRUPT, *options, day=day, night=False)


def day(n: int) -> ev.PhaseStarted:
    return ev.PhaseStarted(visibility=PUBLIC, phase=Phase.SPEECHES, day=n)


# --- the speech and its claims ---------------------------------------------------------


@pytest.mark.parametrize("ref", ["std9", "wwk_guard", "classic_thief_elder12", READERS])
def test_a_claim_offers_the_boards_cards_and_the_other_seats(ref: str) -> None:
    page = page_of(ref, speech(), seat=3)
    form = answer_form(page, "en")
    assert form is not None and isinstance(form.text, SpeechForm)
    claims = form.text.claims
    cards = claim_roles(board(BOARD_REFS[ref]).role_counts())
    assert claims.roles == (None, *cards)
    assert claims.seats == tuple(s for s in range(1, page.seats + 1) if s != 3)
    assert claims.checks == (None, *claims.seats)
    readers = ref == READERS
    assert claims.cards == ((None, *cards) if readers else ())
    assert claims.acted == ((None, True, False) if readers else ())
    assert form.text.max_chars == 120 and form.picks == () and form.buttons == ()


def test_a_speech_sends_its_text_and_the_claims_picked() -> None:
    form = claim_form(page_of(READERS, speech()))
    picked = form.claims(
        role=Role.SEER, check=5, wolf=True, card=Role.WEREWOLF, suspects=[5], trusts=[2, 7]
    )
    assert picked == Claims(
        role=Role.SEER,
        checks=(CheckClaim(seat=5, is_wolf=True, role=Role.WEREWOLF),),
        suspects=(5,),
        trusts=(2, 7),
    )
    said = SpeechForm(120, form).action("trust 2 and 7", picked)
    assert said == Speak(text="trust 2 and 7", claims=picked)
    assert SpeechForm(120, form).action("") == Speak(text="")
    assert form.claims(check=4, acted=False) == Claims(
        checks=(CheckClaim(seat=4, is_wolf=False, acted=False),)
    )


def test_a_checks_verdict_and_details_count_only_with_its_seat() -> None:
    form = claim_form(page_of(READERS, speech()))
    assert form.claims(wolf=True, card=Role.SEER, acted=True) == Claims()


@pytest.mark.parametrize(
    "picked",
    [
        {"check": 4, "card": Role.SEER},  # std9 deals no coroner
        {"check": 4, "acted": True},  # nor a watchman
        {"role": Role.IDIOT},  # nor an idiot
        {"check": 1},  # the speaker's own seat
        {"suspects": [10]},  # no seat 10 at a 9-seat table
    ],
)
def test_a_claim_the_form_does_not_offer_is_refused(picked: dict[str, object]) -> None:
    form = claim_form(page_of("std9", speech()))
    with pytest.raises(InvalidActionError):
        form.claims(**picked)  # type: ignore[arg-type]


def test_a_whisper_is_its_text_alone() -> None:
    option = ActionOption(action="whisper", max_chars=80)
    form = answer_form(page_of("std9", request_of(DecisionKind.WOLF_TALK, option)), "en")
    assert form is not None and form.text == WhisperForm(80)
    assert form.text.action("knife 5") == Whisper(text="knife 5")


# --- buttons and picks ------------------------------------------------------------------


def test_the_buttons_are_the_terminals_menu() -> None:
    request = request_of(
        DecisionKind.VOTE, ActionOption(action="vote", targets=(2, 4)), ActionOption(action="pass"),
        night=False,
    )  # fmt: skip
    form = answer_form(page_of("std9", request), "zh")
    assert form is not None and form.text is None and form.picks == ()
    assert form.buttons == build_menu(request, "zh").choices
    assert [c.action.kind for c in form.buttons] == ["vote", "vote", "pass"]


@pytest.mark.parametrize(
    ("kind", "decision", "count", "built"),
    [
        ("swap", DecisionKind.SWAP, 2, Swap(targets=(3, 5))),
        ("link", DecisionKind.CUPID, 2, Link(targets=(3, 5))),
        ("mist", DecisionKind.MIST, 3, Mist(targets=(2, 3, 5))),
    ],
)
def test_several_seats_are_picked_then_sent(
    kind: str, decision: DecisionKind, count: int, built: Swap | Link | Mist
) -> None:
    option = ActionOption(action=kind, targets=(2, 3, 5), target_required=True)
    form = answer_form(
        page_of("std9", request_of(decision, option, ActionOption(action="pass"))), "en"
    )
    assert form is not None
    (pick,) = form.picks
    assert pick == SeatPick(kind, (2, 3, 5), count)  # type: ignore[arg-type]
    picked = list(built.targets)
    assert pick.ready(picked) and not pick.ready(picked[:-1]) and not pick.ready([*picked, 9])
    assert pick.action(picked) == built
    with pytest.raises(InvalidActionError):
        pick.action(picked[:-1])
    assert [c.action for c in form.buttons] == [Pass()], "the menu keeps only the pass"


def test_the_trade_picks_a_seat_and_a_gift() -> None:
    option = ActionOption(action="trade", targets=(2, 3, 5), target_required=True)
    form = answer_form(page_of("std9", request_of(DecisionKind.TRADE, option)), "en")
    assert form is not None and form.picks == (TradePick((2, 3, 5)),)
    (trade,) = form.picks
    assert isinstance(trade, TradePick) and trade.gifts == tuple(Gift)
    assert trade.ready(5, Gift.SHIELD) and not trade.ready(4, Gift.SHIELD)
    assert not trade.ready(None, Gift.SHIELD)
    assert trade.action(5, Gift.SHIELD) == Trade(target=5, gift=Gift.SHIELD)
    with pytest.raises(InvalidActionError):
        trade.action(4, Gift.CHECK)


def test_picks_come_in_the_pages_order_swap_lovers_trade_mist() -> None:
    options = [
        ActionOption(action=k, targets=(2, 3, 5), target_required=True)
        for k in ("mist", "trade", "link", "swap")
    ]  # the order the page draws them does not follow the request's
    form = answer_form(page_of("std9", request_of(DecisionKind.SWAP, *options)), "en")
    assert form is not None
    kinds = [p.kind if isinstance(p, SeatPick) else "trade" for p in form.picks]
    assert kinds == ["swap", "link", "trade", "mist"]


def test_no_form_without_a_request_or_for_a_window() -> None:
    assert answer_form(page_of("std9"), "en") is None and asked(page_of("std9")) is None
    assert answer_form(page_of("std9", window()), "en") is None


# --- the standing offer -----------------------------------------------------------------


def test_a_window_is_kept_and_offered_through_the_days_speeches() -> None:
    open_now = page_of("std9", window(), [day(1)])
    kept = kept_window(open_now, None)
    assert kept == window()
    offer = standing_offer(open_now, kept, "en")
    assert offer is not None and offer.answers, "pressed in an open window: the answer"
    assert [c.action for c in offer.choices] == [SelfExplode()], "silence is the no"
    speaking = page_of("std9", None, [day(1)], speaking=4)
    assert kept_window(speaking, kept) == kept
    later = standing_offer(speaking, kept, "en")
    assert later is not None and not later.answers, "pressed during a speech: armed"
    assert later.choices == offer.choices


def test_no_standing_offer_between_speeches_on_another_day_or_once_out() -> None:
    kept = window(day=1)
    assert standing_offer(page_of("std9", None, [day(1)]), kept, "en") is None
    assert standing_offer(page_of("std9", None, [day(1)]), None, "en") is None
    assert standing_offer(page_of("std9", None, [day(2)], speaking=4), kept, "en") is None
    out: list[ev.Event] = [day(1), ev.DeathsAnnounced(visibility=PUBLIC, seats=(1,))]
    gone = page_of("std9", window(), out, speaking=4)
    assert kept_window(gone, kept) is None
    assert standing_offer(gone, kept, "en") is None


# --- every offered answer is one the referee takes --------------------------------------


def offered(page: SeatPage, request: DecisionRequest) -> list[object]:
    """Every answer the page offers for `request`: each button, a whole pick, a speech."""
    if request.kind is DecisionKind.INTERRUPT:
        offer = standing_offer(page, kept_window(page, None), "en")
        assert offer is not None and offer.answers
        return [c.action for c in offer.choices]
    form = answer_form(page, "en")
    assert form is not None and form.request == request
    answers: list[object] = [c.action for c in form.buttons]
    for pick in form.picks:
        if isinstance(pick, TradePick):
            answers += [pick.action(pick.seats[0], gift) for gift in pick.gifts]
        elif len(pick.seats) >= pick.count:
            answers.append(pick.action(pick.seats[: pick.count]))
    if isinstance(form.text, SpeechForm):
        claims = form.text.claims
        check = claims.checks[-1]
        full = claims.claims(
            role=claims.roles[-1], check=check, card=(claims.cards or (None,))[-1],
            acted=(claims.acted or (None,))[-1], suspects=claims.seats[:1],
            trusts=[s for s in claims.seats[1:2] if s != check],
        )  # fmt: skip
        answers.append(form.text.action("a speech", full))
    elif isinstance(form.text, WhisperForm):
        answers.append(form.text.action("a line"))
    return answers


@pytest.mark.parametrize("ref", sorted(BOARD_REFS))
def test_every_answer_offered_in_a_random_game_is_legal(ref: str) -> None:
    """Every request of a seeded random game, on every board, asked as a seat's page:
    the referee accepts each answer the page offers (and each request offers one)."""
    checked = 0

    def check(referee: Referee, request: DecisionRequest) -> None:
        nonlocal checked
        page = SeatPage(
            game_id="g", board=BOARD_REFS[ref], lang="en", seat=request.seat, name="ann",
            seats=board(BOARD_REFS[ref]).seats,
            observation=observe(referee.events, SeatViewer(seat=request.seat)),
            pending=Pending(request=request, deadline=0.0), status=Status(state="running"),
        )  # fmt: skip
        answers = offered(page, request)
        assert answers or request.kind is DecisionKind.INTERRUPT, request
        for action in answers:
            check_legal(request, action)  # type: ignore[arg-type]
            checked += 1

    play_random(GameConfig(board=BOARD_REFS[ref]), seed=7, on_request=check)
    assert checked > 20
