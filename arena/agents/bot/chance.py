"""Seeded choices that depend only on the bot's seed and what it is deciding.

Each decision draws from its own `random.Random`, keyed by the bot's seed and the
decision (kind, day, step…). A bot therefore holds no state between calls: asked the same
question with the same view, it gives the same answer, also after a crashed game resumes
with a fresh agent. Keys are strings, which `random.Random` hashes stably across runs.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from arena.rules.types import SeatId


def dice(seed: int, *keys: object) -> random.Random:
    """A random source for one decision of the bot seeded `seed`."""
    return random.Random("|".join(map(str, (seed, *keys))))


def top(scores: Mapping[SeatId, float], rng: random.Random) -> SeatId | None:
    """The best-scoring seat, ties broken by `rng`; None when there is no seat."""
    if not scores:
        return None
    best = max(scores.values())
    return rng.choice(sorted(s for s, v in scores.items() if v >= best - 1e-9))


def bottom(scores: Mapping[SeatId, float], rng: random.Random) -> SeatId | None:
    """The lowest-scoring seat, ties broken by `rng`; None when there is no seat."""
    return top({s: -v for s, v in scores.items()}, rng)
