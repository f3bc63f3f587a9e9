"""The cluster bootstrap: resample weights per cluster, and intervals from the replicates.

Pure functions over numpy arrays, for any statistic of clustered data: the leaderboard
resamples deals (`GameResult.deal`), anything scored within games can resample games.

**Weights** (`cluster_weights`). The Poisson bootstrap (Hanley and MacGibbon 2006; Oza
and Russell's online bagging): in each resample every cluster occurs a Poisson(1)
number of times — the same asymptotic distribution as drawing `n` clusters with
replacement (whose counts are Binomial(n, 1/n)) — but a cluster's counts depend on the
seed and its own key alone, never on the other clusters. So a folder that gains games
gives exactly the resamples a run from scratch gives, with no saved state, and one
matrix (resamples x clusters) serves every statistic: each is a weighted sum over the
clusters, and the differences of two statistics are paired by construction. The counts
are drawn from SHAKE-256, a fixed standard, never from `random`, whose streams Python
does not promise to keep.

**Intervals** (`intervals`). The expanded percentile interval (Hesterberg 2015, "What
teachers should know about the bootstrap", section 5.3): the percentile interval at
tails `Phi(-sqrt(n / (n - 1)) t_{n-1, 1 - alpha/2})` instead of `alpha / 2`, `n` the
clusters with data. The plain percentile interval of a mean is about `z s / sqrt(n)`
with the biased `s`, too narrow for few clusters (93.6 % for 30 deals in place of 95 %);
expanded, it is about the Student t interval, and it still follows a skewed statistic.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from decimal import Decimal, localcontext
from statistics import NormalDist

import numpy as np
from numpy.typing import NDArray

from arena.ratings.stats import Interval

POISSON_CAP = 16
"""Counts stop at this value (P(count >= 16) is about 1e-14, far below 2**-32)."""

Array = NDArray[np.float64]


def _thresholds() -> tuple[int, ...]:
    """`floor(2**32 * P(count <= k))` for k < POISSON_CAP, from exact decimal arithmetic."""
    with localcontext() as context:
        context.prec = 50
        term, total, out = Decimal(-1).exp(), Decimal(0), []
        for k in range(POISSON_CAP):
            total += term
            out.append(int(total * 2**32))
            term /= k + 1
    return tuple(out)


THRESHOLDS = _thresholds()
"""A uniform 32-bit word `u` gives the count `bisect_right(THRESHOLDS, u)`."""
_EDGES = np.array(THRESHOLDS, dtype=np.uint64)


def cluster_weights(seed: int, clusters: Sequence[str], rounds: int) -> Array:
    """Poisson(1) bootstrap weights, `rounds` x `len(clusters)`: how often each cluster occurs.

    Column `j` depends only on the seed and the cluster's key: word `r` is bytes
    `4r..4r+3`, big-endian, of `SHAKE-256("werewolf-arena/cluster-bootstrap/v1/{seed}/{key}")`
    and its count is the Poisson(1) quantile of `word / 2**32`. Fewer clusters, another
    order or fewer rounds give the same columns and rows. Changing this changes every
    interval.
    """
    out = np.empty((rounds, len(clusters)), dtype=np.float64)
    for j, key in enumerate(clusters):
        words = hashlib.shake_256(
            f"werewolf-arena/cluster-bootstrap/v1/{seed}/{key}".encode()
        ).digest(4 * rounds)
        out[:, j] = np.searchsorted(_EDGES, np.frombuffer(words, dtype=">u4"), side="right")
    return out


def ratio_replicates(weights: Array, num: Array, den: Array) -> Array:
    """`(weights @ num) / (weights @ den)`: a pooled ratio in every resample (NaN where 0/0).

    `num` and `den` are clusters x statistics: each cluster's sums of the ratio's
    numerator and denominator (for a mean: total and count).
    """
    top, bottom = weights @ num, weights @ den
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(bottom > 0, top / np.where(bottom > 0, bottom, 1.0), np.nan)


def t_quantile(p: float, df: int) -> float:
    """Student's t quantile (`p` in (0, 1), `df` degrees of freedom).

    Exact for 1 and 2 degrees of freedom, else the Cornish-Fisher expansion to the fourth
    order: within 0.004 at 3 degrees of freedom, 1e-5 from 10 on.
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be >= 1, not {df}")
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    z = NormalDist().inv_cdf(p)
    terms = (
        (z**3 + z) / 4,
        (5 * z**5 + 16 * z**3 + 3 * z) / 96,
        (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
        (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160,
    )
    return z + math.fsum(term / float(df) ** (k + 1) for k, term in enumerate(terms))


def expanded_tail(confidence: float, clusters: int) -> float:
    """The lower tail at which the expanded percentile interval is read (`clusters` >= 2)."""
    t = t_quantile(1 - (1 - confidence) / 2, clusters - 1)
    return NormalDist().cdf(-math.sqrt(clusters / (clusters - 1)) * t)


def intervals(
    replicates: Array, clusters: Sequence[int] | NDArray[np.int64], confidence: float
) -> list[Interval | None]:
    """The expanded percentile interval of each column of `replicates` (resamples x statistics).

    NaN replicates (a resample without data for the statistic) are left out. A column
    gets None when fewer than 2 clusters hold its data or fewer than 2 replicates are
    finite: no interval, rather than one of zero width.
    """
    out: list[Interval | None] = []
    for column, n in zip(replicates.T, clusters, strict=True):
        values = column[np.isfinite(column)]
        if n < 2 or values.size < 2:
            out.append(None)
            continue
        tail = expanded_tail(confidence, int(n))
        low, high = np.quantile(values, [tail, 1 - tail])
        out.append(Interval(low=float(low), high=float(high)))
    return out


FLOOR_CLUSTERS = 10
"""Clusters below which a model's own interval is a floor under the bootstrap's (`floored`)."""


def floored(
    interval: Interval | None, point: float, sd: float, clusters: int, confidence: float
) -> Interval:
    """`interval` widened to at least `point ± z sd sqrt(min(1, FLOOR_CLUSTERS / clusters))`.

    A bootstrap sees only the outcomes that happened: two wins in two deals resample to
    wins alone, and their interval is as narrow as a hundred deals' (the Wald interval's
    fault at a proportion of 1). A model's standard error `sd` (which treats every
    observation as independent, so it ignores the clusters) knows better for the first
    few clusters; its floor fades as `1 / sqrt(clusters)` beyond `FLOOR_CLUSTERS` of them,
    where the bootstrap, which does see the clusters, takes over (docs/benchmarks.md
    measures the calibration with the floor in place).
    """
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    half = z * sd * math.sqrt(min(1.0, FLOOR_CLUSTERS / max(clusters, 1)))
    low, high = point - half, point + half
    if interval is not None:
        low, high = min(low, interval.low), max(high, interval.high)
    return Interval(low=low, high=high)
