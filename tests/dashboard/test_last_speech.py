"""The speech a person answers sits on the decision's screen, not under the table.

On a phone the seat page's columns stack: the table, then today's speeches, so the
speech a decision answers was a few screens below it (issue 33). The latest speech is
drawn right under the decision, once (the conversation below holds the earlier ones).
"""

from __future__ import annotations

import pytest

from arena.dashboard.i18n import text
from arena.rules import events as ev
from arena.rules.actions import Claims
from arena.rules.types import Phase
from arena.rules.visibility import PUBLIC
from arena.storage.desk import view_line
from tests.dashboard.games import texts
from tests.dashboard.test_play_page import Dash, speech_page


def said(seat: int, words: str) -> ev.Spoke:
    return ev.Spoke(visibility=PUBLIC, seat=seat, text=words, claims=Claims(), context="day")


def test_the_latest_speech_is_under_the_decision_above_the_table(
    dash: Dash, monkeypatch: pytest.MonkeyPatch
) -> None:
    at, desk, game = speech_page(dash, monkeypatch, "std9")
    day = ev.PhaseStarted(visibility=PUBLIC, phase=Phase.SPEECHES, day=1)
    desk.append_view(game, 1, [view_line(1, day), view_line(2, said(8, "EARLIER-WORDS"))])
    desk.append_view(game, 1, [view_line(3, said(9, "LATEST-WORDS"))])
    at.run()
    assert not at.exception, at.exception
    page = "\n".join(texts(at._tree))
    asked = page.index(text("play.speech", "en"))  # the speech box of the decision
    latest = page.index("LATEST-WORDS")
    assert asked < page.index(text("play.last_speech", "en")) < latest < page.index("arena-table")
    chats = ["\n".join(texts(message)) for message in at.chat_message]
    assert [sum(w in c for c in chats) for w in ("LATEST-WORDS", "EARLIER-WORDS")] == [1, 1]
    assert page.index("arena-table") < page.index("EARLIER-WORDS")
