"""The night's checks and what the information roles learn.

The seer's good-or-wolf check (masked by the phantom, 000:17 魅影排在預言家之前); the exact-role
checks of the gargoyle, the pure-white maiden and the wolf witch (001:2113, 2373-2399; from
night 2 the last two can kill, `Acts.check_kills`); the gravekeeper's reading of the last
exiled seat (001:2463-2487); the watchman (000:29; `night_skill_user` says what counts as
acting) and the coroner (000:30). The night's order is `arena.rules.night`, its resolution
`arena.rules.dawn`.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.rules import events as ev
from arena.rules.actions import (
    Action,
    Inspect,
    Mask,
    Pass,
)
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest, pick_or_pass
from arena.rules.night_acts import Acts, first_living
from arena.rules.roles import in_pack, is_wolf
from arena.rules.table import Flow, Table
from arena.rules.types import Role, SeatId
from arena.rules.visibility import to_seats


def seer_request(t: Table, seer: SeatId) -> DecisionRequest:
    """The seer checks another living seat (000:40 預言家不能查自己); a check is mandatory."""
    targets = tuple(s for s in t.state.living() if s != seer)
    options = (ActionOption(action="inspect", targets=targets, target_required=True),)
    return t.request(seer, DecisionKind.SEER, options, Inspect(target=targets[0]))


def emit_check(t: Table, seer: SeatId, answer: Action, acts: Acts) -> SeatId | None:
    """The seer's check; it reports the side of the seat it lands on (a swap moves it).

    A wolf shows as one unless the phantom masked him tonight (000:24 當晚被查驗時顯示好人).
    Returns the seat checked in truth (the evil knight's reflect answers that one).
    """
    if not isinstance(answer, Inspect):
        return None
    landed = acts.lands(answer.target)
    assert landed is not None
    t.emit(
        ev.SeerChecked(
            visibility=to_seats(seer),
            seat=seer,
            target=answer.target,
            is_wolf=t.state.wolf_side(landed) and landed != acts.masked,
        )
    )
    return landed


def emit_role_check(t: Table, seat: SeatId, answer: Action | None) -> SeatId | None:
    """Write an exact-role check's result to its checker; the seat checked, if any."""
    if not isinstance(answer, Inspect):
        return None
    role = t.role(answer.target)
    t.emit(ev.RoleChecked(visibility=to_seats(seat), seat=seat, target=answer.target, role=role))
    return answer.target


def _killing_check(t: Table, seat: SeatId, targets: tuple[SeatId, ...]) -> DecisionRequest:
    options = pick_or_pass("inspect", targets)
    return t.request(seat, DecisionKind.IDENTIFY, options, Pass())


def wolf_witch_request(t: Table, seat: SeatId) -> DecisionRequest:
    """The wolf witch checks a living seat outside the wolf side (001:2113 除狼人陣營外).

    Her check can kill (the maiden, from night 2), so, unlike a harmless check, it may be
    passed and passing is the default: a seat that times out kills nobody by seat order.
    """
    targets = tuple(s for s in t.state.living() if not is_wolf(t.role(s)))
    return _killing_check(t, seat, targets)


def maiden_request(t: Table, seat: SeatId) -> DecisionRequest:
    """The pure-white maiden checks another living seat (001:2113); passable, as above."""
    return _killing_check(t, seat, tuple(s for s in t.state.living() if s != seat))


def identify_request(t: Table, seat: SeatId) -> DecisionRequest:
    """An exact-role check of another living seat; like the seer's, it has no pass."""
    targets = tuple(s for s in t.state.living() if s != seat)
    options = (ActionOption(action="inspect", targets=targets, target_required=True),)
    return t.request(seat, DecisionKind.IDENTIFY, options, Inspect(target=targets[0]))


def read_grave(t: Table, n: int, keeper: SeatId) -> None:
    """The gravekeeper reads the seat voted out the day before (001:2339).

    守墓人…每晚可以得知一個白天被放逐的玩傢是好人或是狼人; no exile that day: nothing to learn.
    """
    exiled = t.state.last_exiled
    if exiled is None or t.state.last_exiled_day != n - 1:
        return
    wolf = is_wolf(t.role(exiled))
    t.emit(ev.GraveRead(visibility=to_seats(keeper), seat=keeper, target=exiled, is_wolf=wolf))


def mask(t: Table, acts: Acts) -> Flow[SeatId | None]:
    """The phantom opens his eyes alone, after the nightmare, and may mask a living wolf.

    000:24 指定一名狼，當晚被查驗時顯示好人: any wolf of the pack he knows, himself included
    (a lone gargoyle he never met is not his to name), or pass. Feared or blocked earlier
    that night, his mask fails and he is shown so.
    """
    phantom = first_living(t, Role.PHANTOM)
    if phantom is None:
        return None
    if acts.fails(phantom):
        t.emit(ev.SkillBlocked(visibility=to_seats(phantom), seat=phantom))
        return None
    targets = tuple(s for s in t.state.wolves() if in_pack(t.role(s)))
    return (yield from t.ask_aim(phantom, DecisionKind.MASK, "mask", targets, Mask, ev.WolfMasked))


def watch_request(t: Table, watchman: SeatId) -> DecisionRequest:
    """The watchman watches another living seat (000:29 盯梢一人); like a check, no pass."""
    targets = tuple(s for s in t.state.living() if s != watchman)
    options = (ActionOption(action="inspect", targets=targets, target_required=True),)
    return t.request(watchman, DecisionKind.WATCH, options, Inspect(target=targets[0]))


def night_skill_user(event: ev.Event) -> SeatId | None:
    """The seat that used a night skill in `event`, or None (the watchman's 'acted').

    000:29 天亮得知他昨夜有沒有行動 does not say what acting is; the rule here: a seat acted
    when it made a night choice that took effect — a protection, a potion, a check, a
    mask, fear, block, charm, dream, hunt, strike, swap, mist, snake, claw, trade, gift,
    confusion, the secret admirer's love, an autopsy or the thief's take, and for a wolf a knife
    nomination of a seat (taking part in the knife). Passing, whispering in the wolves'
    talk, opening the eyes to be told something (a skill status, the knife shown to the
    witch, a grave read) and a skill that failed (feared or sealed) are not acting.
    """
    match event:
        case (
            ev.GuardProtected(seat=seat, target=target)
            | ev.HealerProtected(seat=seat, target=target)
            | ev.GargoyleStruck(seat=seat, target=target)
            | ev.KnifeNominated(seat=seat, target=target)
        ):
            return seat if target is not None else None
        case ev.WitchActed(seat=seat, saved=saved, poisoned=poisoned):
            return seat if saved is not None or poisoned is not None else None
        case ev.SnakeActed(seat=seat, saved=saved):
            return seat if saved is not None else None
        case (
            ev.SeerChecked(seat=seat)
            | ev.RoleChecked(seat=seat)
            | ev.WolfMasked(seat=seat)
            | ev.SeatFeared(seat=seat)
            | ev.SeatBlocked(seat=seat)
            | ev.BeautyCharmed(seat=seat)
            | ev.DreamerChosen(seat=seat)
            | ev.DemonHunted(seat=seat)
            | ev.BodyExamined(seat=seat)
            | ev.SeatWatched(seat=seat)
            | ev.CardTaken(seat=seat)
            | ev.SeatsSwapped(seat=seat)
            | ev.MistLaid(seat=seat)
            | ev.ClawStruck(seat=seat)
            | ev.GiftGiven(seat=seat)
            | ev.GiftUsed(seat=seat)
            | ev.AdmirerChose(seat=seat)
            | ev.SeatConfused(seat=seat)
        ):
            return seat
    return None


def report_watch(t: Table, acts: Acts, tonight: Sequence[ev.Event]) -> None:
    """Tell the watchman, at dawn, whether his seat acted at any point of the night."""
    watchman = first_living(t, Role.WATCHMAN)
    if watchman is None or acts.watched is None:
        return
    acted = any(night_skill_user(e) == acts.watched for e in tonight)
    t.emit(
        ev.SeatWatched(
            visibility=to_seats(watchman), seat=watchman, target=acts.watched, acted=acted
        )
    )


def autopsy_request(t: Table, coroner: SeatId) -> DecisionRequest | None:
    """The coroner examines a seat the table knows is dead, while autopsies last (000:30).

    限次驗屍: `coroner_autopsies` in a game, one body each; the bodies are the seats
    announced out before tonight (tonight's dead are not known until dawn). Passable.
    """
    if len(t.state.examined) >= t.rules.coroner_autopsies:
        return None
    targets = tuple(s for s in sorted(t.state.out) if s not in t.state.examined)
    if not targets:
        return None
    options = pick_or_pass("inspect", targets)
    return t.request(coroner, DecisionKind.AUTOPSY, options, Pass())


def emit_autopsy(t: Table, coroner: SeatId, answer: Action | None) -> None:
    """Write the coroner's autopsy: the dead seat's exact card, to him alone (000:30)."""
    if not isinstance(answer, Inspect):
        return
    role = t.role(answer.target)
    t.emit(
        ev.BodyExamined(visibility=to_seats(coroner), seat=coroner, target=answer.target, role=role)
    )
