"""The betting confidence sequence: valid when read after every deal, and decisive."""

import math

import numpy as np
import pytest

from arena.ratings.sequential import GRID, HALF, bets, decided_at, verdict


def test_a_half_is_on_the_grid_and_bets_use_only_the_past() -> None:
    assert GRID[HALF] == 0.5
    x = np.array([1.0, 0.0, 1.0, 1.0, 0.5])
    changed = x.copy()
    changed[3] = 0.0
    assert np.array_equal(bets(x)[:4], bets(changed)[:4])  # bet 4 is fixed before deal 4
    assert bets(x)[4] != bets(changed)[4]


def test_identical_agents_are_separated_in_at_most_alpha_of_runs_when_looked_at_every_deal() -> (
    None
):
    rng = np.random.default_rng(28)
    runs, deals = 400, 300
    scores = rng.choice(
        [0.0, 0.25, 0.5, 0.75, 1.0], size=(runs, deals), p=[0.2, 0.1, 0.4, 0.1, 0.2]
    )
    separated = sum(decided_at(row) is not None for row in scores)
    assert separated <= 0.05 * runs
    peeking = sum(_naive_peek(row) for row in scores)  # a fixed-n interval read every deal
    assert peeking > 0.05 * runs


def _naive_peek(x: np.ndarray) -> bool:
    """Whether a 95 % normal interval, recomputed after every deal, ever excludes ½."""
    n = np.arange(1, len(x) + 1)
    mean = np.cumsum(x) / n
    var = np.maximum(np.cumsum(x * x) / n - mean**2, 1e-12)
    return bool(np.any((n >= 10) & (np.abs(mean - 0.5) > 1.96 * np.sqrt(var / n))))


@pytest.mark.parametrize("p", [0.3, 0.5, 0.8])
def test_the_interval_covers_the_mean_at_every_deal_in_95_percent_of_runs(p: float) -> None:
    rng = np.random.default_rng(int(p * 100))
    runs = 200
    covered = 0
    for _ in range(runs):
        v = verdict(rng.binomial(1, p, size=150).astype(float))
        covered += v.low <= p <= v.high  # the running intersection: every deal at once
    assert covered >= 0.95 * runs


def test_a_constant_stream_decides_quickly_and_stays_decided() -> None:
    first = verdict([1.0] * 12)
    assert first.better == "a" and first.decided_at is not None and first.decided_at <= 10
    assert first.low > 0.5 and first.high == 1.0 and first.mean == 1.0
    assert verdict([0.0] * 12).better == "b"
    later = verdict([1.0] * 12 + [0.0] * 30)  # the evidence came, and is not taken back
    assert later.better == "a" and later.decided_at == first.decided_at


def test_a_real_difference_is_found_and_an_even_one_is_not() -> None:
    rng = np.random.default_rng(7)
    found = [decided_at(rng.binomial(1, 0.75, size=200).astype(float)) for _ in range(50)]
    assert all(f is not None and f[1] == "a" for f in found)
    assert np.median([f[0] for f in found if f is not None]) < 60
    even = verdict([0.5] * 200)
    assert even.better is None and even.low < 0.5 < even.high
    assert even.high - even.low < 0.25


def test_no_deals_no_verdict_and_bad_scores_are_refused() -> None:
    empty = verdict([])
    assert (empty.deals, empty.mean, empty.better, empty.low, empty.high) == (0, None, None, 0, 1)
    assert decided_at([]) is None
    for bad in ([1.5], [-0.1], [math.nan]):
        with pytest.raises(ValueError, match="from 0 to 1"):
            verdict(bad)
