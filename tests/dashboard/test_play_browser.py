"""A person plays a whole game in one seat against bots by clicking through the Play page.

Debian chromium driven by playwright against `streamlit run dashboard/app.py` on a
free loopback port, with the game hosted in the dashboard's own process.
"""

from __future__ import annotations

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
from tests.dashboard.browser import ARGS, CHROMIUM, SHOTS, dashboard, start_dashboard
from tests.support.redis_db import REDIS_URL

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed"),
]
GAME_LIMIT_S = 300.0
"""Bound on a whole clicked-through game (a failure, never a measurement)."""
FAST = (1.0, 0.2, 0.5)
"""A short but real pace (night, night step, window): the pages run through the hold."""


@pytest.fixture(scope="module")
def replays(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("play-replays")


@pytest.fixture(scope="module")
def server(replays: Path) -> Iterator[str]:
    with dashboard(replays) as url:
        yield url


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
    assert all(link.startswith(f"{url}/play?game=") for link in found.values()), found
    return found  # absolute: sent as shown


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
    redis_url = REDIS_URL
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
        page.locator('.arena-table [data-seat="10"]').wait_for()  # the table draws after
        assert "#10" in page.locator('.arena-table [data-seat="10"]').inner_text()
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


def _seed_with(roles: dict[int, str]) -> int:
    """A seed whose std9 deal gives these seats these roles (the page's game is secret)."""
    from arena.rules.config import GameConfig
    from arena.rules.referee import Referee

    for seed in range(1, 500):
        referee = Referee(GameConfig(board="std9"), seed)
        dealt = next(e.roles for e in referee.events if isinstance(e, ev.RolesDealt))
        if all(dealt[s - 1].value == r for s, r in roles.items()):
            return seed
    raise AssertionError("no such seed")


def _traditional(body: str) -> list[str]:
    from arena.text.hans import to_hans

    page = body.replace("繁體中文", "").replace("語言", "")  # the language picker
    return sorted({c for c in page if to_hans(c) != c})


@pytest.mark.redis
@pytest.mark.timeout(900)  # a whole paced game on a shared machine, two pages polling
def test_a_wolf_explodes_from_the_standing_action_on_a_simplified_table(tmp_path: Path) -> None:
    """Two people and seven bots to the end on 简体 pages: the wolf arms the standing
    self-explosion during a speech and it goes off at the next window; no speech or line
    shows a Traditional character; the seer's table marks her check. Screenshots at 1400
    and 400 px."""
    import asyncio
    import threading

    from arena.humans.host import host_game
    from arena.humans.hosting import join_query, join_url
    from arena.humans.lobby import create_game
    from arena.storage.desk import Pace, SeatPlan
    from arena.storage.redis_desk import RedisDesk

    redis_url = REDIS_URL
    replays, live = tmp_path / "replays", tmp_path / "live"
    desk = RedisDesk.from_url(redis_url)
    seats = {n: SeatPlan(kind="human", name=f"人{n}") if n in (1, 2) else SeatPlan(kind="bot")
             for n in range(1, 10)}  # fmt: skip
    game, tokens = create_game(
        desk, "std9", seats, lang="zh", pace=Pace(night_s=1.0, step_s=0.2, window_s=3.0)
    )
    seed = _seed_with({1: "werewolf", 2: "seer"})
    host = threading.Thread(
        target=lambda: asyncio.run(host_game(desk, game, replays, live, seed=seed)), daemon=True
    )
    dashboard, url = start_dashboard(tmp_path / "dash-replays", "--redis", redis_url)
    bodies: dict[int, list[str]] = {1: [], 2: []}
    over = text("play.over", "zh-Hans", w="", f="").split("：")[0]
    try:
        host.start()
        with playwright_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            pages = {}
            for seat, width in ((1, 1400), (2, 400)):
                link = join_url(url, join_query(game, seat, "zh-Hans", tokens[seat]))
                pages[seat] = browser.new_context(
                    viewport={"width": width, "height": 1200}
                ).new_page()
                pages[seat].goto(link)
                pages[seat].get_by_text(f"你是{seat}号 · 人{seat}").wait_for()
                pages[seat].set_default_timeout(5000)
            armed = shot_seer = shot_standing = False
            armed_line = text("play.armed", "zh-Hans", a="").split("：")[0]
            deadline = time.monotonic() + GAME_LIMIT_S
            while not all(over in pages[s].inner_text("body") for s in pages):
                assert time.monotonic() < deadline, "the game did not finish"
                for seat, page in pages.items():
                    bodies[seat].append(page.inner_text("body"))
                    try:
                        standing = page.locator("[class*='st-key-standing_'] button")
                        if seat == 1 and not armed and standing.count():
                            if not shot_standing:
                                page.screenshot(path=str(SHOTS / "table-zh-Hans-1400-standing.png"),
                                                full_page=True)  # fmt: skip
                                shot_standing = True
                            standing.first.click()
                            # armed during a speech, or answered in a window (a lost click
                            # shows neither and is pressed again)
                            done = page.get_by_text(armed_line).or_(page.get_by_text("1号 自爆"))
                            done.first.wait_for(timeout=10000)
                            armed = True
                        answer_once(page)
                    except playwright_api.Error:
                        pass
                if not shot_seer and "🔍" in bodies[2][-1]:
                    pages[2].screenshot(
                        path=str(SHOTS / "table-zh-Hans-400-seer.png"), full_page=True
                    )
                    shot_seer = True
                pages[1].wait_for_timeout(150)
            pages[1].screenshot(path=str(SHOTS / "table-zh-Hans-1400-over.png"), full_page=True)
            browser.close()
        host.join(30)
    finally:
        dashboard.terminate()
        dashboard.wait(20)
    (path,) = replays.glob("*.jsonl")
    assert check_replay(path).ok
    replay = read_replay(path)
    assert any(isinstance(e, ev.SelfExploded) and e.seat == 1 for e in replay.events)
    assert any(a.seat == 1 and a.action.kind == "self_explode" for a in replay.answers)
    assert not any(a.defaulted for a in replay.answers if a.seat in (1, 2))
    assert shot_seer, "the seer's table never marked her check"
    offer, gone = text("play.standing", "zh-Hans"), "1号 出局"
    after = [b for i, b in enumerate(bodies[1]) if any(gone in a for a in bodies[1][:i])]
    assert after and not [b for b in after if offer in b], "an exploded wolf is offered it again"
    for seat in (1, 2):
        for body in bodies[seat]:
            assert not _traditional(body), _traditional(body)
            assert str(replay.header.seed) not in body


def test_links_open_from_another_browser_and_the_live_page_shows_the_hosted_game(
    server: str,
) -> None:
    """Links are absolute (sent as shown, opened in a fresh context); the Live page lists
    the game hosted by the dashboard and shows its public view. English at 1400 and 400,
    the English game on a 繁體 page, and a Chinese game in 繁體."""
    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        creator = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        links = create(creator, server, "kim", humans=(4,))
        other = browser.new_context(viewport={"width": 400, "height": 1000}).new_page()
        other.goto(links[4])
        other.get_by_text("You are #4 · kim4").wait_for()
        other.get_by_text(text("play.table", "en"), exact=True).wait_for()
        other.screenshot(path=str(SHOTS / "table-en-400.png"), full_page=True)
        for page, width in ((creator, 1400), (other, 400)):  # the same seat in 繁體
            page.goto(links[4].replace("lang=en", "lang=zh-Hant"))
            page.get_by_text("你是4號 · kim4").wait_for()  # the reader's words, whatever the game's
            page.get_by_text(text("play.table", "zh-Hant"), exact=True).wait_for()
            page.screenshot(path=str(SHOTS / f"table-en-game-zh-Hant-{width}.png"), full_page=True)
        zh = create(creator, server, "林", humans=(4,), lang="zh-Hant", game="zh")
        for page, width in ((creator, 1400), (other, 400)):  # a Chinese game in 繁體
            page.goto(zh[4])
            page.get_by_text("你是4號 · 林4").wait_for()
            page.get_by_text(text("play.table", "zh-Hant"), exact=True).wait_for()
            page.screenshot(path=str(SHOTS / f"table-zh-Hant-{width}.png"), full_page=True)
        creator.goto(f"{server}/live?lang=en")
        creator.get_by_text(text("play.hosted", "en")).wait_for()
        creator.get_by_text("9 players", exact=False).first.wait_for(timeout=30000)
        body = creator.inner_text("body")
        assert "kim" not in body and "token" not in body
        creator.screenshot(path=str(SHOTS / "live-hosted-en-1400.png"), full_page=True)
        browser.close()
