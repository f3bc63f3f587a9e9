"""Deception, reliability and cost metrics per agent and per model, over many games.

Per-game tallies (`arena.ratings.facts.summarize`) are summed per agent, apart for the
agent's wolf seats and its good seats, so a wolf-only metric (how often its wolves claim
a god role) and a good-only metric (how well its good seats vote) never mix. The
definitions are the field docstrings of `Tallies` and docs/metrics.md.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from pydantic import computed_field

from arena.ratings.facts import summarize
from arena.ratings.stats import FrozenModel
from arena.ratings.tallies import GameSummary, Tallies, UsageTally, sum_tallies
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
        self.as_wolf: list[Tallies] = []
        self.as_good: list[Tallies] = []


def agent_metrics(games: Iterable[GameSummary]) -> tuple[AgentMetrics, ...]:
    """Every agent's metrics over `games`, sorted by agent."""
    sums: dict[str, _Sums] = defaultdict(_Sums)
    for game in games:
        teams: dict[str, set[Team]] = defaultdict(set)
        for seat, tallies in zip(game.result.seats, game.seats, strict=True):
            s = sums[seat.agent]
            teams[seat.agent].add(seat.team)
            if seat.team is Team.WOLF:
                s.as_wolf.append(tallies.tallies)
            else:
                s.as_good.append(tallies.tallies)
        for agent, sides in teams.items():
            sums[agent].games += 1
            sums[agent].wolf_games += Team.WOLF in sides
            sums[agent].good_games += Team.GOOD in sides
    return tuple(
        AgentMetrics(
            agent=agent,
            games=s.games,
            wolf_games=s.wolf_games,
            good_games=s.good_games,
            as_wolf=sum_tallies(s.as_wolf),
            as_good=sum_tallies(s.as_good),
        )
        for agent, s in sorted(sums.items())
    )


def model_usage(games: Iterable[GameSummary]) -> tuple[ModelUsage, ...]:
    """Tokens and money per model id over `games`, sorted by model."""
    usage: dict[str, UsageTally] = defaultdict(UsageTally)
    played: dict[str, int] = defaultdict(int)
    for game in games:
        for tally in game.models:
            usage[tally.model] += tally.usage
            played[tally.model] += 1
    return tuple(ModelUsage(model=m, games=played[m], usage=u) for m, u in sorted(usage.items()))


def deception_metrics(replays: Iterable[Replay]) -> tuple[AgentMetrics, ...]:
    """`agent_metrics` straight from whole replays (each must be a finished game).

    Raises:
        ReplayError: a replay is unfinished or has no deal.
    """
    return agent_metrics(summarize(replay) for replay in replays)
