"""A against A, small and synthetic: the verdicts' intervals mean what they say.

The full figure plays the same noisy agent under two names (benchmarks/
verdict_calibration.py, docs/benchmarks.md); here, in seconds, two equal agents play
mirrored deals whose luck is strong and shared by both games of a deal (the wolves' log
odds of a deal drawn from Normal(0, 3)): a bootstrap that resampled games one by one
would not see that the two games of a deal cancel, and its intervals would be too wide;
one that ignored how few the deals are would cover too seldom.
"""

from __future__ import annotations

import numpy as np

from arena.ratings.ratings import rate
from arena.ratings.results import GameResult
from arena.ratings.stats import Interval
from arena.rules.types import Winner
from tests.ratings.builders import team_game

TOURNAMENTS = 200
DEALS = 30
LUCK = 3.0
"""Standard deviation of a deal's wolf advantage, in logits."""


def tournament(rng: np.random.Generator, number: int) -> list[GameResult]:
    """Two equal agents, `DEALS` mirrored deals."""
    games = []
    for d in range(DEALS):
        odds = rng.normal(0.0, LUCK)
        for k, (wolves, good) in enumerate((("a", "b"), ("b", "a"))):
            won = rng.random() < 1 / (1 + np.exp(-odds))
            game = team_game(
                f"t{number}-{d}-{k}", wolves, good, Winner.WOLVES if won else Winner.GOOD
            )
            games.append(game.model_copy(update={"deal": f"d-{number}-{d}", "deal_order": d}))
    return games


def head_to_head(games: list[GameResult], seed: int) -> tuple[Interval, bool]:
    """The interval of "a beats b", and whether the ratings are called separated."""
    pair = rate(games, bootstrap=100, seed=seed).pair("a", "b")
    assert pair is not None and pair.head_to_head is not None
    assert pair.head_to_head.interval is not None and pair.separated is not None
    return pair.head_to_head.interval, pair.separated


def test_a_against_a_covers_half_about_95_percent_and_is_seldom_separated() -> None:
    rng = np.random.default_rng(2028)
    covered = separated = 0
    for number in range(TOURNAMENTS):
        interval, apart = head_to_head(tournament(rng, number), number)
        covered += interval.low <= 0.5 <= interval.high
        separated += apart
    assert 0.92 <= covered / TOURNAMENTS <= 0.99, covered
    assert separated / TOURNAMENTS <= 0.07, separated


def test_resampling_games_instead_of_deals_would_miss_that_mirrors_cancel() -> None:
    rng = np.random.default_rng(2029)
    ratios = []
    for number in range(50):
        games = tournament(rng, number)
        alone = [g.model_copy(update={"deal": f"g-{g.game_id}"}) for g in games]
        by_deal, _ = head_to_head(games, number)
        by_game, _ = head_to_head(alone, number)
        ratios.append((by_game.high - by_game.low) / (by_deal.high - by_deal.low))
    assert float(np.mean(ratios)) > 1.25, ratios
