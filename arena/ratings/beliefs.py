"""Belief-report metrics: suspicion of each wolf, detection, and each speech's effect.

Belief reports are private estimates the runner asks of seats (`Limits.beliefs`: daily
before the vote, or after every speech). Only good seats' reports count here: a wolf
knows the truth, so its report measures nothing. A report entry is ignored when it is
about the reporter itself, about a seat that does not exist, or is not a probability.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from itertools import pairwise

from arena.ratings.stats import mean_of
from arena.ratings.tallies import Tallies
from arena.records import BeliefReport
from arena.rules.events import Event, Spoke
from arena.rules.roles import is_wolf
from arena.rules.types import Role, SeatId

PROCEDURAL = frozenset({"speaking_order_set", "phase_started", "action_defaulted"})
"""Event kinds that may sit between two reports without spoiling a speech's attribution:
they tell a listener nothing about who is a wolf."""


def clean(report: BeliefReport, seats: int) -> dict[SeatId, float]:
    """The usable entries of `report`: other existing seats, probabilities in [0, 1]."""
    return {
        seat: p
        for seat, p in report.wolf_probability.items()
        if 1 <= seat <= seats and seat != report.seat and 0.0 <= p <= 1.0
    }


def brier(probabilities: Mapping[SeatId, float], roles: Sequence[Role]) -> float:
    """Mean of `(p - is_wolf)**2` over the entries (0 is perfect; 0.25 is a coin flip)."""
    errors = [(p - is_wolf(roles[s - 1])) ** 2 for s, p in probabilities.items()]
    return sum(errors) / len(errors)


def good_reports(reports: Sequence[BeliefReport], roles: Sequence[Role]) -> list[BeliefReport]:
    """Reports by good seats (by existing seats only), in log order."""
    return sorted(
        (r for r in reports if 1 <= r.seat <= len(roles) and not is_wolf(roles[r.seat - 1])),
        key=lambda r: r.after_seq,
    )


def belief_tallies(
    events: Sequence[Event], reports: Sequence[BeliefReport], roles: Sequence[Role]
) -> dict[SeatId, Tallies]:
    """`wolf_suspicion`, `brier`, `speech_shift` and `misdirection` per seat."""
    suspicion: dict[SeatId, list[float]] = defaultdict(list)
    errors: dict[SeatId, list[float]] = defaultdict(list)
    good = good_reports(reports, roles)
    for report in good:
        entries = clean(report, len(roles))
        for seat, p in entries.items():
            truth = is_wolf(roles[seat - 1])
            if truth:
                suspicion[seat].append(p)
            errors[report.seat].append((p - truth) ** 2)
    shifts, misdirections = speech_effects(events, good, roles)
    seats = set(suspicion) | set(errors) | set(shifts)
    return {
        seat: Tallies(
            wolf_suspicion=mean_of(suspicion.get(seat, [])),
            brier=mean_of(errors.get(seat, [])),
            speech_shift=mean_of(shifts.get(seat, [])),
            misdirection=mean_of(misdirections.get(seat, [])),
        )
        for seat in seats
    }


def attributed_speech(window: Sequence[Event]) -> Spoke | None:
    """The one speech that explains a change of beliefs over `window`, if there is one.

    A window qualifies when it holds exactly one `Spoke` and otherwise only `PROCEDURAL`
    events: a night, a vote or a death in between would be confounded with the speech.
    """
    speeches = [e for e in window if isinstance(e, Spoke)]
    if len(speeches) != 1:
        return None
    if any(not isinstance(e, Spoke) and e.kind not in PROCEDURAL for e in window):
        return None
    return speeches[0]


def speech_effects(
    events: Sequence[Event], good: Sequence[BeliefReport], roles: Sequence[Role]
) -> tuple[dict[SeatId, list[float]], dict[SeatId, list[float]]]:
    """Per speaker: the belief shift and Brier change of each good listener per speech.

    For each good listener, consecutive reports `r1`, `r2` bracket the events
    `events[r1.after_seq:r2.after_seq]`; when `attributed_speech` finds one speech there
    by another seat, the change over the seats both reports cover is that speech's effect.
    """
    shifts: dict[SeatId, list[float]] = defaultdict(list)
    misdirections: dict[SeatId, list[float]] = defaultdict(list)
    by_listener: dict[SeatId, list[BeliefReport]] = defaultdict(list)
    for report in good:
        by_listener[report.seat].append(report)
    for listener, series in by_listener.items():
        for before, after in pairwise(series):
            speech = attributed_speech(events[before.after_seq : after.after_seq])
            if speech is None or speech.seat == listener:
                continue
            p1, p2 = clean(before, len(roles)), clean(after, len(roles))
            common = sorted(p1.keys() & p2.keys())
            if not common:
                continue
            shifts[speech.seat].append(sum(abs(p2[s] - p1[s]) for s in common) / len(common))
            misdirections[speech.seat].append(
                brier({s: p2[s] for s in common}, roles) - brier({s: p1[s] for s in common}, roles)
            )
    return shifts, misdirections
