"""The leaderboard report: ratings, pair verdicts, metrics and costs together.

`build_report` is what `arena leaderboard` and the dashboard's Leaderboard page show;
`arena.ratings.export` flattens it (CSV rows, JSON).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from arena.ratings.board import Leaderboard
from arena.ratings.fold import RatingFold
from arena.ratings.loader import SkippedFile
from arena.ratings.metrics import AgentMetrics, MetricsFold, ModelUsage
from arena.ratings.ratings import check_arguments
from arena.ratings.results import rating_order
from arena.ratings.spread import MetricDifference, spread
from arena.ratings.stats import FrozenModel
from arena.ratings.tallies import GameSummary


class Report(FrozenModel):
    """Everything the leaderboard shows about a set of games."""

    directory: str | None
    leaderboard: Leaderboard
    agents: tuple[AgentMetrics, ...]
    """Deception, reliability and cost metrics, one per agent, sorted by agent."""
    models: tuple[ModelUsage, ...]
    skipped: tuple[SkippedFile, ...]
    metric_pairs: tuple[MetricDifference, ...] = ()
    """Every pair of agents (in standings order) and metric both have: the first's value
    minus the second's, with its interval over the same deal resamples (paired)."""

    def metrics_of(self, agent: str) -> AgentMetrics | None:
        """The metrics of `agent`, if it played."""
        return next((m for m in self.agents if m.agent == agent), None)


def build_report(
    games: Sequence[GameSummary],
    *,
    bootstrap: int = 200,
    seed: int = 0,
    confidence: float = 0.95,
    skipped: Sequence[SkippedFile] = (),
    directory: str | None = None,
) -> Report:
    """Rate `games` and total their metrics (see `rate` for the arguments).

    Games are folded in rating order (start time, then id), whatever order they come in,
    so a report does not depend on how a folder lists its files.

    Raises:
        ValueError: a negative `bootstrap` or a `confidence` outside (0, 1).
    """
    check_arguments(bootstrap, confidence)
    fold = ReportFold()
    fold.extend(games)
    return fold.report(bootstrap, seed, confidence, skipped=skipped, directory=directory)


STATE_FORMAT = 5
"""The layout of `ReportFold.to_json` (4: the metric sums hold `Tallies.spoke`; 5: and
`Tallies.explosions`); a saved state of another layout is not read."""


class ReportFold:
    """A report's state over the games folded so far: ratings and metrics (mutable).

    `extend` takes games that all come after the ones folded so far (in rating order)
    and gives the same state as folding every game at once; `to_json` / `from_json`
    save and restore it, which is what lets a folder's leaderboard continue from its
    cached state when games are added (`arena.ratings.folder`). The state does not
    depend on the bootstrap: its size and seed are arguments of `report`.
    """

    def __init__(self) -> None:
        """No games yet."""
        self.ratings = RatingFold()
        self.metrics = MetricsFold()

    @property
    def games(self) -> int:
        """Games folded so far."""
        return self.ratings.games

    def extend(self, games: Sequence[GameSummary]) -> bool:
        """Fold `games` after the ones folded so far.

        Returns False, changing nothing, if they do not all come later (see
        `RatingFold.extend`).
        """
        ordered = sorted(games, key=lambda g: rating_order(g.result))
        if not self.ratings.extend([g.result for g in ordered]):
            return False
        self.metrics.extend(ordered)
        return True

    def report(
        self,
        bootstrap: int = 200,
        seed: int = 0,
        confidence: float = 0.95,
        *,
        skipped: Sequence[SkippedFile] = (),
        directory: str | None = None,
    ) -> Report:
        """The report of the games folded so far, with a `bootstrap`-resample deal bootstrap."""
        board = self.ratings.leaderboard(bootstrap, seed, confidence)
        order = [s.agent for s in board.standings]
        found = spread(self.metrics.deals, order, bootstrap, seed, confidence)
        agents = tuple(
            m.model_copy(update={"intervals": found.intervals.get(m.agent, {})})
            for m in self.metrics.agents()
        )
        return Report(
            directory=directory,
            leaderboard=board,
            agents=agents,
            models=self.metrics.models(),
            skipped=tuple(skipped),
            metric_pairs=found.differences,
        )

    def to_json(self) -> str:
        """The state as JSON text."""
        data = {
            "format": STATE_FORMAT,
            "ratings": self.ratings.to_data(),
            "metrics": self.metrics.to_data(),
        }
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> ReportFold:
        """The state `to_json` wrote.

        Raises:
            ValueError: text that `to_json` of this version did not write.
        """
        try:
            data = json.loads(text)
            if data.get("format") != STATE_FORMAT:
                raise ValueError(f"state format {data.get('format')!r}, not {STATE_FORMAT}")
            fold = cls()
            fold.ratings = RatingFold.from_data(data["ratings"])
            fold.metrics = MetricsFold.from_data(data["metrics"])
        except (KeyError, TypeError, AttributeError, IndexError) as exc:
            raise ValueError(f"not a saved report state: {type(exc).__name__}: {exc}") from None
        return fold
