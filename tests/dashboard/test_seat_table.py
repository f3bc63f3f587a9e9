"""The seat table: one drawing of the seats for the Play, Live and player pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arena.dashboard.seat_table import TableSeat, ring, seats_in, speaker, table_html
from arena.rules import events as ev
from arena.rules.config import GameConfig
from arena.rules.observation import observe
from arena.rules.referee import Referee
from arena.rules.visibility import PublicViewer, SeatViewer
from arena.storage.replay_file import read_replay
from tests.dashboard.games import HOSTILE

GOLDEN = next((Path(__file__).resolve().parents[1] / "golden").glob("std9-*.jsonl"))
DASHBOARD = Path(__file__).resolve().parents[2] / "dashboard"


@pytest.mark.parametrize("seats", range(4, 21))
def test_the_ring_seats_everyone_once_around_a_middle(seats: int) -> None:
    columns, rows, places = ring(seats)
    assert len(places) == len(set(places)) == seats
    for row, column in places:
        assert row in (1, rows) or column in (1, columns), "on the table's edge"
    assert columns >= 3 and rows >= 3, "a middle cell for who is speaking"
    assert columns >= rows, "wider than tall"
    assert places[0] == (1, 1)
    steps = [abs(a[0] - b[0]) + abs(a[1] - b[1]) for a, b in zip(places, places[1:], strict=False)]
    assert set(steps) == {1}, "each seat beside the one before: clockwise round the table"


def test_a_seat_knows_its_card_not_the_others_and_who_is_out() -> None:
    referee = Referee(GameConfig(board="std9"), 5)
    mine = observe(referee.events, SeatViewer(seat=2))
    drawn = seats_in(mine, "en", me=2, speaking=4)
    assert [s.seat for s in drawn] == list(range(1, 10))
    own = mine.knowledge.own_role
    assert drawn[1].role == own and drawn[1].you
    known = {s.seat for s in drawn if s.role is not None}
    assert known == {2} | set(mine.knowledge.roles)
    assert [s.seat for s in drawn if s.speaking] == [4]
    public = seats_in(observe(referee.events, PublicViewer()), "en")
    assert not [s for s in public if s.role is not None or s.you or s.speaking]


def test_the_speaker_of_a_replayed_moment_is_the_latest_speech_seen() -> None:
    events = read_replay(GOLDEN).events
    first = next(i for i, e in enumerate(events) if isinstance(e, ev.Spoke))
    assert speaker(observe(events, PublicViewer(), until=first)) is None
    said = events[first]
    assert isinstance(said, ev.Spoke)
    assert speaker(observe(events, PublicViewer(), until=first + 1)) == said.seat
    assert speaker(observe(events, PublicViewer())) is None, "the game is over"


def test_every_value_is_escaped_and_the_seats_keep_their_order() -> None:
    seats = [TableSeat(n, HOSTILE if n == 3 else "", n != 2, None, (), n == 1, False)
             for n in range(1, 10)]  # fmt: skip
    drawn = table_html(seats, "zh-Hans", middle="<i>x</i>")
    assert "<img" not in drawn and "<b>tag</b>" not in drawn and "<i>x" not in drawn
    assert re.findall(r'data-seat="(\d+)"', drawn) == [str(n) for n in range(1, 10)]
    assert "1号" in drawn and "arena-out" in drawn and "arena-speaking" in drawn


@pytest.mark.parametrize("room", ["seat_view.py", "player_ui.py", "screens/live.py"])
def test_the_play_live_and_player_pages_draw_the_seats_with_the_one_table(room: str) -> None:
    """Each page's seats come from `seat_table.draw`; none draws seats of its own."""
    source = (DASHBOARD / room).read_text("utf-8")
    assert re.search(r"from (arena\.dashboard|)\.?seat_table import [^\n]*\bdraw\b", source)
    assert "draw(seats_in(" in source or "draw(seats," in source
    assert "arena-seat" not in source and "card_" not in source
