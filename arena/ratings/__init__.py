"""Ratings and deception metrics: pure functions over finished replays.

The public API, in the order a caller uses it:

- `load_games(directory) -> GameSet`: every finished replay under a directory, each
  folded into a small `GameSummary`; unusable files come back as `SkippedFile`s. The
  only function here that touches the disk.
- `summarize(replay) -> GameSummary`: the same fold for one replay already in memory.
- `rate(results) -> Leaderboard`: the batch Bradley-Terry rating of teams (overall, as
  wolves, as good) on the Elo scale with deal-bootstrap intervals; every pair of agents
  compared (difference, separated, head to head, games needed); the wolf-agent x
  good-agent win table; recent form (openskill); win rates by side and role (Wilson).
- `deal_scores(results, a, b)`: A's score against B per deal, in schedule order.
- `cluster_weights`, `ratio_replicates`, `intervals`: the cluster bootstrap, for any
  statistic of clustered data.
- `agent_metrics(games) -> tuple[AgentMetrics, ...]`, `model_usage(games)`: deception,
  reliability and cost per agent and per model; `deception_metrics(replays)` does the
  same from whole replays.
- `build_report(games) -> Report`: everything together, with every metric's interval
  and every pair's paired metric differences; `agent_rows(report)` / `to_csv` (one row
  per agent), `pair_rows(report)` / `pairs_csv` (one row per pair of agents), `to_json`
  (in full).
- `folder_report(directory) -> (FolderScan, Report)`: `build_report(load_games(...))`
  with the same result, continued from the folder's saved state so that only new games
  are read and rated (what `arena leaderboard` and the dashboard use).

Every returned model is a frozen pydantic model; every rate keeps its counts, and a
metric without data is None, never 0. docs/metrics.md defines each number.
"""

from arena.ratings.board import (
    Cell,
    HeadToHead,
    Leaderboard,
    Needed,
    PairVerdict,
    Rating,
    Standing,
    WinRate,
)
from arena.ratings.export import agent_rows, pair_rows, pairs_csv, to_csv, to_json
from arena.ratings.facts import summarize
from arena.ratings.folder import folder_report
from arena.ratings.form import Skill
from arena.ratings.loader import FolderScan, GameSet, SkippedFile, load_games
from arena.ratings.metrics import (
    AgentMetrics,
    ModelUsage,
    agent_metrics,
    deception_metrics,
    model_usage,
)
from arena.ratings.pairs import DealScore, deal_scores
from arena.ratings.ratings import rate
from arena.ratings.report import Report, build_report
from arena.ratings.resample import cluster_weights, intervals, ratio_replicates
from arena.ratings.results import GameResult, SeatResult, game_result
from arena.ratings.stats import Interval, Mean, Ratio
from arena.ratings.tallies import GameSummary, Tallies, UsageTally

__all__ = [
    "AgentMetrics",
    "Cell",
    "DealScore",
    "HeadToHead",
    "Needed",
    "PairVerdict",
    "Rating",
    "cluster_weights",
    "deal_scores",
    "intervals",
    "ratio_replicates",
    "GameResult",
    "FolderScan",
    "GameSet",
    "GameSummary",
    "Interval",
    "Leaderboard",
    "Mean",
    "ModelUsage",
    "Ratio",
    "Report",
    "SeatResult",
    "Skill",
    "SkippedFile",
    "Standing",
    "Tallies",
    "UsageTally",
    "WinRate",
    "agent_metrics",
    "agent_rows",
    "pair_rows",
    "pairs_csv",
    "build_report",
    "deception_metrics",
    "folder_report",
    "game_result",
    "load_games",
    "model_usage",
    "rate",
    "summarize",
    "to_csv",
    "to_json",
]
