"""A role guess read off a belief report: the fallback for agents that only report beliefs.

An exam's `role` item asks a `RoleGuesser` directly. An agent that is not one but is a
`Believer` is asked its belief report at the same moment instead, and its guess is read
from it: the seats it finds likeliest to be wolves, as many as the wolf cards it cannot
place, are guessed the board's commonest wolf card; every other seat asked about, the
board's commonest good card. Such a guess is marked `derived` in the answers and never
counts as the agent's own role guess (docs/agents.md, The exam).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arena.records import BeliefReport, RoleGuess
from arena.rules.observation import Observation
from arena.rules.roles import is_wolf
from arena.rules.types import Role, SeatId


def from_beliefs(view: Observation, seats: Sequence[SeatId], report: BeliefReport) -> RoleGuess:
    """The guess a belief report implies for `seats` (those it gives no chance count as 0.5)."""
    known = view.knowledge
    counts = known.role_counts
    wolf_card = _commonest(counts, wolf=True)
    good_card = _commonest(counts, wolf=False)
    placed = sum(1 for role in known.roles.values() if is_wolf(role))
    unplaced = max(0, sum(n for role, n in counts.items() if is_wolf(role)) - placed)
    chance = {s: report.wolf_probability.get(s, 0.5) for s in seats}
    likeliest = sorted(seats, key=lambda s: (-chance[s], s))[:unplaced]
    roles = {s: wolf_card if s in likeliest else good_card for s in seats}
    return RoleGuess(seat=report.seat, after_seq=view.log_length, roles=roles)


def _commonest(counts: Mapping[Role, int], *, wolf: bool) -> Role:
    """The board's most numerous card of a side (ties: the first the board lists)."""
    cards = [(n, -i, role) for i, (role, n) in enumerate(counts.items()) if is_wolf(role) == wolf]
    if not cards:
        return Role.WEREWOLF if wolf else Role.VILLAGER
    return max(cards)[2]
