"""A hosted game with people: whole games, tokens, stale and forged answers, timeouts."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest

from arena.board_file import EXAMPLES, load_board_file
from arena.errors import ArenaError
from arena.humans.access import AccessDenied, StaleAnswer, seat_page, submit
from arena.humans.host import host_game, live_folder
from arena.humans.lobby import create_game
from arena.replay_check import check_replay
from arena.rules import boards
from arena.rules import events as ev
from arena.rules.actions import Action, Vote
from arena.rules.boards import Board
from arena.rules.decisions import DecisionRequest
from arena.rules.errors import IllegalActionError
from arena.rules.observation import observe
from arena.rules.types import Team
from arena.rules.visibility import GodViewer, PublicViewer, SeatViewer, TeamViewer
from arena.storage.desk import Desk, MemoryDesk, Pace, SeatPlan
from arena.storage.replay_file import read_replay
from arena.text.commands import build_menu
from arena.transcript import defaulted_text, render

SEED = 918273645
NO_PACE = Pace(night_s=0, step_s=0, window_s=0)
"""Unpaced: these tests are about answers, not timing (`test_pace.py` is)."""


def plans(humans: dict[int, str], seats: int = 9) -> dict[int, SeatPlan]:
    return {
        s: SeatPlan(kind="human", name=humans[s]) if s in humans else SeatPlan(kind="bot")
        for s in range(1, seats + 1)
    }


def answer(request: DecisionRequest, rng: random.Random) -> Action:
    """A random legal answer: a menu choice, or a short speech."""
    menu = build_menu(request, "en")
    if menu.text_kind is not None and rng.random() < 0.8:
        return menu.pick(f"I am good | trust={2 if request.seat == 1 else 1}")  # not oneself
    return rng.choice(menu.choices).action if menu.choices else request.default


async def person(
    desk: Desk, game: str, seat: int, token: str, rng: random.Random, pages: list[str]
) -> None:
    """Answer every pending decision with a random menu choice, as the Play page would."""
    while desk.status(game).state not in ("finished", "failed"):
        page = seat_page(desk, game, seat, token)
        pages.append(page.model_dump_json())
        if page.pending is not None:
            request = page.pending.request
            action = answer(request, rng)
            assert submit(desk, game, seat, token, request.step, action) in (
                "accepted",
                "duplicate",
            )
            assert submit(desk, game, seat, token, request.step, action) == "duplicate"
        await asyncio.sleep(0.005)


def play(
    tmp_path: Path,
    desk: Desk,
    humans: dict[int, str],
    board: str | Board = "std9",
    **options: float,
) -> tuple[Path, dict[int, str], list[str]]:
    seats = plans(humans, boards.board(board).seats)
    game, tokens = create_game(desk, board, seats, lang="en", pace=NO_PACE, **options)  # type: ignore[arg-type]
    pages: list[str] = []

    async def main() -> Path:
        people = [
            person(desk, game, s, tokens[s], random.Random(s), pages)
            for s in tokens
            if humans[s] != "silent"
        ]
        path, *_ = await asyncio.gather(
            host_game(desk, game, tmp_path / "replays", tmp_path / "live", seed=SEED, poll_s=0.005),
            *people,
        )
        return path

    return asyncio.run(main()), tokens, pages


def test_people_play_a_whole_game_and_it_is_an_ordinary_replay(tmp_path: Path, desk: Desk) -> None:
    path, tokens, pages = play(tmp_path, desk, {2: "ann", 7: "bo"})
    assert check_replay(path).ok
    replay = read_replay(path)
    labels = {s.seat: s.agent for s in replay.header.seats}
    assert labels[2] == "human:ann" and labels[7] == "human:bo" and labels[1] == "bot"
    assert not any(isinstance(e, ev.ActionDefaulted) for e in replay.events)
    for viewer in (GodViewer(), PublicViewer(), TeamViewer(team=Team.WOLF), SeatViewer(seat=2)):
        assert [render(s.event, "zh") for s in observe(replay.events, viewer).seen]
    assert not (tmp_path / "live" / path.name).exists(), "the live file moved into the folder"
    assert replay.header.game_id == path.stem and str(SEED) not in replay.header.game_id


def test_a_custom_board_is_hosted_from_its_card_to_an_ordinary_replay(
    tmp_path: Path, desk: Desk
) -> None:
    """A board file's board, on the card whole (memory or Redis), plays like a built-in one."""
    board = load_board_file(EXAMPLES / "guard_city10.yaml")
    path, tokens, pages = play(tmp_path, desk, {2: "ann", 10: "bo"}, board)
    assert check_replay(path).ok
    replay = read_replay(path)
    assert replay.header.config.board == board and len(replay.header.seats) == 10
    started = next(e for e in replay.events if isinstance(e, ev.GameStarted))
    assert started.board == board and started.seats == 10
    game = replay.header.game_id
    assert game.startswith("guard_city10-") and str(SEED) not in game
    for seat in tokens:
        page = seat_page(desk, game, seat, tokens[seat])
        assert page.board == board and page.seats == 10
        assert page.observation.knowledge.role_counts == board.role_counts()
        assert render(page.observation.seen[0].event, "en").startswith(
            "Board 10-player guard + wolf king (city), 10 players"
        )
    assert all(str(SEED) not in p for p in pages)


def test_seat_pages_carry_no_seed_no_labels_and_only_their_own_view(
    tmp_path: Path, desk: Desk
) -> None:
    path, tokens, pages = play(tmp_path, desk, {2: "ann", 7: "bo"})
    replay = read_replay(path)
    assert pages
    for page in pages:
        assert str(SEED) not in page
        assert '"bot"' not in page and "human:" not in page and "token" not in page
    final = {s: seat_page(desk, replay.header.game_id, s, tokens[s]) for s in tokens}
    public = len(observe(replay.events, PublicViewer()).seen)
    assert public < len(replay.events), "the game had hidden events"
    for seat, page in final.items():
        assert page.observation.seen == observe(replay.events, SeatViewer(seat=seat)).seen
        assert page.status.events == public, "a page counts only what the public saw"
        assert page.observation.log_length == page.observation.seen[-1].seq + 1


def test_tokens_are_checked_for_views_and_answers(tmp_path: Path) -> None:
    desk = MemoryDesk()
    game, tokens = create_game(desk, "std9", plans({2: "ann", 7: "bo"}))
    for seat, token in [
        (2, None),
        (2, ""),
        (2, "guess"),
        (2, tokens[7]),
        (7, tokens[2]),
        (1, tokens[2]),
    ]:
        with pytest.raises(AccessDenied):
            seat_page(desk, game, seat, token)
        with pytest.raises(AccessDenied):
            submit(desk, game, seat, token, 0, Vote(target=1))
    with pytest.raises(AccessDenied):
        seat_page(desk, "std9-0000000000", 2, tokens[2])
    assert seat_page(desk, game, 2, tokens[2]).seat == 2


def test_stale_forged_and_replayed_answers_are_refused(tmp_path: Path) -> None:
    desk = MemoryDesk()
    game, tokens = create_game(desk, "std9", plans({5: "cy"}), decision_timeout_s=30, pace=NO_PACE)

    async def main() -> None:
        host = asyncio.create_task(
            host_game(desk, game, tmp_path / "r", tmp_path / "l", seed=SEED, poll_s=0.005)
        )
        while (page := seat_page(desk, game, 5, tokens[5])).pending is None:
            await asyncio.sleep(0.005)
        assert page.pending is not None
        request = page.pending.request
        with pytest.raises(StaleAnswer):
            submit(desk, game, 5, tokens[5], request.step + 1, request.default)
        with pytest.raises(IllegalActionError):
            submit(desk, game, 5, tokens[5], request.step, Vote(target=99))
        action = answer(request, random.Random(0))
        assert submit(desk, game, 5, tokens[5], request.step, action) == "accepted"
        while (now := desk.pending(game, 5)) is not None and now.request.step == request.step:
            await asyncio.sleep(0.005)
        with pytest.raises(StaleAnswer):  # the same answer again, once it was taken
            submit(desk, game, 5, tokens[5], request.step, action)
        host.cancel()
        with pytest.raises(asyncio.CancelledError):
            await host

    asyncio.run(main())


def test_a_late_person_gets_the_default_then_a_bot_takes_the_seat(tmp_path: Path) -> None:
    desk = MemoryDesk()
    path, _, _ = play(tmp_path, desk, {3: "silent"}, decision_timeout_s=0.05, speech_timeout_s=0.05)
    replay = read_replay(path)
    assert check_replay(path).ok
    defaulted = [e for e in replay.events if isinstance(e, ev.ActionDefaulted) and e.seat == 3]
    assert len(defaulted) == 2
    assert {e.reason for e in defaulted} == {"timed out: no answer within 0.05 s"}  # not retried
    assert defaulted_text(defaulted[0].reason, "zh") == "超時：0.05 秒內沒有回答"
    (handover,) = replay.header.handovers
    assert handover.seat == 3 and handover.agent == "bot"
    header_line = json.loads(path.read_text("utf-8").splitlines()[0])
    assert header_line["handovers"][0]["seat"] == 3


def test_a_live_game_cannot_be_opened_from_the_replay_folder(tmp_path: Path) -> None:
    """While it runs, the game's file (seed, every role) lives outside the replay folder."""
    from arena.dashboard.loading import resolve

    replays = tmp_path / "replays"
    replays.mkdir()
    live = live_folder(replays)
    running = live / "std9-0123456789.jsonl"
    live.mkdir()
    running.write_text("{}\n", "utf-8")
    assert not running.resolve().is_relative_to(replays.resolve())
    for name in (f"../{live.name}/{running.name}", str(running)):
        with pytest.raises(ArenaError):
            resolve(replays, name)
