"""Human-readable transcripts, in Chinese or English, rendered from an `Observation`.

A transcript is a projection of the log through `observe`; it never sees an event the
viewer could not, so the terminal, prompts and the dashboard can all use it safely.

An event whose line is its catalog text `event.<kind>` filled with its fields is a row of
`LINES`, each placeholder worded one way everywhere (`WORDS`); every other kind has one
small renderer below, registered with `@_renders`. Every word comes from the display
catalog (`arena.text`). Lines hold player text as written: a terminal shows them through
`arena.text.inert`, a prompt sends them as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from arena.rules import events as ev
from arena.rules.actions import Claims
from arena.rules.boards import BOARDS, Board
from arena.rules.observation import Observation, Seen
from arena.rules.roles import spec
from arena.rules.types import Role, SeatId, Winner
from arena.text import Lang, t

__all__ = [
    "Lang",
    "claims_text",
    "defaulted_text",
    "numbered",
    "reason_text",
    "render",
    "role_name",
    "seat",
    "seats",
    "transcript",
]

R = TypeVar("R", bound=Callable[..., "str | None"])

RENDERERS: dict[type[Any], Callable[[Any, Lang], str | None]] = {}
"""The renderer of each event kind (a test checks that every kind of `ev.Event` has one)."""


def _renders(*kinds: type[Any]) -> Callable[[R], R]:
    def register(fn: R) -> R:
        for kind in kinds:
            RENDERERS[kind] = fn
        return fn

    return register


def render(event: ev.Event, lang: Lang = "en") -> str | None:
    """One line for `event`, or None for events that only carry state."""
    died = isinstance(event, ev.PlayerDied) and event.cause == "exploded"  # SelfExploded said it
    return None if died or type(event) not in RENDERERS else RENDERERS[type(event)](event, lang)


def transcript(observation: Observation, lang: Lang = "en") -> list[str]:
    """The viewer's transcript, one line per visible event that has one."""
    return [line for s in observation.seen if (line := render(s.event, lang)) is not None]


def numbered(seen: Iterable[Seen], lang: Lang = "en") -> list[tuple[int, str]]:
    """(event index, line) pairs, for views that let the reader scrub by step."""
    return [(s.seq, line) for s in seen if (line := render(s.event, lang)) is not None]


# -- words shared by many lines ---------------------------------------------------------


def role_name(role: Role, lang: Lang) -> str:
    """The role's display name (names are part of each role's rules data, `RoleSpec`)."""
    return spec(role).zh if lang == "zh" else spec(role).en


def seat(n: SeatId | None, lang: Lang) -> str:
    """`3號` / `#3`, or `無` / `nobody` for nobody."""
    return t("seat.nobody", lang) if n is None else t("seat.one", lang, n=n)


def seats(ns: Iterable[SeatId], lang: Lang) -> str:
    """A list of seats, or `無` / `none`."""
    return t("seat.sep", lang).join(seat(n, lang) for n in ns) or t("seat.none", lang)


def claims_text(claims: Claims, lang: Lang) -> str:
    """The structured part of a speech, compactly (empty when it claims nothing)."""
    parts = []
    if claims.role is not None:
        parts.append(t("claim.role", lang, role=role_name(claims.role, lang)))
    for c in claims.checks:
        verdict = t("claim.wolf" if c.is_wolf else "claim.good", lang)
        if c.role is not None:
            verdict = t("claim.card", lang, role=role_name(c.role, lang))
        elif c.acted is not None:
            verdict = t("claim.acted" if c.acted else "claim.idle", lang)
        parts.append(t("claim.check", lang, seat=seat(c.seat, lang), verdict=verdict))
    if claims.suspects:
        parts.append(t("claim.suspects", lang, seats=seats(claims.suspects, lang)))
    if claims.trusts:
        parts.append(t("claim.trusts", lang, seats=seats(claims.trusts, lang)))
    return t("claim.wrap", lang, parts=t("claim.sep", lang).join(parts)) if parts else ""


_END_REASONS = {
    "every wolf is dead": "end.wolves_dead",
    "the wolves killed every god or every villager": "end.side",
    "the wolves took the town": "end.city",
    "the knife landed first (狼刀在先)": "end.knife_first",
    "only the lovers and their side are left": "end.lovers",
}
"""The referee's game-end reasons (the log keeps them in English) and their catalog keys."""


def reason_text(reason: str, lang: Lang) -> str:
    """The game-end reason in `lang`; a reason the catalog does not know is shown as is."""
    if reason.startswith("no winner after ") and reason.endswith(" days"):
        days = reason.removeprefix("no winner after ").removesuffix(" days")
        return t("end.day_limit", lang, days=days)
    key = _END_REASONS.get(reason)
    return t(key, lang) if key is not None else reason


def defaulted_text(reason: str, lang: Lang) -> str:
    """Why a decision was defaulted, in `lang`, from the match runner's English wording.

    The runner's own phrases are translated; the last error it quotes (a model's parse
    error, the referee's illegality message) is diagnostic text and stays as recorded.
    """
    if reason == "game time limit reached":
        return t("defaulted.time_limit", lang)
    if reason.startswith("timed out: "):
        feedback = _feedback_text(reason.removeprefix("timed out: "), lang)
        return t("defaulted.timed_out", lang, feedback=feedback)
    head, sep, feedback = reason.partition(" tries: ")
    if sep and head.startswith("after ") and head.removeprefix("after ").isdigit():
        n = head.removeprefix("after ")
        return t("defaulted.after_tries", lang, n=n, feedback=_feedback_text(feedback, lang))
    return reason


def _feedback_text(feedback: str, lang: Lang) -> str:
    if feedback == "no action in the reply":
        return t("defaulted.no_action", lang)
    if feedback.startswith("no answer within ") and feedback.endswith(" s"):
        seconds = feedback.removeprefix("no answer within ").removesuffix(" s")
        return t("defaulted.no_answer", lang, seconds=seconds)
    return feedback


# -- the lines that are their catalog text filled with worded fields -----------------------


def _cards(cards: tuple[Role, ...], lang: Lang) -> str:
    sep = t("event.card_sep", lang)
    return sep.join(f"{n} {role_name(role, lang)}" for n, role in enumerate(cards, start=1))


def _verdict(is_wolf: bool, lang: Lang) -> str:
    return t("verdict.wolf" if is_wolf else "verdict.good", lang)


def _status(usable: bool, lang: Lang) -> str:
    return t("skill.usable" if usable else "skill.disabled", lang)


def _as_is(value: object, lang: Lang) -> object:
    return value


WORDS: dict[str, Callable[[Any, Lang], object]] = {
    "seat": seat,
    "target": seat,
    "other": seat,
    "seats": seats,
    "targets": seats,
    "among": seats,
    "chosen": seats,
    "role": role_name,
    "cards": _cards,
    "verdict": _verdict,
    "status": _status,
    "gift": lambda gift, lang: t(f"gift.{gift.value}", lang),
    "cause": lambda cause, lang: t(f"cause.{cause.value}", lang),
    "how": lambda how, lang: t(f"knife_how.{how}", lang),
    "context": lambda context, lang: t(f"speech.{context}", lang),
    "text": _as_is,
    "round": _as_is,
    "card": _as_is,
    "day": _as_is,
}
"""How a placeholder of an event line words its value: one meaning per placeholder name in
every `event.*` text of the catalog (`seat` a seat, `seats` a list of seats, ...)."""

LINES: dict[type[Any], tuple[str, ...]] = {
    ev.RoleAssigned: ("seat", "role"),
    ev.WolvesMet: ("seats",),
    ev.GuardProtected: ("seat", "target"),
    ev.WolfWhispered: ("seat", "text"),
    ev.KnifeNominated: ("seat", "target", "round"),
    ev.KnifeChosen: ("target", "how"),
    ev.KnifeShownToWitch: ("seat", "target"),
    ev.SeerChecked: ("target", "verdict=is_wolf"),
    ev.SkillStatusTold: ("seat", "status=usable"),
    ev.BeautyCharmed: ("seat", "target"),
    ev.DreamerChosen: ("seat", "target"),
    ev.SeatFeared: ("seat", "target"),
    ev.SkillBlocked: ("seat",),
    ev.DemonHunted: ("seat", "target"),
    ev.RoleChecked: ("seat", "target", "role"),
    ev.GargoyleStruck: ("seat", "target"),
    ev.GraveRead: ("seat", "target", "verdict=is_wolf"),
    ev.SeatBlocked: ("seat", "target"),
    ev.SeatsSwapped: ("seat", "target", "other"),
    ev.MistLaid: ("seat", "targets"),
    ev.KnifeLimited: ("targets",),
    ev.ClawUnsealed: ("seat", "seats=wolves"),
    ev.ClawStruck: ("seat", "target"),
    ev.GiftGiven: ("seat", "target", "gift"),
    ev.GiftReceived: ("seat", "gift"),
    ev.SeatConfused: ("seat", "target"),
    ev.PufferRaged: ("seat", "seats=targets"),
    ev.CatReprieved: ("seat", "cause", "day=until"),
    ev.WolfMasked: ("seat", "target"),
    ev.BottomCardsDealt: ("cards",),
    ev.BottomCardsShown: ("seat", "cards"),
    ev.CardTaken: ("seat", "card", "role"),
    ev.KnifeWithstood: ("seat",),
    ev.BodyExamined: ("seat", "target", "role"),
    ev.CardRevealed: ("seat", "role"),
    ev.PlayerDied: ("seat", "cause"),
    ev.SheriffCandidates: ("seats",),
    ev.SpeakingOrderSet: ("context", "seats=order"),
    ev.SelfExploded: ("seat",),
    ev.SheriffWithdrew: ("seats",),
    ev.TieBroken: ("among", "chosen"),
    ev.SheriffElected: ("seat",),
    ev.SheriffElectionPostponed: (),
    ev.BadgePassed: ("seat", "target=to"),
    ev.ExileRecommended: ("seat", "targets"),
    ev.PlayerExiled: ("seat",),
    ev.IdiotRevealed: ("seat",),
    ev.PlayerShot: ("role", "seat", "target"),
}
"""Events whose line is the catalog's `event.<kind>` with nothing but worded fields: the
placeholders each fills, `placeholder=field` where the field has another name. An event
whose line branches or builds a phrase has a renderer of its own below."""


def _line(placeholders: tuple[str, ...]) -> Callable[[Any, Lang], str]:
    named = tuple((p, f or p) for p, _, f in (entry.partition("=") for entry in placeholders))

    def line(event: Any, lang: Lang) -> str:
        words = {p: WORDS[p](getattr(event, f), lang) for p, f in named}
        return t(f"event.{event.kind}", lang, **words)

    return line


for _kind, _placeholders in LINES.items():
    _renders(_kind)(_line(_placeholders))


# -- the lines that branch or build a phrase: one renderer each ---------------------------


@_renders(ev.PhaseStarted)
def _phase_started(e: ev.PhaseStarted, lang: Lang) -> str:
    return t("event.phase_started", lang, phase=t(f"phase.{e.phase.value}", lang, day=e.day))


@_renders(ev.GameStarted)
def _game_started(e: ev.GameStarted, lang: Lang) -> str:
    found = e.board if isinstance(e.board, Board) else BOARDS.get(e.board)
    name = str(e.board) if found is None else found.zh if lang == "zh" else found.en
    return t("event.game_started", lang, board=name, seats=e.seats)


@_renders(ev.RolesDealt, ev.RolesRevealed)
def _roles(e: ev.RolesDealt | ev.RolesRevealed, lang: Lang) -> str:
    cards = t("event.card_sep", lang).join(
        t("event.card", lang, seat=seat(i, lang), role=role_name(r, lang))
        for i, r in enumerate(e.roles, 1)
    )
    return t("event.roles", lang, cards=cards)


@_renders(ev.WitchActed)
def _witch_acted(e: ev.WitchActed, lang: Lang) -> str:
    if e.saved is not None:
        return t("event.witch_saved", lang, target=seat(e.saved, lang))
    if e.poisoned is not None:
        return t("event.witch_poisoned", lang, target=seat(e.poisoned, lang))
    return t("event.witch_passed", lang)


@_renders(ev.SnakeActed)
def _snake_acted(e: ev.SnakeActed, lang: Lang) -> str:
    if e.saved is None:
        return t("event.snake_passed", lang, seat=seat(e.seat, lang))
    return t("event.snake_saved", lang, seat=seat(e.seat, lang), target=seat(e.saved, lang))


@_renders(ev.GiftUsed)
def _gift_used(e: ev.GiftUsed, lang: Lang) -> str:
    who, target = seat(e.seat, lang), seat(e.target, lang)
    if e.is_wolf is not None:
        verdict = _verdict(e.is_wolf, lang)
        return t("event.gift_used_check", lang, seat=who, target=target, verdict=verdict)
    gift = t(f"gift.{e.gift.value}", lang)
    return t("event.gift_used", lang, seat=who, target=target, gift=gift)


@_renders(ev.AdmirerChose)
def _admirer_chose(e: ev.AdmirerChose, lang: Lang) -> str:
    key = "event.admirer_chose_wolf" if e.wolf_side else "event.admirer_chose_good"
    return t(key, lang, seat=seat(e.seat, lang), target=seat(e.target, lang))


@_renders(ev.BearGrowled)
def _bear_growled(e: ev.BearGrowled, lang: Lang) -> str:
    return t("event.bear_growled" if e.growled else "event.bear_silent", lang)


@_renders(ev.HealerProtected)
def _healer_protected(e: ev.HealerProtected, lang: Lang) -> str:
    if e.target is None:
        return t("event.healer_passed", lang, seat=seat(e.seat, lang))
    return t("event.healer_protected", lang, seat=seat(e.seat, lang), target=seat(e.target, lang))


@_renders(ev.SeatWatched)
def _seat_watched(e: ev.SeatWatched, lang: Lang) -> str:
    key = "event.seat_watched_acted" if e.acted else "event.seat_watched_idle"
    return t(key, lang, seat=seat(e.seat, lang), target=seat(e.target, lang))


@_renders(ev.LoversLinked)
def _lovers_linked(e: ev.LoversLinked, lang: Lang) -> str:
    first, second = (seat(s, lang) for s in e.lovers)
    return t("event.lovers_linked", lang, seat=seat(e.seat, lang), first=first, second=second)


@_renders(ev.LoverMet)
def _lover_met(e: ev.LoverMet, lang: Lang) -> str:
    side, partner = _verdict(e.partner_is_wolf, lang), seat(e.partner, lang)
    return t("event.lover_met", lang, seat=seat(e.seat, lang), partner=partner, side=side)


@_renders(ev.KnightDuelled)
def _knight_duelled(e: ev.KnightDuelled, lang: Lang) -> str:
    key = "event.knight_duelled_wolf" if e.is_wolf else "event.knight_duelled_good"
    return t(key, lang, seat=seat(e.seat, lang), target=seat(e.target, lang))


@_renders(ev.DeathsAnnounced)
def _deaths_announced(e: ev.DeathsAnnounced, lang: Lang) -> str:
    if not e.seats:
        return t("event.no_deaths", lang)
    return t("event.deaths_announced", lang, seats=seats(e.seats, lang))


@_renders(ev.Spoke)
def _spoke(e: ev.Spoke, lang: Lang) -> str:
    return t(
        "event.spoke",
        lang,
        seat=seat(e.seat, lang),
        context=t(f"speech.{e.context}", lang),
        text=e.text.strip() or t("event.silent", lang),
        claims=claims_text(e.claims, lang),
    )


@_renders(ev.VoteCast)
def _vote_cast(e: ev.VoteCast, lang: Lang) -> str:
    weight = t("event.vote_weight", lang, weight=f"{e.weight:g}") if e.weight != 1 else ""
    target = seat(e.target, lang) if e.target else t("event.abstain", lang)
    return t("event.vote_cast", lang, voter=seat(e.voter, lang), weight=weight, target=target)


@_renders(ev.VotesCounted)
def _votes_counted(e: ev.VotesCounted, lang: Lang) -> str:
    counts = t("event.tally_sep", lang).join(
        t("event.tally", lang, seat=seat(s, lang), votes=f"{n:g}") for s, n in e.tally
    )
    leaders = seats(e.leaders, lang)
    return t(
        "event.votes_counted", lang, counts=counts or t("event.no_tally", lang), leaders=leaders
    )


@_renders(ev.BadgeLost)
def _badge_lost(e: ev.BadgeLost, lang: Lang) -> str:
    return t("event.badge_lost", lang, reason=t(f"badge_lost.{e.reason}", lang))


@_renders(ev.ActionDefaulted)
def _action_defaulted(e: ev.ActionDefaulted, lang: Lang) -> str:
    return t(
        "event.action_defaulted",
        lang,
        seat=seat(e.seat, lang),
        decision=t(f"decision.{e.decision.value}", lang),
        reason=defaulted_text(e.reason, lang),
    )


@_renders(ev.GameEnded)
def _game_ended(e: ev.GameEnded, lang: Lang) -> str:
    reason = reason_text(e.reason, lang)
    if e.winner is Winner.DRAW:
        return t("event.game_drawn", lang, reason=reason)
    return t("event.game_ended", lang, side=t(f"winner.{e.winner.value}", lang), reason=reason)
