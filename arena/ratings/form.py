"""Recent form: openskill team ratings, folded game by game in rating order.

Not the leaderboard's verdict (that is the batch fit, `arena.ratings.strength`): openskill
adds `TAU` to each member's sigma before every game, so sigma settles near 1.5 and `mu`
follows the last hundred or so games, wandering with them (issue 28 measured a steady
75 % win rate whose gap moved from 9.9 to 2.7 to 6.4 `mu` between 120 and 200 games). It
says how an agent has played lately, in the order its games started; it carries no
interval.

Each game is one match between two teams, the wolves and the good side; a draw is a tie.
A team's performance is the seat-weighted mean of its members' skills: an agent holding
2 of the 3 wolf seats weighs 2/3. Openskill rates the two team composites against each
other; each member then takes its share of the team's update by Gaussian conditioning
(`mu_i += w_i var_i / var_T * (mu_T' - mu_T)`, and the variance shrinks accordingly), so a
one-agent-per-side game is exactly openskill's 1-vs-1 update, and team size never
inflates a side's strength. An agent seated on both sides of one game gets both updates
added, which cancel as far as the game says nothing about it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

from openskill.models import PlackettLuce

from arena.ratings.results import GameResult
from arena.ratings.stats import FrozenModel
from arena.rules.types import Team, Winner

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
    """An openskill rating: `mu` and `sigma` after the agent's games in rating order."""

    mu: float
    sigma: float
    games: int


def overall_lineup(result: GameResult) -> Lineup[str]:
    """The game with one identity per agent, weighted by its share of each side's seats."""
    return _weights(result.lineup(Team.WOLF)), _weights(result.lineup(Team.GOOD)), result.winner


def _weights(counts: Mapping[str, int]) -> dict[str, float]:
    total = sum(counts.values())
    return {agent: n / total for agent, n in counts.items()}


_RANKS: dict[Winner, list[float]] = {
    Winner.WOLVES: [1.0, 2.0],
    Winner.GOOD: [2.0, 1.0],
    Winner.DRAW: [1.0, 1.0],
    Winner.LOVERS: [1.0, 1.0],
}
"""Openskill ranks of (wolves, good) per outcome (a draw and a lovers' win are ties)."""
_PRIOR = (MU, SIGMA**2)
_TAU_SQUARED = TAU**2


def fit(games: Sequence[Lineup[K]]) -> Table[K]:
    """Rate `games` in order from the prior; returns each identity's (mu, variance)."""
    table: Table[K] = {}
    fit_into(table, games)
    return table


def skill(table: Table[K], key: K, games: int) -> Skill:
    """The `Skill` of `key` in `table` (the prior if it never played)."""
    mu, var = table.get(key, _PRIOR)
    return Skill(mu=mu, sigma=math.sqrt(var), games=games)


def fit_into(table: Table[K], games: Sequence[Lineup[K]]) -> None:
    """Rate `games` in order, continuing from `table` (updated in place)."""
    for wolf, good, winner in games:
        if wolf and good:
            _play(table, (wolf, good), _RANKS[winner])


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
