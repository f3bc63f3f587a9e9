"""What follows a death: skills, last words and the badge, in the seeds' order.

001 (報夜晚信息環節): with several deaths, every skill is asked first, then last words in
seat order. 000 (警徽的傳承): the badge moves after last words and the hunter's shot.

Who may shoot depends on the cause (000's table, 臨終能力): a hunter or wolf king shoots
when knifed (a wolf king's self-knife included), exiled, or taken by another death skill;
never when poisoned. 003 adds that a hunter taken by the white wolf king cannot shoot
(`hunter_shoots_when_taken_by_wwk`).
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.rules import events as ev
from arena.rules.actions import Duel, PassBadge, SelfExplode, Shoot, Speak, TearBadge
from arena.rules.animals import knifed_pufferfish, lingers
from arena.rules.config import RuleSet
from arena.rules.decisions import ActionOption, DecisionKind
from arena.rules.roles import is_wolf, spec
from arena.rules.table import Flow, Table
from arena.rules.types import DeathCause, Role, SeatId
from arena.rules.visibility import PUBLIC


@dataclass(frozen=True, slots=True)
class Departure:
    """A seat leaving the game, and whether it leaves last words."""

    seat: SeatId
    cause: DeathCause
    last_words: bool
    night: int | None = None
    """The night it died, for a death announced in the morning (None: a day death)."""
    night_deaths: int = 0
    """How many died that night (the count `night_last_words` was given)."""


def may_shoot(role: Role, cause: DeathCause, rules: RuleSet) -> bool:
    """Whether a seat of `role` dying of `cause` may take someone with him (000's table).

    The table is `RoleSpec.shot_causes`; two knobs adjust it: a hunter taken by the white
    wolf king (003: no), and a wolf king who self-explodes (no seed lists it).
    """
    if cause is DeathCause.TAKEN and role is Role.HUNTER:
        return rules.hunter_shoots_when_taken_by_wwk
    if cause is DeathCause.EXPLODED:
        return role is Role.WOLF_KING and rules.wolf_king_shoots_on_explode
    return cause in spec(role).shot_causes


def night_last_words(rules: RuleSet, night: int, cause: DeathCause, deaths: int) -> bool:
    """Whether a death of night `night` leaves last words (`deaths`: that night's count)."""
    match rules.last_words_night:
        case "first_night":
            return night == 1
        case "first_night_knife":
            return night == 1 and cause is DeathCause.KNIFE
        case "two_nights_single":
            return night == 1 or (night == 2 and deaths == 1)
    return False


def depart(t: Table, departures: list[Departure]) -> Flow[None]:
    """Skills, then last words in seat order, then the badge, for seats just announced out.

    A shot's victim is handled within the same round: its own skill is asked at once, its
    last words follow the rules, and its badge moves with the others'. Where a shot seat
    dies with its shooter (`shot_dies_with_shooter`, 004), a night shooter's victim is one
    more death of that night, and the night's last words are counted again with it.

    Raises:
        GameOver: a shot ended the game.
    """
    done: list[Departure] = []
    shooters: dict[SeatId, SeatId] = {}
    queue = sorted(departures, key=lambda d: d.seat)
    while queue:
        leaving = queue.pop(0)
        done.append(leaving)
        victim = yield from _maybe_shoot(t, leaving)
        if victim is not None:
            shooters[victim] = leaving.seat
            had_words = leaving.last_words and t.rules.last_words_taken == "follow_source"
            queue.insert(0, Departure(victim, DeathCause.SHOT, had_words, *_same_night(t, leaving)))
        for linked, cause in _linked_victims(t, leaving):
            t.die(linked, cause, at_night=False)
            t.check_win()
            had_words = leaving.last_words and t.rules.last_words_taken == "follow_source"
            queue.insert(0, Departure(linked, cause, had_words))
    added = sum(1 for d in done if d.seat in shooters and d.night is not None)
    if added:
        done = _recount_night_words(t.rules, done, shooters, added)
    for leaving in sorted(done, key=lambda d: d.seat):
        if t.rules.last_words_per_wolf:
            speaks = _within_wolf_budget(t, leaving)
        else:
            speaks = leaving.last_words
        if speaks:
            yield from last_words(t, leaving.seat)
    for leaving in done:
        yield from hand_over_badge(t, leaving.seat)


def _linked_victims(t: Table, leaving: Departure) -> list[tuple[SeatId, DeathCause]]:
    """Who dies with a seat leaving by day: its charmed seat, its other lover.

    A lover dies at once with his partner (000:22 同生共死; 004:3 情侶殉情視為同時死亡); his
    last words follow his partner's, as a seat taken with another does (`last_words_taken`).
    A night death's links died that night already (`night.night_deaths`).
    """
    victims = []
    charmed = _charm_victim(t, leaving)
    if charmed is not None:
        victims.append((charmed, DeathCause.CHARMED))
    partner = t.state.partner(leaving.seat)
    if partner is not None and t.state.is_alive(partner) and partner != charmed:
        victims.append((partner, DeathCause.LOVER))
    return victims


def _charm_victim(t: Table, leaving: Departure) -> SeatId | None:
    """The seat a wolf beauty dying by day takes with her (a duel takes nobody: 001:621).

    A night death's charmed seat died that night already (`night.night_deaths`). Her charm
    fails the day after the wolves knifed a pufferfish; a white cat charmed lives on.
    """
    if t.role(leaving.seat) is not Role.WOLF_BEAUTY or leaving.cause is DeathCause.DUEL:
        return None
    if knifed_pufferfish(t, t.state.day):  # 河豚…狼美人技能在當天白天失效
        return None
    charmed = t.state.charmed
    if charmed is None or not t.state.is_alive(charmed):
        return None
    return None if lingers(t, charmed, DeathCause.CHARMED, at_night=False) else charmed


def duel(t: Table, knight: SeatId, action: Duel) -> Flow[bool]:
    """The knight flips and duels (001:621; 000:6): returns True when the day ends at once.

    A wolf target dies and the day ends, straight to night; a good target: the knight dies
    and the speeches go on. A duel death triggers nothing (000's table: no shot; 001:621:
    a duelled wolf beauty takes nobody) and, by common play, leaves no last words.

    Raises:
        GameOver: the duel ended the game.
    """
    wolf = is_wolf(t.role(action.target))
    t.emit(ev.KnightDuelled(visibility=PUBLIC, seat=knight, target=action.target, is_wolf=wolf))
    loser = action.target if wolf else knight
    t.die(loser, DeathCause.DUEL, at_night=False)
    t.check_win()
    yield from depart(t, [Departure(loser, DeathCause.DUEL, last_words=False)])
    return wolf


def _within_wolf_budget(t: Table, leaving: Departure) -> bool:
    """Whether a departing seat speaks under 003's budget of last words.

    003 注: the n-th death of the game speaks while n ≤ the number of wolf cards, unless
    poisoned, shot or taken (those use one up in silence). Deaths count in log order.
    """
    if leaving.cause in (DeathCause.POISON, DeathCause.SHOT, DeathCause.TAKEN):
        return False
    budget = sum(1 for role in t.board.roles if is_wolf(role))
    deaths = [e.seat for e in t.events if isinstance(e, ev.PlayerDied)]
    return leaving.seat in deaths[:budget]


def _same_night(t: Table, shooter: Departure) -> tuple[int | None, int]:
    """The night a shot victim counts as dying in: the shooter's, where the rules say so."""
    if t.rules.shot_dies_with_shooter and shooter.night is not None:
        return shooter.night, shooter.night_deaths
    return None, 0


def _recount_night_words(
    rules: RuleSet, done: list[Departure], shooters: dict[SeatId, SeatId], added: int
) -> list[Departure]:
    """Night deaths' last words once `added` shot victims joined their night (004 多死).

    A victim's words follow its shooter's, recounted, where `last_words_taken` says so.
    `done` lists every shooter before its victim.
    """
    words: dict[SeatId, bool] = {}
    out = []
    for d in done:
        if d.night is None:
            out.append(d)
            continue
        deaths = d.night_deaths + added
        if d.seat in shooters:
            follows = rules.last_words_taken == "follow_source"
            words[d.seat] = follows and words.get(shooters[d.seat], False)
        else:
            words[d.seat] = night_last_words(rules, d.night, d.cause, deaths)
        out.append(Departure(d.seat, d.cause, words[d.seat], d.night, deaths))
    return out


def _maybe_shoot(t: Table, leaving: Departure) -> Flow[SeatId | None]:
    role = t.role(leaving.seat)
    if not may_shoot(role, leaving.cause, t.rules) or _feared_that_night(t, leaving):
        return None
    targets = tuple(s for s in t.state.present() if s != leaving.seat)
    if not targets:
        return None
    answer = yield from t.ask_pick(leaving.seat, DecisionKind.SHOOT, "shoot", targets, Shoot)
    if answer is None:
        return None
    t.emit(ev.PlayerShot(visibility=PUBLIC, seat=leaving.seat, role=role, target=answer.target))
    at_night = _same_night(t, leaving)[0] is not None
    t.die(answer.target, DeathCause.SHOT, at_night=at_night)
    if at_night:  # a night death by the rules, but the shot is public at once
        t.emit(ev.DeathsAnnounced(visibility=PUBLIC, seats=(answer.target,)))
    t.check_win()
    return answer.target


def _feared_that_night(t: Table, leaving: Departure) -> bool:
    """Whether a seat feared in the night it died is barred from its death skill.

    001:1665: a feared hunter knifed that night cannot shoot; by day he can (放逐在白天則可以
    開槍). Only where `fear_blocks_death_skill`.
    """
    return (
        t.rules.fear_blocks_death_skill
        and leaving.night is not None
        and t.state.feared == leaving.seat
        and t.state.feared_night == leaving.night
    )


def last_words(t: Table, seat: SeatId) -> Flow[None]:
    """Ask a departing seat for its last words (遺言)."""
    options = (ActionOption(action="speak", max_chars=t.rules.last_words_chars),)
    request = t.request(seat, DecisionKind.SPEECH, options, Speak(text=""), "last_words")
    answer = yield from t.ask_one(request)
    if isinstance(answer, Speak):
        t.speak(seat, answer, "last_words")


def hand_over_badge(t: Table, seat: SeatId) -> Flow[None]:
    """A departing sheriff passes the badge to a seat at the table or tears it (000)."""
    if t.state.sheriff != seat:
        return
    targets = tuple(s for s in t.state.present() if s != seat)
    options = [ActionOption(action="tear_badge")]
    if targets:
        options.insert(0, ActionOption(action="pass_badge", targets=targets, target_required=True))
    answer = yield from t.ask_one(t.request(seat, DecisionKind.BADGE, options, TearBadge()))
    if isinstance(answer, PassBadge):
        t.emit(ev.BadgePassed(visibility=PUBLIC, seat=seat, to=answer.target))
    else:
        t.emit(ev.BadgeLost(visibility=PUBLIC, reason="torn"))


def explode(t: Table, seat: SeatId, action: SelfExplode) -> Flow[None]:
    """A wolf self-explodes: out at once, then takes, skills, last words and badges.

    A white wolf king takes a seat; last words follow `last_words_exploded`, and the taken
    seat's follow his where `last_words_taken="follow_source"` (004: 所有白天死亡的玩家都有
    遗言, with 狼人自爆可以留遗言), else it has none.

    A blood-moon apostle's card flips (001:1459); the gods are sealed the next night.

    001 (白狼王守衛 備註 5): the seat a white wolf king takes has no last words (001 gives
    the exploded wolf none either), and a white wolf king poisoned last night may explode
    in the sheriff phase but takes nobody.

    Raises:
        GameOver: the explosion ended the game.
    """
    t.emit(ev.SelfExploded(visibility=PUBLIC, seat=seat))
    if spec(t.role(seat)).explode_seals:  # 001:1459 血月使徒自爆…則自動翻牌
        t.emit(ev.CardRevealed(visibility=PUBLIC, seat=seat, role=t.role(seat)))
    if t.state.is_alive(seat):
        t.die(seat, DeathCause.EXPLODED, at_night=False)
    else:  # died last night, not yet announced (the sheriff phase of day 1): 吞毒
        t.emit(ev.DeathsAnnounced(visibility=PUBLIC, seats=(seat,)))
    words = t.rules.last_words_exploded
    taken: list[Departure] = []
    if action.target is not None and can_take(t, seat):
        t.emit(ev.PlayerShot(visibility=PUBLIC, seat=seat, role=t.role(seat), target=action.target))
        t.die(action.target, DeathCause.TAKEN, at_night=False)
        taken_words = words and t.rules.last_words_taken == "follow_source"
        taken.append(Departure(action.target, DeathCause.TAKEN, last_words=taken_words))
    t.check_win()
    own = Departure(seat, t.state.causes[seat], words)  # a night cause if he died last night
    yield from depart(t, [own, *taken])


def can_take(t: Table, seat: SeatId) -> bool:
    """A white wolf king's explosion takes a seat unless he was poisoned (001)."""
    return spec(t.role(seat)).explode_take and t.state.causes.get(seat) is not DeathCause.POISON
