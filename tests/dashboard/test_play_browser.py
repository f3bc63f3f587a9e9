"""A person plays a whole game in one seat against bots by clicking through the Play page.

Debian chromium driven by playwright against `streamlit run dashboard/app.py` on a
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

from arena.board_file import EXAMPLES, load_board_file
from arena.dashboard.i18n import Lang, text
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
FAST = (1.0, 0.2, 0.5)
"""A short but real pace (night, night step, window): the pages run through the hold."""


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


def create(
    page: Any,
    url: str,
    name: str,
    humans: tuple[int, ...] = (1,),
    where: str = "here",
    *,
    lang: Lang = "en",
    game: str = "en",
    pace: tuple[float, float, float] = FAST,
    board: Path | None = None,
    seats: int = 9,
) -> dict[int, str]:
    """Create a game on the Play page; returns each human seat's join link.

    The board is std9, or the board file `board` (uploaded) of `seats` players. `lang` is
    the page's language, `game` the game's; `pace` the night floor, the night step floor
    and the self-explosion window, in seconds.
    """
    page.goto(f"{url}/play?lang={lang}")
    SHOTS.mkdir(exist_ok=True)
    page.get_by_text(text("play.who", lang)).wait_for()
    if board is not None:
        upload_board(page, board, lang)
        page.locator(f".st-key-play_kind_{seats}").wait_for()
    for seat in range(1, seats + 1):
        want = text(f"play.kind_{'human' if seat in humans else 'bot'}", lang)
        box = page.locator(f".st-key-play_kind_{seat} [role=combobox]")
        box.click()
        box.press_sequentially(want)
        box.press("Enter")
    for seat in humans:
        page.locator(f".st-key-play_name_{seat} input").fill(f"{name}{seat}")
    page.locator(".st-key-play_lang").get_by_text(
        text(f"play.lang_{game}", lang), exact=True
    ).click()
    for key, value in zip(("play_night", "play_step", "play_window"), pace, strict=True):
        page.locator(f".st-key-{key} input").fill(str(value))
    if where == "worker":
        page.locator(".st-key-play_where").get_by_text(text("play.worker", lang)).click()
    page.get_by_role("button", name=text("play.start", lang), exact=True).click()
    page.get_by_text(text("play.links", lang)).wait_for()
    codes: list[str] = []
    for _ in range(100):  # the links' code blocks render just after the heading
        codes = [c for c in page.locator("code").all_inner_texts() if "token=" in c]
        if len(codes) == len(humans):
            break
        page.wait_for_timeout(100)
    found = {int(c.split("seat=")[1].split("&")[0]): c.strip() for c in codes if "token=" in c}
    assert sorted(found) == sorted(humans)
    return {seat: f"{url}/{link}" for seat, link in found.items()}


def upload_board(page: Any, path: Path, lang: Lang = "en") -> None:
    """Pick "a board file from your computer" and upload `path` as that file."""
    box = page.locator(".st-key-play_board [role=combobox]")
    box.click()
    box.press_sequentially(text("play.board_upload", lang)[:12])
    box.press("Enter")
    page.locator(".st-key-play_board_file input[type=file]").set_input_files(str(path))


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


def play_through(page: Any, seed_text: list[str], over: str = "Game over") -> int:
    """Click through decisions until the game is over; returns how many were answered."""
    answered = 0
    deadline = time.monotonic() + GAME_LIMIT_S
    while over not in (body := page.inner_text("body")):
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
        page.set_default_timeout(5000)  # a click lost to a rerun is retried
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


def test_two_people_play_one_chinese_game_from_two_browsers(server: str, replays: Path) -> None:
    """Simplified Chinese pages, a Chinese game hosted here, paced; each join link in its
    own browser context (no shared cookies or session), both people clicking to the end."""
    over = text("play.over", "zh-Hans", w="", f="").split("：")[0]
    bodies: dict[int, list[str]] = {3: [], 7: []}
    before = set(replays.glob("*.jsonl"))
    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        host = browser.new_context().new_page()
        links = create(host, server, "林", humans=(3, 7), lang="zh-Hans", game="zh")
        assert all("lang=zh-Hans" in link for link in links.values())
        pages = {}
        for seat in (3, 7):
            pages[seat] = browser.new_context().new_page()
            pages[seat].goto(links[seat])
            pages[seat].get_by_text(f"你是{seat}号 · 林{seat}").wait_for()
            pages[seat].set_default_timeout(5000)  # a click lost to a rerun is retried
        answered = 0
        deadline = time.monotonic() + GAME_LIMIT_S
        while not all(over in pages[s].inner_text("body") for s in pages):
            assert time.monotonic() < deadline, "the game did not finish"
            for seat, page in pages.items():
                bodies[seat].append(page.inner_text("body"))
                try:
                    answered += answer_once(page)
                except playwright_api.Error:
                    pass
            pages[3].wait_for_timeout(150)
        pages[7].screenshot(path=str(SHOTS / "play-4-zh-over.png"), full_page=True)
        browser.close()
    assert answered >= 4
    (path,) = set(replays.glob("*.jsonl")) - before
    assert check_replay(path).ok
    replay = read_replay(path)
    assert [replay.header.seats[s - 1].agent for s in (3, 7)] == ["human:林3", "human:林7"]
    people = [a for a in replay.answers if a.seat in (3, 7)]
    assert people and not any(a.defaulted for a in people), "every decision was clicked"
    for seat in (3, 7):
        assert any("你的身份" in b for b in bodies[seat])
        for body in bodies[seat]:
            assert str(replay.header.seed) not in body and "human:" not in body


@pytest.mark.redis
def test_two_people_in_two_browsers_through_redis_each_see_only_their_seat(
    tmp_path: Path,
) -> None:
    """Dashboard and worker share only the Redis server; a reload keeps the seat."""
    replays = tmp_path / "replays"
    redis_url = "redis://127.0.0.1:6379/0"
    worker = subprocess.Popen(
        [sys.executable, "-m", "arena.humans.worker", "--redis", redis_url, "--replays",
         str(replays), "--live", str(tmp_path / "live")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    dashboard, url = start_dashboard(tmp_path / "dash-replays", "--redis", redis_url)
    bodies: dict[int, list[str]] = {1: [], 2: []}
    try:
        with playwright_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            host = browser.new_context().new_page()
            links = create(host, url, "pat", humans=(1, 2), where="worker")
            pages = {}
            for seat in (1, 2):
                pages[seat] = browser.new_context().new_page()
                pages[seat].goto(links[seat])
                pages[seat].get_by_text(f"You are #{seat} · pat{seat}").wait_for()
                pages[seat].set_default_timeout(5000)  # a click lost to a rerun is retried
            reloaded = False
            answered = 0
            deadline = time.monotonic() + GAME_LIMIT_S
            while not all("Game over" in pages[s].inner_text("body") for s in (1, 2)):
                assert time.monotonic() < deadline, "the game did not finish"
                for seat, page in pages.items():
                    bodies[seat].append(page.inner_text("body"))
                    try:
                        answered += answer_once(page)
                    except playwright_api.Error:
                        pass
                if answered >= 4 and not reloaded:
                    pages[2].reload(timeout=60000)
                    pages[2].get_by_text("You are #2 · pat2").wait_for(timeout=60000)
                    reloaded = True
                pages[1].wait_for_timeout(150)
            browser.close()
    finally:
        dashboard.terminate()
        worker.terminate()
        dashboard.wait(20)
        worker.wait(20)
    assert reloaded
    (path,) = replays.glob("*.jsonl")
    assert check_replay(path).ok
    replay = read_replay(path)
    assert [s.agent for s in replay.header.seats[:2]] == ["human:pat1", "human:pat2"]
    dealt = next(e.roles for e in replay.events if isinstance(e, ev.RolesDealt))
    for seat, other in ((1, 2), (2, 1)):
        own = f"#{seat} is the {dealt[seat - 1].value.replace('_', ' ').capitalize()}"
        assert any(own in b for b in bodies[seat])
        for body in bodies[seat]:
            live = body.split("Game over")[0]
            assert f"#{other} is the " not in live, "another seat's card was shown"
            assert str(replay.header.seed) not in body


def test_a_person_plays_an_uploaded_board_file_to_the_end(
    server: str, replays: Path, tmp_path: Path
) -> None:
    """A bad file is one line on the page; a good one (10 seats) plays to a valid replay."""
    board = load_board_file(EXAMPLES / "guard_city10.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\nroles: {seeer: 1, werewolf: 1}\n", "utf-8")
    before = set(replays.glob("*.jsonl"))
    bodies: list[str] = []
    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(viewport={"width": 1300, "height": 1500})
        page.goto(f"{server}/play?lang=en")
        page.get_by_text(text("play.who", "en")).wait_for()
        upload_board(page, bad)
        message = "Cannot use this board file: bad.yaml: roles: unknown role 'seeer'"
        page.get_by_text(message).wait_for()
        body = page.inner_text("body")
        assert "Traceback" not in body and "play_kind_1" not in page.content()
        page.screenshot(path=str(SHOTS / "play-5-bad-board.png"), full_page=True)
        links = create(page, server, "kim", board=EXAMPLES / "guard_city10.yaml", seats=10)
        page.goto(links[1])
        page.get_by_text("You are #1 · kim1").wait_for()
        page.get_by_text("Board: 10-player guard + wolf king (city) (guard_city10)").wait_for()
        assert "#10" in page.inner_text("body")
        page.set_default_timeout(5000)  # a click lost to a rerun is retried
        page.screenshot(path=str(SHOTS / "play-6-custom-seat.png"), full_page=True)
        answered = play_through(page, bodies)
        browser.close()
    assert answered >= 2
    (path,) = set(replays.glob("*.jsonl")) - before
    assert path.stem.startswith("guard_city10-") and check_replay(path).ok
    replay = read_replay(path)
    assert replay.header.config.board == board and len(replay.header.seats) == 10
    assert replay.header.seats[0].agent == "human:kim1"
    assert any(f"#{board.seats} " in b for b in bodies), "the table has the board's seats"
    for body in bodies:
        assert str(replay.header.seed) not in body and "human:" not in body
