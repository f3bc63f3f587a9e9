"""The day: sheriff election, the morning announcement, speeches, the vote and the exile.

000 遊戲流程: deaths are announced without cause; night-1 deaths have last words; the
sheriff sets the direction of speeches; votes are simultaneous and public (abstaining is
allowed, 003 投票规则 (1)); the sheriff's vote weighs 1.5. Three things end a day without
an exile: an idiot's flip, a knight's duel (not on these boards) and a self-explosion.
"""

from __future__ import annotations

from arena.rules import events as ev
from arena.rules.actions import ChooseOrder, Pass, RecommendExile, Reveal
from arena.rules.animals import flip_at_dawn, growl, lingers, puffer_request, rage_victims
from arena.rules.deaths import Departure, depart, hand_over_badge, night_last_words
from arena.rules.decisions import ActionOption, DecisionKind
from arena.rules.exile import exile_vote, stage_speeches
from arena.rules.order import after, around
from arena.rules.roles import spec
from arena.rules.sheriff import election, election_due
from arena.rules.speech import speeches
from arena.rules.table import Flow, Table
from arena.rules.types import DeathCause, Direction, Phase, Role, SeatId
from arena.rules.visibility import PUBLIC


def day(t: Table, n: int) -> Flow[None]:
    """Play day `n`; at its end, a white cat whose extra life ends today leaves.

    Raises:
        GameOver: a death during the day ended the game.
    """
    yield from _day(t, n)
    yield from _cats_leave(t, n)


def _cats_leave(t: Table, n: int) -> Flow[None]:
    """白貓…額外存活至白貓下次放逐投票階段後: a flipped cat dies once day `until` is over.

    After the vote and everything it causes (an exile that ends the game is settled first,
    roles.md), or after an explosion that ended the day before its vote. It has spoken all
    day, so it leaves without last words; its death triggers nothing.
    """
    for seat, (cause, until) in sorted(t.state.reprieves.items()):
        if until == n and t.state.is_alive(seat):
            t.die(seat, cause, at_night=False)
            t.check_win()
            yield from depart(t, [Departure(seat, cause, last_words=False)])


def _day(t: Table, n: int) -> Flow[None]:
    interrupted = False
    if election_due(t, n):
        interrupted = yield from election(t, n)
    morning = yield from announce(t, n)
    if interrupted:
        return
    t.emit(ev.PhaseStarted(visibility=PUBLIC, phase=Phase.SPEECHES, day=n))
    order = yield from speaking_order(t, morning)
    if (yield from speeches(t, order, "day", "day_speech")):
        return
    yield from recommend(t)
    t.emit(ev.PhaseStarted(visibility=PUBLIC, phase=Phase.VOTE, day=n))
    exiled = yield from exile_vote(t)
    if exiled is not None:
        yield from exile(t, exiled)
    yield from _puffer(t)


def _puffer(t: Table) -> Flow[None]:
    """After the vote, the pufferfish may flip and take every seat that voted for it.

    河豚之怒 (001:127; common play, roles.md): once a game, only if someone voted for it
    today, exiled or not (voted out, it flips on its way out); the taken die at once with
    no last words and no death skill; a flipped white cat is not taken.
    """
    for puffer in t.state.seats_with(Role.PUFFERFISH):
        exiled_now = t.state.last_exiled == puffer and t.state.last_exiled_day == t.state.day
        if not (t.state.is_alive(puffer) or exiled_now):
            continue
        request = puffer_request(t, puffer)
        if request is None:
            continue
        answer = yield from t.ask_one(request)
        taken = rage_victims(t, puffer, answer)
        dying = [s for s in taken if not lingers(t, s, DeathCause.PUFFED, at_night=False)]
        for seat in dying:
            t.die(seat, DeathCause.PUFFED, at_night=False)
        t.check_win()
        yield from depart(t, [Departure(s, DeathCause.PUFFED, last_words=False) for s in dying])


def announce(t: Table, n: int) -> Flow[tuple[SeatId, ...]]:
    """Announce last night's deaths (no cause), then their skills, last words and badges.

    Returns the seats announced (empty: a peaceful night, 平安夜).
    """
    t.emit(ev.PhaseStarted(visibility=PUBLIC, phase=Phase.ANNOUNCEMENT, day=n))
    growl(t)
    tonight = [e for e in t.events if isinstance(e, ev.PlayerDied) and e.at_night and e.day == n]
    night_deaths = [e for e in tonight if t.state.is_present(e.seat)]  # not exploded since
    seats = tuple(sorted(e.seat for e in night_deaths))
    t.emit(ev.DeathsAnnounced(visibility=PUBLIC, seats=seats))
    flip_at_dawn(t, n)
    departures = [
        Departure(
            e.seat,
            e.cause,
            night_last_words(t.rules, n, e.cause, len(tonight)),
            night=n,
            night_deaths=len(tonight),
        )
        for e in night_deaths
    ]
    yield from depart(t, departures)
    return seats


def speaking_order(t: Table, morning: tuple[SeatId, ...]) -> Flow[tuple[SeatId, ...]]:
    """The day's order: the sheriff's, or the rules' order without one (000, 001, 003).

    The sheriff chooses, except under 004's alternation after his first choice: then the
    side is the other one from the day before.
    """
    present = t.state.present()
    sheriff = t.state.sheriff
    switched = _switched_direction(t) if t.rules.sheriff_direction == "alternate" else None
    if sheriff is not None and t.state.is_present(sheriff) and switched is not None:
        return t.set_order(after(t.state.seats, sheriff, switched, present), "day", switched)
    if sheriff is not None and t.state.is_present(sheriff):
        death_anchor = t.rules.sheriff_order_anchor == "death"
        starts = present if death_anchor and not morning else ()
        options = (
            ActionOption(action="choose_order", targets=starts, target_required=bool(starts)),
        )
        default = ChooseOrder(direction=Direction.ASCENDING, start=starts[0] if starts else None)
        request = t.request(sheriff, DecisionKind.SPEECH_ORDER, options, default)
        choice = yield from t.ask_one(request)
        assert isinstance(choice, ChooseOrder)
        if not death_anchor:
            order = after(t.state.seats, sheriff, choice.direction, present)
        elif choice.start is not None:
            order = around(t.state.seats, choice.start, choice.direction, present)
        else:
            order = after(t.state.seats, morning[0], choice.direction, present)
        return t.set_order(order, "day", choice.direction)
    direction = t.draw.pick((Direction.ASCENDING, Direction.DESCENDING))
    last = _last_death(t)
    if t.rules.order_without_sheriff == "after_last_death" and last is not None:
        order = after(t.state.seats, last, direction, present)
    else:
        order = around(t.state.seats, t.draw.pick(present), direction, present)
    return t.set_order(order, "day", direction, drawn=True)


def _switched_direction(t: Table) -> Direction | None:
    """004 换手: the other side from the last day a sheriff set, None if none has yet."""
    for event in reversed(t.events):
        if isinstance(event, ev.SpeakingOrderSet) and event.context == "day" and not event.drawn:
            return (
                Direction.DESCENDING
                if event.direction is Direction.ASCENDING
                else Direction.ASCENDING
            )
    return None


def _last_death(t: Table) -> SeatId | None:
    for event in reversed(t.events):
        if isinstance(event, ev.DeathsAnnounced) and event.seats:
            return event.seats[-1]
    return None


def recommend(t: Table) -> Flow[None]:
    """The sheriff may recommend an exile, or two seats for a PK (001: 警長歸票)."""
    sheriff = t.state.sheriff
    if sheriff is None or not t.state.is_present(sheriff):
        return
    targets = tuple(s for s in t.state.present() if s != sheriff)
    options = (ActionOption(action="recommend_exile", targets=targets), ActionOption(action="pass"))
    answer = yield from t.ask_one(t.request(sheriff, DecisionKind.RECOMMEND, options, Pass()))
    if isinstance(answer, RecommendExile):
        t.emit(ev.ExileRecommended(visibility=PUBLIC, seat=sheriff, targets=answer.targets))


def _prince(t: Table, prince: SeatId) -> Flow[bool]:
    """The exiled prince's one skill (001:1885, 1993-1997): True when he used it.

    Asked 王子是否選擇發動技能: flipping reveals his card (自動翻牌), gives him one more
    speech (僅 120 秒), then the vote is run again, without him as a target (common play: he
    was cleared; roles.md). Once flipped, no later exile asks him again (王子翻牌後不在有此環節).
    """
    options = (ActionOption(action="reveal"), ActionOption(action="pass"))
    answer = yield from t.ask_one(t.request(prince, DecisionKind.PRINCE, options, Pass()))
    if not isinstance(answer, Reveal):
        return False
    t.emit(ev.CardRevealed(visibility=PUBLIC, seat=prince, role=Role.PRINCE))
    if (yield from stage_speeches(t, (prince,), "prince")):
        return True
    again = yield from exile_vote(t, exclude=(prince,))
    if again is not None:
        yield from exile(t, again)
    return True


def exile(t: Table, seat: SeatId) -> Flow[None]:
    """Exile `seat`: an unrevealed idiot flips and stays (the day ends), anyone else dies.

    An exiled prince may flip and have the vote re-run (`_prince`). A blood-moon apostle
    exiled as the last wolf flips his card (001:1459 作為最後一名狼人被投出
    則自動翻牌) before he dies.

    003 规则盲点 (2): the flipped idiot keeps speaking but never votes again. The seeds
    are silent on a flipped idiot holding the badge; he hands it on or tears it.

    Raises:
        GameOver: the exile ended the game.
    """
    t.emit(ev.PlayerExiled(visibility=PUBLIC, seat=seat))
    if lingers(t, seat, DeathCause.EXILE, at_night=False):
        return  # a white cat flips and lives until the end of the next day's vote
    if spec(t.role(seat)).explode_seals and t.state.wolves() == (seat,):
        t.emit(ev.CardRevealed(visibility=PUBLIC, seat=seat, role=t.role(seat)))
    if t.role(seat) is Role.PRINCE and seat not in t.state.revealed:
        if (yield from _prince(t, seat)):
            return
    if t.role(seat) is Role.IDIOT and seat not in t.state.revealed_idiots:
        t.emit(ev.IdiotRevealed(visibility=PUBLIC, seat=seat))
        yield from hand_over_badge(t, seat)
        return
    t.die(seat, DeathCause.EXILE, at_night=False)
    t.check_win()
    yield from depart(t, [Departure(seat, DeathCause.EXILE, last_words=True)])
