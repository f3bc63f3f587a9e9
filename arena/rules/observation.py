"""`observe`: the log as one viewer saw it, and what that viewer can conclude.

This is the only projection of the log. A seat's prompt, a terminal transcript and every
dashboard view are rendered from an `Observation`, never from `GameState`, so nothing a
viewer may not see can reach it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict

from arena.rules import events as ev
from arena.rules.boards import Board
from arena.rules.outcome import known_side
from arena.rules.types import Phase, Role, SeatId, Side, Winner
from arena.rules.visibility import SeatViewer, Viewer, can_see


class Seen(NamedTuple):
    """An event with its position in the full log (so views can be cut at a step)."""

    seq: int
    event: ev.Event


class Knowledge(BaseModel):
    """What a viewer can conclude from the events it saw, and nothing more."""

    model_config = ConfigDict(frozen=True)

    seats: int = 0
    board: str | Board = ""
    """The board's id, or a custom board whole (as `GameStarted` gives it)."""
    role_counts: dict[Role, int] = {}
    day: int = 0
    phase: Phase | None = None
    own_role: Role | None = None
    side: Side | None = None
    """The side the seat plays for, as far as it knows (None: not yet known, or no seat):
    its card's team; the lovers' for a wolf–good couple and their cupid (a cupid knows it
    once he has seen both lovers' cards); an admirer's love's side once she chose; the
    thief's card once he took it (`arena.rules.outcome.known_side`)."""
    roles: dict[SeatId, Role] = {}
    """Seats whose exact role the viewer knows (own card, fellow wolves, public reveals)."""
    checks: dict[SeatId, bool] = {}
    """The viewer's own seer checks (the lucky one's gift check too): seat → is a wolf."""
    out: tuple[SeatId, ...] = ()
    """Seats the table knows are out."""
    sheriff: SeatId | None = None
    revealed_idiots: tuple[SeatId, ...] = ()
    lovers: tuple[SeatId, ...] = ()
    """The two lovers, where the viewer knows them: cupid, who tied them, or a lover."""
    partner_is_wolf: bool | None = None
    """A lover's partner's side, as he was told (004:3; not the card)."""
    antidote_used: bool = False
    poison_used: bool = False
    winner: Winner | None = None

    def present(self) -> tuple[SeatId, ...]:
        """Seats still at the table, as the viewer knows."""
        return tuple(s for s in range(1, self.seats + 1) if s not in self.out)


class Observation(BaseModel):
    """A viewer's projection of the log, cut at `until` (exclusive) if given."""

    model_config = ConfigDict(frozen=True)

    viewer: Viewer
    seen: tuple[Seen, ...]
    knowledge: Knowledge
    log_length: int
    """How many events the full log had at the cut (to tell 'nothing new' from 'hidden')."""

    @property
    def events(self) -> tuple[ev.Event, ...]:
        """The visible events, in order."""
        return tuple(s.event for s in self.seen)


def observe(events: Sequence[ev.Event], viewer: Viewer, until: int | None = None) -> Observation:
    """Project the log onto what `viewer` may know (perfect recall), up to event `until`."""
    cut = events[:until] if until is not None else events
    return Projector(cut, viewer).observe()


class Projector:
    """`observe` for a growing log, incrementally: each call scans only new events.

    The match runner asks every seat many times during a game; re-filtering the whole
    log each time made projection the larger half of a bot game's cost. The result is
    always equal to `observe(events, viewer)` (a test checks it at every step).
    """

    def __init__(self, events: Sequence[ev.Event], viewer: Viewer) -> None:
        self._events = events
        self._viewer = viewer
        self._seen: list[Seen] = []
        self._scanned = 0

    def observe(self) -> Observation:
        """The viewer's projection of the log as it is now."""
        events = self._events
        for i in range(self._scanned, len(events)):
            if can_see(self._viewer, events[i].visibility):
                self._seen.append(Seen(i, events[i]))
        self._scanned = len(events)
        return Observation.model_construct(
            viewer=self._viewer,
            seen=tuple(self._seen),
            knowledge=know(self._viewer, [s.event for s in self._seen]),
            log_length=len(events),
        )


def know(viewer: Viewer, visible: Sequence[ev.Event]) -> Knowledge:
    """Fold visible events into `Knowledge` (call only with events the viewer can see)."""
    me = viewer.seat if isinstance(viewer, SeatViewer) else None
    k: dict[str, object] = {}
    roles: dict[SeatId, Role] = {}
    checks: dict[SeatId, bool] = {}
    out: set[SeatId] = set()
    idiots: list[SeatId] = []
    for event in visible:
        match event:
            case ev.GameStarted(board=board, seats=seats, role_counts=counts):
                k.update(board=board, seats=seats, role_counts=counts)
            case ev.PhaseStarted(phase=phase, day=day):
                k.update(phase=phase, day=day)
            case ev.RolesDealt(roles=dealt) | ev.RolesRevealed(roles=dealt):
                roles.update(enumerate(dealt, start=1))
            case ev.RoleAssigned(seat=seat, role=role):
                roles[seat] = role
                if seat == me:
                    k["own_role"] = role
            case (
                ev.WolvesMet(seats=seats, roles=wolf_roles)
                | ev.ClawUnsealed(wolves=seats, roles=wolf_roles)
            ):
                roles.update(zip(seats, wolf_roles, strict=True))
            case ev.SeerChecked(target=target, is_wolf=is_wolf):
                checks[target] = is_wolf
            case ev.GiftUsed(target=target, is_wolf=bool(is_wolf)):
                checks[target] = is_wolf
            case ev.PlayerShot(seat=seat, role=role):
                roles[seat] = role
            case ev.KnightDuelled(seat=seat):
                roles[seat] = Role.KNIGHT
            case ev.CardRevealed(seat=seat, role=role) | ev.RoleChecked(target=seat, role=role):
                roles[seat] = role
            case ev.IdiotRevealed(seat=seat):
                roles[seat] = Role.IDIOT
                idiots.append(seat)
            case ev.DeathsAnnounced(seats=seats):
                out.update(seats)
            case ev.SheriffElected(seat=seat) | ev.BadgePassed(to=seat):
                k["sheriff"] = seat
            case ev.BadgeLost():
                k["sheriff"] = None
            case ev.WitchActed(saved=saved, poisoned=poisoned):
                k["antidote_used"] = bool(k.get("antidote_used")) or saved is not None
                k["poison_used"] = bool(k.get("poison_used")) or poisoned is not None
            case ev.LoversLinked(lovers=lovers):
                k["lovers"] = lovers
            case ev.LoverMet(seat=seat, partner=partner, partner_is_wolf=wolf):
                k.update(lovers=tuple(sorted((seat, partner))), partner_is_wolf=wolf)
            case ev.GameEnded(winner=winner):
                k["winner"] = winner
    facts = {"roles": dict(sorted(roles.items())), "checks": checks, "out": tuple(sorted(out))}
    known = Knowledge.model_validate({**k, **facts, "revealed_idiots": tuple(idiots)})
    return known.model_copy(update={"side": _side(me, known, visible)})


def _side(me: SeatId | None, known: Knowledge, visible: Sequence[ev.Event]) -> Side | None:
    """The viewer's own side, from its knowledge (`arena.rules.outcome.known_side`)."""
    own, lovers = known.own_role, known.lovers
    return known_side(me, own, known.roles, lovers, known.partner_is_wolf, visible)
