"""The player's one-line warning on a forged game, in a real browser (issue 19).

The forged set beside its original (tests/support/forgery.py), served by a real
Streamlit server and opened in Debian's chromium; the screenshot goes under
`screenshots/` for a person to look at.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.dashboard.browser import ARGS, CHROMIUM, SHOTS, dashboard
from tests.support.forgery import forged_set, play

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("forged-browser")
    forged_set(play(folder / "original.jsonl", "std9-real", seed=11), folder)
    with dashboard(folder) as url:
        yield url


def test_the_player_warns_on_a_forged_game_and_not_on_the_original(server: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    with playwright_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = chromium.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(30_000)
        page.goto(f"{server}/player?game=agents.jsonl&lang=en")
        alert = page.locator("[data-testid=stAlert]").first
        alert.wait_for()
        text = alert.inner_text()
        assert "does not verify" in text and "bad signature" in text
        page.screenshot(path=str(SHOTS / "player-forged-warning.png"))
        page.goto(f"{server}/player?game=original.jsonl&lang=en")
        page.get_by_text("std9-real").first.wait_for()
        assert "does not verify" not in page.inner_text("[data-testid=stMain]")
        chromium.close()
