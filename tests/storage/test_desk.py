from __future__ import annotations

from arena.rules.actions import Pass
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest
from arena.storage.desk import Desk, Pending, SeatPlan, Status, Table

REQUEST = DecisionRequest(
    step=4,
    seat=2,
    kind=DecisionKind.VOTE,
    day=1,
    night=False,
    options=(ActionOption(action="vote", targets=(1, 3)), ActionOption(action="pass")),
    default=Pass(),
)


def test_table_status_and_views_round_trip(desk: Desk) -> None:
    table = Table(game_id="g1", board="std9", seats={1: SeatPlan(kind="human", name="ann")})
    assert desk.table("g1") is None and desk.status("g1").state == "waiting"
    desk.put_table(table)
    assert desk.table("g1") == table
    desk.set_status("g1", Status(state="running", speaking=3, events=9))
    assert desk.status("g1") == Status(state="running", speaking=3, events=9)
    desk.append_view("g1", 1, ["a", "b"])
    desk.append_view("g1", 1, [])
    desk.append_view("g1", 1, ["c"])
    assert desk.view("g1", 1) == ["a", "b", "c"] and desk.view("g1", 1, 2) == ["c"]
    assert desk.view("g1", 2) == []


def test_pending_is_per_seat_and_clears(desk: Desk) -> None:
    pending = Pending(request=REQUEST, deadline=100.0)
    desk.set_pending("g1", 2, pending)
    assert desk.pending("g1", 2) == pending and desk.pending("g1", 3) is None
    desk.set_pending("g1", 2, None)
    assert desk.pending("g1", 2) is None


def test_the_first_answer_for_a_step_wins_and_is_taken_once(desk: Desk) -> None:
    assert desk.take("g1", 2, 4) is None
    assert desk.post("g1", 2, 4, "first")
    assert not desk.post("g1", 2, 4, "second")  # a duplicate changes nothing
    assert desk.post("g1", 3, 4, "other seat")
    assert desk.take("g1", 2, 4) == "first"
    assert desk.take("g1", 2, 4) is None  # taken once
    assert desk.post("g1", 2, 4, "again")  # a refused answer can be corrected
    assert desk.take("g1", 3, 4) == "other seat"


def test_queue_hands_out_games_in_order(desk: Desk) -> None:
    assert desk.next_queued(0.01) is None
    desk.enqueue("g1")
    desk.enqueue("g2")
    assert desk.next_queued(0.01) == "g1" and desk.next_queued(0.01) == "g2"


def test_a_custom_board_travels_whole_in_the_table(desk: Desk) -> None:
    """A board file read by the Play page is on the card itself: a worker needs no file."""
    from arena.board_file import EXAMPLES, load_board_file
    from arena.rules.boards import Board

    board = load_board_file(EXAMPLES / "guard_city10.yaml")
    seats = {s: SeatPlan(kind="human" if s == 1 else "bot") for s in range(1, board.seats + 1)}
    table = Table(game_id="g2", board=board, preset="site", seats=seats)
    desk.put_table(table)
    got = desk.table("g2")
    assert got == table and isinstance(got.board, Board)
    assert got.board.settings == {"city_win": "parity", "witch_self_save": "first_night",
                                  "sheriff_vote_weight": 2}  # fmt: skip
    assert got.board.night_order == board.night_order and got.board.seats == 10


def test_a_published_view_reads_back_as_the_viewers_own_projection() -> None:
    """The view lines' one format: what the host writes, every page reads the same."""
    import random

    from arena.agents.random_agent import random_action
    from arena.rules.config import GameConfig
    from arena.rules.observation import observe
    from arena.rules.referee import Referee
    from arena.rules.visibility import PublicViewer, SeatViewer
    from arena.storage.desk import read_view, view_line

    referee, rng = Referee(GameConfig(board="wwk_guard"), 5), random.Random(5)
    while not referee.finished:
        for request in referee.pending():
            referee.submit(request.seat, random_action(request, rng))
    for viewer in (SeatViewer(seat=3), PublicViewer()):
        seen = observe(referee.events, viewer).seen
        read = read_view([view_line(s.seq, s.event) for s in seen], viewer)
        assert read.seen == seen and read.log_length == seen[-1].seq + 1
        assert read.knowledge == observe(referee.events, viewer).knowledge
