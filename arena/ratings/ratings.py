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

Intervals come from a seeded Poisson bootstrap over games (`arena.ratings.resample`):
in resample `r`, game `t` occurs a Poisson(1) number of times drawn from the seed, `r`
and `t` alone; each resample is re-rated in rating order, and each `mu`'s percentile
interval is taken over the resamples. Because a game's counts never depend on how many
games follow, the whole leaderboard is a fold (`RatingFold`) that later games extend,
with exactly the numbers a run from scratch gives. When every game is a pairing (one
identity per side, as in every tournament) and numpy is installed, all resamples are
re-rated at once (`arena.ratings.vectorized`): 2,000 games with 200 resamples in about
a second; otherwise one resample at a time, split over `workers` processes for large
jobs (the result does not depend on it).
"""

from __future__ import annotations

import math
import multiprocessing
from collections import defaultdict
from collections.abc import Callable, Hashable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import repeat
from typing import Any, Generic, TypeVar

from openskill.models import PlackettLuce
from pydantic import computed_field

from arena.ratings.resample import resample_counts
from arena.ratings.results import GameResult
from arena.ratings.stats import FrozenModel, Interval, percentile_interval, wilson
from arena.ratings.vectorized import PairingTables, available, pairing_codes
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
    Winner.LOVERS: [1.0, 1.0],
}
"""Openskill ranks of (wolves, good) per outcome (a draw and a lovers' win are ties)."""
_PRIOR = (MU, SIGMA**2)
_TAU_SQUARED = TAU**2


def _ranks(winner: Winner) -> list[float]:
    return _RANKS[winner]


def fit(games: Sequence[Lineup[K]]) -> Table[K]:
    """Rate `games` in order from the prior; returns each identity's (mu, variance)."""
    table: Table[K] = {}
    _fit_into(table, games)
    return table


def _fit_into(table: Table[K], games: Sequence[Lineup[K]]) -> None:
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
    check_arguments(bootstrap, confidence, workers)
    fold = RatingFold(bootstrap, seed, workers)
    fold.extend(results)
    return fold.leaderboard(confidence)


def check_arguments(bootstrap: int, confidence: float, workers: int = 1) -> None:
    """Raise `ValueError` for a negative `bootstrap`, `workers` below 1, a bad `confidence`."""
    if bootstrap < 0:
        raise ValueError(f"bootstrap must be >= 0, not {bootstrap}")
    if workers < 1:
        raise ValueError(f"workers must be >= 1, not {workers}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), not {confidence}")


def rating_order(result: GameResult) -> tuple[str, str]:
    """Where a game is rated: by start time, then game id."""
    return result.created_at, result.game_id


PARALLEL_RESAMPLED = 100_000
"""Resampled games (resamples x games to add) from which a scalar bootstrap is worth
worker processes: about 5.5 s on one core. Spawning workers costs about 1.5 s, so 60,000
(300 games x 200) ran no faster on 2 cores, and 200,000 ran 1.7x faster
(docs/benchmarks.md). The vectorized bootstrap never needs them."""


class RatingFold:
    """The ratings of the games rated so far, extendable by later games (mutable).

    Everything in a `Leaderboard` is a fold over the games in rating order: openskill's
    updates are sequential, win rates are counts, and each bootstrap resample is its own
    sequence of updates (`arena.ratings.resample`: game `t` occurs `count(seed, t, r)`
    times in resample `r`, independently of how many games follow). So rating games
    `1..n` and then `n+1..m` leaves exactly the state rating `1..m` at once leaves, and
    `to_data` / `from_data` carry that state between runs as JSON (floats round-trip
    exactly): a folder that only gained newer games is re-rated from its cached state.

    The bootstrap re-rates pairing games with numpy (`arena.ratings.vectorized`) and any
    other game one resample at a time; the two differ in the last bits, so the path is
    fixed by the games (numpy for all-pairing games), and `extend` refuses games that
    would change it, as it refuses games that do not come after the rated ones.
    """

    def __init__(self, bootstrap: int, seed: int, workers: int = 1) -> None:
        """An empty fold: no games yet."""
        self.bootstrap, self.seed, self.workers = bootstrap, seed, workers
        self.games = 0
        self.last: tuple[str, str] | None = None
        self.overall: Table[str] = {}
        self.sides: Table[tuple[str, Team]] = {}
        self.vector: bool | None = None
        """Whether the bootstrap is vectorized (None until the first game)."""
        self.pairs: tuple[PairingTables[str], PairingTables[tuple[str, Team]]] | None = None
        self.tables: tuple[list[Table[str]], list[Table[tuple[str, Team]]]] | None = None
        self.counts: dict[str, _Counts] = {}
        self.draws = 0
        self.wolf_side_wins = WinRate()

    def extend(self, results: Sequence[GameResult]) -> bool:
        """Rate `results` after the games rated so far; False (and no change) if it cannot.

        It cannot when a game sorts before (or with) the last game rated, or when a game
        that is not a pairing joins vectorized resamples (a run from scratch would take
        the scalar path): rate every game in a new fold then.
        """
        games = sorted(results, key=rating_order)
        if not games:
            return True
        if self.last is not None and rating_order(games[0]) <= self.last:
            return False
        overall = [overall_lineup(r) for r in games]
        sides = [side_lineup(r) for r in games]
        if self.bootstrap and not self._extend_bootstrap(overall, sides):
            return False
        _fit_into(self.overall, overall)
        _fit_into(self.sides, sides)
        _count(self.counts, games)
        self.draws += sum(r.winner in (Winner.DRAW, Winner.LOVERS) for r in games)
        self.wolf_side_wins = sum((_one(r.outcome(Team.WOLF)) for r in games), self.wolf_side_wins)
        self.games += len(games)
        self.last = rating_order(games[-1])
        return True

    def _extend_bootstrap(
        self, overall: list[Lineup[str]], sides: list[Lineup[tuple[str, Team]]]
    ) -> bool:
        codes = pairing_codes(overall), pairing_codes(sides)
        vector = available() and codes[0] is not None and codes[1] is not None
        if self.vector is None:
            self.vector = vector
            if vector:
                self.pairs = (
                    PairingTables(self.bootstrap, MU, SIGMA**2),
                    PairingTables(self.bootstrap, MU, SIGMA**2),
                )
            else:
                self.tables = (
                    [{} for _ in range(self.bootstrap)],
                    [{} for _ in range(self.bootstrap)],
                )
        elif self.vector and not vector:
            return False
        counts = [
            resample_counts(self.seed, self.games + t, self.bootstrap) for t in range(len(overall))
        ]
        if self.pairs is not None:
            assert codes[0] is not None and codes[1] is not None
            constants = {
                "tau_squared": _TAU_SQUARED,
                "beta_squared": BETA_SQUARED,
                "kappa": KAPPA,
                "min_var": MIN_VAR,
            }
            self.pairs[0].extend(codes[0], counts, **constants)
            self.pairs[1].extend(codes[1], counts, **constants)
        else:
            assert self.tables is not None
            self.tables = _extend_tables(self.tables, overall, sides, counts, self.workers)
        return True

    def leaderboard(self, confidence: float) -> Leaderboard:
        """The leaderboard of the games rated so far."""
        if self.pairs is not None:
            boot_overall, boot_sides = self.pairs[0].mus(), self.pairs[1].mus()
        elif self.tables is not None:
            boot_overall, boot_sides = _mus(self.tables[0]), _mus(self.tables[1])
        else:
            boot_overall, boot_sides = {}, {}
        fits = (
            _Fitted(self.overall, boot_overall, confidence),
            _Fitted(self.sides, boot_sides, confidence),
        )
        standings = [_standing(agent, c, *fits) for agent, c in sorted(self.counts.items())]
        standings.sort(key=lambda s: (-s.overall.mu, s.agent))
        return Leaderboard(
            games=self.games,
            draws=self.draws,
            wolf_side_wins=self.wolf_side_wins,
            bootstrap=self.bootstrap,
            seed=self.seed,
            confidence=confidence,
            standings=tuple(standings),
        )

    def to_data(self) -> dict[str, Any]:
        """The whole state as JSON-able data (`from_data` restores it exactly)."""
        pairs = self.pairs
        return {
            "bootstrap": self.bootstrap,
            "seed": self.seed,
            "games": self.games,
            "last": self.last,
            "overall": _table_data(self.overall, _agent_key),
            "sides": _table_data(self.sides, _side_key),
            "vector": self.vector,
            "pairs": None
            if pairs is None
            else [_pairs_data(pairs[0], _agent_key), _pairs_data(pairs[1], _side_key)],
            "tables": None
            if self.tables is None
            else [
                [_table_data(t, _agent_key) for t in self.tables[0]],
                [_table_data(t, _side_key) for t in self.tables[1]],
            ],
            "counts": {agent: c.to_data() for agent, c in self.counts.items()},
            "draws": self.draws,
            "wolf_side_wins": _win_data(self.wolf_side_wins),
        }

    @classmethod
    def from_data(cls, data: dict[str, Any], workers: int = 1) -> RatingFold:
        """The fold `to_data` saved.

        Raises:
            KeyError, TypeError, ValueError: data that `to_data` did not write (or a saved
                vectorized state without numpy).
        """
        fold = cls(int(data["bootstrap"]), int(data["seed"]), workers)
        fold.games = int(data["games"])
        fold.last = None if data["last"] is None else (str(data["last"][0]), str(data["last"][1]))
        fold.overall = _table_of(data["overall"], _agent_of)
        fold.sides = _table_of(data["sides"], _side_of)
        fold.vector = data["vector"]
        if data["pairs"] is not None:
            if not available():
                raise ValueError("a vectorized bootstrap state needs numpy")
            fold.pairs = (
                _pairs_of(data["pairs"][0], _agent_of, fold.bootstrap),
                _pairs_of(data["pairs"][1], _side_of, fold.bootstrap),
            )
        if data["tables"] is not None:
            fold.tables = (
                [_table_of(t, _agent_of) for t in data["tables"][0]],
                [_table_of(t, _side_of) for t in data["tables"][1]],
            )
        fold.counts = {agent: _Counts.of_data(c) for agent, c in data["counts"].items()}
        fold.draws = int(data["draws"])
        fold.wolf_side_wins = _win_of(data["wolf_side_wins"])
        return fold


def _agent_key(key: str) -> Any:
    return key


def _side_key(key: tuple[str, Team]) -> Any:
    return [key[0], key[1].value]


def _agent_of(data: Any) -> str:
    return str(data)


def _side_of(data: Any) -> tuple[str, Team]:
    return str(data[0]), Team(data[1])


def _table_data(table: Table[K], encode: Callable[[K], Any]) -> list[Any]:
    return [[encode(k), mu, var] for k, (mu, var) in table.items()]


def _table_of(data: list[Any], decode: Callable[[Any], K]) -> Table[K]:
    return {decode(k): (float(mu), float(var)) for k, mu, var in data}


def _pairs_data(tables: PairingTables[K], encode: Callable[[K], Any]) -> list[Any]:
    keys, mu, var, seen = tables.to_data()
    return [[encode(k) for k in keys], mu, var, seen]


def _pairs_of(data: list[Any], decode: Callable[[Any], K], rounds: int) -> PairingTables[K]:
    keys, mu, var, seen = data
    return PairingTables.from_data(([decode(k) for k in keys], mu, var, seen), rounds, MU, SIGMA**2)


def _win_data(w: WinRate) -> list[int]:
    return [w.wins, w.draws, w.games]


def _win_of(data: list[int]) -> WinRate:
    return WinRate.model_construct(wins=int(data[0]), draws=int(data[1]), games=int(data[2]))


def _mus(tables: Sequence[Table[K]]) -> dict[K, list[float]]:
    """Each identity's `mu` in each resample where it played, in resample order."""
    out: dict[K, list[float]] = defaultdict(list)
    for table in tables:
        for key, (mu, _var) in table.items():
            out[key].append(mu)
    return out


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


TablePair = tuple[list[Table[str]], list[Table[tuple[str, Team]]]]
"""Every resample's overall table and side table (the scalar bootstrap's state)."""


def _extend_tables(
    tables: TablePair,
    overall: Sequence[Lineup[str]],
    sides: Sequence[Lineup[tuple[str, Team]]],
    counts: Sequence[Sequence[int]],
    workers: int,
) -> TablePair:
    """Play the games in every resample's tables, game `t` `counts[t][r]` times in `r`."""
    rounds = len(tables[0])
    jobs = min(workers, rounds) if rounds * len(overall) >= PARALLEL_RESAMPLED else 1
    if jobs <= 1:
        return _play_resamples(tables, overall, sides, counts, 0)
    size = -(-rounds // jobs)
    starts = list(range(0, rounds, size))
    chunks = [(tables[0][i : i + size], tables[1][i : i + size]) for i in starts]
    # spawn, not fork: the caller may hold threads (a dashboard, an event loop)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(len(chunks), mp_context=context) as pool:
        parts = list(
            pool.map(
                _play_resamples, chunks, repeat(overall), repeat(sides), repeat(counts), starts
            )
        )
    return [t for p in parts for t in p[0]], [t for p in parts for t in p[1]]


def _play_resamples(
    tables: TablePair,
    overall: Sequence[Lineup[str]],
    sides: Sequence[Lineup[tuple[str, Team]]],
    counts: Sequence[Sequence[int]],
    first: int,
) -> TablePair:
    """Resamples `first`, `first + 1`, ... of `_extend_tables` (module level: runs in workers)."""
    for r, (by_agent, by_side) in enumerate(zip(*tables, strict=True), start=first):
        for t, times in enumerate(counts):
            for _ in range(times[r]):
                _fit_into(by_agent, overall[t : t + 1])
                _fit_into(by_side, sides[t : t + 1])
    return tables


class _Counts:
    """Per-agent appearance tallies while folding games (internal, mutable)."""

    def __init__(self) -> None:
        self.games = 0
        self.wolf = WinRate()
        self.good = WinRate()
        self.roles: dict[Role, WinRate] = {}

    def to_data(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wolf": _win_data(self.wolf),
            "good": _win_data(self.good),
            "roles": {role.value: _win_data(w) for role, w in self.roles.items()},
        }

    @classmethod
    def of_data(cls, data: dict[str, Any]) -> _Counts:
        c = cls()
        c.games = int(data["games"])
        c.wolf, c.good = _win_of(data["wolf"]), _win_of(data["good"])
        c.roles = {Role(role): _win_of(w) for role, w in data["roles"].items()}
        return c


def _count(counts: dict[str, _Counts], games: Sequence[GameResult]) -> None:
    for result in games:
        for agent in result.agents:
            mine = [s for s in result.seats if s.agent == agent]
            c = counts.setdefault(agent, _Counts())
            c.games += 1
            if any(s.team is Team.WOLF for s in mine):
                c.wolf += _one(result.outcome(Team.WOLF))
            if any(s.team is Team.GOOD for s in mine):
                c.good += _one(result.outcome(Team.GOOD))
            for role in sorted({s.role for s in mine}):
                team = next(s.team for s in mine if s.role is role)
                c.roles[role] = c.roles.get(role, WinRate()) + _one(result.outcome(team))
