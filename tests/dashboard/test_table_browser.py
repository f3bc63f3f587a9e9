"""The seat table in a real browser: one drawing on the Play, Live and player pages.

Debian chromium (playwright) against `arena dashboard` with a Redis server: a seat's Play
page of a game hosted by this test on the dashboard's desk, the Live page of a game
published to the live stream, and the replay player. Each page at 400 px (a phone) and
1400 px, in 繁體 and 简体: no page is wider than the window, every seat of the table is
on screen within the window's width, and the page is in its own script only (the table
in Chinese, no Latin word in it). The screenshots go to `screenshots/`, and with
`ARENA_DOCS_SHOTS=1` also to `docs/images/`, where docs/play.md shows them.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from arena.dashboard.i18n import Lang, text
from arena.humans.hosting import join_query
from arena.storage.redis_keys import live_index, live_stream
from arena.text.hans import to_hans
from tests.dashboard.browser import CHROMIUM, SHOTS, chromium, dashboard
from tests.dashboard.games import make_game
from tests.support.redis_db import LIVE_URL, REDIS_URL

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.redis,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed"),
]
WIDTHS = (400, 1400)
SCRIPTS: tuple[Lang, ...] = ("zh-Hant", "zh-Hans")
DOCS = Path(__file__).resolve().parents[2] / "docs" / "images"
PICKER = ("Language · 语言 · 語言", "简体中文", "繁體中文")
"""The language picker names every language in its own script, on every page."""


def _catalog_chars() -> tuple[set[str], set[str]]:
    """(Traditional-only, Simplified-only) characters of the catalog's Chinese."""
    hant = (Path(__file__).resolve().parents[2] / "arena" / "text" / "zh.yaml").read_text("utf-8")
    hans = to_hans(hant)
    return {c for c in hant if to_hans(c) != c}, set(hans) - set(hant)


TRADITIONAL, SIMPLIFIED = _catalog_chars()


def other_script(body: str, lang: Lang) -> list[str]:
    """The characters of `body` in the other Chinese script than `lang`'s."""
    for name in PICKER:
        body = body.replace(name, "")
    if lang == "zh-Hans":
        return sorted({c for c in body if to_hans(c) != c})
    return sorted({c for c in body if c in SIMPLIFIED and c not in TRADITIONAL})


def shot(page: Any, name: str) -> None:
    """The window as a person sees it, kept for people (and for the docs when asked)."""
    SHOTS.mkdir(exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.locator(".arena-table").scroll_into_view_if_needed()
    page.screenshot(path=str(path))
    if os.environ.get("ARENA_DOCS_SHOTS"):
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, DOCS / path.name)


def check_table(page: Any, seats: int, lang: Lang, width: int) -> str:
    """Every seat on screen within the window, no page wider than it; the table's text."""
    table = page.locator(".arena-table")
    table.wait_for()
    for n in range(1, seats + 1):
        seat = table.locator(f'[data-seat="{n}"]')
        assert seat.is_visible(), n
        box = seat.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (
            n,
            box,
        )
        assert seat.inner_text().startswith(("👤", "💀")), seat.inner_text()
        assert text("seat.one", lang, n=n) in seat.inner_text()
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"the page is {wide} px wide in a {width} px window"
    said = str(table.inner_text())
    assert not re.search(r"[A-Za-z]", said), said
    return said


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("table-replays")
    make_game(root / "marked.jsonl", seed=3)
    return root


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[str]:
    with dashboard(folder, "--redis", REDIS_URL) as url:
        yield url


@pytest.fixture(scope="module")
def live_server(folder: Path) -> Iterator[str]:
    with dashboard(folder, "--redis", LIVE_URL) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as opened:
        yield opened


def tab(browser: Any, width: int) -> Any:
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.set_default_timeout(60_000)
    return page


@pytest.mark.timeout(900)
def test_the_player_draws_the_table_at_both_widths_in_both_scripts(
    server: str, browser: Any
) -> None:
    """A seat's view of a replay: its own card, the seats out, the speaker in the middle."""
    for lang in SCRIPTS:
        for width in WIDTHS:
            page = tab(browser, width)
            page.goto(f"{server}/player?game=marked.jsonl&view=seat:3&step=60&lang={lang}")
            said = check_table(page, 12, lang, width)
            assert text("play.mark_you", lang) in said
            assert not other_script(page.inner_text("body"), lang)
            shot(page, f"table-player-{lang}-{width}")
            page.close()


@pytest.mark.timeout(900)
def test_the_live_page_draws_the_table_at_both_widths_in_both_scripts(
    live_server: str, browser: Any, folder: Path
) -> None:
    """A game running on a worker (its stream half published), public view."""
    lines = (folder / "marked.jsonl").read_text("utf-8").splitlines()
    header = json.loads(lines[0])
    lines[0] = json.dumps({**header, "result": None}, ensure_ascii=False)  # still running
    client = redis.Redis.from_url(LIVE_URL)
    game = "table-live"
    client.zadd(live_index(), {game: 1_700_000_000.0})
    for seq, line in enumerate(lines[:80]):
        client.xadd(live_stream(game), {"seq": seq, "line": line})
    try:
        for lang in SCRIPTS:
            for width in WIDTHS:
                page = tab(browser, width)
                page.goto(f"{live_server}/live?lang={lang}")
                check_table(page, 12, lang, width)
                assert not other_script(page.inner_text("body"), lang)
                shot(page, f"table-live-{lang}-{width}")
                page.close()
    finally:
        client.zrem(live_index(), game)
        client.delete(live_stream(game))


@pytest.mark.timeout(900)
def test_a_seat_s_play_page_draws_the_table_at_both_widths_in_both_scripts(
    server: str, browser: Any, tmp_path: Path
) -> None:
    """A person's seat in a Chinese game hosted on the dashboard's desk, waiting on them."""
    from arena.humans.host import host_game
    from arena.humans.lobby import create_game
    from arena.storage.desk import Pace, SeatPlan
    from arena.storage.redis_desk import RedisDesk

    desk = RedisDesk.from_url(REDIS_URL)
    seats = {n: SeatPlan(kind="human", name="ann") if n == 1 else SeatPlan(kind="bot")
             for n in range(1, 10)}  # fmt: skip
    game, tokens = create_game(
        desk, "std9", seats, lang="zh", pace=Pace(night_s=0, step_s=0, window_s=0),
        decision_timeout_s=600.0, speech_timeout_s=600.0,
    )  # fmt: skip
    threading.Thread(
        target=lambda: asyncio.run(host_game(desk, game, tmp_path / "r", tmp_path / "l", seed=5)),
        daemon=True,
    ).start()
    for lang in SCRIPTS:
        for width in WIDTHS:
            page = tab(browser, width)
            page.goto(f"{server}/play?{join_query(game, 1, lang, tokens[1])}")
            page.locator("[class*='st-key-req'] button").first.wait_for()  # the decision
            said = check_table(page, 9, lang, width)
            assert text("play.mark_you", lang) in said
            assert not other_script(page.inner_text("body"), lang)
            shot(page, f"table-play-{lang}-{width}")
            page.close()
