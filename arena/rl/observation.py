"""The environment's structured observation: a fixed-size vector folded from a seat's view.

The vector is built only from events the seat may see — the events `observe` gives it
(`arena.rules.observation`), routed by the same visibility rule — and from the request it
is answering, never from `GameState`. Its facts are `Knowledge`'s (a test checks them
against `know` at every step) plus what the table said and voted. It is folded
incrementally: each event is read once, so an observation costs a copy, not a replay.

Layout (`FIELDS`, in order; `N = MAX_SEATS` seats, `R` roles in `Role` order, all int8):

Public facts (the same for every seat):
- `seats` (N): 1 for each seat of this board.
- `out` (N): seats the table knows are out (announced deaths, exiles).
- `sheriff` (N): the sheriff, one-hot (all 0 without one).
- `day` (1): the current day (night N precedes day N), capped at 127.
- `phase` (6): the phase, one-hot in `Phase` order.
- `candidates` (N): the latest sheriff candidates.
- `claimed_roles` (N×R): each speaker's latest role claim, one-hot per row.
- `claimed_checks` (N×N): checks each speaker has claimed: +1 wolf, -1 good (latest).
- `suspects` (N×N), `trusts` (N×N): the seats each speaker's latest speech suspected or
  vouched for.
- `votes` (N×N): the latest ballot, voter row → target column (an abstention is a 0 row).
- `vote_counts` (N×N): every exile ballot of the game (exile, nomination, defence, PK),
  voter → target, counted (capped at 127).

The seat's own knowledge:
- `me` (N): the seat, one-hot.
- `role` (R): its current card (the thief's taken card once he has one).
- `known_roles` (N×R): every seat whose exact card it knows (its own, fellow wolves, cards
  flipped or checked exactly), one-hot per row.
- `checks` (N): its own checks (seer, lucky one's check): +1 wolf, -1 good.
- `lovers` (N): the two lovers, when it knows them (cupid, a lover).
- `partner_wolf` (1): a lover's partner's side as told: +1 wolf, -1 good, 0 not a lover.
- `potions` (2): a witch's antidote used, poison used.
- `nominations` (N×N): tonight's knife nominations a wolf has seen, wolf → target.

The question:
- `decision` (len(DecisionKind)): the request's kind, one-hot (all 0 when nothing is asked,
  as in the last observation at the game's end).
- `context` (7): a speech's context, one-hot in `SpeechContext` order.
- `night` (1): 1 when the request belongs to a night.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np
import numpy.typing as npt

from arena.rules import events as ev
from arena.rules.composition import MAX_SEATS
from arena.rules.decisions import DecisionKind, DecisionRequest
from arena.rules.types import Phase, Role, SeatId, SpeechContext
from arena.rules.visibility import Public, ToSeats, ToTeam

N = MAX_SEATS
ROLES: tuple[Role, ...] = tuple(Role)
R = len(ROLES)
PHASES: tuple[Phase, ...] = tuple(Phase)
DECISIONS: tuple[DecisionKind, ...] = tuple(DecisionKind)
CONTEXTS: tuple[SpeechContext, ...] = get_args(SpeechContext)
EXILE_BALLOTS = frozenset({"exile", "nomination", "defence", "pk"})
_ROLE_INDEX = {role: i for i, role in enumerate(ROLES)}
_PHASE_INDEX = {phase: i for i, phase in enumerate(PHASES)}
_DECISION_INDEX = {kind: i for i, kind in enumerate(DECISIONS)}
_CONTEXT_INDEX = {context: i for i, context in enumerate(CONTEXTS)}

Scope = Literal["public", "own", "question"]


@dataclass(frozen=True, slots=True)
class Field:
    """One named part of the observation vector."""

    name: str
    shape: tuple[int, ...]
    scope: Scope
    low: int = 0
    high: int = 1

    @property
    def size(self) -> int:
        """How many entries of the vector the field takes."""
        return int(np.prod(self.shape))


FIELDS: tuple[Field, ...] = (
    Field("seats", (N,), "public"),
    Field("out", (N,), "public"),
    Field("sheriff", (N,), "public"),
    Field("day", (1,), "public", high=127),
    Field("phase", (len(PHASES),), "public"),
    Field("candidates", (N,), "public"),
    Field("claimed_roles", (N, R), "public"),
    Field("claimed_checks", (N, N), "public", low=-1),
    Field("suspects", (N, N), "public"),
    Field("trusts", (N, N), "public"),
    Field("votes", (N, N), "public"),
    Field("vote_counts", (N, N), "public", high=127),
    Field("me", (N,), "own"),
    Field("role", (R,), "own"),
    Field("known_roles", (N, R), "own"),
    Field("checks", (N,), "own", low=-1),
    Field("lovers", (N,), "own"),
    Field("partner_wolf", (1,), "own", low=-1),
    Field("potions", (2,), "own"),
    Field("nominations", (N, N), "own"),
    Field("decision", (len(DECISIONS),), "question"),
    Field("context", (len(CONTEXTS),), "question"),
    Field("night", (1,), "question"),
)
"""The observation's parts, in vector order."""


def _offsets() -> dict[str, slice]:
    out, at = {}, 0
    for f in FIELDS:
        out[f.name] = slice(at, at + f.size)
        at += f.size
    return out


SLICES: dict[str, slice] = _offsets()
"""Field name → its slice of the vector."""
SIZE = sum(f.size for f in FIELDS)
"""The length of the observation vector."""
_PUBLIC = sum(f.size for f in FIELDS if f.scope == "public")
_OWN = sum(f.size for f in FIELDS if f.scope == "own")
_QUESTION = _PUBLIC + _OWN
LOW = np.concatenate([np.full(f.size, f.low, dtype=np.int8) for f in FIELDS])
HIGH = np.concatenate([np.full(f.size, f.high, dtype=np.int8) for f in FIELDS])


def fields(vector: npt.NDArray[np.int8]) -> dict[str, npt.NDArray[np.int8]]:
    """The named parts of an observation vector (views, shaped as `FIELDS` says)."""
    return {f.name: vector[SLICES[f.name]].reshape(f.shape) for f in FIELDS}


_Views = dict[str, npt.NDArray[np.int8]]
"""Named, shaped views into one buffer (the public facts, or one seat's own)."""


def _views(buffer: npt.NDArray[np.int8], scope: Scope, base: int) -> _Views:
    return {
        f.name: buffer[SLICES[f.name].start - base : SLICES[f.name].stop - base].reshape(f.shape)
        for f in FIELDS
        if f.scope == scope
    }


class Tracker:
    """Folds visible events into observation vectors for the tracked seats.

    Feed it the events in log order (`feed`); an event reaches a seat's facts when the
    seat may see it: public events go to every seat, a seat's or team's event to the seats
    it names. The environment tracks every seat from the full log; a policy seat at a real
    table tracks itself from its `Observation` (which holds only what it may see).
    """

    def __init__(self, tracked: Iterable[SeatId]) -> None:
        self._public = np.zeros(_PUBLIC, dtype=np.int8)
        self._p = _views(self._public, "public", 0)
        self._own: dict[SeatId, npt.NDArray[np.int8]] = {}
        self._o: dict[SeatId, _Views] = {}
        for seat in tracked:
            buffer = np.zeros(_OWN, dtype=np.int8)
            self._own[seat], self._o[seat] = buffer, _views(buffer, "own", _PUBLIC)
        self.read = 0
        """How many events of the log have been fed."""
        self.clear()

    def clear(self) -> None:
        """Forget every event: ready for a new game of the same seats (no reallocation)."""
        self._public[:] = 0
        for seat, buffer in self._own.items():
            buffer[:] = 0
            self._o[seat]["me"][seat - 1] = 1
        self._last_vote = False
        self.read = 0

    def feed(self, events: Sequence[ev.Event]) -> None:
        """Fold `events[self.read:]`: the log (or a seat's visible events) so far."""
        for i in range(self.read, len(events)):
            self._fold(events[i])
        self.read = len(events)

    def vector(self, seat: SeatId, request: DecisionRequest | None) -> npt.NDArray[np.int8]:
        """The observation vector of `seat` now, answering `request` (None: nothing asked)."""
        if request is None:
            question = _NOTHING_ASKED
        else:
            question = _question(request.kind, request.context, request.night)
        return np.concatenate((self._public, self._own[seat], question))

    def _fold(self, event: ev.Event) -> None:
        v = event.visibility
        kind = type(event)
        if isinstance(v, Public):
            public = _PUBLIC_FOLDS.get(kind)
            if public is not None:
                public(self._p, event)
            elif isinstance(event, ev.VoteCast):
                _vote(self._p, event, new_ballot=not self._last_vote)
            self._last_vote = kind is ev.VoteCast
            seats: Iterable[SeatId] = self._o
        elif isinstance(v, ToSeats | ToTeam):
            seats = [s for s in v.seats if s in self._o]
        else:
            return
        own = _OWN_FOLDS.get(kind)
        if own is not None:
            for seat in seats:
                own(self._o[seat], seat, event)
        if isinstance(event, ev.PhaseStarted) and event.phase is Phase.NIGHT:
            for views in self._o.values():
                views["nominations"][:] = 0


_NOTHING_ASKED = np.zeros(SIZE - _QUESTION, dtype=np.int8)


@functools.cache
def _question(
    kind: DecisionKind, context: SpeechContext | None, night: bool
) -> npt.NDArray[np.int8]:
    """The question part of the vector (a few dozen distinct ones: built once each)."""
    question = np.zeros(SIZE - _QUESTION, dtype=np.int8)
    question[_DECISION_INDEX[kind]] = 1
    if context is not None:
        question[len(DECISIONS) + _CONTEXT_INDEX[context]] = 1
    question[-1] = int(night)
    question.flags.writeable = False
    return question


def _one_hot_row(matrix: npt.NDArray[np.int8], row: int, column: int) -> None:
    matrix[row] = 0
    matrix[row, column] = 1


def _set_role(o: _Views, seat: SeatId, role: Role) -> None:
    _one_hot_row(o["known_roles"], seat - 1, _ROLE_INDEX[role])


# -- public facts -------------------------------------------------------------------------


def _game_started(p: _Views, e: ev.GameStarted) -> None:
    p["seats"][: e.seats] = 1


def _phase_started(p: _Views, e: ev.PhaseStarted) -> None:
    p["day"][0] = min(e.day, 127)
    p["phase"][:] = 0
    p["phase"][_PHASE_INDEX[e.phase]] = 1


def _deaths(p: _Views, e: ev.DeathsAnnounced) -> None:
    for seat in e.seats:
        p["out"][seat - 1] = 1


def _sheriff(p: _Views, e: ev.SheriffElected | ev.BadgePassed | ev.BadgeLost) -> None:
    p["sheriff"][:] = 0
    seat = e.seat if isinstance(e, ev.SheriffElected) else getattr(e, "to", None)
    if seat is not None:
        p["sheriff"][seat - 1] = 1


def _candidates(p: _Views, e: ev.SheriffCandidates) -> None:
    p["candidates"][:] = 0
    for seat in e.seats:
        p["candidates"][seat - 1] = 1


def _spoke(p: _Views, e: ev.Spoke) -> None:
    row, claims = e.seat - 1, e.claims
    if claims.role is not None:
        _one_hot_row(p["claimed_roles"], row, _ROLE_INDEX[claims.role])
    for check in claims.checks:
        p["claimed_checks"][row, check.seat - 1] = 1 if check.is_wolf else -1
    p["suspects"][row] = 0
    for seat in claims.suspects:
        p["suspects"][row, seat - 1] = 1
    p["trusts"][row] = 0
    for seat in claims.trusts:
        p["trusts"][row, seat - 1] = 1


def _vote(p: _Views, e: ev.VoteCast, *, new_ballot: bool) -> None:
    """A ballot's votes are revealed together: the first of them replaces the last ballot."""
    if new_ballot:
        p["votes"][:] = 0
    if e.target is None:
        return
    p["votes"][e.voter - 1, e.target - 1] = 1
    if e.ballot in EXILE_BALLOTS:
        counts = p["vote_counts"]
        counts[e.voter - 1, e.target - 1] = min(int(counts[e.voter - 1, e.target - 1]) + 1, 127)


_PUBLIC_FOLDS: dict[type, Callable[[_Views, ev.Event], None]] = {
    ev.GameStarted: _game_started,  # type: ignore[dict-item]
    ev.PhaseStarted: _phase_started,  # type: ignore[dict-item]
    ev.DeathsAnnounced: _deaths,  # type: ignore[dict-item]
    ev.SheriffElected: _sheriff,  # type: ignore[dict-item]
    ev.BadgePassed: _sheriff,  # type: ignore[dict-item]
    ev.BadgeLost: _sheriff,  # type: ignore[dict-item]
    ev.SheriffCandidates: _candidates,  # type: ignore[dict-item]
    ev.Spoke: _spoke,  # type: ignore[dict-item]
}


# -- the seat's own knowledge -------------------------------------------------------------


def _role_assigned(o: _Views, me: SeatId, e: ev.RoleAssigned) -> None:
    _set_role(o, e.seat, e.role)
    if e.seat == me:
        o["role"][:] = 0
        o["role"][_ROLE_INDEX[e.role]] = 1


def _roles_revealed(o: _Views, me: SeatId, e: ev.RolesRevealed) -> None:
    o["known_roles"][:] = _every_card(e.roles)


@functools.lru_cache(maxsize=256)
def _every_card(roles: tuple[Role, ...]) -> npt.NDArray[np.int8]:
    """`known_roles` once every card is face up (built once per deal, for every seat)."""
    matrix = np.zeros((N, R), dtype=np.int8)
    for seat, role in enumerate(roles, start=1):
        matrix[seat - 1, _ROLE_INDEX[role]] = 1
    return matrix


def _wolves(o: _Views, me: SeatId, e: ev.WolvesMet | ev.ClawUnsealed) -> None:
    seats = e.seats if isinstance(e, ev.WolvesMet) else e.wolves
    for seat, role in zip(seats, e.roles, strict=True):
        _set_role(o, seat, role)


def _checked(o: _Views, me: SeatId, e: ev.SeerChecked | ev.GiftUsed) -> None:
    if isinstance(e.is_wolf, bool):
        o["checks"][e.target - 1] = 1 if e.is_wolf else -1


def _card_shown(
    o: _Views,
    me: SeatId,
    e: ev.PlayerShot | ev.CardRevealed | ev.RoleChecked | ev.KnightDuelled | ev.IdiotRevealed,
) -> None:
    match e:
        case ev.PlayerShot(seat=seat, role=role) | ev.CardRevealed(seat=seat, role=role):
            _set_role(o, seat, role)
        case ev.RoleChecked(target=seat, role=role):
            _set_role(o, seat, role)
        case ev.KnightDuelled(seat=seat):
            _set_role(o, seat, Role.KNIGHT)
        case ev.IdiotRevealed(seat=seat):
            _set_role(o, seat, Role.IDIOT)


def _witch(o: _Views, me: SeatId, e: ev.WitchActed) -> None:
    if e.saved is not None:
        o["potions"][0] = 1
    if e.poisoned is not None:
        o["potions"][1] = 1


def _lovers(o: _Views, me: SeatId, e: ev.LoversLinked | ev.LoverMet) -> None:
    o["lovers"][:] = 0
    if isinstance(e, ev.LoversLinked):
        pair: Iterable[SeatId] = e.lovers
    else:
        pair = (e.seat, e.partner)
        o["partner_wolf"][0] = 1 if e.partner_is_wolf else -1
    for seat in pair:
        o["lovers"][seat - 1] = 1


def _nominated(o: _Views, me: SeatId, e: ev.KnifeNominated) -> None:
    o["nominations"][e.seat - 1] = 0
    if e.target is not None:
        o["nominations"][e.seat - 1, e.target - 1] = 1


_OWN_FOLDS: dict[type, Callable[[_Views, SeatId, ev.Event], None]] = {
    ev.RoleAssigned: _role_assigned,  # type: ignore[dict-item]
    ev.RolesRevealed: _roles_revealed,  # type: ignore[dict-item]
    ev.WolvesMet: _wolves,  # type: ignore[dict-item]
    ev.ClawUnsealed: _wolves,  # type: ignore[dict-item]
    ev.SeerChecked: _checked,  # type: ignore[dict-item]
    ev.GiftUsed: _checked,  # type: ignore[dict-item]
    ev.PlayerShot: _card_shown,  # type: ignore[dict-item]
    ev.CardRevealed: _card_shown,  # type: ignore[dict-item]
    ev.RoleChecked: _card_shown,  # type: ignore[dict-item]
    ev.KnightDuelled: _card_shown,  # type: ignore[dict-item]
    ev.IdiotRevealed: _card_shown,  # type: ignore[dict-item]
    ev.WitchActed: _witch,  # type: ignore[dict-item]
    ev.LoversLinked: _lovers,  # type: ignore[dict-item]
    ev.LoverMet: _lovers,  # type: ignore[dict-item]
    ev.KnifeNominated: _nominated,  # type: ignore[dict-item]
}
