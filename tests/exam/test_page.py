"""The dashboard's Exams page: results, every answer beside the truth, into the player."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from arena.cli import main
from arena.exam.build import build
from arena.exam.items import KINDS
from tests.dashboard.games import APP, page_text
from tests.exam.games import play_games

PAGE = "screens/exam.py"


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A replay folder of 2 bot games, and an exams folder with one exam sat by 2 contestants.

    The exam asks every moment (no `per_game` cap), so every kind is on the page: a capped
    draw takes whole seats, and a few of them may hold no wolf and so no speech item.
    """
    root = tmp_path_factory.mktemp("page")
    games = play_games(root / "replays", seeds=range(1, 3))
    exams = root / "exams"
    (exams / "first").mkdir(parents=True)
    build(games, exams / "first" / "exam.jsonl", seed=0, kinds=KINDS, per_game=None)
    args = ["exam", "run", str(exams / "first" / "exam.jsonl"), "--quiet"]
    assert main([*args, "--out", str(exams / "first"), "--seat", "bot", "--seat", "random"]) == 0
    assert main(["exam", "report", str(exams / "first"), "--bootstrap", "0"]) == 0  # the judges
    shutil.copytree(exams / "first", exams / "unjudged", ignore=shutil.ignore_patterns("judg*"))
    return root / "replays", exams


@pytest.fixture
def page(folders: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> Callable[..., AppTest]:
    replays, exams = folders
    monkeypatch.setenv("ARENA_REPLAYS", str(replays))
    monkeypatch.setenv("ARENA_EXAMS", str(exams))

    def make(lang: str = "en") -> AppTest:
        at = AppTest.from_file(str(APP), default_timeout=120)
        at.query_params["lang"] = lang
        at.run()
        at.switch_page(PAGE).run()
        assert not at.exception, at.exception
        return at

    return make


def test_the_page_lists_the_results_and_the_pairs(page: Callable[..., AppTest]) -> None:
    at = page()
    rows, pairs = (d.value for d in at.dataframe)
    assert set(rows["contestant"]) == {"bot", "random"}
    assert len(pairs) == len({*rows["kind"]})
    assert "separated" in pairs.columns
    assert "items from 2 games" in page_text(at)


def test_an_item_shows_every_answer_beside_the_truth_and_opens_the_player(
    page: Callable[..., AppTest],
) -> None:
    at = page()
    at.selectbox(key="exam_kind").set_value("vote").run()
    text = page_text(at)
    assert "**Truth\\\\:** wolves" in text
    assert "bot · its own answer" in text and "random · its own answer" in text
    at.button(key="exam_open").click().run()
    assert not at.exception
    params = dict(at.query_params)
    assert re.fullmatch(r"seat:\d", params["view"]) and int(params["step"]) > 0
    assert params["game"].endswith(".jsonl")


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_a_chinese_page_has_no_english_words(page: Callable[..., AppTest], lang: str) -> None:
    at = page(lang)
    at.selectbox(key="exam_kind").set_value("speech").run()
    text = page_text(at)
    for word in ("Truth", "wolves", "contestant", "separated", "Open in the player", "items"):
        assert word not in text, word
    assert ("真相" if lang == "zh-Hant" else "真相") in text


def test_the_speeches_figures_come_from_the_kept_verdicts(page: Callable[..., AppTest]) -> None:
    at = page()
    rows = at.dataframe[0].value
    speech = rows[rows["kind"].str.startswith("wolf's speech")]
    assert speech["figure"].notna().all() and "judged by bot" in page_text(at)
    at.selectbox(key="exam_folder").set_value("unjudged").run()
    rows = at.dataframe[0].value
    speech = rows[rows["kind"].str.startswith("wolf's speech")]
    assert speech["figure"].isna().all()
    assert "arena exam report unjudged" in page_text(at)


def test_no_results_is_one_line_that_says_how(
    page: Callable[..., AppTest], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("ARENA_EXAMS", str(tmp_path / "none"))
    at = page()
    assert "arena exam build" in page_text(at)
