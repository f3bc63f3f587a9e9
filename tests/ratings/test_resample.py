"""The bootstrap's per-game Poisson counts: fixed by SHAKE-256, distributed as Poisson(1)."""

from __future__ import annotations

import math
from collections import Counter

from arena.ratings.resample import POISSON_CAP, THRESHOLDS, resample_counts


def test_counts_are_pinned_for_a_seed_and_position() -> None:
    """Defined by SHAKE-256 alone, so every Python gives these (never `random`)."""
    assert resample_counts(0, 0, 12) == PINNED_0_0
    assert resample_counts(7, 123, 12) == PINNED_7_123
    assert resample_counts(0, 0, 5) == PINNED_0_0[:5], "more resamples extend, never redraw"


def test_thresholds_are_the_poisson_distribution() -> None:
    for k, threshold in enumerate(THRESHOLDS):
        cdf = sum(math.exp(-1) / math.factorial(j) for j in range(k + 1))
        assert abs(threshold / 2**32 - cdf) < 1e-9
    assert len(THRESHOLDS) == POISSON_CAP


def test_counts_have_mean_and_variance_one() -> None:
    counts = [c for position in range(500) for c in resample_counts(3, position, 40)]
    mean = sum(counts) / len(counts)
    variance = sum((c - mean) ** 2 for c in counts) / len(counts)
    assert abs(mean - 1) < 0.03 and abs(variance - 1) < 0.06
    share = Counter(counts)[0] / len(counts)
    assert abs(share - math.exp(-1)) < 0.02


PINNED_0_0 = (0, 2, 0, 2, 1, 0, 1, 0, 2, 0, 0, 1)
PINNED_7_123 = (2, 0, 0, 0, 1, 4, 1, 2, 1, 0, 0, 0)
