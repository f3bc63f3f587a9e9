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
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np
import numpy.typing as npt

from arena.rules import events as ev
from arena.rules.composition import MAX_SEATS
from arena.rules.decisions import DecisionKind, DecisionRequest
from arena.rules.types import Phase, Role, SeatId, SpeechContext
from arena.rules.visibility import Public, RefereeOnly

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


def _at(name: str, base: int = 0) -> int:
    """Where field `name` starts in its buffer (the public one, or a seat's own at `base`)."""
    return int(SLICES[name].start) - base


_SEATS, _OUT, _SHERIFF, _DAY = _at("seats"), _at("out"), _at("sheriff"), _at("day")
_PHASE, _CANDIDATES = _at("phase"), _at("candidates")
_CLAIMED_ROLES, _CLAIMED_CHECKS = _at("claimed_roles"), _at("claimed_checks")
_SUSPECTS, _TRUSTS = _at("suspects"), _at("trusts")
_VOTES, _VOTE_COUNTS = _at("votes"), _at("vote_counts")
_ME, _ROLE, _KNOWN = _at("me", _PUBLIC), _at("role", _PUBLIC), _at("known_roles", _PUBLIC)
_CHECKS, _LOVERS = _at("checks", _PUBLIC), _at("lovers", _PUBLIC)
_PARTNER, _POTIONS = _at("partner_wolf", _PUBLIC), _at("potions", _PUBLIC)
_NOMINATIONS = _at("nominations", _PUBLIC)

_YES, _NO = 1, 0xFF
"""+1 and -1 as bytes: the buffers are bytearrays read back as int8 (two's complement)."""
_ZERO_ROW = bytes(N)
_ZERO_VOTES = bytes(N * N)
_ROLE_ROWS: dict[Role, bytes] = {
    role: bytes(int(i == j) for j in range(R)) for i, role in enumerate(ROLES)
}
"""Each role's one-hot row of R entries."""
_PHASE_ROWS: dict[Phase, bytes] = {
    phase: bytes(int(i == j) for j in range(len(PHASES))) for i, phase in enumerate(PHASES)
}

Write = tuple[int, int, bytes]
"""A write to a seat's own buffer: `own[start:stop] = data`."""


class Tracker:
    """Folds visible events into observation vectors for the tracked seats.

    Feed it the events in log order (`feed`); an event reaches a seat's facts when the
    seat may see it: public events go to every seat, a seat's or team's event to the seats
    it names. The environment tracks every seat from the full log; a policy seat at a real
    table tracks itself from its `Observation` (which holds only what it may see).

    The facts live in bytearrays (the public ones, and each seat's own), read back as int8:
    a byte written in Python costs a few dozen nanoseconds where a write into a numpy
    array costs a few hundred, and a fold writes a handful of them per event. An event
    that reaches several seats is turned into its writes once and copied into each.
    """

    def __init__(self, tracked: Iterable[SeatId]) -> None:
        self.public = bytearray(_PUBLIC)
        """The public facts, as int8 bytes: the vector's first part (read them only)."""
        self.own: dict[SeatId, bytearray] = {seat: bytearray(_OWN) for seat in tracked}
        """Each tracked seat's own knowledge, as int8 bytes: the vector's second part."""
        self._nominating: set[SeatId] = set()
        """Seats whose `nominations` are not all 0 (cleared when a night starts)."""
        self.read = 0
        """How many events of the log have been fed."""
        self.clear()

    def clear(self) -> None:
        """Forget every event: ready for a new game of the same seats (no reallocation)."""
        self.public[:] = bytes(_PUBLIC)
        for seat, own in self.own.items():
            own[:] = bytes(_OWN)
            own[_ME + seat - 1] = 1
        self._nominating.clear()
        self._last_vote = False
        self.read = 0

    def feed(self, events: Sequence[ev.Event]) -> None:
        """Fold `events[self.read:]`: the log (or a seat's visible events) so far.

        An event reaches the public facts when it is public, and a seat's own when the
        seat may see it; its own writes are made once and copied into each such seat.
        (One loop, no call per event: the environment feeds once a step.)
        """
        buffers = self.own
        for i in range(self.read, len(events)):
            event = events[i]
            kind = type(event)
            public, own = _FOLDS.get(kind, _NO_FOLD)
            v = event.visibility
            if isinstance(v, Public):
                if public is not None:
                    public(self, event)
                if kind is not ev.VoteCast:
                    self._last_vote = False
                if own is None:
                    continue
                seats: Collection[SeatId] = buffers.keys()
            elif own is None or isinstance(v, RefereeOnly):
                continue
            else:
                seats = v.seats
            writes = own(event)
            for seat in seats:
                buffer = buffers.get(seat)
                if buffer is not None:
                    for start, stop, data in writes:
                        buffer[start:stop] = data
            if kind is ev.RoleAssigned:
                _role_assigned(buffers, seats, event)  # type: ignore[arg-type]
            elif kind is ev.KnifeNominated:
                self._nominating.update(seats)
        self.read = len(events)

    def vector(self, seat: SeatId, request: DecisionRequest | None) -> npt.NDArray[np.int8]:
        """The observation vector of `seat` now, answering `request` (None: nothing asked).

        A new array each call (its own bytes): later events never change one handed out.
        The vector is `public`, then `own[seat]`, then `question(request)`.
        """
        row = bytearray().join((self.public, self.own[seat], question(request)))
        return np.frombuffer(row, np.int8)


_NOTHING_ASKED = bytes(SIZE - _QUESTION)


def question(request: DecisionRequest | None) -> bytes:
    """The question part of the vector for `request` (None: nothing asked), as bytes."""
    if request is None:
        return _NOTHING_ASKED
    return _question(request.kind, request.context, request.night)


@functools.cache
def _question(kind: DecisionKind, context: SpeechContext | None, night: bool) -> bytes:
    """The question part of the vector (a few dozen distinct ones: built once each)."""
    question = bytearray(SIZE - _QUESTION)
    question[_DECISION_INDEX[kind]] = 1
    if context is not None:
        question[len(DECISIONS) + _CONTEXT_INDEX[context]] = 1
    question[-1] = int(night)
    return bytes(question)


# -- public facts -------------------------------------------------------------------------


def _game_started(t: Tracker, e: ev.GameStarted) -> None:
    p = t.public
    p[_SEATS : _SEATS + e.seats] = b"\x01" * e.seats


def _phase_started(t: Tracker, e: ev.PhaseStarted) -> None:
    p = t.public
    p[_DAY] = min(e.day, 127)
    p[_PHASE : _PHASE + len(PHASES)] = _PHASE_ROWS[e.phase]
    if e.phase is Phase.NIGHT:  # a new night's knife: last night's nominations are gone
        for seat in t._nominating:
            buffer = t.own.get(seat)
            if buffer is not None:
                buffer[_NOMINATIONS : _NOMINATIONS + N * N] = _ZERO_VOTES
        t._nominating.clear()


def _deaths(t: Tracker, e: ev.DeathsAnnounced) -> None:
    p = t.public
    for seat in e.seats:
        p[_OUT + seat - 1] = 1


def _sheriff(t: Tracker, e: ev.SheriffElected | ev.BadgePassed | ev.BadgeLost) -> None:
    p = t.public
    p[_SHERIFF : _SHERIFF + N] = _ZERO_ROW
    seat = e.seat if isinstance(e, ev.SheriffElected) else getattr(e, "to", None)
    if seat is not None:
        p[_SHERIFF + seat - 1] = 1


def _candidates(t: Tracker, e: ev.SheriffCandidates) -> None:
    p = t.public
    p[_CANDIDATES : _CANDIDATES + N] = _ZERO_ROW
    for seat in e.seats:
        p[_CANDIDATES + seat - 1] = 1


def _spoke(t: Tracker, e: ev.Spoke) -> None:
    p = t.public
    row, claims = (e.seat - 1) * N, e.claims
    if claims.role is not None:
        at = _CLAIMED_ROLES + (e.seat - 1) * R
        p[at : at + R] = _ROLE_ROWS[claims.role]
    for check in claims.checks:
        p[_CLAIMED_CHECKS + row + check.seat - 1] = _YES if check.is_wolf else _NO
    at = _SUSPECTS + row
    p[at : at + N] = _ZERO_ROW
    for seat in claims.suspects:
        p[at + seat - 1] = 1
    at = _TRUSTS + row
    p[at : at + N] = _ZERO_ROW
    for seat in claims.trusts:
        p[at + seat - 1] = 1


def _vote(t: Tracker, e: ev.VoteCast) -> None:
    """A ballot's votes are revealed together: the first of them replaces the last ballot.

    A ballot's votes follow each other in the log with no other public event between them.
    """
    p = t.public
    if not t._last_vote:
        p[_VOTES : _VOTES + N * N] = _ZERO_VOTES
        t._last_vote = True
    if e.target is None:
        return
    cell = (e.voter - 1) * N + e.target - 1
    p[_VOTES + cell] = 1
    if e.ballot in EXILE_BALLOTS:
        p[_VOTE_COUNTS + cell] = min(p[_VOTE_COUNTS + cell] + 1, 127)


# -- the seat's own knowledge: each event's writes, the same for every seat it reaches ----


def _role_write(seat: SeatId, role: Role) -> Write:
    at = _KNOWN + (seat - 1) * R
    return at, at + R, _ROLE_ROWS[role]


def _known_role(e: ev.RoleAssigned) -> tuple[Write, ...]:
    return (_role_write(e.seat, e.role),)


def _role_assigned(
    own: dict[SeatId, bytearray], seats: Collection[SeatId], e: ev.RoleAssigned
) -> None:
    """The seat told its own card (one of `seats`, the event's) also holds it as its `role`."""
    buffer = own.get(e.seat)
    if buffer is not None and e.seat in seats:
        buffer[_ROLE : _ROLE + R] = _ROLE_ROWS[e.role]


def _roles_revealed(e: ev.RolesRevealed) -> tuple[Write, ...]:
    return ((_KNOWN, _KNOWN + N * R, _every_card(e.roles)),)


@functools.lru_cache(maxsize=256)
def _every_card(roles: tuple[Role, ...]) -> bytes:
    """`known_roles` once every card is face up (built once per deal, for every seat)."""
    matrix = bytearray(N * R)
    for seat, role in enumerate(roles, start=1):
        matrix[(seat - 1) * R + _ROLE_INDEX[role]] = 1
    return bytes(matrix)


def _wolves(e: ev.WolvesMet | ev.ClawUnsealed) -> tuple[Write, ...]:
    seats = e.seats if isinstance(e, ev.WolvesMet) else e.wolves
    return tuple(_role_write(seat, role) for seat, role in zip(seats, e.roles, strict=True))


def _checked(e: ev.SeerChecked | ev.GiftUsed) -> tuple[Write, ...]:
    if not isinstance(e.is_wolf, bool):
        return ()
    at = _CHECKS + e.target - 1
    return ((at, at + 1, bytes((_YES if e.is_wolf else _NO,))),)


def _card_shown(
    e: ev.PlayerShot | ev.CardRevealed | ev.RoleChecked | ev.KnightDuelled | ev.IdiotRevealed,
) -> tuple[Write, ...]:
    match e:
        case ev.PlayerShot(seat=seat, role=role) | ev.CardRevealed(seat=seat, role=role):
            return (_role_write(seat, role),)
        case ev.RoleChecked(target=seat, role=role):
            return (_role_write(seat, role),)
        case ev.KnightDuelled(seat=seat):
            return (_role_write(seat, Role.KNIGHT),)
        case ev.IdiotRevealed(seat=seat):
            return (_role_write(seat, Role.IDIOT),)
    return ()


_ONE = b"\x01"


def _witch(e: ev.WitchActed) -> tuple[Write, ...]:
    saved = ((_POTIONS, _POTIONS + 1, _ONE),) if e.saved is not None else ()
    poisoned = ((_POTIONS + 1, _POTIONS + 2, _ONE),) if e.poisoned is not None else ()
    return saved + poisoned


def _lovers(e: ev.LoversLinked | ev.LoverMet) -> tuple[Write, ...]:
    row = bytearray(N)
    if isinstance(e, ev.LoversLinked):
        pair: Iterable[SeatId] = e.lovers
        partner: tuple[Write, ...] = ()
    else:
        pair = (e.seat, e.partner)
        side = bytes((_YES if e.partner_is_wolf else _NO,))
        partner = ((_PARTNER, _PARTNER + 1, side),)
    for seat in pair:
        row[seat - 1] = 1
    return ((_LOVERS, _LOVERS + N, bytes(row)), *partner)


def _nominated(e: ev.KnifeNominated) -> tuple[Write, ...]:
    at = _NOMINATIONS + (e.seat - 1) * N
    row = bytearray(N)
    if e.target is not None:
        row[e.target - 1] = 1
    return ((at, at + N, bytes(row)),)


PublicFold = Callable[[Tracker, ev.Event], None]
OwnFold = Callable[[ev.Event], tuple[Write, ...]]
_PUBLIC_FOLDS: dict[type, PublicFold] = {
    ev.GameStarted: _game_started,  # type: ignore[dict-item]
    ev.PhaseStarted: _phase_started,  # type: ignore[dict-item]
    ev.DeathsAnnounced: _deaths,  # type: ignore[dict-item]
    ev.SheriffElected: _sheriff,  # type: ignore[dict-item]
    ev.BadgePassed: _sheriff,  # type: ignore[dict-item]
    ev.BadgeLost: _sheriff,  # type: ignore[dict-item]
    ev.SheriffCandidates: _candidates,  # type: ignore[dict-item]
    ev.Spoke: _spoke,  # type: ignore[dict-item]
    ev.VoteCast: _vote,  # type: ignore[dict-item]
}
_OWN_FOLDS: dict[type, OwnFold] = {
    ev.RoleAssigned: _known_role,  # type: ignore[dict-item]
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
_FOLDS: dict[type, tuple[PublicFold | None, OwnFold | None]] = {
    kind: (_PUBLIC_FOLDS.get(kind), _OWN_FOLDS.get(kind)) for kind in {*_PUBLIC_FOLDS, *_OWN_FOLDS}
}
"""Each event kind's fold of the public facts (public events only) and of a seat's own
writes (for every seat the event reaches); kinds that change neither are absent."""
_NO_FOLD: tuple[None, None] = (None, None)
