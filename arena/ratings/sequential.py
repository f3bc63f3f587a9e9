"""Anytime-valid verdicts: who is better, read after every deal without fooling ourselves.

A pairing of agents A and B is scored per deal: A's mean result over the deal's games
(a win 1, a draw or a shared lovers' win ½, a loss 0), a number in [0, 1] whose mean is ½
when the two are equally strong — exactly so in a mirrored tournament, where each plays
each side of the deal once. A fixed-size interval may be read once; looked at after every
round and stopped when it first excludes ½, it calls identical agents different far more
often than its 5 %. A **confidence sequence** is built to be looked at after every deal:
with probability at least 1 − α it covers the mean at every number of deals at once, so
stopping whenever it first excludes ½ keeps the error at α.

The one here is the betting confidence sequence of Waudby-Smith and Ramdas (2023,
"Estimating means of bounded random variables by betting", J. R. Stat. Soc. B 86(1),
arXiv:2010.09686), Theorem 3's hedged capital process with predictable plug-in bets. For
each candidate mean m a bettor who started with 1 stakes, deal by deal, on the score being
above m (capital `K⁺`) and below it (`K⁻`):

    K⁺ₜ(m) = ∏ᵢ₌₁ᵗ (1 + λᵢ⁺(m) (xᵢ − m)),   K⁻ₜ(m) = ∏ᵢ₌₁ᵗ (1 − λᵢ⁻(m) (xᵢ − m)),
    Kₜ(m) = max(θ K⁺ₜ(m), (1 − θ) K⁻ₜ(m)),  θ = ½,

with bets fixed before deal i is seen (predictable): λᵢ⁺(m) = min(λᵢ, c / m) and
λᵢ⁻(m) = min(λᵢ, c / (1 − m)), c = ½, and

    λᵢ = sqrt(2 log(2 / α) / (σ̂²ᵢ₋₁ · i · log(1 + i))),
    μ̂ᵢ = (½ + Σⱼ≤ᵢ xⱼ) / (i + 1),   σ̂²ᵢ = (¼ + Σⱼ≤ᵢ (xⱼ − μ̂ⱼ)²) / (i + 1).

At the true mean θK⁺ + (1 − θ)K⁻ is a nonnegative martingale starting at 1, so by Ville's
inequality it ever reaches 1/α with probability at most α: {m : Kₜ(m) < 1/α} is a
(1 − α) confidence sequence, an interval (K⁺ falls and K⁻ rises with m). The sets are
intersected over time (the running intersection, still valid). The verdict is read at
m = ½ exactly: once K(½) has reached 1/α the pairing is decided — for A if it was K⁺ (the
scores ran above ½), for B if K⁻ — and stays decided. The interval is computed on a grid
of step 1/1000 and widened to the neighbouring grid points, so it errs wide.

The guarantee is per pairing: with many pairings each is wrong with probability at most
α (no correction for the number of pairings is made; docs/tournaments.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from arena.ratings.stats import FrozenModel

ALPHA = 0.05
"""The error allowed per pairing: a 95 % confidence sequence."""
TRUNCATION = 0.5
"""c: no bet stakes more than this share of the capital that could be lost at m."""
GRID = np.linspace(0.0, 1.0, 1001)
"""The candidate means the interval is read on (½ is one of them, exactly)."""
HALF = 500
"""The index of ½ in `GRID`."""

Better = Literal["a", "b"]
"""Who the verdict is for: the pairing's first agent or its second."""


class Verdict(FrozenModel):
    """A pairing's verdict after some deals, in schedule order."""

    deals: int
    """Per-deal scores seen."""
    mean: float | None
    """Their mean (None before any deal)."""
    low: float = 0.0
    """The confidence sequence's interval for the mean score, after every deal so far."""
    high: float = 1.0
    better: Better | None = None
    """`a` when the interval has excluded ½ from above, `b` from below; None: undecided."""
    decided_at: int | None = None
    """The number of deals at which ½ was first excluded."""


def bets(scores: NDArray[np.float64], alpha: float = ALPHA) -> NDArray[np.float64]:
    """λᵢ for each deal i (1-based), from the deals before it only (predictable)."""
    n = len(scores)
    t = np.arange(1, n + 1, dtype=np.float64)
    mu = (0.5 + np.cumsum(scores)) / (t + 1)
    sigma2 = (0.25 + np.cumsum((scores - mu) ** 2)) / (t + 1)
    before = np.concatenate(([0.25], sigma2[:-1]))
    return np.sqrt(2 * math.log(2 / alpha) / (before * t * np.log1p(t)))


def log_capital(
    scores: NDArray[np.float64], means: NDArray[np.float64], alpha: float = ALPHA
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Log K⁺ₜ(m) and log K⁻ₜ(m), deals by rows and candidate means `means` by columns."""
    lam = bets(scores, alpha)[:, None]
    m = means[None, :]
    with np.errstate(divide="ignore"):
        up = np.minimum(lam, TRUNCATION / m)
        down = np.minimum(lam, TRUNCATION / (1 - m))
    step = scores[:, None] - m
    return np.cumsum(np.log1p(up * step), axis=0), np.cumsum(np.log1p(-down * step), axis=0)


def hedged(
    plus: NDArray[np.float64], minus: NDArray[np.float64], alpha: float = ALPHA
) -> NDArray[np.bool_]:
    """Where the hedged capital max(½K⁺, ½K⁻) has reached 1/α: the excluded means."""
    return np.maximum(plus, minus) + math.log(0.5) >= math.log(1 / alpha)


def decided_at(scores: Sequence[float], alpha: float = ALPHA) -> tuple[int, Better] | None:
    """The first number of deals at which ½ is excluded, and for whom; None if never."""
    x = _checked(scores)
    if not len(x):
        return None
    plus, minus = log_capital(x, np.array([0.5]), alpha)
    out = hedged(plus, minus, alpha)[:, 0]
    if not out.any():
        return None
    first = int(np.argmax(out))
    return first + 1, "a" if plus[first, 0] >= minus[first, 0] else "b"


def verdict(scores: Sequence[float], alpha: float = ALPHA) -> Verdict:
    """The verdict after `scores`, the pairing's per-deal scores in schedule order.

    Raises:
        ValueError: a score outside [0, 1], or not a number.
    """
    x = _checked(scores)
    if not len(x):
        return Verdict(deals=0, mean=None)
    plus, minus = log_capital(x, GRID, alpha)
    excluded = np.logical_or.accumulate(hedged(plus, minus, alpha), axis=0)
    kept = np.flatnonzero(~excluded[-1])
    if not len(kept):  # every mean excluded at some time: read the last deal's own set
        kept = np.flatnonzero(~hedged(plus, minus, alpha)[-1])
    low = GRID[max(kept[0] - 1, 0)] if len(kept) else float(x.mean())
    high = GRID[min(kept[-1] + 1, len(GRID) - 1)] if len(kept) else float(x.mean())
    first = decided_at(scores, alpha)
    return Verdict(
        deals=len(x),
        mean=float(x.mean()),
        low=float(low),
        high=float(high),
        better=None if first is None else first[1],
        decided_at=None if first is None else first[0],
    )


def _checked(scores: Sequence[float]) -> NDArray[np.float64]:
    x = np.asarray(scores, dtype=np.float64)
    if x.ndim != 1 or not np.all((x >= 0) & (x <= 1)):
        raise ValueError("per-deal scores must be numbers from 0 to 1")
    return x
