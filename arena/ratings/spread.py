"""Intervals on every metric, and every pair of agents' paired differences, by deal.

Each metric of docs/metrics.md is a pooled ratio over an agent's seats of one side (or
both): a numerator and a denominator summed over the seats (`Tallies`), or over the
games it played for the per-game costs. A `DealMetrics` keeps those two sums per deal
and agent, so a resample of the deal bootstrap (`arena.ratings.resample`) gives each
metric as `sum_d w_d num_d / sum_d w_d den_d` — the same weights as the ratings', so
one resample is one consistent world for every number — and a pair's difference is
read resample by resample (paired: the deals they shared move both). Intervals are the
expanded percentile ones (`intervals`, `n` the deals with data for the number).

Sums are added in the order games are folded (rating order), so a folder that grows
gives the very floats a run from scratch gives.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from arena.ratings.resample import cluster_weights, intervals
from arena.ratings.stats import FrozenModel, Interval
from arena.ratings.tallies import GameSummary, Tallies
from arena.rules.types import Team


@dataclass(frozen=True, slots=True)
class Metric:
    """One metric: its name (the CSV column), the seats it is summed over, and its field."""

    name: str
    side: Team | None
    """The side of the seats summed (None: every seat of the agent)."""
    field: str
    """A `Tallies` field (a `Ratio` or a `Mean`), or `tokens` / `cost` (per game played)."""


METRICS: tuple[Metric, ...] = (
    Metric("god_claim_rate", Team.WOLF, "god_claims"),
    Metric("claim_survival", Team.WOLF, "claim_survival"),
    Metric("wolf_suspicion", Team.WOLF, "wolf_suspicion"),
    Metric("brier", Team.GOOD, "brier"),
    Metric("vote_accuracy", Team.GOOD, "vote_accuracy"),
    Metric("partner_vote_rate", Team.WOLF, "partner_votes"),
    Metric("wolf_speech_shift", Team.WOLF, "speech_shift"),
    Metric("wolf_misdirection", Team.WOLF, "misdirection"),
    Metric("good_speech_shift", Team.GOOD, "speech_shift"),
    Metric("good_misdirection", Team.GOOD, "misdirection"),
    Metric("whisper_leak", Team.WOLF, "whisper_leak"),
    Metric("spoke", None, "spoke"),
    Metric("explosion_rate", Team.WOLF, "explosions"),
    Metric("fallback_rate", None, "fallbacks"),
    Metric("retry_rate", None, "retries"),
    Metric("tokens_per_game", None, "tokens"),
    Metric("cost_per_game_usd", None, "cost"),
)
"""Every metric with an interval, in the order the leaderboard lists them."""
PER_GAME = frozenset({"tokens", "cost"})

Array = NDArray[np.float64]


def seat_sums(tallies: Tallies, team: Team) -> list[float]:
    """A seat's numerator and denominator of every metric, `[num_0, den_0, num_1, ...]`.

    Per-game metrics get the seat's tokens or dollars and no denominator: the agent's
    games are counted once per game, not per seat (`DealMetrics.add`).
    """
    out: list[float] = []
    for metric in METRICS:
        if metric.side is not None and metric.side is not team:
            out += [0.0, 0.0]
        elif metric.field == "tokens":
            out += [float(tallies.usage.tokens), 0.0]
        elif metric.field == "cost":
            out += [tallies.usage.cost_usd, 0.0]
        else:
            value = getattr(tallies, metric.field)
            num, den = tuple(type(value).model_fields)
            out += [float(getattr(value, num)), float(getattr(value, den))]
    return out


class DealMetrics:
    """Per deal and agent, every metric's numerator and denominator (mutable; a fold)."""

    def __init__(self) -> None:
        """No games yet."""
        self.deals: dict[str, dict[str, list[float]]] = {}

    def add(self, games: Iterable[GameSummary]) -> None:
        """Add `games`' seats, in the order given."""
        for game in games:
            by_agent = self.deals.setdefault(game.result.deal, {})
            for seat, tallies in zip(game.result.seats, game.seats, strict=True):
                sums = by_agent.setdefault(seat.agent, [0.0] * (2 * len(METRICS)))
                for k, value in enumerate(seat_sums(tallies.tallies, seat.team)):
                    sums[k] += value
            for agent in game.result.agents:
                for k, metric in enumerate(METRICS):
                    if metric.field in PER_GAME:
                        by_agent[agent][2 * k + 1] += 1.0

    def arrays(self, agents: Sequence[str]) -> tuple[tuple[str, ...], Array, Array]:
        """Sorted deals, and numerators and denominators (deals x agents x metrics)."""
        deals = tuple(sorted(self.deals))
        sums = np.zeros((len(deals), len(agents), 2 * len(METRICS)))
        index = {agent: a for a, agent in enumerate(agents)}
        for d, deal in enumerate(deals):
            for agent, values in self.deals[deal].items():
                if agent in index:
                    sums[d, index[agent]] = values
        return deals, sums[:, :, 0::2], sums[:, :, 1::2]

    def to_data(self) -> dict[str, dict[str, list[float]]]:
        """The sums as JSON-able data."""
        return self.deals

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> DealMetrics:
        """The sums `to_data` wrote (raises TypeError or ValueError on other data)."""
        table = cls()
        for deal, by_agent in data.items():
            for agent, values in by_agent.items():
                if len(values) != 2 * len(METRICS):
                    raise ValueError(f"deal {deal}, {agent}: {len(values)} sums")
                table.deals.setdefault(str(deal), {})[str(agent)] = [float(v) for v in values]
        return table


class MetricDifference(FrozenModel):
    """One metric of two agents: the first's value minus the second's, paired by deal."""

    first: str
    second: str
    metric: str
    difference: float
    interval: Interval | None
    deals: int
    """Deals in which either agent has data for the metric."""


@dataclass(frozen=True, slots=True)
class Spread:
    """Every agent's metric intervals and every pair's differences."""

    intervals: dict[str, dict[str, Interval]]
    """Agent -> metric -> interval (only metrics with one)."""
    differences: tuple[MetricDifference, ...]


def spread(
    table: DealMetrics, agents: Sequence[str], bootstrap: int, seed: int, confidence: float
) -> Spread:
    """Intervals and paired differences of every metric of `agents` (in that order)."""
    if bootstrap == 0 or not table.deals or not agents:
        return Spread({}, ())
    deals, num, den = table.arrays(agents)
    weights = cluster_weights(seed, deals, bootstrap)
    size = num.shape[1] * num.shape[2]
    flat_num, flat_den = num.reshape(len(deals), size), den.reshape(len(deals), size)
    with np.errstate(invalid="ignore", divide="ignore"):
        replicates = (weights @ flat_num) / (weights @ flat_den)
        point = flat_num.sum(axis=0) / flat_den.sum(axis=0)
    replicates = replicates.reshape(bootstrap, *num.shape[1:])
    point = point.reshape(num.shape[1:])
    has = den > 0  # deals x agents x metrics
    spans = has.sum(axis=0)
    found = intervals(replicates.reshape(bootstrap, size), spans.reshape(size), confidence)
    out: dict[str, dict[str, Interval]] = {}
    for a, agent in enumerate(agents):
        for m, metric in enumerate(METRICS):
            bound = found[a * len(METRICS) + m]
            if bound is not None:
                out.setdefault(agent, {})[metric.name] = bound
    pairs = [(a, b) for a in range(len(agents)) for b in range(a + 1, len(agents))]
    differences = tuple(
        difference
        for a, b in pairs
        for m in range(len(METRICS))
        if (difference := _difference(agents, (a, b), m, point, replicates, has, confidence))
    )
    return Spread(out, differences)


def _difference(
    agents: Sequence[str],
    pair: tuple[int, int],
    m: int,
    point: Array,
    replicates: Array,
    has: NDArray[np.bool_],
    confidence: float,
) -> MetricDifference | None:
    """The paired difference of metric `m` between two agents (None unless both have it)."""
    a, b = pair
    if not (np.isfinite(point[a, m]) and np.isfinite(point[b, m])):
        return None
    deals = int((has[:, a, m] | has[:, b, m]).sum())
    values = replicates[:, a, m] - replicates[:, b, m]
    return MetricDifference(
        first=agents[a],
        second=agents[b],
        metric=METRICS[m].name,
        difference=float(point[a, m] - point[b, m]),
        interval=intervals(values[:, None], [deals], confidence)[0],
        deals=deals,
    )
