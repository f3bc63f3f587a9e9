"""The bootstrap's re-rating of every resample at once, with numpy, for pairing games.

A bootstrap re-rates each resample's games in order: hundreds of resamples of thousands
of games, each game an openskill update. In a tournament every game is a *pairing*: one
identity per side (an agent playing every wolf seat against one playing every good seat,
or the same per side identity). Then the update of resample `r` at step `t` depends only
on `r`'s own table, so step `t` of all resamples is one array operation: the per-game
Python loop runs once per step instead of once per step and resample.

`PairingTables` holds every resample's table as arrays (resample x identity) and is
extended game by game, so a cached state continues exactly where it stopped: the same
operations on the same numbers, whether the games came in one call or in several.

The arithmetic is `ratings.duel` and `ratings._play_pair`, operation for operation, in
float64; numpy's `exp` may round differently from `math.exp` in the last bit, so
intervals can differ from the scalar path's in the last digits (never more). Without
numpy, or with any game that is not a pairing, `pairing_codes` returns None and the
caller re-rates one resample at a time.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Generic, TypeVar

from arena.rules.types import Winner

K = TypeVar("K", bound=Hashable)

try:  # numpy comes with the dashboard's pandas; the scalar path needs nothing
    import numpy as np
except ImportError:  # pragma: no cover - exercised only without numpy
    np = None  # type: ignore[assignment]

_CODES = {Winner.WOLVES: 0, Winner.GOOD: 1, Winner.DRAW: 2, Winner.LOVERS: 2}
"""A lovers' win (a third side) is a tie of the two teams, as a draw."""


def available() -> bool:
    """Whether numpy is installed (the vectorized path exists)."""
    return np is not None


def pairing_codes(
    games: Sequence[tuple[dict[K, float], dict[K, float], Winner]],
) -> list[tuple[K, K, int]] | None:
    """`(wolf identity, good identity, outcome code)` per game, or None if one is no pairing."""
    out: list[tuple[K, K, int]] = []
    for w, g, winner in games:
        if len(w) != 1 or len(g) != 1:
            return None
        [(wolf_key, wa)], [(good_key, wb)] = w.items(), g.items()
        if wolf_key == good_key or wa != 1.0 or wb != 1.0:
            return None
        out.append((wolf_key, good_key, _CODES[winner]))
    return out


class PairingTables(Generic[K]):
    """Every resample's ratings of one table as arrays: `mu[r, i]`, `var[r, i]`, `seen[r, i]`."""

    def __init__(self, rounds: int, mu0: float, var0: float) -> None:
        """Empty tables for `rounds` resamples, priors `mu0` and `var0`."""
        assert np is not None
        self.rounds, self.mu0, self.var0 = rounds, mu0, var0
        self.keys: dict[K, int] = {}
        self.mu = np.full((rounds, 0), mu0)
        self.var = np.full((rounds, 0), var0)
        self.seen = np.zeros((rounds, 0), dtype=bool)

    def _index(self, key: K) -> int:
        index = self.keys.get(key)
        if index is None:
            index = self.keys[key] = len(self.keys)
            self.mu = np.concatenate([self.mu, np.full((self.rounds, 1), self.mu0)], axis=1)
            self.var = np.concatenate([self.var, np.full((self.rounds, 1), self.var0)], axis=1)
            self.seen = np.concatenate([self.seen, np.zeros((self.rounds, 1), bool)], axis=1)
        return index

    def extend(
        self,
        games: Sequence[tuple[K, K, int]],
        counts: Sequence[Sequence[int]],
        *,
        tau_squared: float,
        beta_squared: float,
        kappa: float,
        min_var: float,
    ) -> None:
        """Play `games` in order, game `t` `counts[t][r]` times in resample `r`."""
        if not games or not self.rounds:
            return
        wolves = np.asarray([self._index(a) for a, _b, _c in games], dtype=np.int64)
        goods = np.asarray([self._index(b) for _a, b, _c in games], dtype=np.int64)
        codes = np.asarray([c for _a, _b, c in games], dtype=np.int64)
        times = np.asarray(counts, dtype=np.int64).reshape(len(games), self.rounds)
        # each resample's own sequence of games (game t repeated counts[t][r] times),
        # padded with -1: step s of every resample is then one array operation
        sequences = [np.repeat(np.arange(len(games)), times[:, r]) for r in range(self.rounds)]
        length = max(len(s) for s in sequences)
        order = np.full((self.rounds, length), -1, dtype=np.int64)
        for r, sequence in enumerate(sequences):
            order[r, : len(sequence)] = sequence
        every = np.arange(self.rounds)
        for step in range(length):
            chosen = order[:, step]
            active = chosen >= 0
            rows = every if active.all() else every[active]
            chosen = chosen[rows]
            a, b, c = wolves[chosen], goods[chosen], codes[chosen]
            new_a, new_b = _pair_update(
                self.mu[rows, a], self.var[rows, a], self.mu[rows, b], self.var[rows, b], c,
                tau_squared, beta_squared, kappa, min_var,
            )  # fmt: skip
            self.mu[rows, a], self.var[rows, a] = new_a
            self.mu[rows, b], self.var[rows, b] = new_b
            self.seen[rows, a] = True
            self.seen[rows, b] = True

    def mus(self) -> dict[K, list[float]]:
        """Each identity's `mu` in every resample where it played, in resample order."""
        return {
            key: [float(m) for m in self.mu[self.seen[:, i], i]] for key, i in self.keys.items()
        }

    def to_data(self) -> tuple[list[K], list[list[float]], list[list[float]], list[list[bool]]]:
        """Identities (in index order) and the arrays as lists: a state to save as JSON."""
        return list(self.keys), self.mu.tolist(), self.var.tolist(), self.seen.tolist()

    @classmethod
    def from_data(
        cls,
        data: tuple[list[K], list[list[float]], list[list[float]], list[list[bool]]],
        rounds: int,
        mu0: float,
        var0: float,
    ) -> PairingTables[K]:
        """The tables `to_data` saved (the same numbers, bit for bit)."""
        keys, mu, var, seen = data
        out: PairingTables[K] = cls(rounds, mu0, var0)
        out.keys = {key: i for i, key in enumerate(keys)}
        shape = (rounds, len(keys))
        out.mu = np.asarray(mu, dtype=np.float64).reshape(shape)
        out.var = np.asarray(var, dtype=np.float64).reshape(shape)
        out.seen = np.asarray(seen, dtype=bool).reshape(shape)
        return out


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
