"""The batch ratings with their deal bootstrap, and every pair of agents compared.

`verdicts(arrays, bootstrap, seed, confidence)` fits the overall and the side tables of
`arena.ratings.strength` to the games of a `DealTable` — once on the games as they are,
and once per resample of the deal bootstrap (`arena.ratings.resample.cluster_weights`:
each deal's games weighted by the deal's Poisson(1) count, refitted from the point fit)
— and reads every interval from the same resamples:

- a rating's interval: the expanded percentile interval of its centred Elo value over the
  resamples in which a game weighed it, `n` the deals it played;
- a pair's difference: the same for `first - second`, `n` the deals either played; the
  pair is *separated* when that interval excludes 0. Each interval is a pair's own
  (per pair, not simultaneous over all pairs: among `k` pairs of equal agents, about
  `k / 20` would be called separated at 95 %);
- under each, for the first few deals, the posterior's own interval as a floor
  (`arena.ratings.resample.floored`): two wins in two deals resample to wins alone;
- head to head and games needed: `arena.ratings.pairs`.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from arena.ratings.board import Cell, PairVerdict, Rating
from arena.ratings.deals import DealArrays, Lineup
from arena.ratings.pairs import cells, head_to_head, needed
from arena.ratings.resample import cluster_weights, floored, intervals
from arena.ratings.stats import Interval
from arena.ratings.strength import (
    ELO_PER_LOGIT,
    Design,
    covariance,
    fit,
    on_elo_scale,
    overall_design,
    side_design,
)

Array = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Table:
    """One fitted table: each identity's rating and Elo replicates, and the posterior."""

    ratings: dict[Hashable, Rating]
    replicates: dict[Hashable, Array]
    """Elo value per resample, NaN where no game weighed the identity."""
    index: dict[Hashable, int]
    covariance: Array
    """The posterior's covariance in Elo points squared (for the floors)."""


@dataclass(frozen=True, slots=True)
class Verdicts:
    """Everything the deal bootstrap says about a set of games."""

    overall: Table
    sides: Table
    pairs: tuple[PairVerdict, ...] = ()
    cells: tuple[Cell, ...] = ()
    boards: dict[str, Rating] = field(default_factory=dict)


def fit_table(design: Design, arrays: DealArrays, batch: Array, confidence: float) -> Table:
    """Fit one table to the point (batch row 0) and every resample (rows 1 on)."""
    matrix = design.matrix
    games, score = batch @ arrays.games, batch @ arrays.wolf_score
    point = fit(matrix, games[:1], score[:1])
    rest = fit(matrix, games[1:], score[1:], start=point[0]) if batch.shape[0] > 1 else point[:0]
    elo = on_elo_scale(np.vstack([point, rest]), design.groups)
    said = np.asarray(games[1:] @ (matrix != 0) > 0)  # a resample with a game that weighs it
    replicates = np.where(said, elo[1:], np.nan)
    cov = covariance(matrix, games[0], point[0]) * ELO_PER_LOGIT**2
    per_deal = arrays.games @ design.members  # deals x parameters
    spans = [int((per_deal[:, j] > 0).sum()) for j in range(len(design.keys))]
    bounds = intervals(replicates, spans, confidence)
    ratings = {}
    for j, key in enumerate(design.keys):
        centred = _centring(design, j)
        sd = float(np.sqrt(centred @ cov @ centred))
        ratings[key] = Rating(
            elo=float(elo[0, j]),
            interval=floored(bounds[j], float(elo[0, j]), sd, spans[j], confidence)
            if batch.shape[0] > 1
            else None,
            games=round(float(per_deal[:, j].sum())),
            deals=spans[j],
        )
    return Table(
        ratings=ratings,
        replicates={key: replicates[:, j] for j, key in enumerate(design.keys)},
        index={key: j for j, key in enumerate(design.keys)},
        covariance=cov,
    )


def _centring(design: Design, j: int) -> Array:
    """The contrast that gives parameter `j` centred in its group (the group's mean off)."""
    contrast = np.zeros(len(design.keys))
    contrast[j] = 1.0
    for group in design.groups:
        if j in group:
            contrast[list(group)] -= 1.0 / len(group)
    return contrast


def verdicts(arrays: DealArrays, bootstrap: int, seed: int, confidence: float) -> Verdicts:
    """Ratings, pair verdicts and the win table of the games in `arrays`."""
    if not arrays.rows:
        empty = Table({}, {}, {}, np.zeros((0, 0)))
        return Verdicts(empty, empty)
    weights = cluster_weights(seed, arrays.deals, bootstrap)
    batch = np.vstack([np.ones((1, len(arrays.deals))), weights])
    overall = fit_table(overall_design(arrays.rows), arrays, batch, confidence)
    sides = fit_table(side_design(arrays.rows), arrays, batch, confidence)
    agents = agents_in_order(overall)
    pairs = tuple(
        compare(overall, arrays, weights, (first, second), confidence)
        for i, first in enumerate(agents)
        for second in agents[i + 1 :]
    )
    boards = {k[1]: r for k, r in overall.ratings.items() if isinstance(k, tuple)}
    return Verdicts(overall, sides, pairs, cells(arrays), boards)


def agents_in_order(table: Table) -> list[str]:
    """The overall table's agents, best rating first (then by name)."""
    return sorted(
        (k for k in table.ratings if isinstance(k, str)), key=lambda a: (-table.ratings[a].elo, a)
    )


def compare(
    table: Table, arrays: DealArrays, weights: Array, pair: tuple[str, str], confidence: float
) -> PairVerdict:
    """The verdict on two agents of the overall table (`pair[0]` rated at least as high)."""
    first, second = pair
    difference = table.ratings[first].elo - table.ratings[second].elo
    replicates = table.replicates[first] - table.replicates[second]
    rows = [u for u, (_, w, g) in enumerate(arrays.rows) if {first, second} & _agents(w, g)]
    per_deal = arrays.games[:, rows].sum(axis=1)
    deals, games = int((per_deal > 0).sum()), round(float(per_deal.sum()))
    interval = _difference_interval(table, pair, replicates, deals, confidence)
    separated = None if interval is None else bool(interval.low > 0 or interval.high < 0)
    return PairVerdict(
        first=first,
        second=second,
        difference=difference,
        interval=interval,
        separated=separated,
        deals=deals,
        games=games,
        needed=None
        if interval is None or separated
        else needed(difference, interval, deals, games, confidence),
        head_to_head=head_to_head(arrays, first, second, weights, confidence),
    )


def _difference_interval(
    table: Table, pair: tuple[str, str], replicates: Array, deals: int, confidence: float
) -> Interval | None:
    if replicates.size == 0:
        return None
    contrast = np.zeros(len(table.index))
    contrast[table.index[pair[0]]], contrast[table.index[pair[1]]] = 1.0, -1.0
    sd = float(np.sqrt(contrast @ table.covariance @ contrast))
    point = table.ratings[pair[0]].elo - table.ratings[pair[1]].elo
    bootstrap = intervals(replicates[:, None], [deals], confidence)[0]
    return floored(bootstrap, point, sd, deals, confidence)


def _agents(*sides: Lineup) -> set[str]:
    return {agent for side in sides for agent, _ in side}
