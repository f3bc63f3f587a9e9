"""The pictures' specs: what a chart must hold so that a browser shows all of it."""

from __future__ import annotations

from arena.dashboard.charts import belief_timeline
from arena.dashboard.projection import Belief


def test_the_beliefs_over_time_legend_fits_and_tells_twelve_seats_apart() -> None:
    """Streamlit cuts a legend taller than its chart: #12 was missing on a 12-seat table."""
    rows = [
        Belief(after_step=step, day=day, seat=seat, target=target, wolf_probability=0.3)
        for day, step in ((2, 90), (3, 130))
        for seat in range(1, 13)
        for target in range(1, 13)
        if target != seat
    ]
    spec = belief_timeline(rows, wolves={4, 5, 9}, lang="en").to_dict()
    assert spec["height"] >= 30 * (12 + 1), "a legend entry takes 30 px in the browser"
    assert spec["encoding"]["color"]["scale"]["scheme"] == "tableau20"
