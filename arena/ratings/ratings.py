"""Team ratings (openskill Plackett-Luce) with bootstrap intervals, and win rates.

Each game is one match between two teams, the wolves and the good side; a draw is a tie.
A team's performance is the seat-weighted mean of its members' skills: an agent holding
2 of the 3 wolf seats weighs 2/3. Openskill rates the two team composites against each
other; each member then takes its share of the team's update by Gaussian conditioning
(`mu_i += w_i var_i / var_T * (mu_T' - mu_T)`, and the variance shrinks accordingly), so a
one-agent-per-side game is exactly openskill's 1-vs-1 update, and team size never
inflates a side's strength.

Three rating tables come out of the same games: `overall` (one identity per agent),
and `wolf` / `good` (one identity per agent and side, fitted together, so a wolf-side
rating is measured against the good-side ratings of the agents it actually met; the
board's own side balance is absorbed by the side identities). An agent seated on both
sides of one game gets both updates added, which cancel as far as the game says nothing
about it.

Intervals come from a seeded bootstrap over games: resample the games with replacement,
re-rate them in their original order, and take the percentile interval of each `mu`.
The resamples are drawn up front from the seed, so splitting them over `workers`
processes gives exactly the intervals one process gives, only sooner. When every game is
a pairing (one identity per side, as in every tournament) and numpy is installed, all
resamples are re-rated at once in this process instead (`arena.ratings.vectorized`):
2,000 games with 200 resamples in seconds.
"""

from __future__ import annotations

import math
import multiprocessing
from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import repeat
from random import Random
from typing import Generic, TypeVar

from openskill.models import PlackettLuce
from pydantic import computed_field

from arena.ratings.results import GameResult
from arena.ratings.stats import FrozenModel, Interval, percentile_interval, wilson
from arena.ratings.vectorized import replicate_mus
from arena.rules.types import Role, Team, Winner

MU = 25.0
"""Prior mean skill (openskill's default scale)."""
SIGMA = MU / 3
"""Prior standard deviation."""
TAU = MU / 300
"""Skill drift added to each player's sigma before each of its games (openskill's default)."""
MIN_VAR = 1e-4
"""Floor for a skill variance, so a long run never claims certainty."""

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA, tau=0.0)
"""Openskill's model of the team composites (`tau` is applied per member instead, see
`TAU`); `duel` computes its update for the two sides of a game."""

K = TypeVar("K", bound=Hashable)
Lineup = tuple[dict[K, float], dict[K, float], Winner]
"""A game as the rater sees it: wolf-side weights, good-side weights, the winner."""
Table = dict[K, tuple[float, float]]
"""Identity -> (mu, variance)."""


class Skill(FrozenModel):
    """A rating: openskill's point estimate and its bootstrap interval."""

    mu: float
    sigma: float
    interval: Interval | None
    """Percentile bootstrap interval of `mu` (None when the bootstrap is off)."""
    games: int


class WinRate(FrozenModel):
    """Wins out of games, with draws counted apart (a draw is not a win)."""

    wins: int = 0
    draws: int = 0
    games: int = 0

    def __add__(self, other: WinRate) -> WinRate:
        return WinRate.model_construct(
            wins=self.wins + other.wins,
            draws=self.draws + other.draws,
            games=self.games + other.games,
        )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def rate(self) -> float | None:
        """`wins / games` (None without games)."""
        return self.wins / self.games if self.games else None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def interval(self) -> Interval | None:
        """The Wilson 95% interval of `rate`."""
        return wilson(self.wins, self.games)


def _one(outcome: float) -> WinRate:
    return WinRate(wins=int(outcome == 1.0), draws=int(outcome == 0.5), games=1)


class Standing(FrozenModel):
    """One agent's line of the leaderboard."""

    agent: str
    games: int
    overall: Skill
    wolf: Skill | None
    """Rating as the wolf side (None if the agent never played wolves)."""
    good: Skill | None
    wins: WinRate
    """Over the agent's side appearances: a game in which it sat on both sides counts twice."""
    wolf_wins: WinRate
    good_wins: WinRate
    role_wins: dict[Role, WinRate]
    """Per role the agent held (a game counts once per role, however many seats)."""


class Leaderboard(FrozenModel):
    """Ratings and win rates of every agent over a set of games, best `overall.mu` first."""

    games: int
    draws: int
    wolf_side_wins: WinRate
    """How often the wolves won across all games: the board's side balance."""
    bootstrap: int
    seed: int
    confidence: float
    standings: tuple[Standing, ...]

    def standing(self, agent: str) -> Standing | None:
        """The line of `agent`, if it played."""
        return next((s for s in self.standings if s.agent == agent), None)


def overall_lineup(result: GameResult) -> Lineup[str]:
    """The game with one identity per agent, weighted by its share of each side's seats."""
    return _weights(result.lineup(Team.WOLF)), _weights(result.lineup(Team.GOOD)), result.winner


def side_lineup(result: GameResult) -> Lineup[tuple[str, Team]]:
    """The game with one identity per (agent, side)."""
    wolf = {(a, Team.WOLF): w for a, w in _weights(result.lineup(Team.WOLF)).items()}
    good = {(a, Team.GOOD): w for a, w in _weights(result.lineup(Team.GOOD)).items()}
    return wolf, good, result.winner


def _weights(counts: Mapping[str, int]) -> dict[str, float]:
    total = sum(counts.values())
    return {agent: n / total for agent, n in counts.items()}


_RANKS: dict[Winner, list[float]] = {
    Winner.WOLVES: [1.0, 2.0],
    Winner.GOOD: [2.0, 1.0],
    Winner.DRAW: [1.0, 1.0],
}
"""Openskill ranks of (wolves, good) per outcome (a draw is a tie)."""
_PRIOR = (MU, SIGMA**2)
_TAU_SQUARED = TAU**2


def _ranks(winner: Winner) -> list[float]:
    return _RANKS[winner]


def fit(games: Sequence[Lineup[K]]) -> Table[K]:
    """Rate `games` in order from the prior; returns each identity's (mu, variance)."""
    table: Table[K] = {}
    for wolf, good, winner in games:
        if wolf and good:
            _play(table, (wolf, good), _RANKS[winner])
    return table


def _play(
    table: Table[K], sides: tuple[dict[K, float], dict[K, float]], ranks: list[float]
) -> None:
    wolf, good = sides
    if len(wolf) == 1 and len(good) == 1:
        [(a, wa)], [(b, wb)] = wolf.items(), good.items()
        if a != b:  # the usual game, one identity per side: the same arithmetic, faster
            _play_pair(table, a, wa, b, wb, ranks)
            return
    var = {k: table.get(k, (MU, SIGMA**2))[1] + TAU**2 for side in sides for k in side}
    mu = {k: table.get(k, (MU, SIGMA**2))[0] for k in var}
    before = [
        (sum(w * mu[k] for k, w in side.items()), sum(w * w * var[k] for k, w in side.items()))
        for side in sides
    ]
    after = duel(before[0], before[1], ranks)
    d_mu: dict[K, float] = defaultdict(float)
    d_var: dict[K, float] = defaultdict(float)
    for side, (m, v), (rated_mu, rated_sigma) in zip(sides, before, after, strict=True):
        for k, w in side.items():
            gain = w * var[k] / v
            d_mu[k] += gain * (rated_mu - m)
            d_var[k] += gain * gain * (v - rated_sigma**2)
    for k in var:
        table[k] = (mu[k] + d_mu[k], max(var[k] - d_var[k], MIN_VAR))


def _play_pair(table: Table[K], a: K, wa: float, b: K, wb: float, ranks: list[float]) -> None:
    """`_play` for one identity per side, operation for operation (the same bits)."""
    mu_a, var_a = table.get(a, _PRIOR)
    mu_b, var_b = table.get(b, _PRIOR)
    var_a, var_b = var_a + _TAU_SQUARED, var_b + _TAU_SQUARED
    team_a, team_b = (0 + wa * mu_a, 0 + wa * wa * var_a), (0 + wb * mu_b, 0 + wb * wb * var_b)
    (rated_a, sigma_a), (rated_b, sigma_b) = duel(team_a, team_b, ranks)
    gain_a, gain_b = wa * var_a / team_a[1], wb * var_b / team_b[1]
    table[a] = (
        mu_a + (0.0 + gain_a * (rated_a - team_a[0])),
        max(var_a - (0.0 + gain_a * gain_a * (team_a[1] - sigma_a**2)), MIN_VAR),
    )
    table[b] = (
        mu_b + (0.0 + gain_b * (rated_b - team_b[0])),
        max(var_b - (0.0 + gain_b * gain_b * (team_b[1] - sigma_b**2)), MIN_VAR),
    )


BETA_SQUARED = (MU / 6) ** 2
"""Openskill's performance variance (`beta`, its default `sigma / 2`), squared."""
KAPPA = 0.0001
"""Openskill's floor for the factor a variance shrinks by."""


def duel(
    first: tuple[float, float], second: tuple[float, float], ranks: list[float]
) -> list[tuple[float, float]]:
    """`_MODEL.rate([[first], [second]], ranks=ranks)` for two one-player teams, in closed form.

    Takes `(mu, variance)` per team and returns `(mu, sigma)` per team. It is openskill's
    Plackett-Luce algorithm written out for this one case, in the same floating-point
    operations in the same order, so it returns the very same bits (a test compares them
    on random inputs); without openskill's per-call objects it is about ten times faster,
    which is what makes a bootstrap over thousands of games take seconds.
    """
    teams = []
    for mu, var in (first, second):
        sigma = math.sqrt(var)
        sigma = math.sqrt(sigma * sigma + 0.0)  # openskill adds tau**2 (0 here)
        teams.append((mu, (sigma * 1.0) ** 2, sigma))
    tie = ranks[0] == ranks[1]
    order = (0, 1) if tie or ranks[0] < ranks[1] else (1, 0)
    top, low = teams[order[0]], teams[order[1]]
    c = math.sqrt(0.0 + (top[1] + BETA_SQUARED) + (low[1] + BETA_SQUARED))
    e_top, e_low = math.exp((0.0 + top[0] * 1.0) / c), math.exp((0.0 + low[0] * 1.0) / c)
    total = e_top + e_low
    if tie:
        p, q = e_top / total, e_low / total
        steps = [
            (0.0 + (1 - p) / 2 - p / 2, 0.0 + p * (1 - p) / 2 + p * (1 - p) / 2),
            (0.0 - q / 2 + (1 - q) / 2, 0.0 + q * (1 - q) / 2 + q * (1 - q) / 2),
        ]
    else:
        p, q, alone = e_top / total, e_low / total, e_low / e_low
        steps = [
            (0.0 + (1 - p) / 1, 0.0 + p * (1 - p) / 1),
            (0.0 - q / 1 + (1 - alone) / 1, 0.0 + q * (1 - q) / 1 + alone * (1 - alone) / 1),
        ]
    out: list[tuple[float, float]] = [(0.0, 0.0), (0.0, 0.0)]
    for index, (mu, s2, sigma), (omega, delta) in zip(order, (top, low), steps, strict=True):
        omega *= s2 / c
        delta *= s2 / c**2
        delta *= math.sqrt(s2) / c
        share = sigma**2 / s2
        if omega >= 0:
            out[index] = (
                mu + share * omega * 1.0,
                sigma * math.sqrt(max(1 - share * delta * 1.0, KAPPA)),
            )
        else:
            out[index] = (
                mu + share * omega / 1.0,
                sigma * math.sqrt(max(1 - share * delta / 1.0, KAPPA)),
            )
    return out


def rate(
    results: Sequence[GameResult],
    *,
    bootstrap: int = 200,
    seed: int = 0,
    confidence: float = 0.95,
    workers: int = 1,
) -> Leaderboard:
    """Ratings and win rates of every agent in `results`.

    Args:
        results: finished games, in any order (they are rated by start time, then id).
        bootstrap: resamples for the intervals (0: no intervals).
        seed: seeds the bootstrap resampling, so the same games give the same intervals.
        confidence: the intervals' coverage.
        workers: processes for a bootstrap that cannot be vectorized (the result does
            not depend on it).

    Raises:
        ValueError: a negative `bootstrap`, `workers` below 1, or a `confidence` outside
            (0, 1).
    """
    if bootstrap < 0:
        raise ValueError(f"bootstrap must be >= 0, not {bootstrap}")
    if workers < 1:
        raise ValueError(f"workers must be >= 1, not {workers}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), not {confidence}")
    games = sorted(results, key=lambda r: (r.created_at, r.game_id))
    overall = [overall_lineup(r) for r in games]
    sides = [side_lineup(r) for r in games]
    boot_overall, boot_sides = _bootstrap(overall, sides, bootstrap, seed, workers)
    fits = (
        _Fitted(fit(overall), boot_overall, confidence),
        _Fitted(fit(sides), boot_sides, confidence),
    )
    standings = [_standing(agent, c, *fits) for agent, c in _appearances(games).items()]
    standings.sort(key=lambda s: (-s.overall.mu, s.agent))
    return Leaderboard(
        games=len(games),
        draws=sum(r.winner is Winner.DRAW for r in games),
        wolf_side_wins=sum((_one(r.outcome(Team.WOLF)) for r in games), WinRate()),
        bootstrap=bootstrap,
        seed=seed,
        confidence=confidence,
        standings=tuple(standings),
    )


@dataclass(frozen=True, slots=True)
class _Fitted(Generic[K]):
    """Point ratings and bootstrap replicates of one rating table."""

    point: Table[K]
    boot: Mapping[K, list[float]]
    confidence: float

    def skill(self, key: K, games: int) -> Skill:
        mu, var = self.point.get(key, (MU, SIGMA**2))
        interval = percentile_interval(self.boot.get(key, []), self.confidence)
        return Skill(mu=mu, sigma=math.sqrt(var), interval=interval, games=games)


def _standing(
    agent: str, c: _Counts, overall: _Fitted[str], sides: _Fitted[tuple[str, Team]]
) -> Standing:
    return Standing(
        agent=agent,
        games=c.games,
        overall=overall.skill(agent, c.games),
        wolf=sides.skill((agent, Team.WOLF), c.wolf.games) if c.wolf.games else None,
        good=sides.skill((agent, Team.GOOD), c.good.games) if c.good.games else None,
        wins=c.wolf + c.good,
        wolf_wins=c.wolf,
        good_wins=c.good,
        role_wins=dict(c.roles),
    )


Replicate = tuple[dict[str, float], dict[tuple[str, Team], float]]
"""One resample's `mu` per overall identity and per side identity."""


def _bootstrap(
    overall: Sequence[Lineup[str]],
    sides: Sequence[Lineup[tuple[str, Team]]],
    rounds: int,
    seed: int,
    workers: int = 1,
) -> tuple[dict[str, list[float]], dict[tuple[str, Team], list[float]]]:
    """Each identity's `mu` in each resample where it appears, in resample order."""
    rng = Random(seed)
    n = len(overall)
    picks = [sorted(rng.choices(range(n), k=n)) for _ in range(rounds if n else 0)]
    jobs = min(workers, len(picks))
    fast = _vectorized(overall, picks), _vectorized(sides, picks)
    if fast[0] is not None and fast[1] is not None:  # every resample at once: seconds
        parts = [list(zip(fast[0], fast[1], strict=True))]
    elif jobs > 1:
        size = -(-len(picks) // jobs)
        chunks = [picks[i : i + size] for i in range(0, len(picks), size)]
        # spawn, not fork: the caller may hold threads (a dashboard, an event loop)
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(len(chunks), mp_context=context) as pool:
            parts = list(pool.map(_replicates, repeat(overall), repeat(sides), chunks))
    else:
        parts = [_replicates(overall, sides, picks)]
    boot_overall: dict[str, list[float]] = defaultdict(list)
    boot_sides: dict[tuple[str, Team], list[float]] = defaultdict(list)
    for part in parts:
        for by_agent, by_side in part:
            for agent, mu in by_agent.items():
                boot_overall[agent].append(mu)
            for key, mu in by_side.items():
                boot_sides[key].append(mu)
    return boot_overall, boot_sides


def _vectorized(
    games: Sequence[Lineup[K]], picks: Sequence[Sequence[int]]
) -> list[dict[K, float]] | None:
    return replicate_mus(
        games,
        picks,
        mu0=MU,
        var0=SIGMA**2,
        tau_squared=_TAU_SQUARED,
        beta_squared=BETA_SQUARED,
        kappa=KAPPA,
        min_var=MIN_VAR,
    )


def _replicates(
    overall: Sequence[Lineup[str]],
    sides: Sequence[Lineup[tuple[str, Team]]],
    picks: Sequence[Sequence[int]],
) -> list[Replicate]:
    """Re-rate the games of each resample (a module-level function: it runs in workers)."""
    out: list[Replicate] = []
    for chosen in picks:
        by_agent = {a: mu for a, (mu, _v) in fit([overall[i] for i in chosen]).items()}
        by_side = {k: mu for k, (mu, _v) in fit([sides[i] for i in chosen]).items()}
        out.append((by_agent, by_side))
    return out


class _Counts:
    """Per-agent appearance tallies while folding games (internal, mutable)."""

    def __init__(self) -> None:
        self.games = 0
        self.wolf = WinRate()
        self.good = WinRate()
        self.roles: dict[Role, WinRate] = {}


def _appearances(games: Sequence[GameResult]) -> dict[str, _Counts]:
    counts: dict[str, _Counts] = defaultdict(_Counts)
    for result in games:
        for agent in result.agents:
            mine = [s for s in result.seats if s.agent == agent]
            c = counts[agent]
            c.games += 1
            if any(s.team is Team.WOLF for s in mine):
                c.wolf += _one(result.outcome(Team.WOLF))
            if any(s.team is Team.GOOD for s in mine):
                c.good += _one(result.outcome(Team.GOOD))
            for role in sorted({s.role for s in mine}):
                team = next(s.team for s in mine if s.role is role)
                c.roles[role] = c.roles.get(role, WinRate()) + _one(result.outcome(team))
    return dict(sorted(counts.items()))
