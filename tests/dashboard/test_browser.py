"""The dashboard in a real browser: Debian chromium driven by playwright.

Starts `streamlit run dashboard/app.py` on a free loopback port over a temporary
replay folder, and uses it as a person would: opens a replay from the list, plays it,
drives it from the keyboard, switches viewpoint and language, reads a hostile speech and
watches a live game start and end. Screenshots go under `screenshots/` (git-ignored) at
the repository root. Every wait is for something to appear on the page, never a sleep
that assumes a speed.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis

from arena.dashboard.i18n import t, text
from arena.dashboard.loading import Loaded, load
from arena.dashboard.play_words import role_text
from arena.dashboard.projection import moments
from arena.rules import events as ev
from arena.rules.types import Role
from arena.rules.visibility import SeatViewer
from arena.storage.redis_keys import live_index, live_stream
from tests.dashboard.browser import CHROMIUM, SHOTS, chromium, dashboard
from tests.dashboard.games import make_game, make_hostile
from tests.dashboard.leaks import leaks
from tests.support.redis_db import LIVE_URL

playwright_api = pytest.importorskip("playwright.sync_api")

WIDTH = 1400
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed"),
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("browser-replays")
    make_game(root / "marked.jsonl", seed=3)
    make_game(root / "other.jsonl", seed=1)
    make_hostile(root / "marked.jsonl", root / "hostile.jsonl")
    (root / "broken.jsonl").write_text("garbage\n", "utf-8")
    return root


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[str]:
    with dashboard(folder, "--redis", LIVE_URL) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as opened:
        yield opened


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    tab = browser.new_page(viewport={"width": WIDTH, "height": 1000})
    tab.set_default_timeout(30_000)
    yield tab
    tab.close()


def dealt(game: Loaded) -> tuple[Role, ...]:
    return next(e.roles for e in game.replay.events if isinstance(e, ev.RolesDealt))


def pick(page: Any, key: str, option: str) -> None:
    """Choose `option` in the Streamlit selectbox with widget key `key`."""
    page.locator(f".st-key-{key} [role=combobox]").click()
    page.get_by_role("option", name=option, exact=True).click()


def at_step(page: Any, step: int, total: int) -> None:
    page.get_by_text(f"· {step} / {total}", exact=False).first.wait_for()


def current_step(page: Any, total: int) -> int:
    found = re.search(rf"(\d+) / {total}\b", page.inner_text("[data-testid=stMain]"))
    assert found, "the step caption is on the page"
    return int(found.group(1))


def shoot(page: Any, name: str) -> None:
    page.wait_for_timeout(300)  # let charts finish their first paint
    page.screenshot(path=str(SHOTS / f"dashboard-{name}.png"), full_page=True)


def test_list_open_play_and_drive_from_the_keyboard(server: str, folder: Path, page: Any) -> None:
    game = load(folder / "marked.jsonl")
    total = len(game.replay.events)
    page.goto(server)
    page.get_by_text("Unreadable files: 1").wait_for()
    playwright_api.expect(page.locator("[role=gridcell]", has_text="marked.jsonl")).to_have_count(1)
    # The grid puts only the columns in view into its accessible table.
    shown = page.locator("[role=columnheader]").all_inner_texts()
    assert "winner" in shown and "days" in shown, ("the winner column is in view", shown)
    assert str(folder) not in page.inner_text("body"), "the server's folder is not shown"
    shoot(page, "1-replays")

    pick(page, "pick_game", "marked.jsonl")
    page.locator(".st-key-open_game button").click()
    at_step(page, 0, total)
    assert "game=marked.jsonl" in page.url
    assert "****" not in page.inner_text("body")

    page.locator("h1").click()  # the page has the keyboard focus, not a widget
    page.keyboard.press("End")
    at_step(page, total, total)
    page.keyboard.press("Home")
    at_step(page, 0, total)
    page.keyboard.press("ArrowRight")
    at_step(page, 1, total)
    page.keyboard.press("s")
    at_step(page, moments(game.replay).speeches[0], total)
    page.keyboard.press("v")
    at_step(page, moments(game.replay).votes[0], total)
    shoot(page, "2-player-public-first-vote")

    start = current_step(page, total)
    page.locator(".st-key-play button").click()
    at_step(page, start + 3, total)  # autoplay keeps going, not one step and stop
    page.locator(".st-key-play button").click()
    page.get_by_role("button", name=re.compile("Play")).wait_for()
    paused = current_step(page, total)
    page.wait_for_timeout(2000)
    assert current_step(page, total) == paused, "pause stops the playback"

    pick(page, "view_pick_en", "Seat 3")
    page.get_by_text("👁 Seat 3").wait_for()
    page.goto(f"{server}/player?game=marked.jsonl&view=seat:3&step=40")
    at_step(page, 40, total)
    own = role_text(dealt(game)[2], "en")
    card = page.locator('.arena-table [data-seat="3"]')
    playwright_api.expect(card).to_contain_text(own)  # the seat board shows its own card
    assert "#3 · ⭐ you" in card.inner_text()
    body = page.inner_text("body")
    assert not leaks(body, game, SeatViewer(seat=3), 40)
    shoot(page, "3-seat3-step40")


def test_languages_keep_the_viewpoint_and_live_in_the_url(server: str, page: Any) -> None:
    page.goto(f"{server}/player?game=marked.jsonl&view=seat:3&step=120")
    page.get_by_text("👁 Seat 3").wait_for()
    steps = [("简体中文", "zh-Hans", "3号玩家"), ("繁體中文", "zh-Hant", "3號玩家"),
             ("English", "en", "Seat 3"), ("简体中文", "zh-Hans", "3号玩家")]  # fmt: skip
    for lang, label, seat in steps:
        page.get_by_text(lang, exact=True).click()
        page.get_by_text(f"👁 {seat}").wait_for()
        playwright_api.expect(page.locator(f".st-key-view_pick_{label} input")).to_have_value(seat)
        assert f"lang={label}" in page.url and "view=seat%3A3" in page.url.replace(":", "%3A")
    shoot(page, "4-seat3-zh-Hans")
    page.goto(f"{server}/player?game=marked.jsonl&view=god&step=end&lang=zh-Hant")
    page.get_by_text("👁 上帝視角").wait_for()
    page.get_by_role("tab", name="信念", exact=True).click()
    page.get_by_text("隨時間變化").wait_for()
    shoot(page, "5-god-beliefs-zh-Hant")
    page.goto(f"{server}/leaderboard?lang=zh")
    page.get_by_text("欺骗与识破").wait_for()
    shoot(page, "6-leaderboard-zh-Hans")


def test_a_hostile_speech_shows_literally(server: str, page: Any) -> None:
    page.goto(f"{server}/player?game=hostile.jsonl&view=public&step=end")
    page.get_by_role("tab", name="Speeches", exact=True).click()
    bubbles = page.locator("[data-testid=stChatMessage]")
    speech = bubbles.get_by_text("**bold** # heading [link](http://evil.example) <b>tag</b>")
    speech.wait_for()
    bubbles.get_by_text("\\x1b[2J\\x07 \\u202eevil").wait_for()
    assert page.locator("a[href*='evil.example']").count() == 0, "no link was made"
    assert page.locator("[data-testid=stMain] b", has_text="tag").count() == 0
    assert page.locator("[data-testid=stMain] img[src=x]").count() == 0
    assert page.locator(".katex").count() == 0, "no math was typeset"
    assert page.locator("[data-testid=stMain] h1", has_text="heading").count() == 0
    speech.scroll_into_view_if_needed()
    shoot(page, "7-hostile-speech")


@pytest.mark.redis
def test_the_live_page_notices_new_and_finished_games(page: Any, server: str, folder: Path) -> None:
    client = redis.Redis.from_url(LIVE_URL)
    lines = (folder / "marked.jsonl").read_text("utf-8").splitlines()
    finished_header = lines[0]
    lines[0] = json.dumps({**json.loads(lines[0]), "result": None}, ensure_ascii=False)
    first, second = (f"browser-{uuid.uuid4().hex[:8]}" for _ in range(2))
    try:
        client.zadd(live_index(), {first: 1_700_000_000.0})
        for seq, line in enumerate(lines[:-1]):
            client.xadd(live_stream(first), {"seq": seq, "line": line})
        page.goto(f"{server}/live")
        chosen = page.locator(".st-key-live_game input")
        playwright_api.expect(chosen).to_have_value(re.compile(rf"{first} · "))
        page.get_by_text("● running").wait_for()
        client.zadd(live_index(), {second: 1_700_000_100.0})
        client.xadd(live_stream(second), {"seq": 0, "line": lines[0]})
        page.locator(".st-key-live_game [role=combobox]").click()
        page.get_by_role("option", name=re.compile(second)).wait_for()  # no click on ↻
        page.keyboard.press("Escape")
        client.xadd(live_stream(first), {"seq": len(lines) - 1, "line": lines[-1]})
        client.xadd(live_stream(first), {"seq": len(lines), "line": finished_header})
        client.zrem(live_index(), first)
        page.get_by_text(re.compile(r"finished: (good|wolves) won|finished: a draw")).wait_for()
        playwright_api.expect(chosen).to_have_value(re.compile(rf"{first} · "))
        playwright_api.expect(page.get_by_text("● running")).to_have_count(0)
        shoot(page, "8-live-finished")
    finally:
        client.zrem(live_index(), first, second)
        client.delete(live_stream(first), live_stream(second))


def test_seat_cards_keep_their_width_on_a_narrow_window(server: str, browser: Any) -> None:
    """Round the table at 1400 px (seats 1-4 along its top, 7-10 along its bottom); at
    800 px beside the sidebar no card narrower than its room: never six columns of about
    65 px, breaking a role or agent a few letters a line."""
    rows: dict[int, list[float]] = {}
    for width in (WIDTH, 800):
        tab = browser.new_page(viewport={"width": width, "height": 1000})
        tab.set_default_timeout(30_000)
        tab.goto(f"{server}/player?game=marked.jsonl&view=god&step=40")
        tab.locator(".st-key-play button").wait_for()  # the page above the cards is drawn
        seat = tab.locator(".arena-table [data-seat]")
        boxes: list[Any] = []
        for _ in range(50):  # the cards move while the page settles: read until they stay
            seen = [seat.nth(n).bounding_box() for n in range(12)]
            if seen == boxes:
                break
            boxes = seen
            tab.wait_for_timeout(300)
        shoot(tab, f"9-seat-cards-{width}")
        assert all(b is not None and b["width"] >= 105 for b in boxes), (width, boxes)
        rows[width] = [b["y"] for b in boxes if b is not None]
        tab.close()
    top, bottom = rows[WIDTH][:4], rows[WIDTH][6:10]
    assert len({round(y) for y in top}) == 1 and len({round(y) for y in bottom}) == 1, rows
    assert min(bottom) > max(rows[WIDTH][4:6]) > max(top), "the ring: top, sides, bottom"


PAGES = [
    ("", "📚", "replays"),
    ("replays", "📚", "replays"),
    ("player", "🎬", "player"),
    ("leaderboard", "🏆", "leaderboard"),
    ("exams", "📝", "exams"),
    ("live", "📡", "live"),
    ("play", "🎲", "play.title"),
]


@pytest.mark.parametrize(("path", "icon", "key"), PAGES)
def test_every_page_answers_at_the_path_its_name_suggests(
    server: str, page: Any, path: str, icon: str, key: str
) -> None:
    """The sidebar's names are the paths: `/replays` is the list (the bare address too),
    in the language the link carries, never "Page not found"."""
    page.goto(f"{server}/{path}?lang=zh-Hans")
    name = text(key, "zh-Hans") if "." in key else t(key, "zh-Hans")
    page.locator("h1", has_text=f"{icon} {name}").wait_for()
    assert "Page not found" not in page.inner_text("body")
    assert urlsplit(page.url).path == f"/{path or 'replays'}"


@pytest.mark.parametrize(("width", "shown"), [(400, False), (1400, True)])
def test_keyboard_hints_are_hidden_on_a_phone(
    server: str, browser: Any, width: int, shown: bool
) -> None:
    """The player's buttons carry their shortcut (Space, Left, …): no use on a phone."""
    tab = browser.new_page(viewport={"width": width, "height": 900})
    tab.set_default_timeout(30_000)
    try:
        tab.goto(f"{server}/player?game=marked.jsonl&view=god&step=40")
        tab.locator(".st-key-play button").wait_for()
        hint = tab.locator(".st-key-play kbd")
        assert hint.count() == 1 and hint.inner_text() == "Space"
        assert hint.is_visible() is shown
    finally:
        tab.close()
