"""The headline rating: a Bradley-Terry fit of teams over all games at once.

**Model.** In a game on board `b`, P(the wolves win) = sigmoid(S_wolf - S_good + h_b): a
side's strength `S` is the seat-weighted mean of its members' strengths (an agent holding
2 of the 3 wolf seats weighs 2/3), and `h_b` is the board's side advantage, fitted with
the agents. A draw or a lovers' win is half a win for each side (the outcome `y` of the
log-likelihood `y log p + (1 - y) log(1 - p)` is 1/2). Each strength and each side
advantage has a Normal(0, `PRIOR_SD`^2) prior, in logits: weak beside a few dozen games
(a difference of 1 logit is a 73 % win rate), strong enough that an agent with two games
gets a wide interval and an unbeaten agent a finite strength. The fit is the maximum a
posteriori point: one optimum of a strictly concave function, whatever the order of the
games.

**Two tables.** `overall`: one strength per agent (its design column is its share of
the wolf seats minus its share of the good seats, so an agent playing itself says
nothing about itself). `sides`: one strength per agent and side, fitted together with
the boards' advantages; only differences within a side are identified (a constant moved
from every wolf strength to the boards' advantages fits as well), so side strengths are
compared within their side, never across.

**Arithmetic.** Games with the same row (board and lineups) are added up first
(`arena.ratings.deals`), so a fit costs O(unique rows), not O(games). Every resample of
the deal bootstrap is a reweighting of the rows; all of them are fitted at once, as
arrays (resamples x parameters), by Newton's method warm-started at the point fit, with
the Böhning-Lindsay bound (the Hessian with every p(1-p) at its maximum 1/4, an ascent
step by construction) wherever a Newton step fails to raise the posterior. Iterations
stop when no parameter moves by more than `TOLERANCE`, so the optimum, not the path to
it, sets every digit shown.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from arena.ratings.deals import Row

PRIOR_SD = 2.0
"""Prior standard deviation of each strength and side advantage, in logits (347 Elo)."""
ELO_PER_LOGIT = 400 / math.log(10)
"""The Elo scale: 400 points are a factor of 10 in the odds of winning (173.7 a logit)."""
CENTRE = 1500.0
"""Where the agents' mean strength is shown on the Elo scale."""
TOLERANCE = 1e-10
"""Newton stops when no parameter moved by more than this many logits."""
MOST_STEPS = 200
"""A bound on iterations (the fit converges in about ten)."""

Array = NDArray[np.float64]
Identity = Hashable
"""A parameter's name: an agent, an (agent, side) pair, or ("board", BOARD)."""


@dataclass(frozen=True, slots=True)
class Design:
    """Parameters and the design of one table: `matrix[u, j]`, row `u`'s weight of `keys[j]`."""

    keys: tuple[Identity, ...]
    matrix: Array
    members: NDArray[np.bool_]
    """`members[u, j]`: row `u`'s games are games of `keys[j]` (a board's: games on it). An
    agent on both sides of a game is a member with a weight that may be 0."""
    groups: tuple[tuple[int, ...], ...]
    """Indices of the parameters centred together (agents; or wolf sides, good sides)."""


def board_key(board: str) -> tuple[str, str]:
    """The parameter of a board's side advantage."""
    return ("board", board)


def overall_design(rows: Sequence[Row]) -> Design:
    """One strength per agent and one side advantage per board."""
    agents = sorted({a for _, wolves, good in rows for a, _ in (*wolves, *good)})
    boards = sorted({board for board, _, _ in rows})
    keys: list[Identity] = [*agents, *(board_key(b) for b in boards)]
    index = {key: j for j, key in enumerate(keys)}
    matrix = np.zeros((len(rows), len(keys)))
    members = np.zeros((len(rows), len(keys)), dtype=np.bool_)
    for u, (board, wolves, good) in enumerate(rows):
        matrix[u, index[board_key(board)]] = 1.0
        for side, sign in ((wolves, 1.0), (good, -1.0)):
            total = sum(seats for _, seats in side)
            for agent, seats in side:
                matrix[u, index[agent]] += sign * seats / total
                members[u, index[agent]] = True
    members |= matrix != 0
    return Design(tuple(keys), matrix, members, (tuple(range(len(agents))),))


def side_design(rows: Sequence[Row]) -> Design:
    """One strength per agent and side ("wolf" or "good"), one side advantage per board."""
    wolf = sorted({(a, "wolf") for _, wolves, _ in rows for a, _ in wolves})
    good = sorted({(a, "good") for _, _, goods in rows for a, _ in goods})
    boards = sorted({board for board, _, _ in rows})
    keys: list[Identity] = [*wolf, *good, *(board_key(b) for b in boards)]
    index = {key: j for j, key in enumerate(keys)}
    matrix = np.zeros((len(rows), len(keys)))
    for u, (board, wolves, goods) in enumerate(rows):
        matrix[u, index[board_key(board)]] = 1.0
        for side, name, sign in ((wolves, "wolf", 1.0), (goods, "good", -1.0)):
            total = sum(seats for _, seats in side)
            for agent, seats in side:
                matrix[u, index[(agent, name)]] = sign * seats / total
    groups = (tuple(range(len(wolf))), tuple(range(len(wolf), len(wolf) + len(good))))
    return Design(tuple(keys), matrix, matrix != 0, groups)


def fit(matrix: Array, games: Array, score: Array, start: Array | None = None) -> Array:
    """The MAP parameters of every batch (batches x parameters).

    Args:
        matrix: the design, rows x parameters.
        games: games per row in each batch (a resample's weighted counts).
        score: the wolves' score per row in each batch (a win 1, a draw 1/2).
        start: where Newton starts (a parameter vector, or one per batch); zeros if None.
    """
    batches, size = games.shape[0], matrix.shape[1]
    precision = np.full(size, 1.0 / PRIOR_SD**2)
    outer = (matrix[:, :, None] * matrix[:, None, :]).reshape(matrix.shape[0], size * size)
    theta = np.zeros((batches, size)) if start is None else np.broadcast_to(start, (batches, size))
    theta = np.array(theta, dtype=np.float64)
    bound = _hessian(games / 4, outer, precision, size)
    value = _posterior(theta, matrix, games, score, precision)
    for _ in range(MOST_STEPS):
        eta = theta @ matrix.T
        p = _sigmoid(eta)
        gradient = (score - games * p) @ matrix - theta * precision
        step = _solve(_hessian(games * p * (1 - p), outer, precision, size), gradient)
        trial = theta + step
        new = _posterior(trial, matrix, games, score, precision)
        worse = new < value - 1e-12 * (1 + np.abs(value))
        if worse.any():  # Newton overshot: the bound's step raises the posterior
            trial[worse] = theta[worse] + _solve(bound[worse], gradient[worse])
            new[worse] = _posterior(trial[worse], matrix, games[worse], score[worse], precision)
        moved = float(np.max(np.abs(trial - theta))) if theta.size else 0.0
        theta, value = trial, new
        if moved <= TOLERANCE:
            break
    return theta


def covariance(matrix: Array, games: Array, theta: Array) -> Array:
    """The posterior's covariance at `theta` (Laplace: the inverse negative Hessian), P x P.

    `games` is one batch's games per row. It treats games as independent, so it knows
    nothing of deals; `arena.ratings.verdict` uses it only as a floor under the bootstrap
    for the first few deals, where the bootstrap cannot see how little two wins say.
    """
    size = matrix.shape[1]
    p = _sigmoid(theta @ matrix.T)
    outer = (matrix[:, :, None] * matrix[:, None, :]).reshape(matrix.shape[0], size * size)
    hessian = _hessian((games * p * (1 - p))[None], outer, np.full(size, PRIOR_SD**-2), size)
    return np.asarray(np.linalg.inv(hessian[0]), dtype=np.float64)


def _sigmoid(eta: Array) -> Array:
    return 0.5 * (1.0 + np.tanh(0.5 * eta))


def _hessian(weights: Array, outer: Array, precision: Array, size: int) -> Array:
    """`X' diag(w) X + diag(precision)` per batch (the negative Hessian), batches x P x P."""
    return (weights @ outer).reshape(-1, size, size) + np.diag(precision)


def _solve(matrices: Array, vectors: Array) -> Array:
    return np.asarray(np.linalg.solve(matrices, vectors[..., None])[..., 0], dtype=np.float64)


def _posterior(theta: Array, matrix: Array, games: Array, score: Array, precision: Array) -> Array:
    """The log posterior (up to a constant) of each batch's parameters."""
    eta = theta @ matrix.T
    loglik = -(score * np.logaddexp(0.0, -eta) + (games - score) * np.logaddexp(0.0, eta))
    return np.asarray(loglik.sum(axis=1) - 0.5 * (theta * theta * precision).sum(axis=1))


def on_elo_scale(theta: Array, groups: Sequence[Sequence[int]]) -> Array:
    """Parameters in Elo points, each group centred on `CENTRE` (others: the bare advantage).

    Centring is per batch: a resample's ratings are read against its own mean, so an
    interval says where an agent stands in the field, and a difference is the same
    centred or not.
    """
    out = theta * ELO_PER_LOGIT
    for group in groups:
        members = list(group)
        if members:
            out[:, members] += CENTRE - out[:, members].mean(axis=1, keepdims=True)
    return np.asarray(out)
