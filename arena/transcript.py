"""Human-readable transcripts, in Chinese or English, rendered from an `Observation`.

A transcript is a projection of the log through `observe`; it never sees an event the
viewer could not, so the terminal, prompts and the dashboard can all use it safely.

Each event kind has one small renderer below, registered with `@_renders`; every word
comes from the display catalog (`arena.text`). Lines hold player text as written: a
terminal shows them through `arena.text.inert`, a prompt sends them as they are.
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
    renderer = RENDERERS.get(type(event))
    return renderer(event, lang) if renderer is not None else None


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


# -- one renderer per event kind ---------------------------------------------------------


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


@_renders(ev.RoleAssigned)
def _role_assigned(e: ev.RoleAssigned, lang: Lang) -> str:
    return t("event.role_assigned", lang, seat=seat(e.seat, lang), role=role_name(e.role, lang))


@_renders(ev.WolvesMet)
def _wolves_met(e: ev.WolvesMet, lang: Lang) -> str:
    return t("event.wolves_met", lang, seats=seats(e.seats, lang))


@_renders(ev.GuardProtected)
def _guard_protected(e: ev.GuardProtected, lang: Lang) -> str:
    return t("event.guard_protected", lang, seat=seat(e.seat, lang), target=seat(e.target, lang))


@_renders(ev.WolfWhispered)
def _wolf_whispered(e: ev.WolfWhispered, lang: Lang) -> str:
    return t("event.wolf_whispered", lang, seat=seat(e.seat, lang), text=e.text)


@_renders(ev.KnifeNominated)
def _knife_nominated(e: ev.KnifeNominated, lang: Lang) -> str:
    target = seat(e.target, lang)
    return t("event.knife_nominated", lang, seat=seat(e.seat, lang), target=target, round=e.round)


@_renders(ev.KnifeChosen)
def _knife_chosen(e: ev.KnifeChosen, lang: Lang) -> str:
    how = t(f"knife_how.{e.how}", lang)
    return t("event.knife_chosen", lang, target=seat(e.target, lang), how=how)


@_renders(ev.KnifeShownToWitch)
def _knife_shown(e: ev.KnifeShownToWitch, lang: Lang) -> str:
    return t(
        "event.knife_shown_to_witch", lang, seat=seat(e.seat, lang), target=seat(e.target, lang)
    )


@_renders(ev.WitchActed)
def _witch_acted(e: ev.WitchActed, lang: Lang) -> str:
    if e.saved is not None:
        return t("event.witch_saved", lang, target=seat(e.saved, lang))
    if e.poisoned is not None:
        return t("event.witch_poisoned", lang, target=seat(e.poisoned, lang))
    return t("event.witch_passed", lang)


@_renders(ev.SeerChecked)
def _seer_checked(e: ev.SeerChecked, lang: Lang) -> str:
    verdict = t("verdict.wolf" if e.is_wolf else "verdict.good", lang)
    return t("event.seer_checked", lang, target=seat(e.target, lang), verdict=verdict)


@_renders(ev.SkillStatusTold)
def _skill_status(e: ev.SkillStatusTold, lang: Lang) -> str:
    status = t("skill.usable" if e.usable else "skill.disabled", lang)
    return t("event.skill_status_told", lang, seat=seat(e.seat, lang), status=status)


@_renders(ev.BeautyCharmed)
def _beauty_charmed(e: ev.BeautyCharmed, lang: Lang) -> str:
    return t("event.beauty_charmed", lang, seat=seat(e.seat, lang), target=seat(e.target, lang))


@_renders(ev.DreamerChosen)
def _dreamer_chosen(e: ev.DreamerChosen, lang: Lang) -> str:
    return t("event.dreamer_chosen", lang, seat=seat(e.seat, lang), target=seat(e.target, lang))


@_renders(ev.SeatFeared)
def _seat_feared(e: ev.SeatFeared, lang: Lang) -> str:
    return t("event.seat_feared", lang, seat=seat(e.seat, lang), target=seat(e.target, lang))


@_renders(ev.SkillBlocked)
def _skill_blocked(e: ev.SkillBlocked, lang: Lang) -> str:
    return t("event.skill_blocked", lang, seat=seat(e.seat, lang))


@_renders(ev.DemonHunted)
def _demon_hunted(e: ev.DemonHunted, lang: Lang) -> str:
    return t("event.demon_hunted", lang, seat=seat(e.seat, lang), target=seat(e.target, lang))


@_renders(ev.RoleChecked)
def _role_checked(e: ev.RoleChecked, lang: Lang) -> str:
    target = seat(e.target, lang)
    return t(
        "event.role_checked",
        lang,
        seat=seat(e.seat, lang),
        target=target,
        role=role_name(e.role, lang),
    )


@_renders(ev.GargoyleStruck)
def _gargoyle_struck(e: ev.GargoyleStruck, lang: Lang) -> str:
    return t("event.gargoyle_struck", lang, seat=seat(e.seat, lang), target=seat(e.target, lang))


@_renders(ev.GraveRead)
def _grave_read(e: ev.GraveRead, lang: Lang) -> str:
    verdict = t("verdict.wolf" if e.is_wolf else "verdict.good", lang)
    return t(
        "event.grave_read",
        lang,
        seat=seat(e.seat, lang),
        target=seat(e.target, lang),
        verdict=verdict,
    )


@_renders(ev.SeatBlocked)
def _seat_blocked(e: ev.SeatBlocked, lang: Lang) -> str:
    return t("event.seat_blocked", lang, seat=seat(e.seat, lang), target=seat(e.target, lang))


@_renders(ev.SeatsSwapped)
def _seats_swapped(e: ev.SeatsSwapped, lang: Lang) -> str:
    return t(
        "event.seats_swapped",
        lang,
        seat=seat(e.seat, lang),
        target=seat(e.target, lang),
        other=seat(e.other, lang),
    )


@_renders(ev.MistLaid)
def _mist_laid(e: ev.MistLaid, lang: Lang) -> str:
    return t("event.mist_laid", lang, seat=seat(e.seat, lang), targets=seats(e.targets, lang))


@_renders(ev.KnifeLimited)
def _knife_limited(e: ev.KnifeLimited, lang: Lang) -> str:
    return t("event.knife_limited", lang, targets=seats(e.targets, lang))


@_renders(ev.SnakeActed)
def _snake_acted(e: ev.SnakeActed, lang: Lang) -> str:
    if e.saved is None:
        return t("event.snake_passed", lang, seat=seat(e.seat, lang))
    return t("event.snake_saved", lang, seat=seat(e.seat, lang), target=seat(e.saved, lang))


@_renders(ev.ClawUnsealed)
def _claw_unsealed(e: ev.ClawUnsealed, lang: Lang) -> str:
    return t("event.claw_unsealed", lang, seat=seat(e.seat, lang), seats=seats(e.wolves, lang))


@_renders(ev.ClawStruck)
def _claw_struck(e: ev.ClawStruck, lang: Lang) -> str:
    return t("event.claw_struck", lang, seat=seat(e.seat, lang), target=seat(e.target, lang))


@_renders(ev.GiftGiven)
def _gift_given(e: ev.GiftGiven, lang: Lang) -> str:
    gift = t(f"gift.{e.gift.value}", lang)
    return t(
        "event.gift_given", lang, seat=seat(e.seat, lang), target=seat(e.target, lang), gift=gift
    )


@_renders(ev.GiftReceived)
def _gift_received(e: ev.GiftReceived, lang: Lang) -> str:
    gift = t(f"gift.{e.gift.value}", lang)
    return t("event.gift_received", lang, seat=seat(e.seat, lang), gift=gift)


@_renders(ev.GiftUsed)
def _gift_used(e: ev.GiftUsed, lang: Lang) -> str:
    who, target = seat(e.seat, lang), seat(e.target, lang)
    if e.is_wolf is not None:
        verdict = t("verdict.wolf" if e.is_wolf else "verdict.good", lang)
        return t("event.gift_used_check", lang, seat=who, target=target, verdict=verdict)
    gift = t(f"gift.{e.gift.value}", lang)
    return t("event.gift_used", lang, seat=who, target=target, gift=gift)


@_renders(ev.AdmirerChose)
def _admirer_chose(e: ev.AdmirerChose, lang: Lang) -> str:
    key = "event.admirer_chose_wolf" if e.wolf_side else "event.admirer_chose_good"
    return t(key, lang, seat=seat(e.seat, lang), target=seat(e.target, lang))


@_renders(ev.SeatConfused)
def _seat_confused(e: ev.SeatConfused, lang: Lang) -> str:
    return t("event.seat_confused", lang, seat=seat(e.seat, lang), target=seat(e.target, lang))


@_renders(ev.BearGrowled)
def _bear_growled(e: ev.BearGrowled, lang: Lang) -> str:
    return t("event.bear_growled" if e.growled else "event.bear_silent", lang)


@_renders(ev.PufferRaged)
def _puffer_raged(e: ev.PufferRaged, lang: Lang) -> str:
    return t("event.puffer_raged", lang, seat=seat(e.seat, lang), seats=seats(e.targets, lang))


@_renders(ev.CatReprieved)
def _cat_reprieved(e: ev.CatReprieved, lang: Lang) -> str:
    cause = t(f"cause.{e.cause.value}", lang)
    return t("event.cat_reprieved", lang, seat=seat(e.seat, lang), cause=cause, day=e.until)


@_renders(ev.WolfMasked)
def _wolf_masked(e: ev.WolfMasked, lang: Lang) -> str:
    return t("event.wolf_masked", lang, seat=seat(e.seat, lang), target=seat(e.target, lang))


@_renders(ev.HealerProtected)
def _healer_protected(e: ev.HealerProtected, lang: Lang) -> str:
    if e.target is None:
        return t("event.healer_passed", lang, seat=seat(e.seat, lang))
    return t("event.healer_protected", lang, seat=seat(e.seat, lang), target=seat(e.target, lang))


@_renders(ev.SeatWatched)
def _seat_watched(e: ev.SeatWatched, lang: Lang) -> str:
    key = "event.seat_watched_acted" if e.acted else "event.seat_watched_idle"
    return t(key, lang, seat=seat(e.seat, lang), target=seat(e.target, lang))


def _cards(cards: tuple[Role, ...], lang: Lang) -> str:
    sep = t("event.card_sep", lang)
    return sep.join(f"{n} {role_name(role, lang)}" for n, role in enumerate(cards, start=1))


@_renders(ev.BottomCardsDealt)
def _bottom_dealt(e: ev.BottomCardsDealt, lang: Lang) -> str:
    return t("event.bottom_cards_dealt", lang, cards=_cards(e.cards, lang))


@_renders(ev.BottomCardsShown)
def _bottom_shown(e: ev.BottomCardsShown, lang: Lang) -> str:
    return t("event.bottom_cards_shown", lang, seat=seat(e.seat, lang), cards=_cards(e.cards, lang))


@_renders(ev.CardTaken)
def _card_taken(e: ev.CardTaken, lang: Lang) -> str:
    role = role_name(e.role, lang)
    return t("event.card_taken", lang, seat=seat(e.seat, lang), card=e.card, role=role)


@_renders(ev.KnifeWithstood)
def _knife_withstood(e: ev.KnifeWithstood, lang: Lang) -> str:
    return t("event.knife_withstood", lang, seat=seat(e.seat, lang))


@_renders(ev.BodyExamined)
def _body_examined(e: ev.BodyExamined, lang: Lang) -> str:
    return t(
        "event.body_examined",
        lang,
        seat=seat(e.seat, lang),
        target=seat(e.target, lang),
        role=role_name(e.role, lang),
    )


@_renders(ev.LoversLinked)
def _lovers_linked(e: ev.LoversLinked, lang: Lang) -> str:
    first, second = (seat(s, lang) for s in e.lovers)
    return t("event.lovers_linked", lang, seat=seat(e.seat, lang), first=first, second=second)


@_renders(ev.LoverMet)
def _lover_met(e: ev.LoverMet, lang: Lang) -> str:
    side = t(f"verdict.{'wolf' if e.partner_is_wolf else 'good'}", lang)
    return t(
        "event.lover_met", lang, seat=seat(e.seat, lang), partner=seat(e.partner, lang), side=side
    )


@_renders(ev.CardRevealed)
def _card_revealed(e: ev.CardRevealed, lang: Lang) -> str:
    return t("event.card_revealed", lang, seat=seat(e.seat, lang), role=role_name(e.role, lang))


@_renders(ev.KnightDuelled)
def _knight_duelled(e: ev.KnightDuelled, lang: Lang) -> str:
    key = "event.knight_duelled_wolf" if e.is_wolf else "event.knight_duelled_good"
    return t(key, lang, seat=seat(e.seat, lang), target=seat(e.target, lang))


@_renders(ev.PlayerDied)
def _player_died(e: ev.PlayerDied, lang: Lang) -> str:
    cause = t(f"cause.{e.cause.value}", lang)
    return t("event.player_died", lang, seat=seat(e.seat, lang), cause=cause)


@_renders(ev.DeathsAnnounced)
def _deaths_announced(e: ev.DeathsAnnounced, lang: Lang) -> str:
    if not e.seats:
        return t("event.no_deaths", lang)
    return t("event.deaths_announced", lang, seats=seats(e.seats, lang))


@_renders(ev.SheriffCandidates)
def _sheriff_candidates(e: ev.SheriffCandidates, lang: Lang) -> str:
    return t("event.sheriff_candidates", lang, seats=seats(e.seats, lang))


@_renders(ev.SpeakingOrderSet)
def _speaking_order(e: ev.SpeakingOrderSet, lang: Lang) -> str:
    context = t(f"speech.{e.context}", lang)
    return t("event.speaking_order_set", lang, context=context, seats=seats(e.order, lang))


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


@_renders(ev.SelfExploded)
def _self_exploded(e: ev.SelfExploded, lang: Lang) -> str:
    return t("event.self_exploded", lang, seat=seat(e.seat, lang))


@_renders(ev.SheriffWithdrew)
def _sheriff_withdrew(e: ev.SheriffWithdrew, lang: Lang) -> str:
    return t("event.sheriff_withdrew", lang, seats=seats(e.seats, lang))


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


@_renders(ev.TieBroken)
def _tie_broken(e: ev.TieBroken, lang: Lang) -> str:
    return t("event.tie_broken", lang, among=seats(e.among, lang), chosen=seats(e.chosen, lang))


@_renders(ev.SheriffElected)
def _sheriff_elected(e: ev.SheriffElected, lang: Lang) -> str:
    return t("event.sheriff_elected", lang, seat=seat(e.seat, lang))


@_renders(ev.SheriffElectionPostponed)
def _sheriff_postponed(e: ev.SheriffElectionPostponed, lang: Lang) -> str:
    return t("event.sheriff_election_postponed", lang)


@_renders(ev.BadgeLost)
def _badge_lost(e: ev.BadgeLost, lang: Lang) -> str:
    return t("event.badge_lost", lang, reason=t(f"badge_lost.{e.reason}", lang))


@_renders(ev.BadgePassed)
def _badge_passed(e: ev.BadgePassed, lang: Lang) -> str:
    return t("event.badge_passed", lang, seat=seat(e.seat, lang), target=seat(e.to, lang))


@_renders(ev.ExileRecommended)
def _exile_recommended(e: ev.ExileRecommended, lang: Lang) -> str:
    return t(
        "event.exile_recommended", lang, seat=seat(e.seat, lang), targets=seats(e.targets, lang)
    )


@_renders(ev.PlayerExiled)
def _player_exiled(e: ev.PlayerExiled, lang: Lang) -> str:
    return t("event.player_exiled", lang, seat=seat(e.seat, lang))


@_renders(ev.IdiotRevealed)
def _idiot_revealed(e: ev.IdiotRevealed, lang: Lang) -> str:
    return t("event.idiot_revealed", lang, seat=seat(e.seat, lang))


@_renders(ev.PlayerShot)
def _player_shot(e: ev.PlayerShot, lang: Lang) -> str:
    return t(
        "event.player_shot",
        lang,
        role=role_name(e.role, lang),
        seat=seat(e.seat, lang),
        target=seat(e.target, lang),
    )


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
