"""The exile vote (放逐投票) and its ties.

- 001/003 (`exile_tie="pk"`, `exile_second_tie="peace"`): the tied seats give PK speeches;
  the others vote again, only for them (the tied, a sheriff among them included, do not
  vote); a second tie exiles nobody (平安日).
- 000 (`exile_nomination`): the first vote only nominates the leaders (at most 3; lots if
  more are tied); they defend; everyone votes again (defenders too); a tie goes to PK and a
  re-vote by the others; a tie again is settled by lots.

Every voter's ballot is public once all are in. A flipped idiot never votes, and cannot be
voted out (003: the wolves must knife him at night) except under `flipped_idiot_exile=
"dies"` (000: the flip saves him the first time only). A first round in which nobody votes
exiles nobody.
"""

from __future__ import annotations

from arena.rules import events as ev
from arena.rules.animals import pickable
from arena.rules.ballot import ballot
from arena.rules.decisions import DecisionKind
from arena.rules.speech import speeches
from arena.rules.table import Flow, Table
from arena.rules.types import Direction, SeatId, SpeechContext
from arena.rules.visibility import PUBLIC


def exile_vote(t: Table, exclude: tuple[SeatId, ...] = ()) -> Flow[SeatId | None]:
    """Run the day's vote; returns the seat to exile, or None for a peaceful day.

    `exclude`: seats that are no legal target (a prince who flipped, in the re-vote). A
    self-explosion during a PK or defence speech ends the day (returns None).
    """
    voters = _voters(t)
    targets = tuple(s for s in t.state.present() if can_be_exiled(t, s) and s not in exclude)
    first_ballot: ev.Ballot = "nomination" if t.rules.exile_nomination else "exile"
    top = yield from ballot(t, voters, targets, first_ballot, DecisionKind.VOTE)
    if not top:
        return None
    if t.rules.exile_nomination:
        if len(top) > 3:
            chosen = tuple(sorted(t.draw.sample(top, 3)))
            t.emit(ev.TieBroken(visibility=PUBLIC, purpose="nomination", among=top, chosen=chosen))
            top = chosen
        if (yield from stage_speeches(t, top, "defence")):
            return None
        top = yield from ballot(t, _voters(t), top, "defence", DecisionKind.VOTE, allow_empty=False)
    if len(top) == 1:
        return top[0]
    if t.rules.exile_tie != "pk":
        return _second_tie(t, top) if t.rules.exile_tie == "lots" else None
    if (yield from stage_speeches(t, top, "pk")):
        return None
    pk_voters = tuple(v for v in _voters(t) if v not in top)
    top = yield from ballot(t, pk_voters, top, "pk", DecisionKind.VOTE, allow_empty=False)
    if len(top) == 1:
        return top[0]
    return _second_tie(t, top) if t.rules.exile_second_tie == "lots" else None


def can_be_exiled(t: Table, seat: SeatId) -> bool:
    """Whether `seat` may be voted out.

    A flipped white cat never; a flipped idiot only where `flipped_idiot_exile="dies"`.
    """
    if not pickable(t, seat):  # a flipped white cat (動物夢境, roles.md)
        return False
    return seat not in t.state.revealed_idiots or t.rules.flipped_idiot_exile == "dies"


def _voters(t: Table) -> tuple[SeatId, ...]:
    return tuple(s for s in t.state.present() if s not in t.state.revealed_idiots)


def stage_speeches(t: Table, seats: tuple[SeatId, ...], context: SpeechContext) -> Flow[bool]:
    """Speeches of `seats` in seat order (PK, defence, the prince's): True if one exploded."""
    order = t.set_order(tuple(sorted(seats)), context, Direction.ASCENDING)
    return (yield from speeches(t, order, context, "day_speech"))


def _second_tie(t: Table, tied: tuple[SeatId, ...]) -> SeatId:
    chosen = t.draw.pick(tied)
    t.emit(ev.TieBroken(visibility=PUBLIC, purpose="exile", among=tied, chosen=(chosen,)))
    return chosen
