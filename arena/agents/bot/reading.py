"""`read`: a bot's one pass over its own view, keeping what its judgement uses.

The bot never sees `GameState` or the full log. Everything below comes from the events of
one seat's `Observation` (public events, its own secrets, its team's channel) and from the
`Knowledge` folded from those same events.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
    dreams: tuple[tuple[int, SeatId], ...] = ()
    """This seat's own dreamers as (night, seat) (the dreamweaver only)."""
    identified: tuple[tuple[SeatId, Role], ...] = ()
    """Exact roles this seat learned by its own checks (the gargoyle), in night order."""
    knife_limit: tuple[SeatId, ...] = ()
    """Tonight's mist: the only seats the knife may hit (wolves only; empty: no mist)."""
    loves_wolf: bool = False
    """A secret admirer who loves a wolf: she plays for the wolves, knowing only him."""
    growl_log: tuple[tuple[bool, frozenset[SeatId]], ...] = ()
    """Every dawn's public growl, with the seats the table knew were out after that dawn."""
    growls: tuple[tuple[bool, tuple[SeatId, ...]], ...] = ()
    """The bear's own growls, each with the two neighbours it judged (the bear only, and
    only dawns he was alive at)."""
    examined: tuple[tuple[SeatId, Role], ...] = ()
    """Cards of dead seats this seat examined (the coroner's autopsies), in night order."""
    bottom: tuple[Role, ...] = ()
    """The bottom cards this seat was shown (the thief, night 1)."""
    watches: tuple[tuple[int, SeatId, bool], ...] = ()
    """This seat's own watches as (night, seat, acted) (the watchman only)."""
    partner: SeatId | None = None
    """The other lover, if cupid tied this seat (it lives and dies with this one)."""
    memo: dict[object, object] = field(default_factory=dict, compare=False, repr=False)
    """Judgements already computed from this reading (see `beliefs.wolf_probabilities`)."""

    @property
    def is_wolf(self) -> bool:
        """Whether this seat plays for the wolves (a wolf, or an admirer who loves one)."""
        return is_wolf(self.role) or self.loves_wolf

    def others(self) -> tuple[SeatId, ...]:
        """Present seats other than this one."""
        return tuple(s for s in self.present if s != self.me)


class Ledger:
    """The running fold behind `Reading`: fed a seat's visible events once each, in order.

    A seat's views only grow (perfect recall), so a bot keeps one ledger and feeds it the
    events its new view adds (`Ledger.extend`); a view that does not extend what was fed
    (another seat, another game, an edited log) starts a fresh ledger. Either way the
    reading depends on the view alone.
    """

    def __init__(self, me: SeatId) -> None:
        self.me = me
        self.fed: list[ev.Event] = []
        self.phase: Phase | None = None
        self.day = 0
        self.dawn = False
        self.team: frozenset[SeatId] = frozenset()
        self.public_wolves: set[SeatId] = set()
        self.public_goods: set[SeatId] = set()
        self.checks: list[tuple[SeatId, bool]] = []
        self.knives: list[SeatId] = []
        self.speeches: list[SpeechRecord] = []
        self.ballots: list[BallotRecord] = []
        self.night_deaths: set[SeatId] = set()
        self.taken: set[SeatId] = set()
        self.candidates: tuple[SeatId, ...] = ()
        self.recommended: tuple[SeatId, ...] = ()
        self.whispers: list[tuple[int, SeatId, str]] = []
        self.nominations: list[tuple[int, SeatId, SeatId | None]] = []
        self.dreams: list[tuple[int, SeatId]] = []
        self.identified: list[tuple[SeatId, Role]] = []
        self.knife_limit: tuple[SeatId, ...] = ()
        self.love: tuple[SeatId, bool] | None = None
        self.out: set[SeatId] = set()
        self.growl: bool | None = None
        self.growls: list[tuple[bool, frozenset[SeatId]]] = []
        self.watches: list[tuple[int, SeatId, bool]] = []
        self.examined: list[tuple[SeatId, Role]] = []
        self.bottom: tuple[Role, ...] = ()

    def extends(self, view: Observation) -> bool:
        """Whether `view` is this ledger's seat's view and begins with every event fed."""
        seen = view.seen
        return (
            isinstance(view.viewer, SeatViewer)
            and view.viewer.seat == self.me
            and len(seen) >= len(self.fed)
            and all(s.event is e for s, e in zip(seen, self.fed, strict=False))
        )

    def extend(self, view: Observation) -> None:
        """Feed the events of `view` past those already fed (call after `extends`)."""
        for seen in view.seen[len(self.fed) :]:
            self._feed(seen.event)
            self.fed.append(seen.event)

    def _feed(self, event: ev.Event) -> None:  # noqa: C901 - one flat dispatch on the kind
        match event:
            case ev.PhaseStarted(phase=phase, day=day):
                self.phase, self.day, self.dawn = phase, day, phase is Phase.ANNOUNCEMENT
                if phase is Phase.NIGHT:
                    self.nominations, self.recommended, self.knife_limit = [], (), ()
            case ev.RoleAssigned(seat=seat, role=Role.RAVEN_CLAW) if seat == self.me:
                self.team = frozenset({seat})  # sealed, he knows only himself
            case ev.WolvesMet(seats=seats) | ev.ClawUnsealed(wolves=seats):
                self.team = frozenset(seats)
            case ev.KnifeLimited(targets=targets):
                self.knife_limit = targets
            case ev.SeerChecked(target=target, is_wolf=wolf):
                self.checks.append((target, wolf))
            case ev.GiftUsed(target=target, is_wolf=bool(wolf)):
                self.checks.append((target, wolf))  # the lucky one's check, as a seer's
            case ev.AdmirerChose(target=target, wolf_side=wolf):
                self.love = (target, wolf)
                if not wolf:
                    self.checks.append((target, False))  # she knows her love is good
            case ev.KnifeShownToWitch(target=target) if target is not None:
                self.knives.append(target)
            case ev.Spoke(seat=seat, claims=claims, context=context):
                self.speeches.append(SpeechRecord(seat, self.day, context, claims))
            case ev.VoteCast(ballot=ballot, voter=voter, target=target):
                self.ballots.append(BallotRecord(self.day, ballot, voter, target))
            case ev.DeathsAnnounced(seats=seats) if self.dawn:
                self.night_deaths.update(seats)
                self.out.update(seats)
                self.dawn = False
                if self.growl is not None:
                    self.growls.append((self.growl, frozenset(self.out)))
                    self.growl = None
            case ev.DeathsAnnounced(seats=seats):
                self.out.update(seats)
            case ev.BearGrowled(growled=growled):
                self.growl = growled
            case ev.SelfExploded(seat=seat):
                self.public_wolves.add(seat)
            case ev.PlayerShot(seat=seat, role=role, target=target):
                (self.public_wolves if is_wolf(role) else self.public_goods).add(seat)
                if role is Role.WHITE_WOLF_KING:
                    self.taken.add(target)
            case ev.IdiotRevealed(seat=seat):
                self.public_goods.add(seat)
            case ev.CardRevealed(seat=seat, role=role):
                (self.public_wolves if is_wolf(role) else self.public_goods).add(seat)
            case ev.KnightDuelled(seat=seat, target=target, is_wolf=wolf):
                self.public_goods.add(seat)
                (self.public_wolves if wolf else self.public_goods).add(target)
            case ev.DreamerChosen(target=target):
                self.dreams.append((self.day, target))
            case ev.RoleChecked(target=target, role=role):
                self.identified.append((target, role))
                self.checks.append((target, is_wolf(role)))  # a good checker judges by it
            case ev.BottomCardsShown(cards=cards):
                self.bottom = cards
            case ev.BodyExamined(target=target, role=role):
                self.examined.append((target, role))
            case ev.SeatWatched(target=target, acted=acted):
                self.watches.append((self.day, target, acted))
            case ev.SheriffCandidates(seats=seats):
                self.candidates = seats
            case ev.SheriffWithdrew(seats=seats):
                self.candidates = tuple(s for s in self.candidates if s not in seats)
            case ev.ExileRecommended(targets=targets):
                self.recommended = targets
            case ev.WolfWhispered(seat=seat, text=text):
                self.whispers.append((self.day, seat, text))
            case ev.KnifeNominated(seat=seat, target=target, round=round_):
                self.nominations.append((round_, seat, target))

    def reading(self, view: Observation) -> Reading:
        """The `Reading` of `view` (already fed to this ledger).

        Raises:
            ValueError: the seat has no card yet.
        """
        know = view.knowledge
        if know.own_role is None:
            raise ValueError(f"seat {self.me} has not been dealt a card yet")
        speeches = tuple(self.speeches)
        loves_wolf = self.love is not None and self.love[1]
        team = self.team if is_wolf(know.own_role) else frozenset()
        if self.love is not None and loves_wolf:
            team = frozenset({self.me, self.love[0]})
        return Reading(
            me=self.me,
            role=know.own_role,
            day=know.day,
            phase=know.phase,
            seats=know.seats,
            role_counts=dict(know.role_counts),
            wolf_total=sum(n for r, n in know.role_counts.items() if is_wolf(r)),
            present=know.present(),
            team=team,
            public_wolves=frozenset(self.public_wolves),
            public_goods=frozenset(self.public_goods),
            checks=tuple(self.checks),
            knives_seen=tuple(self.knives),
            speeches=speeches,
            ballots=tuple(self.ballots),
            night_deaths=frozenset(self.night_deaths),
            taken_by_wwk=frozenset(self.taken),
            sheriff=know.sheriff,
            candidates=self.candidates,
            recommended=self.recommended,
            whispers=tuple(self.whispers),
            nominations=tuple(self.nominations),
            dreams=tuple(self.dreams),
            identified=tuple(self.identified),
            knife_limit=self.knife_limit,
            loves_wolf=loves_wolf,
            growl_log=tuple(self.growls),
            growls=self._growls(know.seats) if know.own_role is Role.BEAR else (),
            watches=tuple(self.watches),
            examined=tuple(self.examined),
            bottom=self.bottom,
            partner=next((s for s in know.lovers if s != self.me), None)
            if self.me in know.lovers
            else None,
        )

    def _growls(self, seats: int) -> tuple[tuple[bool, tuple[SeatId, ...]], ...]:
        """Each growl heard while this bear was alive, with his two living neighbours then."""
        found = []
        for growled, out in self.growls:
            if self.me in out:
                continue
            ring = [s for s in range(1, seats + 1) if s not in out]
            i = ring.index(self.me)
            found.append((growled, (ring[i - 1], ring[(i + 1) % len(ring)])))
        return tuple(found)


def read(view: Observation, ledger: Ledger | None = None) -> tuple[Reading, Ledger]:
    """Fold `view` into a `Reading`, reusing `ledger` when the view extends it.

    Returns the reading and the ledger to keep for the next view.

    Raises:
        ValueError: the view is not a seat's view, or the seat has no card yet.
    """
    if not isinstance(view.viewer, SeatViewer):
        raise ValueError("a bot plays from a seat's view (viewer seat:N)")
    if ledger is None or not ledger.extends(view):
        ledger = Ledger(view.viewer.seat)
    ledger.extend(view)
    return ledger.reading(view), ledger
