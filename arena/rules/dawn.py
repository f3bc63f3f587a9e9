"""The night's resolution: who dies at dawn and why, from what the night's actors chose.

Pure over the night's choices (`Acts`): `night_deaths` says who dies and why; `resolve`
applies it once the last step is done (`arena.rules.night`). Sources, rule by rule, in each
function: 000 夜間結算細節 and 003 规则盲点 (guard, antidote, one potion a night, the
knife-first rule 003 (6)), 001:1667 (the dreamer), 001:1251 (the evil knight), 000:22 and
004:3 (lovers), 000:48 (the demon hunter's backlash).
"""

from __future__ import annotations

from arena.rules import events as ev
from arena.rules.animals import lingers
from arena.rules.night_acts import Acts, first_living
from arena.rules.roles import is_wolf
from arena.rules.table import Table
from arena.rules.types import DeathCause, Role, SeatId, Winner
from arena.rules.visibility import REFEREE
from arena.rules.win import winner


def _knifed(t: Table, acts: Acts) -> SeatId | None:
    """The knife's victim after swap, protections, antidote, dream and the elder's spare life."""
    reached = _knife_lands(t, acts)
    return None if reached is not None and _withstands(t, reached) else reached


def _withstands(t: Table, seat: SeatId) -> bool:
    """An elder whose spare life is intact survives the knife that reaches him (长老).

    Common play for 004's 长老 (004 names him in the night order and says 长老和守卫两张神牌
    一般不建议同时存在, two protections against the knife): he has two lives against the
    knife only; poison, exile and shots kill him at once.
    """
    return t.role(seat) is Role.ELDER and seat not in t.state.withstood


def _knife_lands(t: Table, acts: Acts) -> SeatId | None:
    """The seat the knife reaches after swap, guard, shield, healer, antidote and dream.

    None: nobody. The knife and the protections land where the magician's swap sends them;
    the antidote answers the knife wherever it landed. The lucky one's shield and the
    healer's protection are the guard's kind, so with the antidote they follow
    `guard_and_save`.
    """
    knife = acts.lands(acts.knife)
    if knife is None or knife == acts.dreamer or t.role(knife) is Role.EVIL_KNIGHT:
        return None
    guarded = knife in (
        acts.lands(acts.protected),
        acts.lands(acts.shielded),
        acts.lands(acts.healed),
    )
    both = guarded and acts.saved
    dies = t.rules.guard_and_save == "dies" if both else not (guarded or acts.saved)
    return knife if dies else None


def night_deaths(t: Table, acts: Acts) -> dict[SeatId, DeathCause]:
    """Who dies tonight and why, from the night's choices (pure; applied by `_resolve`).

    The dreamer is immune to the knife and the poison (not to the raven claw's strike); then
    the links: the dreamweaver's death or a second night in a row takes the dreamer
    (001:1667), and a dying wolf beauty takes her charmed seat.
    """
    deaths: dict[SeatId, DeathCause] = {}
    knifed = _knifed(t, acts)
    if knifed is not None:
        deaths[knifed] = DeathCause.KNIFE
    poisoned = acts.lands(acts.poisoned)
    if poisoned is not None and poisoned != acts.dreamer and not _poison_immune(t, poisoned):
        deaths[poisoned] = DeathCause.POISON  # poison silences the hunter even if knifed
    lucky_poison = acts.lands(acts.lucky_poisoned)
    if lucky_poison is not None and lucky_poison != acts.dreamer:
        if not _poison_immune(t, lucky_poison):
            deaths[lucky_poison] = DeathCause.POISON  # the witch's poison, given as a gift
    if acts.failed_trade is not None:
        deaths.setdefault(acts.failed_trade, DeathCause.FAILED_TRADE)
    _hunt(t, acts, deaths)
    for seat in acts.check_kills:
        deaths.setdefault(seat, DeathCause.CHECKED)
    if acts.clawed is not None:
        deaths.setdefault(acts.clawed, DeathCause.CLAWED)  # no protection stops the claw
    _reflect(t, acts, deaths)
    linked = -1
    while linked != len(deaths):  # a link's death may start another: a lover's, a charmed seat
        linked = len(deaths)
        _links(t, acts, deaths)
    return deaths


def _links(t: Table, acts: Acts, deaths: dict[SeatId, DeathCause]) -> None:
    """Deaths that follow another tonight: the dreamer, the charmed seat, the other lover.

    A lover dies with his partner, the same night (000:22 之後同生共死; 004:3 情侶殉情視為同時
    死亡) — but not an evil knight, who cannot die at night (001:1251).
    """
    dreamer = acts.dreamer
    if dreamer is not None:
        weaver_dies = any(s in deaths for s in t.state.seats_with(Role.DREAMWEAVER))
        if weaver_dies or dreamer == acts.last_dreamer:
            deaths.setdefault(dreamer, DeathCause.DREAM)
    for beauty in t.state.seats_with(Role.WOLF_BEAUTY):
        charmed = t.state.charmed
        if beauty in deaths and charmed is not None and t.state.is_alive(charmed):
            deaths.setdefault(charmed, DeathCause.CHARMED)
    for seat in t.state.lovers or ():
        partner = t.state.partner(seat)
        if seat in deaths and partner is not None and t.state.is_alive(partner):
            if t.role(partner) is not Role.EVIL_KNIGHT:
                deaths.setdefault(partner, DeathCause.LOVER)


def _poison_immune(t: Table, seat: SeatId) -> bool:
    """The demon hunter shrugs off the poison (common play, `demon_hunter_poison_immune`)."""
    return t.role(seat) is Role.DEMON_HUNTER and t.rules.demon_hunter_poison_immune


def _hunt(t: Table, acts: Acts, deaths: dict[SeatId, DeathCause]) -> None:
    """The demon hunter's hunt: a wolf dies (`hunted`), a good seat backlashes.

    The backlash kills the demon hunter (`backlash`, 000:48 被獵魔者反噬). Neither guard nor
    antidote stops either death (they answer the knife).
    """
    if acts.hunted is None:
        return
    hunter = first_living(t, Role.DEMON_HUNTER)
    if is_wolf(t.role(acts.hunted)):
        deaths.setdefault(acts.hunted, DeathCause.HUNTED)
    elif hunter is not None:
        deaths.setdefault(hunter, DeathCause.BACKLASH)


def _reflect(t: Table, acts: Acts, deaths: dict[SeatId, DeathCause]) -> None:
    """The evil knight never dies at night and reflects once (001:1251).

    The seer who checks him or the witch who poisons him dies instead; both on one night:
    only the seer (若同時吃驗吃毒，則預言傢出局，女巫不出局).
    """
    for knight in t.state.seats_with(Role.EVIL_KNIGHT):
        if not t.state.is_alive(knight):
            continue
        deaths.pop(knight, None)
        if t.state.reflected:
            continue
        seer = first_living(t, Role.SEER)
        witch = first_living(t, Role.WITCH)
        if acts.checked == knight and seer is not None:
            deaths[seer] = DeathCause.REFLECTED
        elif acts.lands(acts.poisoned) == knight and witch is not None:
            deaths[witch] = DeathCause.REFLECTED


def _lover_of(t: Table, seat: SeatId) -> tuple[SeatId, ...]:
    """The living partner who dies with `seat` tonight (none for an evil knight, 001:1251)."""
    partner = t.state.partner(seat)
    if partner is None or not t.state.is_alive(partner) or t.role(partner) is Role.EVIL_KNIGHT:
        return ()
    return (partner,)


def resolve(t: Table, n: int, acts: Acts) -> None:
    """Apply the night's deaths; the table hears of them in the morning."""
    knifed = _knifed(t, acts)
    if knifed is not None and t.role(knifed) is Role.WHITE_CAT:
        knifed = None  # she lives on (flipped): her knife cannot end the game first
    if knifed is not None and t.rules.knife_first:
        dead = t.state.dead | {knifed}
        if winner(t.state.win_roles(), dead, t.rules, t.state.lovers) is Winner.WOLVES:
            t.die(knifed, DeathCause.KNIFE, at_night=True)
            fallen = (knifed, *_lover_of(t, knifed))  # 004:3 情侶殉情視為同時死亡
            for lover in fallen[1:]:
                t.die(lover, DeathCause.LOVER, at_night=True)
            t.end(Winner.WOLVES, "the knife landed first (狼刀在先)", announce=fallen)
    deaths = night_deaths(t, acts)
    reached = _knife_lands(t, acts)
    if reached is not None and reached not in deaths and _withstands(t, reached):
        t.emit(ev.KnifeWithstood(visibility=REFEREE, seat=reached))
    for seat in sorted(deaths):
        if lingers(t, seat, deaths[seat], at_night=True):
            del deaths[seat]
        else:
            t.die(seat, deaths[seat], at_night=True)
    t.check_win(announce=sorted(deaths))
