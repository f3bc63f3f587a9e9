"""Counting ballots: weighted tallies and their leaders. Pure functions."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from arena.rules.types import SeatId


def tally(
    ballots: Mapping[SeatId, SeatId | None], weights: Mapping[SeatId, Fraction]
) -> dict[SeatId, Fraction]:
    """Weighted votes per target; abstentions (None) count for nobody.

    Weights are exact fractions, so a sheriff's 1.5 never suffers float rounding.
    """
    counts: dict[SeatId, Fraction] = {}
    for voter, target in ballots.items():
        if target is not None:
            counts[target] = counts.get(target, Fraction(0)) + weights.get(voter, Fraction(1))
    return counts


def leaders(counts: Mapping[SeatId, Fraction]) -> tuple[SeatId, ...]:
    """Seats with the most votes, in seat order (empty when nobody voted)."""
    if not counts:
        return ()
    top = max(counts.values())
    return tuple(sorted(seat for seat, n in counts.items() if n == top))


def ranked(counts: Mapping[SeatId, Fraction]) -> tuple[tuple[SeatId, float], ...]:
    """The tally as (seat, votes) pairs, most votes first, then seat order."""
    return tuple(
        (seat, float(n)) for seat, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    )
