"""Means and paired differences over items, with intervals clustered by game.

Items cut from one game are not independent (the same deal, the same table talk), so the
bootstrap resamples games, never items: each game occurs a Poisson(1) number of times in a
resample (`arena.ratings.resample.cluster_weights`, keyed by the game's hash, so the
resamples depend only on the games, not on their order or number), and a mean is the
ratio of the weighted sums of its items' values and counts. One weight matrix serves every
statistic of a report, so a difference between two contestants is resampled on the very
same games for both: paired, as the items are.

The interval is the expanded percentile interval the leaderboard reads its deals with
(`arena.ratings.resample.intervals`: about Student's t for few clusters, where the plain
percentile interval covers too seldom), and there is none from a single game: its
resamples are that game alone, whose "interval" has no width and would call any
difference separated.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from arena.ratings.resample import cluster_weights, intervals, ratio_replicates

CONFIDENCE = 0.95


class Estimate(NamedTuple):
    """A mean over items, its interval (None without resamples), and how many items."""

    value: float
    low: float | None
    high: float | None
    items: int
    games: int


class Resamples:
    """The bootstrap's game weights for one report (`rounds` × games)."""

    def __init__(self, games: Sequence[str], rounds: int, seed: int) -> None:
        self.index = {game: j for j, game in enumerate(sorted(set(games)))}
        self.weights: NDArray[np.float64] = cluster_weights(seed, list(self.index), rounds)

    def mean(self, values: Sequence[tuple[str, float]]) -> Estimate | None:
        """The mean of (game, value) pairs with its percentile interval; None when empty."""
        if not values:
            return None
        sums = np.zeros(len(self.index))
        counts = np.zeros(len(self.index))
        for game, value in values:
            sums[self.index[game]] += value
            counts[self.index[game]] += 1
        mean = float(sums.sum() / counts.sum())
        games = int((counts > 0).sum())
        if not self.weights.shape[0]:
            return Estimate(mean, None, None, len(values), games)
        means = ratio_replicates(self.weights, sums[:, None], counts[:, None])
        (found,) = intervals(means, [games], CONFIDENCE)
        if found is None:
            return Estimate(mean, None, None, len(values), games)
        return Estimate(mean, found.low, found.high, len(values), games)


def separated(estimate: Estimate) -> bool:
    """Whether a difference's interval excludes 0 (per pair: no correction for many pairs)."""
    if estimate.low is None or estimate.high is None:
        return False
    return estimate.low > 0 or estimate.high < 0
