"""Fixtures: a replay folder with marker games and bad files, and the dashboard under AppTest."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.dashboard.games import APP, make_game

MARKED = "marked.jsonl"
"""The 12-seat marker game (seed 3: 250 events, votes, wolf whispers, beliefs, traces)."""
SMALL = "small.jsonl"


@pytest.fixture(scope="session")
def replay_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("replays")
    make_game(folder / MARKED, seed=3, tournament="cup-1")
    make_game(folder / "sub" / SMALL, seed=2, board="std9")
    (folder / "corrupt.jsonl").write_text('{"type":"header","schema_version":1,"game', "utf-8")
    (folder / "notes.txt").write_text("not a replay\n", "utf-8")
    (folder / "future.jsonl").write_text('{"type":"header","schema_version":99}\n', "utf-8")
    return folder


@pytest.fixture
def dash(replay_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., AppTest]:
    """Make an AppTest of the dashboard, optionally on a page with query parameters."""
    monkeypatch.setenv("ARENA_REPLAYS", str(replay_dir))
    monkeypatch.delenv("ARENA_REDIS_URL", raising=False)

    def make(page: str | None = None, **params: str) -> AppTest:
        at = AppTest.from_file(str(APP), default_timeout=60)
        at.run()
        assert not at.exception
        if page is not None:
            at.switch_page(page)
            at.query_params.update(params)
            at.run()
            assert not at.exception, at.exception
        return at

    return make
