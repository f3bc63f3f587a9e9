"""`read`: a bot's one pass over its own view, keeping what its judgement uses.

The bot never sees `GameState` or the full log. Everything below comes from the events of
one seat's `Observation` (public events, its own secrets, its team's channel) and from the
`Knowledge` folded from those same events.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.rules import events as ev
from arena.rules.actions import Claims
from arena.rules.observation import Observation
from arena.rules.roles import is_wolf
from arena.rules.types import Phase, Role, SeatId, SpeechContext
from arena.rules.visibility import SeatViewer

EXILE_BALLOTS = frozenset({"exile", "pk", "nomination", "defence"})
"""Ballots that choose whom to exile (the sheriff ballots say less about a voter)."""


@dataclass(frozen=True, slots=True)
class SpeechRecord:
    """One public speech: who, when, and its structured claims."""

    seat: SeatId
    day: int
    context: SpeechContext
    claims: Claims


@dataclass(frozen=True, slots=True)
class BallotRecord:
    """One public ballot."""

    day: int
    ballot: str
    voter: SeatId
    target: SeatId | None


@dataclass(frozen=True, slots=True)
class Reading:
    """What one seat knows, folded once per decision from its `Observation`."""

    me: SeatId
    role: Role
    day: int
    phase: Phase | None
    seats: int
    role_counts: dict[Role, int]
    """The public role composition of the board."""
    wolf_total: int
    """Wolf cards dealt."""
    present: tuple[SeatId, ...]
    """Seats not announced out, as this seat knows."""
    team: frozenset[SeatId]
    """The wolf team (this seat included) if this seat is a wolf; empty otherwise."""
    public_wolves: frozenset[SeatId]
    """Seats the whole table knows are wolves (self-exploded, a wolf king who shot)."""
    public_goods: frozenset[SeatId]
    """Seats the whole table knows are good (a flipped idiot, a hunter who shot)."""
    checks: tuple[tuple[SeatId, bool], ...]
    """This seat's own seer checks, in night order (target, is a wolf)."""
    knives_seen: tuple[SeatId, ...]
    """Knife targets this seat was shown as the witch."""
    speeches: tuple[SpeechRecord, ...]
    ballots: tuple[BallotRecord, ...]
    night_deaths: frozenset[SeatId]
    """Seats announced out at dawn (mostly knifed, so mostly good)."""
    taken_by_wwk: frozenset[SeatId]
    """Seats a white wolf king chose to take with him (he takes the seat he fears)."""
    sheriff: SeatId | None
    candidates: tuple[SeatId, ...]
    """Today's sheriff candidates still in the race."""
    recommended: tuple[SeatId, ...]
    """Today's exile recommendation by the sheriff."""
    whispers: tuple[tuple[int, SeatId, str], ...]
    """Every night's wolf talk as (night, wolf, text) (wolves only)."""
    nominations: tuple[tuple[int, SeatId, SeatId | None], ...]
    """Tonight's knife nominations as (round, wolf, target) (wolves only)."""
    claims_so_far: tuple[SpeechRecord, ...]
    """This seat's own earlier speeches (to keep its story consistent)."""

    @property
    def is_wolf(self) -> bool:
        """Whether this seat plays for the wolves."""
        return is_wolf(self.role)

    def others(self) -> tuple[SeatId, ...]:
        """Present seats other than this one."""
        return tuple(s for s in self.present if s != self.me)


@dataclass
class _Fold:
    phase: Phase | None = None
    day: int = 0
    dawn: bool = False
    team: frozenset[SeatId] = frozenset()


def read(view: Observation) -> Reading:
    """Fold `view` into a `Reading`.

    Raises:
        ValueError: the view is not a seat's view, or the seat has no card yet.
    """
    if not isinstance(view.viewer, SeatViewer):
        raise ValueError("a bot plays from a seat's view (viewer seat:N)")
    know = view.knowledge
    if know.own_role is None:
        raise ValueError(f"seat {view.viewer.seat} has not been dealt a card yet")
    me = view.viewer.seat
    f = _Fold()
    public_wolves: set[SeatId] = set()
    public_goods: set[SeatId] = set()
    checks: list[tuple[SeatId, bool]] = []
    knives: list[SeatId] = []
    speeches: list[SpeechRecord] = []
    ballots: list[BallotRecord] = []
    night_deaths: set[SeatId] = set()
    taken: set[SeatId] = set()
    candidates: tuple[SeatId, ...] = ()
    recommended: tuple[SeatId, ...] = ()
    whispers: list[tuple[int, SeatId, str]] = []
    nominations: list[tuple[int, SeatId, SeatId | None]] = []
    for event in view.events:
        match event:
            case ev.PhaseStarted(phase=phase, day=day):
                f.phase, f.day, f.dawn = phase, day, phase is Phase.ANNOUNCEMENT
                if phase is Phase.NIGHT:
                    nominations, recommended = [], ()
            case ev.WolvesMet(seats=seats):
                f.team = frozenset(seats)
            case ev.SeerChecked(target=target, is_wolf=wolf):
                checks.append((target, wolf))
            case ev.KnifeShownToWitch(target=target) if target is not None:
                knives.append(target)
            case ev.Spoke(seat=seat, claims=claims, context=context):
                speeches.append(SpeechRecord(seat, f.day, context, claims))
            case ev.VoteCast(ballot=ballot, voter=voter, target=target):
                ballots.append(BallotRecord(f.day, ballot, voter, target))
            case ev.DeathsAnnounced(seats=seats):
                if f.dawn:
                    night_deaths.update(seats)
                    f.dawn = False
            case ev.SelfExploded(seat=seat):
                public_wolves.add(seat)
            case ev.PlayerShot(seat=seat, role=role, target=target):
                (public_wolves if is_wolf(role) else public_goods).add(seat)
                if role is Role.WHITE_WOLF_KING:
                    taken.add(target)
            case ev.IdiotRevealed(seat=seat):
                public_goods.add(seat)
            case ev.SheriffCandidates(seats=seats):
                candidates = seats
            case ev.SheriffWithdrew(seats=seats):
                candidates = tuple(s for s in candidates if s not in seats)
            case ev.ExileRecommended(targets=targets):
                recommended = targets
            case ev.WolfWhispered(seat=seat, text=text):
                whispers.append((f.day, seat, text))
            case ev.KnifeNominated(seat=seat, target=target, round=round_):
                nominations.append((round_, seat, target))
    return Reading(
        me=me, role=know.own_role, day=know.day, phase=know.phase, seats=know.seats,
        role_counts=dict(know.role_counts),
        wolf_total=sum(n for r, n in know.role_counts.items() if is_wolf(r)),
        present=know.present(), team=f.team if is_wolf(know.own_role) else frozenset(),
        public_wolves=frozenset(public_wolves), public_goods=frozenset(public_goods),
        checks=tuple(checks), knives_seen=tuple(knives), speeches=tuple(speeches),
        ballots=tuple(ballots), night_deaths=frozenset(night_deaths),
        taken_by_wwk=frozenset(taken), sheriff=know.sheriff, candidates=candidates,
        recommended=recommended, whispers=tuple(whispers), nominations=tuple(nominations),
        claims_so_far=tuple(s for s in speeches if s.seat == me),
    )
