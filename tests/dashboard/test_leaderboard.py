from __future__ import annotations

from collections.abc import Callable

from streamlit.testing.v1 import AppTest

from tests.dashboard.games import page_text

LEADERBOARD = "screens/leaderboard.py"


def test_leaderboard_shows_ratings_metrics_and_costs(dash: Callable[..., AppTest]) -> None:
    at = dash(LEADERBOARD)
    at.number_input(key="bootstrap").set_value(20).run()
    assert not at.exception
    assert [m.value for m in at.metric][0] == "2"
    assert len(at.get("vega_lite_chart")) == 4
    full = next(d.value for d in at.dataframe if "rating_mu" in d.value.columns)
    assert set(full["agent"]) == {"marker"}
    assert full["tokens_per_game"].iloc[0] > 0
    text = page_text(at)
    assert "model-a" in text and "model-b" in text
    assert "corrupt.jsonl" in text and "notes.txt" in text


def test_leaderboard_filters_by_tournament(dash: Callable[..., AppTest]) -> None:
    at = dash(LEADERBOARD)
    at.number_input(key="bootstrap").set_value(0).run()
    at.selectbox(key="board_tournament").set_value("cup-1").run()
    assert not at.exception
    assert [m.value for m in at.metric][0] == "1"
