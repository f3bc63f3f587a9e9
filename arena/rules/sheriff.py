"""The sheriff election (警長競選) on the morning of day 1, before deaths are announced.

003/004 警长规则: candidates stand, speak, may withdraw; only seats that never stood vote
(a withdrawn candidate cannot); a tie sends the tied to a PK speech and a re-vote by the
same voters (or, by `sheriff_pk_voters`, by everyone off the PK stage as 001 has it); a
second tie loses the badge. 001 orders the campaign from a drawn seat
(the clock rule; or, by `campaign_order`, from the lowest or highest seat as 003/004 also
allow) skipping non-candidates, and the PK 'first to speak speaks last'.

Self-explosions (001 備註 3-4; 003 (5)): allowed in the campaign speeches and the
withdrawal step. Before `explosions_to_swallow_badge` explosions the election moves to
the next morning with the same candidates (雙爆吞警徽); 001 loses the badge at once for an
explosion in the withdrawal step (退水環節自爆警徽流失).
"""

from __future__ import annotations

from arena.rules import events as ev
from arena.rules.actions import Pass, RunForSheriff, Withdraw
from arena.rules.animals import growl
from arena.rules.ballot import ballot
from arena.rules.config import ExplodePhase
from arena.rules.decisions import ActionOption, DecisionKind
from arena.rules.order import around
from arena.rules.speech import explosion_option, first_explosion, interrupt_requests, speeches
from arena.rules.table import Flow, Table
from arena.rules.types import Direction, Phase, SeatId
from arena.rules.visibility import PUBLIC


def election_due(t: Table, day: int) -> bool:
    """Whether this morning holds a sheriff election (day 1, or one postponed)."""
    if not t.rules.sheriff or t.state.badge_gone or t.state.sheriff is not None:
        return False
    return day == 1 or t.state.pending_candidates is not None


def election(t: Table, day: int) -> Flow[bool]:
    """Run the election. Returns True when a self-explosion ended the day.

    Raises:
        GameOver: an explosion ended the game.
    """
    t.emit(ev.PhaseStarted(visibility=PUBLIC, phase=Phase.SHERIFF_ELECTION, day=day))
    growl(t)  # 動物夢境: the bear's announcement comes first at dawn, before the election
    if t.state.pending_candidates is None:
        present = t.state.present()
        options = (ActionOption(action="run_for_sheriff"), ActionOption(action="pass"))
        answers = yield from t.ask(
            t.request(s, DecisionKind.RUN_FOR_SHERIFF, options, Pass()) for s in present
        )
        candidates = tuple(s for s in present if isinstance(answers[s], RunForSheriff))
    else:
        candidates = tuple(s for s in t.state.pending_candidates if t.state.is_present(s))
    t.emit(ev.SheriffCandidates(visibility=PUBLIC, seats=candidates))
    if not candidates:
        t.emit(ev.BadgeLost(visibility=PUBLIC, reason="no_candidates"))
        return False
    match t.rules.campaign_order:
        case "lowest_first":
            start, direction = 1, Direction.ASCENDING
        case "highest_first":
            start, direction = t.state.seats, Direction.DESCENDING
        case "drawn":
            start = t.draw.below(t.state.seats) + 1
            direction = t.draw.pick((Direction.ASCENDING, Direction.DESCENDING))
    order = around(t.state.seats, start, direction, candidates)
    drawn = t.rules.campaign_order == "drawn"
    t.set_order(order, "sheriff", direction, drawn=drawn)
    exploded = yield from speeches(t, order, "sheriff", "sheriff_speech")
    if exploded:
        _after_explosion(t, candidates, withdraw_step=False)
        return True
    remaining = yield from _withdrawal(t, candidates)
    if remaining is None:
        return True
    yield from _vote(t, remaining, order)
    return False


def _withdrawal(t: Table, candidates: tuple[SeatId, ...]) -> Flow[tuple[SeatId, ...] | None]:
    """The withdrawal step (退水); returns the remaining candidates, None on an explosion."""
    phase: ExplodePhase = "sheriff_withdraw"
    requests = []
    for seat in candidates:
        options = [ActionOption(action="withdraw"), ActionOption(action="pass")]
        explode = explosion_option(t, seat, phase)
        if explode is not None:
            options.append(explode)
        requests.append(t.request(seat, DecisionKind.WITHDRAW, options, Pass()))
    requests += interrupt_requests(t, phase, exclude=candidates)
    answers = yield from t.ask(requests)
    withdrawn = tuple(s for s in candidates if isinstance(answers[s], Withdraw))
    if withdrawn:
        t.emit(ev.SheriffWithdrew(visibility=PUBLIC, seats=withdrawn))
    if (yield from first_explosion(t, answers)):
        _after_explosion(t, tuple(s for s in candidates if s not in withdrawn), withdraw_step=True)
        return None
    return tuple(s for s in candidates if s not in withdrawn)


def _after_explosion(t: Table, candidates: tuple[SeatId, ...], *, withdraw_step: bool) -> None:
    swallowed = t.state.election_explosions >= t.rules.explosions_to_swallow_badge or (
        withdraw_step and t.rules.withdraw_explosion_swallows_badge
    )
    if swallowed or t.state.sheriff is not None:
        if t.state.sheriff is None:
            t.emit(ev.BadgeLost(visibility=PUBLIC, reason="explosion"))
        return
    left = tuple(s for s in candidates if t.state.is_present(s))
    if left:
        t.emit(ev.SheriffElectionPostponed(visibility=PUBLIC, candidates=left))
    else:
        t.emit(ev.BadgeLost(visibility=PUBLIC, reason="no_candidates"))


def _vote(t: Table, remaining: tuple[SeatId, ...], order: tuple[SeatId, ...]) -> Flow[None]:
    if len(remaining) <= 1:
        if remaining:
            t.emit(ev.SheriffElected(visibility=PUBLIC, seat=remaining[0]))
        else:
            t.emit(ev.BadgeLost(visibility=PUBLIC, reason="no_candidates"))
        return
    stood = {s for e in t.events if isinstance(e, ev.SheriffCandidates) for s in e.seats}
    voters = tuple(s for s in t.state.present() if s not in stood)  # withdrawn included
    if not voters:
        t.emit(ev.BadgeLost(visibility=PUBLIC, reason="no_voters"))
        return
    top = yield from ballot(t, voters, remaining, "sheriff", DecisionKind.SHERIFF_VOTE)
    if not top:
        t.emit(ev.BadgeLost(visibility=PUBLIC, reason="no_votes"))
        return
    if len(top) > 1:
        pk_order = tuple(reversed([s for s in order if s in top]))  # 先發言的後發言
        t.set_order(pk_order, "sheriff_pk", Direction.DESCENDING)
        if (yield from speeches(t, pk_order, "sheriff_pk", "sheriff_speech")):
            _after_explosion(t, remaining, withdraw_step=False)
            return
        if t.rules.sheriff_pk_voters == "off_stage":
            voters = tuple(s for s in t.state.present() if s not in top)
        else:
            voters = tuple(s for s in voters if t.state.is_present(s))
        top = yield from ballot(
            t, voters, top, "sheriff_pk", DecisionKind.SHERIFF_VOTE, allow_empty=False
        )
    if len(top) == 1:
        t.emit(ev.SheriffElected(visibility=PUBLIC, seat=top[0]))
    else:
        t.emit(ev.BadgeLost(visibility=PUBLIC, reason="tie"))
