"""A person plays a whole game in one seat against bots by clicking through the Play page.

Debian chromium driven by playwright against `streamlit run arena/dashboard/app.py` on a
free loopback port, with the game hosted in the dashboard's own process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.replay_check import check_replay
from arena.rules import events as ev
from arena.storage.replay_file import read_replay
from tests.dashboard.games import APP
from tests.dashboard.test_browser import ARGS, CHROMIUM, SHOTS, free_port, wait_healthy

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed"),
]
GAME_LIMIT_S = 300.0
"""Bound on a whole clicked-through game (a failure, never a measurement)."""


def start_dashboard(replays: Path, *extra: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [
        sys.executable, "-m", "streamlit", "run", str(APP), "--server.port", str(port),
        "--server.address", "127.0.0.1", "--server.headless", "true",
        "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
        "--", "--replays", str(replays), *extra,
    ]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k not in {"ARENA_REPLAYS", "ARENA_REDIS_URL"}}
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, process)
    except BaseException:
        process.terminate()
        raise
    return process, url


@pytest.fixture(scope="module")
def replays(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("play-replays")


@pytest.fixture(scope="module")
def server(replays: Path) -> Iterator[str]:
    process, url = start_dashboard(replays)
    try:
        yield url
    finally:
        process.terminate()
        process.wait(timeout=20)


def create(page: Any, url: str, name: str, humans: tuple[int, ...] = (1,)) -> dict[int, str]:
    """Create a std9 game on the Play page; returns each human seat's join link."""
    page.goto(f"{url}/play")
    page.get_by_text("Who plays each seat").wait_for()
    for seat in range(1, 10):
        want = "human" if seat in humans else "bot"
        box = page.locator(f".st-key-play_kind_{seat} [role=combobox]")
        box.click()
        box.press_sequentially(want)
        box.press("Enter")
    for seat in humans:
        page.locator(f".st-key-play_name_{seat} input").fill(f"{name}{seat}")
    page.locator(".st-key-play_lang").get_by_text("en", exact=True).click()
    page.get_by_role("button", name="Create").click()
    page.get_by_text("Join links").wait_for()
    page.wait_for_timeout(300)
    codes = page.locator("code").all_inner_texts()
    found = {int(c.split("seat=")[1].split("&")[0]): c.strip() for c in codes if "token=" in c}
    assert sorted(found) == sorted(humans)
    return {seat: f"{url}/{link}" for seat, link in found.items()}


def answer_once(page: Any) -> bool:
    """Answer the pending decision, if one is shown: a speech, or the first choice."""
    area = page.locator("[class*='st-key-req'][class*='_text'] textarea")
    if area.count():
        area.first.fill("I am a villager, trust me")
        area.first.press("Control+Enter")
        page.locator("[class*='st-key-req'][class*='_say'] button").first.click()
        return True
    line = page.locator("[class*='st-key-req'][class*='_text'] input")
    if line.count():
        line.first.fill("knife the loudest")
        line.first.press("Enter")
        page.locator("[class*='st-key-req'][class*='_send'] button").first.click()
        return True
    buttons = page.locator("[class*='st-key-req'] button")
    if buttons.count():
        buttons.first.click()
        return True
    return False


def play_through(page: Any, seed_text: list[str]) -> int:
    """Click through decisions until the game is over; returns how many were answered."""
    answered = 0
    deadline = time.monotonic() + GAME_LIMIT_S
    while "Game over" not in (body := page.inner_text("body")):
        assert time.monotonic() < deadline, "the game did not finish"
        seed_text.append(body)
        try:
            answered += answer_once(page)
        except playwright_api.Error:
            pass  # the page reran under the click; look again
        page.wait_for_timeout(150)
    seed_text.append(page.inner_text("body"))
    return answered


def test_a_person_plays_a_whole_game_by_clicking(server: str, replays: Path) -> None:
    SHOTS.mkdir(exist_ok=True)
    bodies: list[str] = []
    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(viewport={"width": 1300, "height": 1500})
        links = create(page, server, "ann")
        page.screenshot(path=str(SHOTS / "play-1-links.png"), full_page=True)
        page.goto(links[1])
        page.get_by_text("You are #1 · ann1").wait_for()
        page.screenshot(path=str(SHOTS / "play-2-seat.png"), full_page=True)
        answered = play_through(page, bodies)
        page.screenshot(path=str(SHOTS / "play-3-over.png"), full_page=True)
        browser.close()
    assert answered >= 3
    (path,) = replays.glob("*.jsonl")
    assert check_replay(path).ok
    replay = read_replay(path)
    assert replay.header.seats[0].agent == "human:ann1"
    answers = [a for a in replay.answers if a.seat == 1]
    assert answers and not any(a.defaulted for a in answers)
    assert not any(isinstance(e, ev.ActionDefaulted) and e.seat == 1 for e in replay.events)
    for body in bodies:
        assert str(replay.header.seed) not in body
        assert "human:" not in body and "bot" not in body.lower().replace("bots", "")


def test_join_links_need_their_own_seat_token(server: str) -> None:
    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page()
        links = create(page, server, "eve", humans=(2, 5))
        token_of_5 = links[5].split("token=")[1]
        for link in (
            links[2].split("&token=")[0],
            links[2].split("&token=")[0] + "&token=guess",
            links[2].split("&token=")[0] + f"&token={token_of_5}",
        ):
            page.goto(link)
            page.get_by_text("This join link is not valid.").wait_for()
            assert "You are" not in page.inner_text("body")
        page.goto(links[5])
        page.get_by_text("You are #5 · eve5").wait_for()
        browser.close()
