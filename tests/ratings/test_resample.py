"""The cluster bootstrap's Poisson table, t quantiles, expanded intervals and floors."""

from __future__ import annotations

import math

import numpy as np
import pytest

from arena.ratings.resample import (
    FLOOR_CLUSTERS,
    POISSON_CAP,
    THRESHOLDS,
    expanded_tail,
    floored,
    intervals,
    ratio_replicates,
    t_quantile,
)
from arena.ratings.stats import Interval


def test_thresholds_are_the_poisson_distribution() -> None:
    for k, threshold in enumerate(THRESHOLDS):
        cdf = sum(math.exp(-1) / math.factorial(j) for j in range(k + 1))
        assert abs(threshold / 2**32 - cdf) < 1e-9
    assert len(THRESHOLDS) == POISSON_CAP


@pytest.mark.parametrize(
    ("df", "table"),
    [(1, 12.7062), (2, 4.3027), (3, 3.1824), (5, 2.5706), (10, 2.2281), (29, 2.0452)],
)
def test_t_quantiles_match_the_table(df: int, table: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(table, abs=0.005)


def test_the_expanded_tail_is_wider_for_fewer_clusters_and_tends_to_the_plain_one() -> None:
    tails = [expanded_tail(0.95, n) for n in (3, 10, 30, 1000)]
    assert tails == sorted(tails) and tails[0] < 0.001
    assert tails[-1] == pytest.approx(0.025, abs=0.0003)


def test_intervals_leave_out_nan_and_need_two_clusters() -> None:
    values = np.array([[1.0, np.nan], [2.0, np.nan], [3.0, 5.0], [np.nan, np.nan]])
    bounds = intervals(values, [30, 30], 0.95)
    assert bounds[0] is not None and 1.0 <= bounds[0].low < bounds[0].high <= 3.0
    assert bounds[1] is None, "one finite replicate is no interval"
    assert intervals(values[:, :1], [1], 0.95) == [None], "one cluster is no interval"


def test_ratio_replicates_pool_numerators_and_denominators() -> None:
    weights = np.array([[1.0, 1.0], [2.0, 0.0], [0.0, 0.0]])
    num, den = np.array([[1.0], [3.0]]), np.array([[2.0], [4.0]])
    out = ratio_replicates(weights, num, den)
    assert out[0, 0] == pytest.approx(4 / 6) and out[1, 0] == pytest.approx(0.5)
    assert math.isnan(out[2, 0])


def test_a_floor_widens_a_narrow_interval_for_few_clusters_only() -> None:
    narrow = Interval(low=0.9, high=1.1)
    few = floored(narrow, 1.0, sd=1.0, clusters=2, confidence=0.95)
    assert few.low == pytest.approx(1 - 1.96, abs=0.01) and few.high == pytest.approx(
        2.96, abs=0.01
    )
    many = floored(narrow, 1.0, sd=0.2, clusters=100 * FLOOR_CLUSTERS, confidence=0.95)
    assert many == narrow, "the floor fades: a wide-enough bootstrap interval stands"
    assert floored(None, 0.0, 1.0, 1, 0.95).high == pytest.approx(1.96, abs=0.01)
