"""No live spoilers, and forgeries flagged: issue 19 through `arena play` and the player page.

A terminal game with a person runs in a subprocess (as tests/agents/test_terminal_game.py
drives it): while it runs, its file is outside the replay folder; and a running game with
a person, put where the dashboard serves it anyway, opens in the public view only,
whatever view the link asks for. Then the player's one-line warning on forgeries.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from arena.humans.host import live_folder
from arena.storage.replay_file import read_header
from tests.agents.test_terminal_game import LIMIT_S, Terminal
from tests.dashboard.games import APP, page_text
from tests.support.forgery import forged_set, play

PLAYER = "screens/player.py"
VIEWS = ("god", "wolves", "seat:1", "seat:5", "public")


def _player(folder: Path, monkeypatch: pytest.MonkeyPatch, **params: str) -> AppTest:
    monkeypatch.setenv("ARENA_REPLAYS", str(folder))
    monkeypatch.delenv("ARENA_REDIS_URL", raising=False)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.switch_page(PLAYER)
    at.query_params.update(params)
    at.run()
    assert not at.exception, at.exception
    return at


def test_a_running_terminal_game_is_never_readable_beyond_the_public_view(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    replays = tmp_path / "replays"
    out = replays / "mine.jsonl"
    term = Terminal(
        "play", "--board", "std9", "--seat", "5=human", "--lang", "en", "--out", str(out)
    )
    try:
        assert term.wait_prompt(1)
        running = live_folder(replays) / out.name
        assert running.stat().st_size > 0 and not running.is_relative_to(replays.resolve())
        assert not out.exists() or out.stat().st_size == 0  # only the name is reserved
        header = read_header(running)
        assert header.result is None and header.seats[4].agent == "human"
        served = tmp_path / "served"  # the running file where a page could open it
        served.mkdir()
        shutil.copyfile(running, served / "running.jsonl")
        public = page_text(_player(served, monkeypatch, game="running.jsonl", view="public"))
        assert "only the public view is shown" in public
        for view in VIEWS:
            at = _player(served, monkeypatch, game="running.jsonl", view=view, step="end")
            (picker,) = [s for s in at.selectbox if s.key and s.key.startswith("view_pick")]
            assert list(picker.options) == ["Public"] or len(picker.options) == 1
            assert at.session_state["view"] == "public"
            text = page_text(at)
            assert str(header.seed) not in text
            assert "Werewolf" not in text.replace("Werewolf Arena", ""), view
    finally:
        assert term.process.stdin is not None
        term.process.stdin.close()  # the person leaves: the defaults finish the game
    assert term.process.wait(LIMIT_S) == 0
    assert out.stat().st_size > 0 and not (live_folder(replays) / out.name).exists()
    finished = _player(replays, monkeypatch, game="mine.jsonl", view="god")
    assert finished.session_state["view"] == "god"  # over: every view again


def test_the_player_warns_in_one_line_on_a_game_that_does_not_verify(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "replays"
    original = play(folder / "original.jsonl", "std9-real", seed=11)
    forged_set(original, folder)
    assert not _player(folder, monkeypatch, game="original.jsonl").warning
    for name in ("new_id", "agents", "resigned", "our_key_id"):
        (warning,) = _player(folder, monkeypatch, game=f"{name}.jsonl").warning
        assert "does not verify" in warning.value and "bad signature" in warning.value
        assert "\n" not in warning.value
    (note,) = _player(folder, monkeypatch, game="stripped.jsonl").warning
    assert "unsigned" in note.value


def test_the_standings_rate_signed_games_and_say_what_they_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "replays"
    original = play(folder / "original.jsonl", "std9-real", seed=11)
    forged_set(original, folder / "forged")
    shutil.copyfile(
        Path(__file__).parents[1] / "golden" / "std9-default-1.jsonl", folder / "o.jsonl"
    )
    monkeypatch.setenv("ARENA_REPLAYS", str(folder))
    monkeypatch.delenv("ARENA_REDIS_URL", raising=False)
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.run()
    at.switch_page("screens/leaderboard.py")
    at.run()
    assert not at.exception, at.exception
    captions = [c.value for c in at.caption]
    assert any(
        "4 bad signature" in c and "2 unsigned" in c and "1 duplicate" in c for c in captions
    )
    assert "gpt-9" not in page_text(at) and "random (unsigned)" not in page_text(at)
    at.toggle(key="board_unsigned").set_value(True).run()
    assert "random (unsigned)" in page_text(at) and "gpt-9" not in page_text(at)
