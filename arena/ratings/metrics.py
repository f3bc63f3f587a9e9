"""Deception, reliability and cost metrics per agent and per model, over many games.

Per-game tallies (`arena.ratings.facts.summarize`) are summed per agent, apart for the
agent's wolf seats and its good seats, so a wolf-only metric (how often its wolves claim
a god role) and a good-only metric (how well its good seats vote) never mix. The
definitions are the field docstrings of `Tallies` and docs/metrics.md.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from pydantic import computed_field

from arena.ratings.facts import summarize
from arena.ratings.spread import DealMetrics
from arena.ratings.stats import FrozenModel, Interval
from arena.ratings.tallies import (
    GameSummary,
    Tallies,
    Totals,
    UsageTally,
    add_to_totals,
    new_totals,
    tallies_of,
)
from arena.rules.types import Team
from arena.storage.replay_file import Replay


class AgentMetrics(FrozenModel):
    """One agent's tallies over all its games, split by the side of each seat."""

    agent: str
    games: int
    """Games in which the agent held at least one seat."""
    wolf_games: int
    good_games: int
    as_wolf: Tallies
    """Sum over the agent's wolf seats (the wolf-only metrics live here)."""
    as_good: Tallies
    """Sum over the agent's good seats (`brier`, `vote_accuracy` live here)."""
    intervals: dict[str, Interval] = {}
    """Each metric's interval over the deal bootstrap, by its name in `agent_rows`
    (`brier`, `wolf_suspicion`, ...: `arena.ratings.spread.METRICS`); only metrics with
    one (a report's, with a bootstrap; empty from `agent_metrics`)."""

    @property
    def total(self) -> Tallies:
        """Both sides together (for side-free metrics: fallbacks, retries, usage)."""
        return self.as_wolf + self.as_good

    @computed_field  # type: ignore[prop-decorator]
    @property
    def tokens_per_game(self) -> float:
        """Prompt plus completion tokens of all the agent's seats, per game played."""
        return self.total.usage.tokens / self.games if self.games else 0.0

    @computed_field  # type: ignore[prop-decorator]
    @property
    def cost_per_game(self) -> float:
        """US dollars of all the agent's model calls, per game played."""
        return self.total.usage.cost_usd / self.games if self.games else 0.0


class ModelUsage(FrozenModel):
    """One model id's calls over all games, whichever agent made them."""

    model: str
    games: int
    """Games in which the model was called at least once."""
    usage: UsageTally

    @computed_field  # type: ignore[prop-decorator]
    @property
    def tokens_per_game(self) -> float:
        """Prompt plus completion tokens per game in which the model was called."""
        return self.usage.tokens / self.games if self.games else 0.0

    @computed_field  # type: ignore[prop-decorator]
    @property
    def cost_per_game(self) -> float:
        """US dollars per game in which the model was called."""
        return self.usage.cost_usd / self.games if self.games else 0.0


class _Sums:
    """An agent's running sums while folding games (internal, mutable)."""

    def __init__(self) -> None:
        self.games = 0
        self.wolf_games = 0
        self.good_games = 0
        self.as_wolf: Totals = new_totals()
        self.as_good: Totals = new_totals()


class MetricsFold:
    """Every agent's and model's sums over the games folded so far, extendable (mutable).

    The sums are plain numbers added game by game in the order given, so folding games
    `1..n` and then `n+1..m` gives the same bits as folding `1..m` at once;
    `to_data` / `from_data` carry the state between runs as JSON (exact for floats).
    `deals` keeps the same sums per deal, for the metrics' intervals.
    """

    def __init__(self) -> None:
        """No games yet."""
        self.sums: dict[str, _Sums] = {}
        self.usage: dict[str, UsageTally] = {}
        self.played: dict[str, int] = {}
        self.deals = DealMetrics()

    def extend(self, games: Iterable[GameSummary]) -> None:
        """Add `games`, in the order given."""
        played = list(games)
        self.deals.add(played)
        for game in played:
            teams: dict[str, set[Team]] = defaultdict(set)
            for seat, tallies in zip(game.result.seats, game.seats, strict=True):
                s = self.sums.setdefault(seat.agent, _Sums())
                teams[seat.agent].add(seat.team)
                add_to_totals(s.as_wolf if seat.team is Team.WOLF else s.as_good, tallies.tallies)
            for agent, sides in teams.items():
                self.sums[agent].games += 1
                self.sums[agent].wolf_games += Team.WOLF in sides
                self.sums[agent].good_games += Team.GOOD in sides
            for tally in game.models:
                self.usage[tally.model] = self.usage.get(tally.model, UsageTally()) + tally.usage
                self.played[tally.model] = self.played.get(tally.model, 0) + 1

    def agents(self) -> tuple[AgentMetrics, ...]:
        """Every agent's metrics, sorted by agent."""
        return tuple(
            AgentMetrics(
                agent=agent,
                games=s.games,
                wolf_games=s.wolf_games,
                good_games=s.good_games,
                as_wolf=tallies_of(s.as_wolf),
                as_good=tallies_of(s.as_good),
            )
            for agent, s in sorted(self.sums.items())
        )

    def models(self) -> tuple[ModelUsage, ...]:
        """Tokens and money per model id, sorted by model."""
        return tuple(
            ModelUsage(model=m, games=self.played[m], usage=u)
            for m, u in sorted(self.usage.items())
        )

    def to_data(self) -> dict[str, Any]:
        """The state as JSON-able data."""
        return {
            "agents": {
                agent: [s.games, s.wolf_games, s.good_games, s.as_wolf, s.as_good]
                for agent, s in self.sums.items()
            },
            "models": {
                m: [self.played[m], u.calls, u.prompt_tokens, u.completion_tokens,
                    u.cached_tokens, u.cost_usd]
                for m, u in self.usage.items()
            },
            "deals": self.deals.to_data(),
        }  # fmt: skip

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> MetricsFold:
        """The fold `to_data` saved (raises KeyError, TypeError or ValueError on other data)."""
        fold = cls()
        for agent, (games, wolf, good, as_wolf, as_good) in data["agents"].items():
            s = fold.sums[agent] = _Sums()
            s.games, s.wolf_games, s.good_games = int(games), int(wolf), int(good)
            s.as_wolf, s.as_good = _totals_of(as_wolf), _totals_of(as_good)
        for model, (played, calls, prompt, completion, cached, cost) in data["models"].items():
            fold.played[model] = int(played)
            fold.usage[model] = UsageTally.model_construct(
                calls=int(calls),
                prompt_tokens=int(prompt),
                completion_tokens=int(completion),
                cached_tokens=int(cached),
                cost_usd=cost,
            )
        fold.deals = DealMetrics.from_data(data["deals"])
        return fold


def _totals_of(data: dict[str, list[int | float]]) -> Totals:
    totals = new_totals()
    for name, parts in totals.items():
        saved = data[name]
        if len(saved) != len(parts):
            raise ValueError(f"totals of {name}: {len(saved)} parts, not {len(parts)}")
        totals[name] = list(saved)
    return totals


def agent_metrics(games: Iterable[GameSummary]) -> tuple[AgentMetrics, ...]:
    """Every agent's metrics over `games` (summed in the order given), sorted by agent."""
    fold = MetricsFold()
    fold.extend(games)
    return fold.agents()


def model_usage(games: Iterable[GameSummary]) -> tuple[ModelUsage, ...]:
    """Tokens and money per model id over `games`, sorted by model."""
    fold = MetricsFold()
    fold.extend(games)
    return fold.models()


def deception_metrics(replays: Iterable[Replay]) -> tuple[AgentMetrics, ...]:
    """`agent_metrics` straight from whole replays (each must be a finished game).

    Raises:
        ReplayError: a replay is unfinished or has no deal.
    """
    return agent_metrics(summarize(replay) for replay in replays)
