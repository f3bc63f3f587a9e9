"""What a night's actors chose (`Acts`), and who acts for a role or the pack tonight.

Shared by the night's steps (`arena.rules.night`, `night_checks`, `night_skills`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from arena.rules.roles import in_pack, spec
from arena.rules.table import Table
from arena.rules.types import Gift, Role, SeatId


@dataclass
class Acts:
    """What the night's actors chose, filled in step by step."""

    knife: SeatId | None = None
    protected: SeatId | None = None
    saved: bool = False
    poisoned: SeatId | None = None
    dreamer: SeatId | None = None
    """Tonight's dreamer (None: no living dreamweaver)."""
    checked: SeatId | None = None
    """The seat the seer checked tonight."""
    last_dreamer: SeatId | None = None
    """Last night's dreamer, if the dreamweaver chose one then."""
    blocked: SeatId | None = None
    """The seat the nightmare feared tonight: its ability fails (001:1665)."""
    consort_blocked: SeatId | None = None
    """The seat the eclipse wolf consort blocked tonight (001:1925): its ability fails."""
    sealed: frozenset[SeatId] = frozenset()
    """Gods whose abilities the blood moon seals tonight (001:1459, roles.md)."""
    hunted: SeatId | None = None
    """The seat the demon hunter hunted tonight."""
    check_kills: list[SeatId] = field(default_factory=list)
    """Seats checked to death tonight (001:2113 查驗出局)."""
    swap: tuple[SeatId, SeatId] | None = None
    """The two seats the magician swapped tonight (001:113; docs/roles.md)."""
    failed_trade: SeatId | None = None
    """The miracle merchant, when he traded with a wolf-side seat tonight."""
    new_lucky: tuple[SeatId, Gift] | None = None
    """Tonight's trade with a good seat: the lucky one and its gift, told at its step."""
    shielded: SeatId | None = None
    """The seat the lucky one's shield protects from tonight's knife."""
    lucky_poisoned: SeatId | None = None
    """The seat the lucky one's poison is aimed at tonight."""

    def lands(self, seat: SeatId | None) -> SeatId | None:
        """Where an action aimed at `seat` lands tonight: the other seat of a swapped pair."""
        if self.swap is None or seat not in self.swap:
            return seat
        first, second = self.swap
        return second if seat == first else first

    mist: tuple[SeatId, ...] | None = None
    """The alchemist witch's mist tonight: the only seats the knife may fall on."""
    clawed: SeatId | None = None
    """The raven claw's strike tonight."""
    confused: SeatId | None = None
    """The seat the fox cub confused tonight."""
    masked: SeatId | None = None
    """The wolf the phantom masked tonight: the seer's check shows him good (000:24)."""
    healed: SeatId | None = None
    """The seat the healer protected tonight (000:26)."""
    watched: SeatId | None = None
    """The seat the watchman watches tonight; he is told at dawn (000:29)."""

    def fails(self, seat: SeatId | None) -> bool:
        """Whether `seat`'s night ability fails tonight (feared or sealed)."""
        if seat is None:
            return False
        return seat in (self.blocked, self.consort_blocked) or seat in self.sealed


def first_living(t: Table, role: Role) -> SeatId | None:
    """The first living seat holding `role` (None: nobody alive holds it)."""
    return next((s for s in t.state.seats_with(role) if t.state.is_alive(s)), None)


def knife_party(t: Table, n: int) -> tuple[SeatId, ...]:
    """Wolves who choose tonight's knife.

    The living wolves of the pack (not a lone gargoyle; a raven claw once unsealed), plus a
    wolf who exploded the day before where `exploded_wolf_joins_knife` (001 自爆狼參與夜間指刀).
    """
    party = {
        s
        for s in t.state.wolves()
        if in_pack(t.role(s)) or (spec(t.role(s)).sealed and t.state.claw_unsealed)
    }
    if t.rules.exploded_wolf_joins_knife:
        party |= {s for s, day in t.state.exploded.items() if day == n - 1}
    return tuple(sorted(party))
