from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from arena.dashboard.i18n import viewpoints
from tests.dashboard.conftest import MARKED
from tests.dashboard.games import APP, page_text

Dash = Callable[..., AppTest]
PLAYER = "screens/player.py"


def test_replays_page_lists_games_and_unreadable_files_with_reasons(dash: Dash) -> None:
    at = dash()
    games = at.dataframe[0].value
    assert sorted(games["game"]) == ["std9-2", "wwk_guard-3"]
    unreadable = at.dataframe[1].value.set_index("file")["reason"].to_dict()
    assert set(unreadable) == {"corrupt.jsonl", "notes.txt", "future.jsonl"}
    assert "not JSON" in unreadable["corrupt.jsonl"]
    assert "not a Werewolf Arena replay" in unreadable["notes.txt"]
    assert "schema version 99" in unreadable["future.jsonl"]


@pytest.mark.parametrize(
    ("widget", "value", "expected"),
    [
        ("Board", ["std9"], ["std9-2"]),
        ("Tournament", ["cup-1"], ["wwk_guard-3"]),
        ("Agent / model", ["marker:model-a"], ["std9-2", "wwk_guard-3"]),
    ],
)
def test_replays_page_filters(
    dash: Dash, widget: str, value: list[str], expected: list[str]
) -> None:
    at = dash()
    next(m for m in at.multiselect if m.label == widget).set_value(value).run()
    assert sorted(at.dataframe[0].value["game"]) == expected


def test_replays_page_filters_by_winner_and_search(dash: Dash) -> None:
    at = dash()
    winners = next(m for m in at.multiselect if m.label == "Winner")
    assert set(winners.options) <= {"good", "wolves", "draw"}
    at.text_input(key="search").input("std9").run()
    assert list(at.dataframe[0].value["file"]) == ["sub/small.jsonl"]


def test_opening_a_replay_goes_to_the_player(dash: Dash) -> None:
    at = dash()
    at.selectbox(key="pick_game").set_value(MARKED)
    at.button(key="open_game").click().run()
    assert not at.exception
    assert at.query_params["game"] == MARKED
    assert at.slider(key="step").value == 0, "a replay opens at the start, not the result"


@pytest.mark.parametrize("view", viewpoints(12))
def test_player_renders_every_viewpoint(dash: Dash, view: str) -> None:
    at = dash(PLAYER, game=MARKED, step="end")
    at.selectbox(key="view_pick_en").set_value(view).run()
    assert not at.exception
    assert at.query_params["view"] == view
    tabs = [tab.label for tab in at.tabs]
    god_tabs = ["Table and votes", "Transcript", "Speeches", "Votes", "Beliefs", "Model calls"]
    assert tabs == (god_tabs if view == "god" else god_tabs[:4])
    assert len(at.get("vega_lite_chart")) == (4 if view == "god" else 2)
    assert at.chat_message, "speeches are chat messages"


def test_player_scrubs_steps_and_jumps_to_phases(dash: Dash) -> None:
    at = dash(PLAYER, game=MARKED, view="seat:2", step="40")
    assert at.slider(key="step").value == 40
    at.button(key="next").click().run()
    assert at.slider(key="step").value == 41
    at.button(key="prev").click().run()
    at.button(key="prev").click().run()
    assert at.slider(key="step").value == 39
    assert at.query_params["step"] == "39"
    at.selectbox(key="jump").select_index(2).run()
    assert not at.exception
    start = int(at.selectbox(key="jump").options[2].rsplit("(", 1)[1].rstrip(")"))
    assert at.slider(key="step").value == start + 1
    at.slider(key="step").set_value(0).run()
    assert "Nothing seen yet." in [x.value for x in at.text]


def test_play_button_starts_over_from_the_end_and_pauses(dash: Dash) -> None:
    at = dash(PLAYER, game=MARKED, step="end")
    at.button(key="play").click().run()
    assert at.session_state["playing"] is True
    assert at.slider(key="step").value == 0
    at.button(key="play").click().run()
    assert at.session_state["playing"] is False


def test_player_speaks_chinese(dash: Dash) -> None:
    at = dash(PLAYER, game=MARKED, view="god")
    at.sidebar.radio[0].set_value("zh-Hant").run()
    assert not at.exception
    text = page_text(at)
    assert "第1夜" in text and "發言" in text
    assert [tab.label for tab in at.tabs][:4] == ["座位與投票", "記錄", "發言", "投票"]


@pytest.mark.parametrize(
    ("game", "message"),
    [
        ("../../etc/passwd", "is not a file in the replay folder"),
        ("missing.jsonl", "does not exist"),
        ("corrupt.jsonl", "not JSON"),
    ],
)
def test_player_reports_bad_games_in_one_line(dash: Dash, game: str, message: str) -> None:
    at = dash(PLAYER, game=game)
    assert not at.exception
    assert message in at.error[0].value


def test_a_missing_game_is_said_in_the_pages_language(dash: Dash) -> None:
    at = dash(PLAYER, game="missing.jsonl")
    at.sidebar.radio[0].set_value("zh-Hans").run()
    assert not at.exception
    shown = [e.value.replace("\\", "") for e in at.error]  # markdown escapes off
    assert shown == ["回放文件夹里没有 'missing.jsonl'"]


def test_player_without_a_game_links_to_the_list(dash: Dash) -> None:
    at = dash(PLAYER)
    assert not at.exception
    assert not at.slider


def test_live_page_without_redis_says_how_to_configure_it(dash: Dash) -> None:
    at = dash("screens/live.py")
    assert "--redis" in at.info[0].value


def empty_folder(folder: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """The dashboard's first page over `folder`, which holds no game."""
    monkeypatch.setenv("ARENA_REPLAYS", str(folder))
    monkeypatch.delenv("ARENA_REDIS_URL", raising=False)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    assert not at.exception
    return at


def page_links(at: AppTest) -> list[str]:
    return [link.proto.page for link in at.get("page_link")]


def test_an_empty_folder_says_so_and_links_to_play_on_the_list_and_the_player(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "notes.txt").write_text("not a replay\n", "utf-8")
    at = empty_folder(tmp_path, monkeypatch)
    assert at.info[0].value.startswith("No game in the replay folder yet")
    assert "play" in page_links(at)
    assert not at.multiselect, "no filters over nothing"
    (unreadable,) = at.dataframe  # the file that is not a replay is still listed
    assert list(unreadable.value["file"]) == ["notes.txt"]
    at.switch_page(PLAYER).run()
    assert not at.exception
    assert at.info[0].value.startswith("No game in the replay folder yet")
    assert "play" in page_links(at)
    assert not at.selectbox and not at.slider


def test_the_player_with_no_game_lists_the_folder_and_opens_the_one_picked(dash: Dash) -> None:
    at = dash(PLAYER)
    picker = next(s for s in at.selectbox if s.label == "Game")
    boards = sorted(label.split(" · ")[1] for label in picker.options[1:])
    assert boards == ["std9", "wwk_guard"], "every game of the folder, by date, board, winner"
    picker.set_value(MARKED).run()
    assert not at.exception
    assert at.query_params["game"] == MARKED
    assert at.slider(key="step").value == 0
