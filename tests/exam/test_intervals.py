"""Exam intervals: clustered by game, honest with few games (arena.exam.intervals)."""

from __future__ import annotations

import numpy as np

from arena.exam.intervals import Resamples, separated


def test_one_game_gives_no_interval_and_separates_nothing() -> None:
    """Resamples of one game are that game alone: a zero-width "interval" around any
    difference would call it separated from a single game."""
    found = Resamples(["g1"], 400, seed=0).mean([("g1", 1.0), ("g1", 1.0), ("g1", 0.0)])
    assert found is not None
    assert (found.low, found.high, found.games) == (None, None, 1)
    assert not separated(found)


def test_few_games_read_the_expanded_interval_not_the_plain_percentile() -> None:
    """With 8 games the plain percentile interval of a mean is too narrow (it is about
    z s / sqrt(n) with the biased s); the expanded one is about Student's t."""
    spread = [0.1, 0.3, 0.5, 0.8, 0.6, 0.4, 0.9, 0.2]
    games = [f"g{i}" for i in range(len(spread))]
    resamples = Resamples(games, 2000, seed=0)
    found = resamples.mean(list(zip(games, spread, strict=True)))
    assert found is not None and found.low is not None and found.high is not None
    totals = resamples.weights @ np.ones(len(games))
    means = (resamples.weights @ np.array(spread))[totals > 0] / totals[totals > 0]
    plain_low, plain_high = np.percentile(means, [2.5, 97.5])
    assert found.low < plain_low and found.high > plain_high


def test_a_difference_that_every_game_shows_is_separated() -> None:
    games = [f"g{i}" for i in range(12)]
    values = [(g, v) for g in games for v in (1.0, 0.0, 1.0)]
    found = Resamples(games, 400, seed=0).mean(values)
    assert found is not None and separated(found)
