"""Ratings and win rates of a set of games: `rate`, and the models it returns.

The headline is a batch Bradley-Terry fit of teams over all games at once, on the Elo
scale, with intervals from a bootstrap of deals (`arena.ratings.strength`,
`arena.ratings.verdict`); beside it, every pair of agents compared (rating difference,
separated or not, head to head, games still needed: `arena.ratings.pairs`), the
wolf-agent x good-agent win table, and each agent's recent form (openskill, in the
order the games started: `arena.ratings.form`). Win rates by side and role carry Wilson
intervals. The models are in `arena.ratings.board`; the state behind them, which later
games extend, in `arena.ratings.fold`.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.ratings.board import Leaderboard
from arena.ratings.fold import RatingFold
from arena.ratings.results import GameResult


def rate(
    results: Sequence[GameResult],
    *,
    bootstrap: int = 200,
    seed: int = 0,
    confidence: float = 0.95,
) -> Leaderboard:
    """Ratings, pair verdicts and win rates of every agent in `results`.

    Args:
        results: finished games, in any order (the recent form takes them by start time,
            then id; nothing else depends on their order).
        bootstrap: resamples of the deal bootstrap (0: no intervals, no verdicts).
        seed: seeds the resampling, so the same games give the same intervals.
        confidence: the intervals' coverage.

    Raises:
        ValueError: a negative `bootstrap` or a `confidence` outside (0, 1).
    """
    check_arguments(bootstrap, confidence)
    fold = RatingFold()
    fold.extend(results)
    return fold.leaderboard(bootstrap, seed, confidence)


def check_arguments(bootstrap: int, confidence: float, workers: int = 1) -> None:
    """Raise `ValueError` for a negative `bootstrap`, `workers` below 1, a bad `confidence`."""
    if bootstrap < 0:
        raise ValueError(f"bootstrap must be >= 0, not {bootstrap}")
    if workers < 1:
        raise ValueError(f"workers must be >= 1, not {workers}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), not {confidence}")
