"""The Leaderboard page in a real browser: the head-to-head matrix drawn, in both languages.

A three-agent tournament (`bot`, `noisy:0.5:bot`, `random`, three mirrored deals) is rated
and shown by `arena dashboard` in Debian chromium, at 1400 px in English and at 400 px in
Simplified Chinese: the matrix's cells are drawn (Vega's SVG text) with each agent's score
and its games, the separated ones outlined, and a Chinese page shows no English word in
the new sections. Screenshots go under `screenshots/` (git-ignored).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from arena.cli import main
from tests.dashboard.browser import CHROMIUM, SHOTS, chromium, dashboard

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed"),
]
TOURNAMENT = (
    "name: lbb\nagents: {bot: bot, half: 'noisy:0.5:bot', rnd: random}\nboards: [std9]\n"
    "games_per_pairing: 3\n"
)
CHARTS = "[data-testid=stVegaLiteChart]"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("leaderboard-browser")
    spec = root / "lbb.yaml"
    spec.write_text(TOURNAMENT, encoding="utf-8")
    folder = root / "replays"
    assert main(["tournament", "run", str(spec), "--replays", str(folder), "--workers", "2"]) == 0
    with dashboard(folder) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as opened:
        yield opened


def _cells(page: Any, games: str) -> list[str]:
    """The grids' cell texts drawn so far (Vega's SVG text, its lines run together)."""
    page.locator(f"{CHARTS} svg text", has_text=games).first.wait_for()
    texts = page.locator(f"{CHARTS} svg text").all_text_contents()
    return [t for t in texts if t.endswith(games)]


@pytest.mark.parametrize(
    ("lang", "width", "title", "games"),
    [("en", 1400, "Head to head", "6 games"), ("zh-Hans", 400, "对战", "6 局")],
)
def test_the_head_to_head_matrix_is_drawn(
    server: str, browser: Any, lang: str, width: int, title: str, games: str
) -> None:
    page = browser.new_page(viewport={"width": width, "height": 3600})
    page.set_default_timeout(120_000)
    try:
        page.goto(f"{server}/leaderboard?lang={lang}")
        page.get_by_text(title, exact=False).first.wait_for()
        drawn = _cells(page, games)
        assert len(drawn) == 6  # three pairs, seen from both sides
        assert sum(cell.startswith(("100%±", "0%±")) for cell in drawn) >= 4  # the bot's 4
        page.locator(CHARTS).nth(4).wait_for()  # ratings, wins, matrix, win table, deception
        page.wait_for_timeout(500)  # let the charts finish their first paint
        page.screenshot(path=str(SHOTS / f"leaderboard-{lang}-{width}.png"), full_page=True)
        if lang != "en":
            main_text = page.inner_text("[data-testid=stMain]")
            section = main_text[main_text.index(title) : main_text.index("欺骗")]
            names = {"bot", "half", "rnd", "Wilson"}  # the tournament's agent names
            english = set(re.findall(r"[A-Za-z]{2,}", section)) - names
            assert not english, english
    finally:
        page.close()
