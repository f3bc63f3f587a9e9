"""The rules a speech's structured claims must hold to: what the referee refuses in them.

A speech's claims are what the deception metrics read, so claims that cannot be meant
are refused like any illegal answer (`arena.rules.decisions.check_legal`). The models
are in `arena.rules.actions`, which re-exports these names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from arena.rules.types import SeatId

if TYPE_CHECKING:
    from arena.rules.actions import CheckClaim, Claims

__all__ = [
    "EXCLUSIVE",
    "OWN_SEAT_BARRED",
    "ClaimList",
    "checks_conflict",
    "claim_contradiction",
    "claimed_seats",
]

ClaimList = Literal["suspects", "trusts", "checks"]
"""A seat list of `Claims` (for `checks`, the seats checked)."""

OWN_SEAT_BARRED: tuple[ClaimList, ...] = ("trusts", "checks")
"""Claim lists that never name the speaker's own seat: no one vouches for himself, and no
role checks itself."""

EXCLUSIVE: tuple[ClaimList, ClaimList] = ("suspects", "trusts")
"""Claim lists that share no seat: a seat is suspected or trusted, not both."""

_WORDS: dict[ClaimList, str] = {"suspects": "suspect", "trusts": "trust", "checks": "a check on"}


def claimed_seats(claims: Claims, name: ClaimList) -> tuple[SeatId, ...]:
    """The seats one claim list of `claims` names."""
    if name == "checks":
        return tuple(c.seat for c in claims.checks)
    return claims.suspects if name == "suspects" else claims.trusts


def claim_contradiction(speaker: SeatId, claims: Claims) -> str | None:
    """What makes `claims` contradict themselves, or None when they hold together.

    A speech's claims are what the deception metrics read, so a claim that cannot be meant
    is refused like any illegal answer, never counted: a seat both suspected and trusted
    (`EXCLUSIVE`), a speaker vouching for himself or reporting a check on his own seat
    (`OWN_SEAT_BARRED`), a seat's check reported twice (`checks_conflict`). Each seat kind
    is told the reason and asked again; the model seats' legal-answers schema is built
    from the same rules.
    """
    conflict = checks_conflict(claims.checks)
    if conflict is not None:
        return conflict
    first, second = EXCLUSIVE
    both = sorted(set(claimed_seats(claims, first)) & set(claimed_seats(claims, second)))
    if both:
        seats = ", ".join(map(str, both))
        words = f"{_WORDS[first]} and {_WORDS[second]}"
        return f"claims both {words} seat {seats}: name each seat in one of them"
    for name in OWN_SEAT_BARRED:
        if speaker in claimed_seats(claims, name):
            return (
                f"claims {_WORDS[name]} the speaker's own seat {speaker}: {name} name other seats"
            )
    return None


def checks_conflict(checks: tuple[CheckClaim, ...]) -> str | None:
    """What is wrong with a speech's reported checks, or None: one result per seat.

    A seat's side does not change with the night it was checked on, so a seat reported
    both wolf and good is a contradiction, and a seat reported twice alike says nothing
    more (the model seats' parser merges exact repeats before the referee sees them,
    `arena.agents.model.parsing`). One result per seat also bounds the list: no speech
    reports more checks than there are other seats (one listed 16 on a 12-seat table).
    """
    verdicts: dict[SeatId, set[bool]] = {}
    for check in checks:
        verdicts.setdefault(check.seat, set()).add(check.is_wolf)
    both = sorted(seat for seat, said in verdicts.items() if len(said) > 1)
    if both:
        seats = ", ".join(map(str, both))
        return f"checks call seat {seats} both wolf and good: report one result per seat"
    twice = sorted(seat for seat in verdicts if sum(c.seat == seat for c in checks) > 1)
    if twice:
        seats = ", ".join(map(str, twice))
        return f"checks report seat {seats} more than once: report one result per seat"
    return None
