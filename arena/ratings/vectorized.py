"""The bootstrap's re-rating of every resample at once, with numpy, for pairing games.

A bootstrap re-rates each resample's games in order: hundreds of resamples of thousands
of games, each game an openskill update. In a tournament every game is a *pairing*: one
identity per side (an agent playing every wolf seat against one playing every good seat,
or the same per side identity). Then the update of resample `r` at step `t` depends only
on `r`'s own table, so step `t` of all resamples is one array operation: the per-game
Python loop runs once per step instead of once per step and resample.

The arithmetic is `ratings.duel` and `ratings._play_pair`, operation for operation, in
float64; numpy's `exp` may round differently from `math.exp` in the last bit, so
intervals can differ from the scalar path's in the last digits (never more). Without
numpy, or with any game that is not a pairing, `replicate_mus` returns None and the
caller re-rates one resample at a time.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, TypeVar

from arena.rules.types import Winner

K = TypeVar("K", bound=Hashable)

try:  # numpy comes with the dashboard's pandas; the scalar path needs nothing
    import numpy as np
except ImportError:  # pragma: no cover - exercised only without numpy
    np = None  # type: ignore[assignment]


def replicate_mus(
    games: Sequence[tuple[dict[K, float], dict[K, float], Winner]],
    picks: Sequence[Sequence[int]],
    *,
    mu0: float,
    var0: float,
    tau_squared: float,
    beta_squared: float,
    kappa: float,
    min_var: float,
) -> list[dict[K, float]] | None:
    """Each resample's `mu` per identity that played in it, or None if not applicable."""
    if np is None or not picks:
        return None
    keys: dict[K, int] = {}
    wolf, good, code = [], [], []
    for w, g, winner in games:
        if len(w) != 1 or len(g) != 1:
            return None
        [(wolf_key, wa)], [(good_key, wb)] = w.items(), g.items()
        if wolf_key == good_key or wa != 1.0 or wb != 1.0:
            return None
        wolf.append(keys.setdefault(wolf_key, len(keys)))
        good.append(keys.setdefault(good_key, len(keys)))
        code.append({Winner.WOLVES: 0, Winner.GOOD: 1, Winner.DRAW: 2}[winner])
    rounds, ids = len(picks), len(keys)
    mu = np.full((rounds, ids), mu0)
    var = np.full((rounds, ids), var0)
    seen = np.zeros((rounds, ids), dtype=bool)
    order = np.asarray(picks, dtype=np.int64)
    wolves, goods, codes = np.asarray(wolf), np.asarray(good), np.asarray(code)
    rows = np.arange(rounds)
    for step in range(order.shape[1]):
        chosen = order[:, step]
        a, b, c = wolves[chosen], goods[chosen], codes[chosen]
        new_a, new_b = _pair_update(
            mu[rows, a], var[rows, a], mu[rows, b], var[rows, b], c,
            tau_squared, beta_squared, kappa, min_var,
        )  # fmt: skip
        mu[rows, a], var[rows, a] = new_a
        mu[rows, b], var[rows, b] = new_b
        seen[rows, a] = True
        seen[rows, b] = True
    names = list(keys)
    return [{names[i]: float(mu[r, i]) for i in np.flatnonzero(seen[r])} for r in range(rounds)]


def _pair_update(
    mu_a: Any, var_a: Any, mu_b: Any, var_b: Any, code: Any,
    tau_squared: float, beta_squared: float, kappa: float, min_var: float,
) -> tuple[tuple[Any, Any], tuple[Any, Any]]:  # fmt: skip
    """`ratings._play_pair` (weights 1.0) over arrays: wolves `a` against good `b`."""
    var_a = var_a + tau_squared
    var_b = var_b + tau_squared
    team_a = (0 + 1.0 * mu_a, 0 + 1.0 * 1.0 * var_a)
    team_b = (0 + 1.0 * mu_b, 0 + 1.0 * 1.0 * var_b)
    (rated_a, sigma_a), (rated_b, sigma_b) = _duel(team_a, team_b, code, beta_squared, kappa)
    gain_a = 1.0 * var_a / team_a[1]
    gain_b = 1.0 * var_b / team_b[1]
    new_a = (
        mu_a + (0.0 + gain_a * (rated_a - team_a[0])),
        np.maximum(var_a - (0.0 + gain_a * gain_a * (team_a[1] - sigma_a**2)), min_var),
    )
    new_b = (
        mu_b + (0.0 + gain_b * (rated_b - team_b[0])),
        np.maximum(var_b - (0.0 + gain_b * gain_b * (team_b[1] - sigma_b**2)), min_var),
    )
    return new_a, new_b


def _duel(
    first: tuple[Any, Any], second: tuple[Any, Any], code: Any, beta_squared: float, kappa: float
) -> tuple[tuple[Any, Any], tuple[Any, Any]]:
    """`ratings.duel` over arrays; `code` 0: first won, 1: second won, 2: a tie."""
    teams = []
    for mu, var in (first, second):
        sigma = np.sqrt(var)
        sigma = np.sqrt(sigma * sigma + 0.0)
        teams.append((mu, (sigma * 1.0) ** 2, sigma))
    swap = code == 1
    tie = code == 2
    top = tuple(np.where(swap, s, f) for f, s in zip(teams[0], teams[1], strict=True))
    low = tuple(np.where(swap, f, s) for f, s in zip(teams[0], teams[1], strict=True))
    c = np.sqrt(0.0 + (top[1] + beta_squared) + (low[1] + beta_squared))
    e_top, e_low = np.exp((0.0 + top[0] * 1.0) / c), np.exp((0.0 + low[0] * 1.0) / c)
    total = e_top + e_low
    p, q, alone = e_top / total, e_low / total, e_low / e_low
    omega_top = np.where(tie, 0.0 + (1 - p) / 2 - p / 2, 0.0 + (1 - p) / 1)
    delta_top = np.where(tie, 0.0 + p * (1 - p) / 2 + p * (1 - p) / 2, 0.0 + p * (1 - p) / 1)
    omega_low = np.where(tie, 0.0 - q / 2 + (1 - q) / 2, 0.0 - q / 1 + (1 - alone) / 1)
    delta_low = np.where(
        tie,
        0.0 + q * (1 - q) / 2 + q * (1 - q) / 2,
        0.0 + q * (1 - q) / 1 + alone * (1 - alone) / 1,
    )
    out = []
    for (mu, s2, sigma), omega, delta in ((top, omega_top, delta_top), (low, omega_low, delta_low)):
        omega = omega * (s2 / c)
        delta = delta * (s2 / c**2)
        delta = delta * (np.sqrt(s2) / c)
        share = sigma**2 / s2
        out.append(
            (mu + share * omega * 1.0, sigma * np.sqrt(np.maximum(1 - share * delta, kappa)))
        )
    (top_mu, top_sigma), (low_mu, low_sigma) = out
    first_out = (np.where(swap, low_mu, top_mu), np.where(swap, low_sigma, top_sigma))
    second_out = (np.where(swap, top_mu, low_mu), np.where(swap, top_sigma, low_sigma))
    return first_out, second_out
