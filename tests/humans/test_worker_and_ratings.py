"""Games queued for a worker through Redis, and people rated on the models' scale."""

from __future__ import annotations

import contextlib
import random
import threading
import time
from pathlib import Path

from arena.humans.access import StaleAnswer, seat_page, submit
from arena.humans.lobby import create_game
from arena.humans.worker import serve
from arena.ratings.loader import load_games
from arena.ratings.ratings import rate
from arena.replay_check import check_replay
from arena.storage.desk import Desk, SeatPlan
from tests.humans.test_hosted_game import NO_PACE, answer

LIMIT_S = 120.0
"""Bound on the games (a failure, never a measurement)."""


def test_a_worker_hosts_queued_games_and_people_are_rated_by_name(
    tmp_path: Path, desk: Desk
) -> None:
    replays = tmp_path / "replays"
    stop = threading.Event()
    worker = threading.Thread(
        target=serve, args=(desk, replays, tmp_path / "live", stop, 0.05), daemon=True
    )
    worker.start()
    games = []
    for n in range(3):
        seats = {s: SeatPlan(kind="bot") for s in range(1, 10)}
        seats[1 + n] = SeatPlan(kind="human", name="ann")
        game, tokens = create_game(desk, "std9", seats, lang="en", pace=NO_PACE)
        desk.enqueue(game)
        games.append((game, 1 + n, tokens[1 + n]))
    rng = random.Random(1)
    deadline = time.monotonic() + LIMIT_S
    try:
        while not all(desk.status(g).state == "finished" for g, _, _ in games):
            assert time.monotonic() < deadline, "the worker did not finish the games"
            for game, seat, token in games:
                page = seat_page(desk, game, seat, token)
                if page.pending is not None:
                    request = page.pending.request
                    with contextlib.suppress(StaleAnswer):  # answered, and taken meanwhile
                        submit(desk, game, seat, token, request.step, answer(request, rng))
            time.sleep(0.01)
    finally:
        stop.set()
        worker.join(10)
    files = sorted(replays.glob("*.jsonl"))
    assert len(files) == 3 and all(check_replay(f).ok for f in files)
    board = rate([g.result for g in load_games(replays).games], bootstrap=20)
    ann = next(s for s in board.standings if s.agent == "human:ann")
    assert ann.games == 3 and ann.rating.interval is not None
    assert (ann.wolf is not None) or (ann.good is not None)


def test_a_worker_hosts_a_custom_board_from_the_card_alone(tmp_path: Path, desk: Desk) -> None:
    """The worker reads no board file: the board on the card (through Redis) is the game."""
    from arena.board_file import EXAMPLES, load_board_file
    from arena.storage.replay_file import read_replay

    board = load_board_file(EXAMPLES / "cupid12.yaml")
    replays = tmp_path / "replays"
    stop = threading.Event()
    worker = threading.Thread(
        target=serve, args=(desk, replays, tmp_path / "live", stop, 0.05), daemon=True
    )
    worker.start()
    seats = {s: SeatPlan(kind="bot") for s in range(1, board.seats + 1)}
    seats[12] = SeatPlan(kind="human", name="cy")
    game, tokens = create_game(desk, board, seats, lang="zh", pace=NO_PACE)
    desk.enqueue(game)
    rng = random.Random(2)
    deadline = time.monotonic() + LIMIT_S
    try:
        while desk.status(game).state != "finished":
            assert time.monotonic() < deadline, "the worker did not finish the game"
            assert desk.status(game).state != "failed", desk.status(game).error
            page = seat_page(desk, game, 12, tokens[12])
            assert page.board == board and page.seats == 12
            if page.pending is not None:
                request = page.pending.request
                with contextlib.suppress(StaleAnswer):
                    submit(desk, game, 12, tokens[12], request.step, answer(request, rng))
            time.sleep(0.01)
    finally:
        stop.set()
        worker.join(10)
    (path,) = replays.glob("*.jsonl")
    assert path.stem == game and check_replay(path).ok
    replay = read_replay(path)
    assert replay.header.config.board == board
    assert replay.header.seats[11].agent == "human:cy"
