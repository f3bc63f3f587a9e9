"""An oracle of who may know what, stated from the rules, independent of `observe`.

Each event kind has a rule naming its audience from the rules of the game (who looks at
a card, who wakes for which night action, what the whole table hears), computed from the
deal and the deaths so far, never from the event's own `visibility` and without
`arena.rules.visibility`'s filtering code. `audit` then compares what `observe` gives each
viewer (god, public, each team, each seat) with the oracle, event by event, both ways: a
viewer that sees an event outside its audience is a leak, one that misses an event in its
audience is a loss.

A new event kind needs a rule here (`RULES`); the tests fail until it has one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from arena.rules import events as ev
from arena.rules.config import GameConfig
from arena.rules.observation import observe
from arena.rules.types import Phase, Role, SeatId, Team
from arena.rules.visibility import GodViewer, PublicViewer, SeatViewer, TeamViewer, Viewer

WOLF_ROLES = frozenset(
    {
        Role.WEREWOLF,
        Role.WHITE_WOLF_KING,
        Role.WOLF_KING,
        Role.WOLF_BEAUTY,
        Role.EVIL_KNIGHT,
        Role.NIGHTMARE,
        Role.BLOOD_MOON_APOSTLE,
        Role.ECLIPSE_WOLF_CONSORT,
        Role.WOLF_WITCH,
        Role.PHANTOM,
    }
)
"""The roles that wake with the wolves (a new wolf role must be added here)."""
KNOWN_ROLES = WOLF_ROLES | {
    Role.VILLAGER,
    Role.SEER,
    Role.WITCH,
    Role.HUNTER,
    Role.GUARD,
    Role.IDIOT,
    Role.KNIGHT,
    Role.DREAMWEAVER,
    Role.AVENGER,
    Role.DEMON_HUNTER,
    Role.GARGOYLE,
    Role.GRAVEKEEPER,
    Role.PRINCE,
    Role.PURE_WHITE_MAIDEN,
    Role.MAGICIAN,
    Role.ALCHEMIST_WITCH,
    Role.RAVEN_CLAW,
    Role.MIRACLE_MERCHANT,
    Role.SECRET_ADMIRER,
    Role.FOX_CUB,
    Role.BEAR,
    Role.PUFFERFISH,
    Role.WHITE_CAT,
    Role.HEALER,
    Role.WATCHMAN,
    Role.CORONER,
    Role.ELDER,
    Role.THIEF,
    Role.CUPID,
}
"""Every role the oracle knows; a gargoyle is wolf-side but does not wake with the wolves
(001:2337 無法與其他狼人互知身份), so he is not in `WOLF_ROLES`; nor is a raven claw, who
wakes with them only once unsealed (`Facts.claw_open`)."""
WOLF_SIDE = WOLF_ROLES | {Role.GARGOYLE, Role.RAVEN_CLAW}
"""Every wolf-side role, for counting the living wolves."""


class OracleError(AssertionError):
    """The log contradicts the rules the oracle states (e.g. a check sent to a non-seer)."""


@dataclass(frozen=True)
class Audience:
    """Who besides the referee may know an event."""

    public: bool = False
    """The whole table and spectators."""
    seats: frozenset[SeatId] = frozenset()
    """These seats, privately."""
    wolf_team: bool = False
    """The wolves' shared view (the team channel)."""

    def allows(self, viewer: Viewer) -> bool:
        """Whether `viewer` may know the event."""
        match viewer:
            case GodViewer():
                return True
            case PublicViewer():
                return self.public
            case TeamViewer(team=team):
                return self.public or (self.wolf_team and team is Team.WOLF)
            case SeatViewer(seat=seat):
                return self.public or seat in self.seats
        raise OracleError(f"no oracle rule for viewer {viewer!r}")


EVERYONE = Audience(public=True)
REFEREE_ONLY = Audience()


@dataclass
class Facts:
    """What the oracle tracks while walking a log: the deal, deaths, the night."""

    config: GameConfig
    deal: tuple[Role, ...] = ()
    dead: set[SeatId] = field(default_factory=set)
    exploded: dict[SeatId, int] = field(default_factory=dict)
    day: int = 0
    night: bool = False
    claw_open: bool = False
    """A raven claw is unsealed: fewer than 3 wolf-side seats lived at some nightfall
    (狼鴉之爪, roles.md); from then on he wakes with the wolves."""
    lovers: frozenset[SeatId] = frozenset()
    """The two seats cupid tied (000:22)."""

    def holder(self, seat: SeatId, *roles: Role) -> Audience:
        """Only `seat`, which the deal must have given one of `roles`."""
        if self.deal[seat - 1] not in roles:
            raise OracleError(f"seat {seat} was dealt {self.deal[seat - 1]}, not {roles}")
        return Audience(seats=frozenset({seat}))

    def wolves(self) -> frozenset[SeatId]:
        """Every seat dealt a wolf role."""
        for role in self.deal:
            if role not in KNOWN_ROLES:
                raise OracleError(f"role {role} has no rule in the oracle (wolf or not?)")
        return frozenset(s for s, r in enumerate(self.deal, start=1) if r in WOLF_ROLES)

    def awake_wolves(self) -> Audience:
        """The wolves' channel tonight: the living wolves, plus a wolf who exploded the day
        before where `exploded_wolf_joins_knife` (001 自爆狼參與夜間指刀)."""
        awake = {s for s in self.wolves() if s not in self.dead}
        if self.claw_open:
            awake |= {s for s in self.claws() if s not in self.dead}
        if self.config.rules.exploded_wolf_joins_knife:
            awake |= {s for s, day in self.exploded.items() if day == self.day - 1}
        return Audience(seats=frozenset(awake), wolf_team=True)

    def claws(self) -> frozenset[SeatId]:
        """Every seat dealt a raven claw."""
        return frozenset(s for s, r in enumerate(self.deal, start=1) if r is Role.RAVEN_CLAW)

    def _nightfall(self) -> None:
        living = [s for s, r in enumerate(self.deal, start=1) if r in WOLF_SIDE]
        living = [s for s in living if s not in self.dead]
        if any(s in living for s in self.claws()) and len(living) < 3:
            self.claw_open = True

    def see(self, event: ev.Event) -> None:
        """Take in an event after its audience was decided."""
        match event:
            case ev.RolesDealt(roles=roles):
                self.deal = roles
            case ev.CardTaken(seat=seat, role=role):  # the thief's card is now `role`
                self.deal = (*self.deal[: seat - 1], role, *self.deal[seat:])
            case ev.PlayerDied(seat=seat):
                self.dead.add(seat)
            case ev.SelfExploded(seat=seat):
                self.exploded[seat] = self.day
            case ev.LoversLinked(lovers=lovers):
                self.lovers = frozenset(lovers)
            case ev.PhaseStarted(phase=phase, day=day):
                self.day, self.night = day, phase is Phase.NIGHT
                if self.night:
                    self._nightfall()


Rule = Callable[[ev.Event, Facts], Audience]


def _public(_: ev.Event, __: Facts) -> Audience:
    return EVERYONE


def _referee(_: ev.Event, __: Facts) -> Audience:
    return REFEREE_ONLY


def _own(event: ev.Event, facts: Facts) -> Audience:
    seat = getattr(event, "seat")  # noqa: B009 - every event routed here has a seat
    return Audience(seats=frozenset({seat}))


def _wolves_channel(_: ev.Event, facts: Facts) -> Audience:
    return facts.awake_wolves()


def _tie(event: ev.Event, facts: Facts) -> Audience:
    assert isinstance(event, ev.TieBroken)
    return facts.awake_wolves() if event.purpose == "knife" else EVERYONE


def _claw_unsealed(event: ev.Event, facts: Facts) -> Audience:
    assert isinstance(event, ev.ClawUnsealed)
    if not facts.claw_open or event.seat not in facts.claws():
        raise OracleError(f"seat {event.seat} unsealed while the rules keep a claw sealed")
    return facts.awake_wolves()


def _lover(event: ev.Event, facts: Facts) -> Audience:
    """A lover meets his partner alone, on night 1, after cupid tied them (004:3 情侶睁眼)."""
    assert isinstance(event, ev.LoverMet)
    if {event.seat, event.partner} != facts.lovers or not (facts.night and facts.day == 1):
        raise OracleError(f"lover_met of seats {event.seat}, {event.partner}: not cupid's lovers")
    if event.partner_is_wolf != (facts.deal[event.partner - 1] in WOLF_SIDE):
        raise OracleError(f"lover_met tells seat {event.seat} a wrong side")
    return Audience(seats=frozenset({event.seat}))


def _role(*roles: Role) -> Rule:
    def rule(event: ev.Event, facts: Facts) -> Audience:
        return facts.holder(getattr(event, "seat"), *roles)  # noqa: B009

    return rule


RULES: dict[str, Rule] = {
    # The table is set in public; the deal itself only the referee holds.
    "game_started": _public,
    "roles_dealt": _referee,
    # Each seat looks at its own card; the wolves open their eyes and see each other.
    "role_assigned": _own,
    "wolves_met": lambda _, facts: Audience(seats=facts.wolves(), wolf_team=True),
    "phase_started": _public,
    # Night actions: each is known to the one who acts (and, for the knife, the wolves).
    "guard_protected": _role(Role.GUARD),
    "wolf_whispered": _wolves_channel,
    "knife_nominated": _wolves_channel,
    "knife_chosen": _wolves_channel,
    # The alchemist witch is shown the knife like the witch while her snake is unused.
    "knife_shown_to_witch": _role(Role.WITCH, Role.ALCHEMIST_WITCH),
    "witch_acted": _role(Role.WITCH),
    "seer_checked": _role(Role.SEER),
    # The wolf beauty charms with her teammates' eyes shut; the dreamweaver dreams alone.
    "beauty_charmed": _role(Role.WOLF_BEAUTY),
    "dreamer_chosen": _role(Role.DREAMWEAVER),
    # The nightmare fears alone; the feared seat alone is shown that its skill is blocked.
    "seat_feared": _role(Role.NIGHTMARE),
    "skill_blocked": _own,
    # The demon hunter hunts alone; a flipped card is shown to the whole table.
    "demon_hunted": _role(Role.DEMON_HUNTER),
    "card_revealed": _public,
    # The alchemist witch lays her mist and uses her snake alone; the wolves are shown the
    # mist's seats (not who laid it) on their channel. The raven claw strikes alone; once
    # unsealed he meets the wolves awake tonight (he is one of them from then on).
    "mist_laid": _role(Role.ALCHEMIST_WITCH),
    "knife_limited": _wolves_channel,
    "snake_acted": _role(Role.ALCHEMIST_WITCH),
    "claw_struck": _role(Role.RAVEN_CLAW),
    "claw_unsealed": _claw_unsealed,
    # 動物夢境: the fox cub confuses alone; the bear's growl and the pufferfish's flip are
    # announced to the whole table; a white cat's reprieve (its cause) is the referee's,
    # the table sees only its card flip (`card_revealed`).
    "seat_confused": _role(Role.FOX_CUB),
    "bear_growled": _public,
    "puffer_raged": _public,
    "cat_reprieved": _referee,
    # Exact-role checks (gargoyle, pure-white maiden, wolf witch) are the checker's alone,
    # like the gargoyle's strike; the gravekeeper reads a grave alone.
    "role_checked": _role(Role.GARGOYLE, Role.PURE_WHITE_MAIDEN, Role.WOLF_WITCH),
    "gargoyle_struck": _role(Role.GARGOYLE),
    "grave_read": _role(Role.GRAVEKEEPER),
    # The eclipse wolf consort blocks alone (she may tell her team in their talk).
    "seat_blocked": _role(Role.ECLIPSE_WOLF_CONSORT),
    # The magician swaps alone; nobody is told that a swap moved an action (001:113).
    "seats_swapped": _role(Role.MAGICIAN),
    # The merchant trades alone; the lucky one alone is told its gift (not the giver) and
    # uses it alone (001:117 奇跡商人——幸運兒).
    "gift_given": _role(Role.MIRACLE_MERCHANT),
    "gift_received": _own,
    "gift_used": _own,
    # The secret admirer loves in secret: her love is not told (001:115 暗戀者).
    "admirer_chose": _role(Role.SECRET_ADMIRER),
    # 000's custom-board roles act alone: the phantom masks a wolf before the pack wakes
    # (the masked wolf is not told), the healer protects and is never told if it worked
    # (000:39), the watchman hears at dawn about his own watch, the coroner examines alone.
    "wolf_masked": _role(Role.PHANTOM),
    "healer_protected": _role(Role.HEALER),
    "seat_watched": _role(Role.WATCHMAN),
    "body_examined": _role(Role.CORONER),
    # The elder's spare life is the referee's: the morning is simply peaceful (common play).
    "knife_withstood": _referee,
    # The bottom cards lie face down: only the thief sees them, and what he took (004).
    "bottom_cards_dealt": _referee,
    "bottom_cards_shown": _role(Role.THIEF),
    "card_taken": _role(Role.THIEF),
    # Cupid ties the lovers alone; each lover learns only the other's seat and side (004:3).
    "lovers_linked": _role(Role.CUPID),
    "lover_met": _lover,
    "skill_status_told": _role(Role.HUNTER, Role.WHITE_WOLF_KING, Role.WOLF_KING, Role.GARGOYLE),
    # A death's cause is the referee's; the table hears only who is out.
    "player_died": _referee,
    "deaths_announced": _public,
    # The day is public: campaign, speeches, votes, lots, the badge, exiles, shots.
    "sheriff_candidates": _public,
    "speaking_order_set": _public,
    "spoke": _public,
    "self_exploded": _public,
    "sheriff_withdrew": _public,
    "vote_cast": _public,
    "votes_counted": _public,
    "tie_broken": _tie,
    "sheriff_elected": _public,
    "sheriff_election_postponed": _public,
    "badge_lost": _public,
    "badge_passed": _public,
    "exile_recommended": _public,
    "player_exiled": _public,
    "idiot_revealed": _public,
    "player_shot": _public,
    "knight_duelled": _public,
    # The arena's fallback for a seat is that seat's business (and the referee's).
    "action_defaulted": _own,
    "game_ended": _public,
    "roles_revealed": _public,
}


def viewers(seats: int) -> list[Viewer]:
    """Every viewer of a game: god, public, each team, each seat."""
    return [
        GodViewer(),
        PublicViewer(),
        TeamViewer(team=Team.WOLF),
        TeamViewer(team=Team.GOOD),
        *(SeatViewer(seat=s) for s in range(1, seats + 1)),
    ]


def audiences(events: Sequence[ev.Event], config: GameConfig) -> list[Audience]:
    """The oracle's audience of every event of a log.

    Raises:
        OracleError: an event kind without a rule, or a log that contradicts the rules.
    """
    facts = Facts(config)
    out: list[Audience] = []
    for event in events:
        rule = RULES.get(event.kind)
        if rule is None:
            raise OracleError(f"event kind {event.kind!r} has no rule in tests/rules/knowledge.py")
        out.append(rule(event, facts))
        facts.see(event)
    return out


def _name(viewer: Viewer) -> str:
    match viewer:
        case TeamViewer(team=team):
            return f"team:{team}"
        case SeatViewer(seat=seat):
            return f"seat:{seat}"
    return viewer.kind


def audit(events: Sequence[ev.Event], config: GameConfig) -> list[str]:
    """Every disagreement between `observe` and the oracle, one line each."""
    expected = audiences(events, config)
    problems: list[str] = []
    for viewer in viewers(config.board_spec.seats):
        seen = {s.seq for s in observe(events, viewer).seen}
        for seq, (event, audience) in enumerate(zip(events, expected, strict=True)):
            allowed = audience.allows(viewer)
            if (seq in seen) != allowed:
                verb = "leaks to" if seq in seen else "is hidden from"
                problems.append(f"event {seq} {event.kind} {verb} {_name(viewer)}")
    return problems
