"""The rendered player page of a seat (or the public, or the wolves) holds nothing hidden.

The marker game's speeches, wolf whispers and model calls carry unique strings; at each
sampled step the whole page (text, tables, chart data) is searched for the markers and
rendered lines of every event the viewer could not see at that step, and of every model
call, which only the god view shows.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from arena.dashboard.i18n import Lang, viewpoints
from arena.dashboard.loading import Loaded, load
from arena.rules import events as ev
from arena.rules.visibility import GodViewer, Viewer, parse_viewer
from tests.dashboard.conftest import MARKED
from tests.dashboard.games import page_text
from tests.dashboard.leaks import leaks

PLAYER = "screens/player.py"


@pytest.fixture(scope="module")
def game(replay_dir: Path) -> Loaded:
    return load(replay_dir / MARKED)


def sample_steps(game: Loaded) -> list[int]:
    """Just after the first whisper, seer check and speech; the middle; the end."""
    events = game.replay.events
    first = [
        next(i for i, e in enumerate(events) if isinstance(e, kind)) + 1
        for kind in (ev.WolfWhispered, ev.SeerChecked, ev.Spoke)
    ]
    return sorted({*first, len(events) // 2, len(events)})


def check(at: AppTest, game: Loaded, viewer: Viewer, step: int, lang: Lang) -> None:
    at.slider(key="step").set_value(step).run()
    assert not at.exception
    text = page_text(at)
    assert f"{step} / {len(game.replay.events)}" in text
    found = leaks(text, game, viewer, step, lang)
    assert not found, (viewer, step, found[:5])


@pytest.mark.parametrize("view", [v for v in viewpoints(12) if v != "god"])
def test_nothing_hidden_reaches_a_seat_page(
    dash: Callable[..., AppTest], game: Loaded, view: str
) -> None:
    at = dash(PLAYER, game=MARKED, view=view)
    for step in sample_steps(game):
        check(at, game, parse_viewer(view), step, "en")


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_nothing_hidden_reaches_a_seat_page_in_chinese(
    dash: Callable[..., AppTest], game: Loaded, lang: Lang
) -> None:
    at = dash(PLAYER, game=MARKED, view="seat:1")
    at.sidebar.radio[0].set_value(lang).run()
    for step in sample_steps(game):
        check(at, game, parse_viewer("seat:1"), step, lang)


def test_the_god_page_shows_the_markers_the_seats_may_not(
    dash: Callable[..., AppTest], game: Loaded
) -> None:
    at = dash(PLAYER, game=MARKED, view="god")
    total = len(game.replay.events)
    check(at, game, GodViewer(), total // 2, "en")
    text = page_text(at)
    assert "WHISPERMARK-" in text and "TRACEMARK-" in text and "The seer checks" in text
    seat_text = page_text(dash(PLAYER, game=MARKED, view="seat:1", step=str(total // 2)))
    assert "TRACEMARK-" not in seat_text and "P(wolf)" not in seat_text
