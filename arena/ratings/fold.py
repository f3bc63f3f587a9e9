"""The leaderboard's state over the games folded so far, and its JSON codec.

A `RatingFold` keeps what a `Leaderboard` is computed from, extendable by later games:

- the deal table (`arena.ratings.deals`): per deal and row, games, wolf wins and draws —
  integer counts, the same whatever the order games came in. The batch ratings, their
  deal bootstrap, the pair verdicts and the win table are computed from it when a
  leaderboard is asked for (`arena.ratings.verdict`), so the bootstrap's size and seed
  are no part of the state: one state serves every `--bootstrap` and `--seed`;
- per-agent win counts, by side and role;
- the recent form (`arena.ratings.form`): openskill's sequential ratings, which need the
  games in rating order (start time, then id). `extend` therefore takes only games that
  come after the ones folded (else it returns False and a caller folds from scratch).

`to_data` / `from_data` carry the state between runs as JSON (floats round-trip
exactly), which is what lets a folder's leaderboard continue from its cached state
(`arena.ratings.folder`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.ratings.board import Leaderboard, Standing, WinRate, one_game
from arena.ratings.deals import DealTable
from arena.ratings.form import Table, fit_into, overall_lineup, skill
from arena.ratings.results import GameResult, rating_order
from arena.ratings.verdict import Verdicts, verdicts
from arena.rules.types import Role, Team, Winner


class RatingFold:
    """Ratings and win counts of the games folded so far, extendable by later games (mutable)."""

    def __init__(self) -> None:
        """An empty fold: no games yet."""
        self.games = 0
        self.last: tuple[str, str] | None = None
        self.deals = DealTable()
        self.form: Table[str] = {}
        self.counts: dict[str, _Counts] = {}
        self.draws = 0
        self.wolf_side_wins = WinRate()

    def extend(self, results: Sequence[GameResult]) -> bool:
        """Fold `results` after the games folded so far.

        Returns False, changing nothing, if one sorts before (or with) the last game
        folded (the recent form's order): fold every game in a new fold then.
        """
        games = sorted(results, key=rating_order)
        if not games:
            return True
        if self.last is not None and rating_order(games[0]) <= self.last:
            return False
        self.deals.add(games)
        fit_into(self.form, [overall_lineup(r) for r in games])
        _count(self.counts, games)
        self.draws += sum(r.winner in (Winner.DRAW, Winner.LOVERS) for r in games)
        self.wolf_side_wins = sum(
            (one_game(r.outcome(Team.WOLF)) for r in games), self.wolf_side_wins
        )
        self.games += len(games)
        self.last = rating_order(games[-1])
        return True

    def leaderboard(self, bootstrap: int, seed: int, confidence: float) -> Leaderboard:
        """The leaderboard of the games folded so far (`bootstrap` resamples of the deals)."""
        arrays = self.deals.arrays()
        found = verdicts(arrays, bootstrap, seed, confidence)
        standings = [self._standing(agent, c, found) for agent, c in self.counts.items()]
        standings.sort(key=lambda s: (-s.rating.elo, s.agent))
        return Leaderboard(
            games=self.games,
            deals=len(arrays.deals),
            draws=self.draws,
            wolf_side_wins=self.wolf_side_wins,
            boards=found.boards,
            bootstrap=bootstrap,
            seed=seed,
            confidence=confidence,
            standings=tuple(standings),
            pairs=found.pairs,
            cells=found.cells,
        )

    def _standing(self, agent: str, c: _Counts, found: Verdicts) -> Standing:
        rating = found.overall.ratings[agent]
        sides = found.sides.ratings
        return Standing(
            agent=agent,
            games=c.games,
            deals=rating.deals,
            rating=rating,
            wolf=sides.get((agent, "wolf")),
            good=sides.get((agent, "good")),
            form=skill(self.form, agent, c.games),
            wins=c.wolf + c.good,
            wolf_wins=c.wolf,
            good_wins=c.good,
            role_wins=dict(c.roles),
        )

    def to_data(self) -> dict[str, Any]:
        """The whole state as JSON-able data (`from_data` restores it exactly)."""
        return {
            "games": self.games,
            "last": self.last,
            "deals": self.deals.to_data(),
            "form": [[agent, mu, var] for agent, (mu, var) in self.form.items()],
            "counts": {agent: c.to_data() for agent, c in self.counts.items()},
            "draws": self.draws,
            "wolf_side_wins": _win_data(self.wolf_side_wins),
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> RatingFold:
        """The fold `to_data` saved.

        Raises:
            KeyError, TypeError, ValueError: data that `to_data` did not write.
        """
        fold = cls()
        fold.games = int(data["games"])
        fold.last = None if data["last"] is None else (str(data["last"][0]), str(data["last"][1]))
        fold.deals = DealTable.from_data(data["deals"])
        fold.form = {str(agent): (float(mu), float(var)) for agent, mu, var in data["form"]}
        fold.counts = {agent: _Counts.of_data(c) for agent, c in data["counts"].items()}
        fold.draws = int(data["draws"])
        fold.wolf_side_wins = _win_of(data["wolf_side_wins"])
        return fold


def _win_data(w: WinRate) -> list[int]:
    return [w.wins, w.draws, w.games]


def _win_of(data: list[int]) -> WinRate:
    return WinRate.model_construct(wins=int(data[0]), draws=int(data[1]), games=int(data[2]))


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
                c.wolf += one_game(result.outcome(Team.WOLF))
            if any(s.team is Team.GOOD for s in mine):
                c.good += one_game(result.outcome(Team.GOOD))
            for role in sorted({s.role for s in mine}):
                team = next(s.team for s in mine if s.role is role)
                c.roles[role] = c.roles.get(role, WinRate()) + one_game(result.outcome(team))
