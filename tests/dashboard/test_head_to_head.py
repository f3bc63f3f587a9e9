"""The Leaderboard page's head-to-head matrix, win table and deception bars, in each script."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from arena.cli import main
from arena.dashboard.head_to_head import cells_frame, matrix_frame
from arena.ratings.folder import folder_report
from tests.dashboard.games import APP, page_text

LEADERBOARD = "screens/leaderboard.py"
TOURNAMENT = (
    "name: lb\nagents: {bot: bot, half: 'noisy:0.5:bot', rnd: random}\nboards: [std9]\n"
    "games_per_pairing: 3\n"
)


@pytest.fixture(scope="module")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three agents, every pairing on three mirrored deals: 18 signed games."""
    root = tmp_path_factory.mktemp("h2h")
    spec = root / "lb.yaml"
    spec.write_text(TOURNAMENT, encoding="utf-8")
    folder = root / "replays"
    assert main(["tournament", "run", str(spec), "--replays", str(folder), "--workers", "2"]) == 0
    return folder


def _page(folder: Path, monkeypatch: pytest.MonkeyPatch, lang: str = "en") -> AppTest:
    monkeypatch.setenv("ARENA_REPLAYS", str(folder))
    monkeypatch.delenv("ARENA_REDIS_URL", raising=False)
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.query_params["lang"] = lang  # the page opened in `lang` (the URL's `?lang=`)
    at.run()
    at.switch_page(LEADERBOARD).run()
    at.number_input(key="bootstrap").set_value(50).run()
    assert not at.exception, at.exception
    return at


def _specs(at: AppTest) -> list[dict[str, Any]]:
    """Each chart's spec, with its data rows under `rows` (sent apart, as Arrow tables)."""
    specs = []
    for chart in at.get("vega_lite_chart"):
        spec = json.loads(chart.proto.spec)
        tables = [pa.ipc.open_stream(d.data.data).read_all() for d in chart.proto.datasets]
        spec["rows"] = [row for table in tables for row in table.to_pylist()]
        specs.append(spec)
    return specs


def _rows(spec: dict[str, Any]) -> list[dict[str, Any]]:
    return list(spec["rows"])


def test_the_matrix_reads_each_agents_score_against_each_opponent(
    tournament: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = _page(tournament, monkeypatch)
    grids = [s for s in _specs(at) if "label" in json.dumps(s) and "separated" in json.dumps(s)]
    assert len(grids) == 2  # the head-to-head matrix and the win table
    cells = {(r["row"], r["column"]): r for r in _rows(grids[0])}
    agents = ("bot", "half", "rnd")  # rated under their tournament names (issue 31)
    assert set(cells) == {(a, b) for a in agents for b in agents if a != b}
    _, report = folder_report(tournament, bootstrap=50)
    for pair in report.leaderboard.pairs:
        met = pair.head_to_head
        assert met is not None and met.interval is not None
        ahead, behind = cells[(pair.first, pair.second)], cells[(pair.second, pair.first)]
        assert ahead["score"] == pytest.approx(met.score)
        assert behind["score"] == pytest.approx(1 - met.score)
        assert (ahead["low"], ahead["high"]) == pytest.approx((met.interval.low, met.interval.high))
        assert (behind["low"], behind["high"]) == pytest.approx(
            (1 - met.interval.high, 1 - met.interval.low)
        )
        separated = met.interval.low > 0.5 or met.interval.high < 0.5
        assert ahead["separated"] is behind["separated"] is separated
        assert ahead["games"] == met.games == 6 and f"{met.games} games" in ahead["label"]
    assert cells[("bot", "rnd")]["separated"]  # the bot wins every deal against random
    layer = grids[0]["layer"][0]
    assert layer["mark"]["type"] == "rect" and "condition" in layer["encoding"]["stroke"]


def test_the_win_table_is_the_wolves_wins_of_each_pairing(
    tournament: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, report = folder_report(tournament, bootstrap=50)
    frame = cells_frame(report, "en")
    assert len(frame) == 6 and set(frame["games"]) == {3}  # each pairing, each side, 3 deals
    for cell in report.leaderboard.cells:
        row = frame[(frame["row"] == cell.wolves) & (frame["column"] == cell.good)].iloc[0]
        assert row["score"] == pytest.approx(cell.wins.rate)
    matrix = matrix_frame(report, "zh-Hant")
    assert all(label.endswith("6 局") for label in matrix["label"])


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_a_chinese_page_says_the_new_sections_in_chinese(
    tournament: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    at = _page(tournament, monkeypatch, lang)
    heads = [h.value for h in at.subheader]
    assert any(h.startswith(("对战", "對戰")) for h in heads)
    assert any(h.startswith(("狼人方对好人方", "狼人方對好人方")) for h in heads)
    grids = [s for s in _specs(at) if "separated" in json.dumps(s)]
    words = set()
    for spec in grids:
        encoding = spec["layer"][0]["encoding"]
        words |= {encoding["x"]["title"], encoding["y"]["title"], encoding["color"]["title"]}
        words |= {tip.get("title", "") for tip in encoding["tooltip"]}
        words |= {row["label"] for row in _rows(spec)}
    english = {w for text in words for w in re.findall(r"[A-Za-z]{2,}", text)}
    assert english == set(), english
    captions = [c.value for c in at.caption]
    assert not [c for c in captions if re.search(r"\b(deal|score|interval|games?)\b", c)]


def test_without_a_pairing_the_matrix_is_a_note(dash: Any) -> None:
    at = dash(LEADERBOARD)
    at.number_input(key="bootstrap").set_value(0).run()
    assert not at.exception
    assert (
        "No two agents have met yet as one side against the other "
        "(the games of a tournament do)." in [i.value for i in at.info]
    )


def test_the_deception_plot_has_interval_bars_on_both_axes(
    tournament: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = _page(tournament, monkeypatch)
    scatter = next(s for s in _specs(at) if "wolf_suspicion" in json.dumps(s))
    across, along = scatter["layer"][0]["encoding"], scatter["layer"][1]["encoding"]
    assert (across["x"]["field"], across["x2"]["field"]) == (
        "wolf_suspicion_low",
        "wolf_suspicion_high",
    )
    assert (along["y"]["field"], along["y2"]["field"]) == ("brier_low", "brier_high")
    rows = [r for r in _rows(scatter) if r.get("brier") is not None]
    assert rows and all(r["brier_low"] <= r["brier"] <= r["brier_high"] for r in rows)
    assert "95% interval on both axes" in page_text(at)
