"""What a person may answer at their seat, and the action each answer stands for.

The Play page draws a seat's pending decision as a form and sends what the person picks.
Which answers the form offers, and which action a pick stands for, are decided here from
the request's legal options and the seat's own view (`SeatPage`): the page draws the
options of an `AnswerForm` and sends the action its methods build, and builds none itself.

The form offers nothing the referee would refuse: its buttons are the terminal's menu
(`arena.text.commands.build_menu`, one button per choice); the answers that menu types
instead of listing (the magician's swap and cupid's lovers, two seats; the alchemist
witch's mist, three; the miracle merchant's trade, a seat and a gift) are seat picks; a
speech takes a text and optional structured claims, whose roles and check fields are the
board's own (`claim_roles`, `report_fields`), as the terminal accepts them typed.

The window after a speech (a wolf's self-explosion, a knight's duel) is not asked as a
form: its actions are a standing offer through the day's speeches (`standing_offer`),
pressed to answer an open window or armed for the next one, and a person's silence is
their "no", so the offer leaves out the window's default.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from arena.humans.access import SeatPage
from arena.rules.actions import CheckClaim, Claims, Link, Mist, Speak, Swap, Trade, Whisper
from arena.rules.decisions import DecisionKind, DecisionRequest
from arena.rules.errors import InvalidActionError
from arena.rules.types import Gift, Role
from arena.text import Lang
from arena.text.commands import Choice, build_menu, claim_roles, report_fields

PickKind = Literal["swap", "link", "mist"]
PICK_COUNTS: dict[PickKind, int] = {"swap": 2, "link": 2, "mist": 3}
"""How many seats each seat pick takes: the swap's two, the lovers' two, the mist's three."""
PAIRS: tuple[PickKind, ...] = ("swap", "link")
"""The picks of two seats, drawn before the trade (the mist, of three, after it)."""


@dataclass(frozen=True, slots=True)
class ClaimForm:
    """The optional structured claims under a speech, each list as the form offers it.

    Every list is the seat's own view of the board (`GameStarted`'s public composition):
    a claim names one of the board's cards (`claim_roles`, wolf cards and the thief's
    bottom cards included), and a check adds the card found only where the board deals a
    coroner (`cards`) and whether the seat acted only where it deals a watchman (`acted`);
    an empty list is a field not offered. The speaker's own seat is not among `seats`.
    """

    roles: tuple[Role | None, ...]
    """The claimed role: none first, then the board's cards."""
    checks: tuple[int | None, ...]
    """The checked seat: none first, then every other seat."""
    seats: tuple[int, ...]
    """The seats a speech may suspect or trust: every other seat."""
    cards: tuple[Role | None, ...] = ()
    """The card a check found: none first, then the board's cards; empty: no coroner."""
    acted: tuple[bool | None, ...] = ()
    """Whether the checked seat acted: none, acted, idle; empty: no watchman."""

    def claims(
        self,
        *,
        role: Role | None = None,
        check: int | None = None,
        wolf: bool = False,
        card: Role | None = None,
        acted: bool | None = None,
        suspects: Sequence[int] = (),
        trusts: Sequence[int] = (),
    ) -> Claims:
        """The claims the person picked; a check's verdict and details count only with its seat.

        Raises:
            InvalidActionError: a pick the form does not offer (a card or an acted-or-not
                the board cannot back, a seat not in its lists).
        """
        _offered("claim", role, self.roles)
        _offered("check", check, self.checks)
        for seat in (*suspects, *trusts):
            _offered("seat", seat, self.seats)
        if check is None:
            return Claims(role=role, suspects=tuple(suspects), trusts=tuple(trusts))
        if card is not None:
            _offered("card", card, self.cards)
        if acted is not None:
            _offered("acted", acted, self.acted)
        found = CheckClaim(seat=check, is_wolf=wolf, role=card, acted=acted)
        return Claims(role=role, checks=(found,), suspects=tuple(suspects), trusts=tuple(trusts))


@dataclass(frozen=True, slots=True)
class SpeechForm:
    """A speech: its text and the structured claims it may add."""

    max_chars: int | None
    """The request's length limit of the text, if it sets one (the referee checks it)."""
    claims: ClaimForm

    def action(self, said: str, claims: Claims | None = None) -> Speak:
        """The speech the person wrote, with the claims they picked (`ClaimForm.claims`)."""
        return Speak(text=said, claims=claims or Claims())


@dataclass(frozen=True, slots=True)
class WhisperForm:
    """A line of the wolves' night talk: text only."""

    max_chars: int | None
    """The request's length limit of the text, if it sets one (the referee checks it)."""

    def action(self, said: str) -> Whisper:
        """The line the person wrote."""
        return Whisper(text=said)


@dataclass(frozen=True, slots=True)
class SeatPick:
    """Several seats picked for one action: the swap, the lovers, the mist."""

    kind: PickKind
    seats: tuple[int, ...]
    """The seats to pick from (the option's legal targets)."""
    count: int
    """How many to pick: the action is sent only with exactly this many."""

    def ready(self, picked: Sequence[int]) -> bool:
        """Whether `picked` is a whole answer (its button is enabled)."""
        return len(picked) == self.count and all(s in self.seats for s in picked)

    def action(self, picked: Sequence[int]) -> Swap | Link | Mist:
        """The action for the picked seats.

        Raises:
            InvalidActionError: not `count` of the offered seats.
        """
        if not self.ready(picked):
            raise InvalidActionError(f"{self.kind} takes {self.count} of seats {self.seats}")
        targets = tuple(picked)
        match self.kind:
            case "swap":
                return Swap(targets=targets)
            case "link":
                return Link(targets=targets)
            case "mist":
                return Mist(targets=targets)


@dataclass(frozen=True, slots=True)
class TradePick:
    """The miracle merchant's trade: one seat and one gift."""

    seats: tuple[int, ...]
    gifts: tuple[Gift, ...] = tuple(Gift)

    def ready(self, seat: int | None, gift: Gift | None) -> bool:
        """Whether a seat and a gift are picked, both offered (its button is enabled)."""
        return seat in self.seats and gift in self.gifts

    def action(self, seat: int | None, gift: Gift | None) -> Trade:
        """The trade of `gift` to `seat`.

        Raises:
            InvalidActionError: a seat or gift the form does not offer, or none.
        """
        if seat is None or gift is None or not self.ready(seat, gift):
            raise InvalidActionError(f"a trade takes one of seats {self.seats} and a gift")
        return Trade(target=seat, gift=gift)


Pick = SeatPick | TradePick


@dataclass(frozen=True, slots=True)
class AnswerForm:
    """The answers a pending request offers, in the order the page draws them.

    First the text (a speech or a whisper), then the picks (swap, lovers, trade, mist, as
    the request lists them), then one button per menu choice.
    """

    request: DecisionRequest
    text: SpeechForm | WhisperForm | None
    picks: tuple[Pick, ...]
    buttons: tuple[Choice, ...]
    """The menu's choices: each labelled in the game's language, its action built."""


def asked(page: SeatPage) -> DecisionRequest | None:
    """The request the page asks as a form: the pending one, unless it is a window."""
    pending = page.pending
    if pending is None or pending.request.kind is DecisionKind.INTERRUPT:
        return None
    return pending.request


def answer_form(page: SeatPage, lang: Lang) -> AnswerForm | None:
    """The form of the seat's pending request, labels in the game language `lang`.

    None when nothing is asked as a form (no request, or a window: `standing_offer`).
    """
    request = asked(page)
    if request is None:
        return None
    menu = build_menu(request, lang)
    limit = next((o.max_chars for o in request.options if o.max_chars), None)
    text: SpeechForm | WhisperForm | None = None
    if menu.text_kind == "speak":
        text = SpeechForm(limit, claim_form(page))
    elif menu.text_kind == "whisper":
        text = WhisperForm(limit)
    return AnswerForm(request, text, _picks(request), menu.choices)


def claim_form(page: SeatPage) -> ClaimForm:
    """The claims a speech at this seat may add (see `ClaimForm`)."""
    cards = claim_roles(page.observation.knowledge.role_counts)
    fields = report_fields(cards)
    others = tuple(s for s in range(1, page.seats + 1) if s != page.seat)
    return ClaimForm(
        roles=(None, *cards),
        checks=(None, *others),
        seats=others,
        cards=(None, *cards) if "role" in fields else (),
        acted=(None, True, False) if "acted" in fields else (),
    )


def _picks(request: DecisionRequest) -> tuple[Pick, ...]:
    """The answers the menu lists no button for: two seats, the trade, three seats."""
    picks: list[Pick] = []
    for kind in PAIRS:
        if (option := request.option(kind)) is not None:
            picks.append(SeatPick(kind, option.targets, PICK_COUNTS[kind]))
    if (trade := request.option("trade")) is not None:
        picks.append(TradePick(trade.targets))
    if (mist := request.option("mist")) is not None:
        picks.append(SeatPick("mist", mist.targets, PICK_COUNTS["mist"]))
    return tuple(picks)


@dataclass(frozen=True, slots=True)
class StandingOffer:
    """The window's actions offered through the day's speeches.

    Pressed while a window is open (`answers`), a choice is that window's answer; pressed
    during a speech, it is armed for the next window (`arena.humans.access.arm`). Every
    window lasts the same, so nothing here changes what the others can time.
    """

    offer: DecisionRequest
    """The window whose actions are offered (the open one, or the last one kept)."""
    choices: tuple[Choice, ...]
    """Its actions but the default: silence is the "no"."""
    answers: bool
    """Whether a window is open now, so that a press answers it instead of arming."""


def open_window(page: SeatPage) -> DecisionRequest | None:
    """The window after a speech now asking this seat, if one is."""
    pending = page.pending
    if pending is None or pending.request.kind is not DecisionKind.INTERRUPT:
        return None
    return pending.request


def kept_window(page: SeatPage, kept: DecisionRequest | None) -> DecisionRequest | None:
    """The window the page keeps offering: the open one, else the one it kept.

    A window that offered this seat an action stays offered while the speeches go on; a
    seat that is out (a wolf that has exploded) keeps none.
    """
    if page.seat not in page.observation.knowledge.present():
        return None
    window = open_window(page)
    return window if window is not None else kept


def standing_offer(
    page: SeatPage, kept: DecisionRequest | None, lang: Lang
) -> StandingOffer | None:
    """The standing offer to draw now, from the window kept (`kept_window`), if any.

    Offered while the speeches go on (a window open or a seat speaking) on the day the
    window was opened; labels in the game language `lang`.
    """
    if kept is None or page.seat not in page.observation.knowledge.present():
        return None
    window = open_window(page)
    speeches_on = window is not None or page.status.speaking is not None
    if not speeches_on or kept.day != page.observation.knowledge.day:
        return None
    choices = tuple(c for c in build_menu(kept, lang).choices if c.action != kept.default)
    return StandingOffer(kept, choices, answers=window is not None)


def _offered(what: str, value: object, offered: Sequence[object]) -> None:
    """Refuse a pick the form does not offer (a page sends only what it drew)."""
    if value is not None and value not in offered:
        raise InvalidActionError(f"{what} {value!r} is not offered here")


__all__ = [
    "AnswerForm",
    "ClaimForm",
    "Pick",
    "SeatPick",
    "SpeechForm",
    "StandingOffer",
    "TradePick",
    "WhisperForm",
    "answer_form",
    "asked",
    "claim_form",
    "kept_window",
    "open_window",
    "standing_offer",
]
