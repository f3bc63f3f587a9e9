"""Every metric's interval and every pair's paired differences, resampled by deal."""

from __future__ import annotations

import numpy as np
import pytest

from arena.ratings.export import agent_rows, pair_rows
from arena.ratings.report import build_report
from arena.ratings.spread import METRICS, DealMetrics, seat_sums, spread
from arena.ratings.stats import Mean, Ratio
from arena.ratings.tallies import GameSummary, SeatTallies, Tallies, UsageTally
from arena.rules.types import Team, Winner
from tests.ratings.builders import team_game


def summary(deal: int, wolves: str, good: str, brier: dict[str, float]) -> GameSummary:
    """A game of deal `deal` whose good seats report Brier `brier[agent]` each."""
    result = team_game(f"g{deal}-{wolves}", wolves, good, Winner.GOOD)
    result = result.model_copy(update={"deal": f"d-{deal}", "deal_order": deal})
    seats = tuple(
        SeatTallies(
            seat=s.seat,
            tallies=Tallies(
                brier=Mean(total=brier[s.agent], count=1) if s.team is Team.GOOD else Mean(),
                god_claims=Ratio(num=1, den=1) if s.team is Team.WOLF else Ratio(),
                usage=UsageTally(calls=1, prompt_tokens=100),
            ),
        )
        for s in result.seats
    )
    return GameSummary(result=result, seats=seats, models=())


def tournament(deals: int, gap: float) -> list[GameSummary]:
    """`a` reports Brier `gap` lower than `b` on every deal, around a deal-wide level."""
    rng = np.random.default_rng(5)
    games = []
    for d in range(deals):
        level = float(rng.uniform(0.1, 0.4))
        brier = {"a": level - gap / 2, "b": level + gap / 2}
        games += [summary(d, "a", "b", brier), summary(d, "b", "a", brier)]
    return games


def test_a_paired_difference_excludes_zero_where_single_intervals_overlap() -> None:
    report = build_report(tournament(30, 0.02), bootstrap=200, seed=1)
    a, b = report.metrics_of("a"), report.metrics_of("b")
    assert a is not None and b is not None
    low_a, low_b = a.intervals["brier"], b.intervals["brier"]
    assert low_a.low < a.as_good.brier.value < low_a.high  # type: ignore[operator]
    assert low_a.high > low_b.low, "alone, the two agents' intervals overlap"
    [brier] = [d for d in report.metric_pairs if d.metric == "brier"]
    assert {brier.first, brier.second} == {"a", "b"} and brier.deals == 30
    sign = 1 if brier.first == "b" else -1
    assert brier.difference == pytest.approx(sign * 0.02)
    assert brier.interval is not None and brier.interval.high - brier.interval.low < 1e-9, (
        "the deal's level moves both agents in every resample: the paired difference is exact"
    )


def test_per_game_metrics_count_games_not_seats_and_sides_stay_apart() -> None:
    table = DealMetrics()
    table.add(tournament(3, 0.1))
    deals, num, den = table.arrays(["a", "b"])
    tokens = [m.name for m in METRICS].index("tokens_per_game")
    claims = [m.name for m in METRICS].index("god_claim_rate")
    assert den[:, 0, tokens].tolist() == [2.0, 2.0, 2.0], "two games a deal, nine seats in all"
    assert num[:, 0, tokens].tolist() == [900.0] * 3
    assert den[:, 0, claims].tolist() == [3.0] * 3, "god claims count the wolf seats alone"
    wolf = seat_sums(Tallies(brier=Mean(total=1.0, count=1)), Team.WOLF)
    assert wolf[2 * [m.name for m in METRICS].index("brier") :][:2] == [0.0, 0.0]


def test_the_exports_carry_the_intervals_and_the_pairs() -> None:
    report = build_report(tournament(12, 0.05), bootstrap=50, seed=2)
    rows = {str(r["agent"]): r for r in agent_rows(report)}
    assert rows["a"]["brier_low"] is not None and rows["a"]["brier_high"] is not None
    [pair] = pair_rows(report)
    assert pair["brier_diff"] is not None and pair["brier_diff_low"] is not None
    assert pair["h2h_games"] == 24 and pair["first_wolf_games"] == 12


def test_without_a_bootstrap_there_are_values_but_no_intervals() -> None:
    report = build_report(tournament(5, 0.05), bootstrap=0)
    assert all(not m.intervals for m in report.agents) and report.metric_pairs == ()
    assert spread(DealMetrics(), ["a"], 10, 0, 0.95).differences == ()


def test_a_saved_table_reads_back_and_refuses_other_data() -> None:
    table = DealMetrics()
    table.add(tournament(2, 0.1))
    again = DealMetrics.from_data(table.to_data())
    assert again.deals == table.deals
    with pytest.raises(ValueError):
        DealMetrics.from_data({"d-0": {"a": [1.0, 2.0]}})
