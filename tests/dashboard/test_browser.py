"""The dashboard in a real browser: Debian chromium driven by playwright.

Starts `streamlit run dashboard/app.py` on a free loopback port over a temporary replay
folder, opens a replay from the list, switches the viewpoint, scrubs the timeline, and
saves screenshots under `screenshots/` (git-ignored) at the repository root.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.dashboard.loading import Loaded, load
from arena.rules import events as ev
from arena.rules.roles import spec
from arena.rules.types import Role
from arena.rules.visibility import SeatViewer
from tests.dashboard.games import APP, make_game
from tests.dashboard.leaks import leaks

playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip
SHOTS = Path(__file__).resolve().parents[2] / "screenshots"
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed"),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(url: str, process: subprocess.Popen[bytes], limit_s: float = 60) -> None:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        assert process.poll() is None, "streamlit exited early"
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise AssertionError("the dashboard did not come up")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("browser-replays")
    make_game(root / "marked.jsonl", seed=3)
    make_game(root / "other.jsonl", seed=1)
    (root / "broken.jsonl").write_text("garbage\n", "utf-8")
    return root


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[str]:
    port = free_port()
    command = [
        sys.executable, "-m", "streamlit", "run", str(APP), "--server.port", str(port),
        "--server.address", "127.0.0.1", "--server.headless", "true",
        "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
        "--", "--replays", str(folder),
    ]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k not in {"ARENA_REPLAYS", "ARENA_REDIS_URL"}}
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, process)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=20)


def dealt(game: Loaded) -> tuple[Role, ...]:
    return next(e.roles for e in game.replay.events if isinstance(e, ev.RolesDealt))


def pick(page: object, key: str, option: str) -> None:
    """Choose `option` in the Streamlit selectbox with widget key `key`."""
    page.locator(f".st-key-{key} [role=combobox]").click()  # type: ignore[attr-defined]
    page.get_by_role("option", name=option, exact=True).click()  # type: ignore[attr-defined]


def test_open_switch_viewpoint_and_scrub(server: str, folder: Path) -> None:
    SHOTS.mkdir(exist_ok=True)
    game = load(folder / "marked.jsonl")
    total = len(game.replay.events)
    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1600})
        page.goto(server)
        page.get_by_text("Unreadable files: 1").wait_for()
        cell = page.locator("[role=gridcell]", has_text="marked.jsonl")
        playwright_api.expect(cell).to_have_count(1)
        page.screenshot(path=str(SHOTS / "dashboard-1-replays.png"))

        pick(page, "pick_game", "marked.jsonl")
        page.locator(".st-key-open_game button").click()
        page.get_by_text(f"{total} / {total}").wait_for()
        assert "game=marked.jsonl" in page.url
        page.screenshot(path=str(SHOTS / "dashboard-2-player-public.png"))

        pick(page, "view", "Seat 3")
        page.get_by_text("👁 Seat 3").wait_for()
        thumb = page.locator(".st-key-step input[type=range]")
        thumb.focus()
        page.keyboard.press("Home")
        page.get_by_text(f"0 / {total}").wait_for()
        for _ in range(40):
            page.keyboard.press("ArrowRight")
        page.get_by_text(f"40 / {total}").wait_for()
        page.wait_for_timeout(500)
        assert "step=40" in page.url
        body = page.inner_text("body")
        own = spec(dealt(game)[2]).en
        assert re.search(rf"#3 \S+ {own}", body), "the seat board shows the seat's own card"
        assert not leaks(body, game, SeatViewer(seat=3), 40)
        page.screenshot(path=str(SHOTS / "dashboard-3-seat3-step40.png"), full_page=True)

        pick(page, "view", "God (referee)")
        page.get_by_text("👁 God (referee)").wait_for()
        thumb.focus()
        page.keyboard.press("End")
        page.get_by_text(f"{total} / {total}").wait_for()
        page.get_by_role("tab", name="Beliefs").click()
        page.wait_for_timeout(1500)
        page.screenshot(path=str(SHOTS / "dashboard-4-god-beliefs.png"), full_page=True)
        browser.close()
