from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from arena.agents.random_agent import RandomAgent
from arena.dashboard.standings import cost_format, title_lines
from arena.ratings import verify
from tests.dashboard.games import APP, make_game, page_text

LEADERBOARD = "screens/leaderboard.py"


def test_leaderboard_shows_ratings_metrics_and_costs(dash: Callable[..., AppTest]) -> None:
    at = dash(LEADERBOARD)
    at.number_input(key="bootstrap").set_value(20).run()
    assert not at.exception
    assert [m.value for m in at.metric][0] == "2"
    assert len(at.get("vega_lite_chart")) == 4
    full = next(d.value for d in at.dataframe if "rating" in d.value.columns)
    assert set(full["agent"]) == {"marker"}
    assert full["tokens_per_game"].iloc[0] > 0
    text = page_text(at)
    assert "model-a" in text and "model-b" in text
    assert "corrupt.jsonl" in text  # a torn replay is named
    assert "notes.txt" not in text  # a file not named *.jsonl is no replay (issue 33)


def test_leaderboard_filters_by_tournament(dash: Callable[..., AppTest]) -> None:
    at = dash(LEADERBOARD)
    at.number_input(key="bootstrap").set_value(0).run()
    at.selectbox(key="board_tournament").set_value("cup-1").run()
    assert not at.exception
    assert [m.value for m in at.metric][0] == "1"


def test_the_deception_scatter_names_each_dot(dash: Callable[..., AppTest]) -> None:
    at = dash(LEADERBOARD)
    at.number_input(key="bootstrap").set_value(0).run()
    specs = [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]
    scatter = next(s for s in specs if "wolf_suspicion" in json.dumps(s))
    marks = [layer["mark"]["type"] for layer in scatter["layer"]]
    assert marks == ["rule", "rule", "circle", "text"]  # interval bars under the dots
    assert scatter["layer"][3]["encoding"]["text"]["field"] == "agent"
    assert scatter["layer"][2]["encoding"]["color"]["legend"] is not None


def test_a_changed_folder_reads_only_the_new_file(
    replay_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "games"
    shutil.copytree(replay_dir, folder, ignore=shutil.ignore_patterns(".arena"))
    calls: list[Path] = []
    real = verify.verify_file

    def counting(path: Path, header: Any, key: Any = None) -> Any:
        calls.append(path)
        return real(path, header, key)

    monkeypatch.setattr(verify, "verify_file", counting)
    monkeypatch.setenv("ARENA_REPLAYS", str(folder))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.switch_page(LEADERBOARD).run()
    at.number_input(key="bootstrap").set_value(0).run()
    assert [m.value for m in at.metric][0] == "2"
    first = len(calls)
    assert first >= 2
    at.run()
    assert len(calls) == first, "an unchanged folder is not read again"
    make_game(folder / "new.jsonl", seed=11)
    at.run()
    assert not at.exception
    assert [m.value for m in at.metric][0] == "3"
    assert calls[first:] == [folder / "new.jsonl"], "only the new file is verified"


def test_the_charts_format_their_numbers_and_keep_their_titles_whole(
    dash: Callable[..., AppTest],
) -> None:
    """Ratings in whole Elo points, shares as %, Brier to two decimals, costs in dollars.

    Vega-Lite's default shows raw floats (`0.170673`) and a legend of `0.000000`; a long
    vertical title is cut at the chart's height unless it is broken into lines.
    """
    at = dash(LEADERBOARD)
    at.number_input(key="bootstrap").set_value(0).run()
    specs = [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]
    rating, wins, scatter, cost = specs
    assert rating["layer"][0]["encoding"]["x"]["axis"]["format"] == ".0f"
    assert wins["layer"][0]["encoding"]["x"]["axis"]["format"] == ".0%"
    x, y = (scatter["layer"][2]["encoding"][k] for k in ("x", "y"))
    assert x["axis"]["format"] == ".0%" and y["axis"]["format"] == ".2f"
    assert y["title"] == ["Brier of its good seats", "(lower: better detector)"]
    assert y["axis"]["titleLineHeight"] >= 16  # the lines of a broken title do not touch
    assert cost["encoding"]["color"]["legend"]["format"] in {"$.4f", "$,.2f"}
    assert cost["encoding"]["x"]["axis"]["format"] == "~s"


def test_costs_and_titles_are_shaped_for_their_size() -> None:
    assert cost_format(0.0) == "$.4f" and cost_format(0.0123) == "$.4f"
    assert cost_format(2.5) == "$,.2f"
    assert title_lines("tokens per game") == "tokens per game"
    assert title_lines("其好人的 Brier 分數（越低越會識破）") == [
        "其好人的 Brier 分數",
        "（越低越會識破）",
    ]


def test_the_per_model_table_shows_dollars(dash: Callable[..., AppTest]) -> None:
    at = dash(LEADERBOARD)
    at.number_input(key="bootstrap").set_value(0).run()
    per_model = next(d for d in at.dataframe if "USD / game" in d.value.columns)
    config = json.loads(per_model.proto.columns)
    assert config["USD / game"]["type_config"]["format"] == "$%.4f"


def test_with_no_model_played_the_costs_are_a_note_not_a_nan_chart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bots only: no tokens-and-money chart (its legend read `$NaN`), no per-model table."""
    make_game(tmp_path / "bots.jsonl", seed=5, agent=lambda seat, seed: RandomAgent(seed + seat))
    monkeypatch.setenv("ARENA_REPLAYS", str(tmp_path))
    monkeypatch.delenv("ARENA_REDIS_URL", raising=False)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.switch_page(LEADERBOARD).run()
    at.number_input(key="bootstrap").set_value(0).run()
    assert not at.exception
    assert [m.value for m in at.metric][0] == "1"
    assert "No model played in these games: no tokens, no cost." in [i.value for i in at.info]
    specs = [json.dumps(json.loads(c.proto.spec)) for c in at.get("vega_lite_chart")]
    assert len(specs) == 3 and not any("cost" in s for s in specs)
    assert not [d for d in at.dataframe if "USD / game" in d.value.columns]
    assert "NaN" not in page_text(at)
