"""The Exams page in a real browser: results, an item's answers, and into the player at it.

`arena dashboard --replays R --exams E` as a person starts it, driven by Debian chromium:
the page lists the results, an item shows every contestant's answer beside the truth, and
its button opens the player at the item's moment, from the item's seat.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main
from arena.exam.build import build
from arena.exam.files import read_exam
from tests.dashboard.browser import ARGS, CHROMIUM, SHOTS, dashboard
from tests.exam.games import play_games

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed"),
]


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("exam-browser")
    games = play_games(root / "replays", seeds=range(1, 3))
    exam = root / "exams" / "cup" / "exam.jsonl"
    exam.parent.mkdir(parents=True)
    build(games, exam, seed=0, kinds=("vote", "speech"), per_game=4)
    args = ["exam", "run", str(exam), "--out", str(exam.parent), "--quiet"]
    assert main([*args, "--seat", "bot", "--seat", "random"]) == 0
    return root / "replays", root / "exams"


@pytest.fixture(scope="module")
def page(folders: tuple[Path, Path]) -> Iterator[Any]:
    replays, exams = folders
    SHOTS.mkdir(exist_ok=True)
    with dashboard(replays, "--exams", str(exams)) as url, playwright_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        tab = chromium.new_page(viewport={"width": 1400, "height": 1000})
        tab.set_default_timeout(60_000)
        tab.goto(f"{url}/exams?lang=en")
        yield tab
        chromium.close()


def test_an_item_opens_in_the_player_at_its_moment_from_its_seat(
    page: Any, folders: tuple[Path, Path]
) -> None:
    _, exams = folders
    page.get_by_text("items from 2 games").first.wait_for()
    page.get_by_text("bot · its own answer").first.wait_for()
    cells = page.locator("[role=gridcell]", has_text="random")
    playwright_api.expect(cells).not_to_have_count(0)  # the tables have painted
    page.get_by_role("button", name=re.compile("Open in the player")).wait_for()
    body = page.inner_text("body")
    assert "random · its own answer" in body and "Truth:" in body
    page.wait_for_timeout(300)  # let the tables finish their first paint
    page.screenshot(path=str(SHOTS / "exam-1-item.png"), full_page=True)
    first = next(i for i in read_exam(exams / "cup" / "exam.jsonl").items if i.kind == "vote")
    page.locator(".st-key-exam_open button").click()
    page.wait_for_url(re.compile(r"/player\?"))
    assert f"view=seat%3A{first.seat}" in page.url or f"view=seat:{first.seat}" in page.url
    assert f"step={first.until}" in page.url
    page.get_by_text(f"· {first.until} / ").first.wait_for()
    page.get_by_text(f"👁 Seat {first.seat}").first.wait_for()
    page.screenshot(path=str(SHOTS / "exam-2-player.png"), full_page=True)
