from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from arena.ratings import loader
from tests.dashboard.games import APP, make_game, page_text

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


def test_the_deception_scatter_names_each_dot(dash: Callable[..., AppTest]) -> None:
    at = dash(LEADERBOARD)
    at.number_input(key="bootstrap").set_value(0).run()
    specs = [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]
    scatter = next(s for s in specs if "wolf_suspicion" in json.dumps(s))
    marks = [layer["mark"]["type"] for layer in scatter["layer"]]
    assert marks == ["circle", "text"]
    assert scatter["layer"][1]["encoding"]["text"]["field"] == "agent"
    assert scatter["layer"][0]["encoding"]["color"]["legend"] is not None


def test_a_changed_folder_reads_only_the_new_file(
    replay_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "games"
    shutil.copytree(replay_dir, folder, ignore=shutil.ignore_patterns(".arena"))
    calls: list[Path] = []
    real = loader.verify_file

    def counting(path: Path, header: Any) -> Any:
        calls.append(path)
        return real(path, header)

    monkeypatch.setattr(loader, "verify_file", counting)
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
