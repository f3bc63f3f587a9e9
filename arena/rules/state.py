"""`GameState`: the facts of a game so far, folded from its events.

`evolve(state, event)` is the only way state changes, and `replay` folds a whole log. The
state keeps facts, never derivations that the events cannot rebuild.

Two kinds of 'alive' matter. `dead` is the truth (a seat knifed tonight is dead at once).
`out` is what the table knows: night deaths are announced in the morning, so on day 1 the
seats killed in night 1 still stand for sheriff, speak and vote (003 警长规则 (1): the
election comes before the deaths are announced).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from arena.rules import events as ev
from arena.rules.roles import is_god, is_wolf
from arena.rules.types import DeathCause, Gift, Phase, Role, SeatId, Winner

_EMPTY: Mapping[SeatId, DeathCause] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class GameState:
    """What has happened, as facts."""

    seats: int
    roles: tuple[Role, ...] = ()
    """Role of seat N at index N-1 (empty before the deal)."""
    phase: Phase | None = None
    day: int = 0
    """The current day; night N precedes day N."""
    dead: frozenset[SeatId] = frozenset()
    causes: Mapping[SeatId, DeathCause] = field(default_factory=lambda: _EMPTY)
    out: frozenset[SeatId] = frozenset()
    """Seats the table knows are out of the game."""
    sheriff: SeatId | None = None
    badge_gone: bool = False
    antidote_used: bool = False
    poison_used: bool = False
    last_guarded: SeatId | None = None
    revealed_idiots: frozenset[SeatId] = frozenset()
    charmed: SeatId | None = None
    """The wolf beauty's latest charm: the seat that dies if she does."""
    dreamer: SeatId | None = None
    """The dreamweaver's latest dreamer, chosen in night `dreamer_night`."""
    dreamer_night: int = 0
    duelled: frozenset[SeatId] = frozenset()
    """Knights who have used their one duel."""
    feared: SeatId | None = None
    """The nightmare's latest fear, made in night `feared_night`."""
    feared_night: int = 0
    last_exiled: SeatId | None = None
    """The latest seat voted out (an idiot who flipped included), on day `last_exiled_day`."""
    last_exiled_day: int = 0
    consort_used: bool = False
    """The eclipse wolf consort has used her one block (001:1883 狼妃技能僅生效一次)."""
    mist_used: bool = False
    """The alchemist witch has laid her one mist (未明之霧)."""
    snake_used: bool = False
    """The alchemist witch has used her one snake (法老之蛇) on a knife target."""
    claw_unsealed: bool = False
    """The raven claw has joined the pack (fewer than 3 wolves lived at a nightfall)."""
    claw_struck: bool = False
    """The raven claw has used his one strike."""
    fox_used: bool = False
    """The fox cub has used his one confusion (子狐)."""
    puffer_used: bool = False
    """The pufferfish has flipped (河豚之怒, once a game)."""
    growl_day: int = 0
    """The last day whose dawn had the bear's announcement."""
    reprieves: Mapping[SeatId, tuple[DeathCause, int]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    """White cats out but living on: their cause and the day after whose end they die."""
    revealed: frozenset[SeatId] = frozenset()
    """Seats whose card was flipped face up (`CardRevealed`)."""
    lovers: tuple[SeatId, SeatId] | None = None
    """The two seats cupid tied (000:22 之後同生共死), once he has."""
    swapped: frozenset[SeatId] = frozenset()
    """Seats the magician has swapped: each at most once a game (docs/roles.md)."""
    traded: bool = False
    """The miracle merchant has made his one trade (docs/roles.md)."""
    lucky: SeatId | None = None
    """The lucky one 幸運兒, once told its gift (`lucky_gift`)."""
    lucky_gift: Gift | None = None
    gift_used: bool = False
    """The lucky one has used its one gift."""
    admirers: Mapping[SeatId, bool] = field(default_factory=lambda: MappingProxyType({}))
    """Secret admirers who chose their love, and whether they play for the wolves."""
    reflected: bool = False
    """The evil knight has used his one reflect (a `reflected` death happened)."""
    healer_used: int = 0
    """Protections the healer has spent (000:26 限次)."""
    last_healed: SeatId | None = None
    """The healer's latest protection, made in night `last_healed_night`."""
    last_healed_night: int = 0
    bottom: tuple[Role, ...] = ()
    """The face-down bottom cards of a thief board (004 底牌): the thief card once taken."""
    withstood: frozenset[SeatId] = frozenset()
    """Elders whose spare life a knife has taken (`KnifeWithstood`)."""
    examined: frozenset[SeatId] = frozenset()
    """Bodies the coroner has examined, one autopsy each (000:30 限次)."""
    exploded: Mapping[SeatId, int] = field(default_factory=lambda: MappingProxyType({}))
    """Seats that self-exploded, with the day they did."""
    election_explosions: int = 0
    """Self-explosions that interrupted a sheriff election so far."""
    pending_candidates: tuple[SeatId, ...] | None = None
    """Candidates of an election a self-explosion moved to the next morning."""
    winner: Winner | None = None

    def role(self, seat: SeatId) -> Role:
        """The role dealt to `seat`."""
        return self.roles[seat - 1]

    @property
    def all_seats(self) -> range:
        """Seat numbers 1..N."""
        return range(1, self.seats + 1)

    def is_alive(self, seat: SeatId) -> bool:
        """Not dead (the referee's truth)."""
        return seat not in self.dead

    def is_present(self, seat: SeatId) -> bool:
        """Still at the table as far as the players know (not announced out)."""
        return seat not in self.out

    def living(self) -> tuple[SeatId, ...]:
        """Living seats in seat order."""
        return tuple(s for s in self.all_seats if s not in self.dead)

    def present(self) -> tuple[SeatId, ...]:
        """Seats not yet announced out, in seat order."""
        return tuple(s for s in self.all_seats if s not in self.out)

    def wolves(self, *, living: bool = True) -> tuple[SeatId, ...]:
        """Wolf seats (living ones by default)."""
        return tuple(
            s
            for s in self.all_seats
            if is_wolf(self.role(s)) and (not living or s not in self.dead)
        )

    def wolf_side(self, seat: SeatId) -> bool:
        """Whether `seat` plays for the wolves: a wolf, or an admirer who loves one.

        This is what a check reads and what the win counts (docs/roles.md, 暗戀者).
        """
        return is_wolf(self.role(seat)) or self.admirers.get(seat, False)

    def win_roles(self) -> tuple[Role, ...]:
        """The deal as the win counts it: a secret admirer as her side's plain card.

        She is a villager (民) while good — her one skill is spent on night 1 — and a wolf
        once she loves one (good must then remove her too).
        """
        return tuple(
            (Role.WEREWOLF if self.admirers.get(s, False) else Role.VILLAGER)
            if role is Role.SECRET_ADMIRER
            else role
            for s, role in enumerate(self.roles, start=1)
        )

    def gods(self) -> tuple[SeatId, ...]:
        """Living god seats."""
        return tuple(s for s in self.living() if is_god(self.role(s)))

    def partner(self, seat: SeatId) -> SeatId | None:
        """The other lover of `seat`, if `seat` is one of cupid's two lovers."""
        if self.lovers is None or seat not in self.lovers:
            return None
        first, second = self.lovers
        return second if seat == first else first

    def seats_with(self, role: Role) -> tuple[SeatId, ...]:
        """All seats dealt `role`, dead or alive."""
        return tuple(s for s in self.all_seats if self.role(s) is role)

    @property
    def finished(self) -> bool:
        """Whether the game has ended."""
        return self.winner is not None


def evolve(state: GameState, event: ev.Event) -> GameState:
    """The state after `event`. Events that change no fact return `state` unchanged."""
    match event:
        case ev.RolesDealt(roles=roles):
            return replace(state, roles=roles)
        case ev.PhaseStarted(phase=phase, day=day):
            return replace(state, phase=phase, day=day)
        case ev.GuardProtected(target=target):
            return replace(state, last_guarded=target)
        case ev.WitchActed(saved=saved, poisoned=poisoned):
            return replace(
                state,
                antidote_used=state.antidote_used or saved is not None,
                poison_used=state.poison_used or poisoned is not None,
            )
        case ev.PlayerDied(seat=seat, cause=cause):
            causes = MappingProxyType({**state.causes, seat: cause})
            reflected = state.reflected or cause is DeathCause.REFLECTED
            return replace(state, dead=state.dead | {seat}, causes=causes, reflected=reflected)
        case ev.DeathsAnnounced(seats=seats):
            return replace(state, out=state.out | set(seats))
        case ev.SelfExploded(seat=seat):
            in_election = state.phase is Phase.SHERIFF_ELECTION
            return replace(
                state,
                exploded=MappingProxyType({**state.exploded, seat: state.day}),
                election_explosions=state.election_explosions + int(in_election),
            )
        case ev.SheriffElectionPostponed(candidates=candidates):
            return replace(state, pending_candidates=candidates)
        case ev.SheriffElected(seat=seat):
            return replace(state, sheriff=seat, pending_candidates=None)
        case ev.BadgePassed(to=seat):
            return replace(state, sheriff=seat)
        case ev.BadgeLost():
            return replace(state, sheriff=None, badge_gone=True, pending_candidates=None)
        case ev.BeautyCharmed(target=target):
            return replace(state, charmed=target)
        case ev.SeatFeared(target=target):
            return replace(state, feared=target, feared_night=state.day)
        case ev.DreamerChosen(target=target):
            return replace(state, dreamer=target, dreamer_night=state.day)
        case ev.KnightDuelled(seat=seat):
            return replace(state, duelled=state.duelled | {seat})
        case ev.HealerProtected(target=target):
            used = state.healer_used + int(target is not None)
            return replace(state, healer_used=used, last_healed=target, last_healed_night=state.day)
        case ev.BottomCardsDealt(cards=cards):
            return replace(state, bottom=cards)
        case ev.CardTaken(seat=seat, card=card, role=role):
            seated, buried = list(state.roles), list(state.bottom)
            seated[seat - 1], buried[card - 1] = role, seated[seat - 1]
            return replace(state, roles=tuple(seated), bottom=tuple(buried))
        case ev.KnifeWithstood(seat=seat):
            return replace(state, withstood=state.withstood | {seat})
        case ev.BodyExamined(target=target):
            return replace(state, examined=state.examined | {target})
        case ev.SeatBlocked():
            return replace(state, consort_used=True)
        case ev.MistLaid():
            return replace(state, mist_used=True)
        case ev.SnakeActed(saved=saved):
            return replace(state, snake_used=state.snake_used or saved is not None)
        case ev.ClawUnsealed():
            return replace(state, claw_unsealed=True)
        case ev.ClawStruck():
            return replace(state, claw_struck=True)
        case ev.SeatConfused(target=target):
            lifted = state.roles and state.role(target) is Role.WOLF_BEAUTY
            return replace(state, fox_used=True, charmed=None if lifted else state.charmed)
        case ev.BearGrowled():
            return replace(state, growl_day=state.day)
        case ev.PufferRaged():
            return replace(state, puffer_used=True)
        case ev.CatReprieved(seat=seat, cause=cause, until=until):
            reprieves = MappingProxyType({**state.reprieves, seat: (cause, until)})
            return replace(state, reprieves=reprieves)
        case ev.CardRevealed(seat=seat):
            return replace(state, revealed=state.revealed | {seat})
        case ev.LoversLinked(lovers=lovers):
            return replace(state, lovers=lovers)
        case ev.SeatsSwapped(target=target, other=other):
            return replace(state, swapped=state.swapped | {target, other})
        case ev.GiftGiven():
            return replace(state, traded=True)
        case ev.GiftReceived(seat=seat, gift=gift):
            return replace(state, lucky=seat, lucky_gift=gift)
        case ev.GiftUsed():
            return replace(state, gift_used=True)
        case ev.AdmirerChose(seat=seat, wolf_side=wolf_side):
            admirers = MappingProxyType({**state.admirers, seat: wolf_side})
            return replace(state, admirers=admirers)
        case ev.PlayerExiled(seat=seat):
            return replace(state, last_exiled=seat, last_exiled_day=state.day)
        case ev.IdiotRevealed(seat=seat):
            return replace(state, revealed_idiots=state.revealed_idiots | {seat})
        case ev.GameEnded(winner=winner):
            return replace(state, winner=winner, phase=Phase.GAME_OVER)
    return state


def initial_state(seats: int) -> GameState:
    """The state of an empty table of `seats` players."""
    return GameState(seats=seats)


def replay(seats: int, events: Iterable[ev.Event]) -> GameState:
    """Fold a log into its state."""
    return functools.reduce(evolve, events, initial_state(seats))
