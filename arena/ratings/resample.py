"""The bootstrap's resamples, drawn unit by unit so that more units extend them.

`cluster_weights` draws the deal bootstrap's weights (every statistic's resamples, one
matrix); `resample_counts` draws the openskill bootstrap's counts by a game's position.

A resample is a multiset of the rated games, re-rated in their rating order. Drawing it
as `n` picks with replacement ties every pick to `n`: one more game redraws every
resample, and a cached bootstrap is worthless. The Poisson bootstrap (Hanley and
MacGibbon 2006; Oza and Russell's online bagging) instead gives each game its own
count per resample, `Poisson(1)`: the same asymptotic distribution as the multinomial
(whose counts are Binomial(n, 1/n)), but the counts of game `t` depend only on the seed
and `t`. A resample of `n + 1` games is the resample of `n` games with game `n`
appended `count` times, so the bootstrap of a growing folder continues from its cached
state and gives exactly what a run from scratch gives. (A resample's size varies around
`n`, by about `sqrt(n)`.)

The counts are drawn from SHAKE-256, a fixed standard, never from `random`, whose
streams Python does not promise to keep: the same games give the same intervals on
every Python, forever.
"""

from __future__ import annotations

import hashlib
import struct
from bisect import bisect_right
from collections.abc import Sequence
from decimal import Decimal, localcontext

import numpy as np
from numpy.typing import NDArray

POISSON_CAP = 16
"""Counts stop at this value (P(count >= 16) is about 1e-14, far below 2**-32)."""


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


def resample_counts(seed: int, position: int, rounds: int) -> tuple[int, ...]:
    """How often game `position` (0-based, in rating order) occurs in each resample.

    Word `r` is bytes `4r..4r+3`, big-endian, of
    `SHAKE-256("werewolf-arena/bootstrap/v1/{seed}/{position}")`; its count is the
    Poisson(1) quantile of `word / 2**32`. Changing this changes every interval.
    """
    data = hashlib.shake_256(f"werewolf-arena/bootstrap/v1/{seed}/{position}".encode()).digest(
        4 * rounds
    )
    return tuple(bisect_right(THRESHOLDS, u) for u in struct.unpack(f">{rounds}I", data))


def cluster_weights(seed: int, clusters: Sequence[str], rounds: int) -> NDArray[np.float64]:
    """Poisson(1) bootstrap weights, `rounds` x `len(clusters)`: how often each cluster occurs.

    The cluster bootstrap's resamples as one matrix: column `j` is cluster `clusters[j]`'s
    count in each resample, and every statistic of a resample is a weighted sum over the
    clusters (a cluster's rows all weigh its count), so one matrix serves every statistic
    and their differences are paired. A cluster is the unit that is independent of the
    others: a deal for the leaderboard (`GameResult.deal`: both mirrored games and every
    pairing's games of it), a game for anything scored within games.

    Column `j` depends only on the seed and the cluster's key — word `r` is bytes
    `4r..4r+3`, big-endian, of `SHAKE-256("werewolf-arena/cluster-bootstrap/v1/{seed}/{key}")`
    and its count the Poisson(1) quantile of `word / 2**32` — never on the other clusters,
    their order or their number: a folder that gains games gives the resamples a run from
    scratch gives, with no saved state, and more rounds extend the matrix. Changing this
    changes every interval.
    """
    out = np.empty((rounds, len(clusters)), dtype=np.float64)
    for j, key in enumerate(clusters):
        words = hashlib.shake_256(
            f"werewolf-arena/cluster-bootstrap/v1/{seed}/{key}".encode()
        ).digest(4 * rounds)
        out[:, j] = np.searchsorted(_EDGES, np.frombuffer(words, dtype=">u4"), side="right")
    return out


_EDGES = np.array(THRESHOLDS, dtype=np.uint64)
"""`THRESHOLDS` as an array for `np.searchsorted` (`side="right"` is `bisect_right`)."""
