from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fakeredis
import pytest
import redis
from streamlit.testing.v1 import AppTest

from arena.dashboard.live import Tail, loaded, poll, running
from arena.dashboard.loading import load
from arena.rules.visibility import parse_viewer
from arena.storage.redis_keys import live_index, live_stream
from arena.storage.replay_file import ReplayError, read_replay
from tests.dashboard.conftest import MARKED
from tests.dashboard.games import APP, page_text
from tests.dashboard.leaks import leaks
from tests.support.redis_db import LIVE_URL


def publish(
    client: Any, game_id: str, lines: list[str], first_seq: int = 0, prefix: str = "arena"
) -> None:
    """What a worker does while a game runs: one stream entry per replay line."""
    client.zadd(f"{prefix}:live:index", {game_id: 1_700_000_000.0})
    for seq, line in enumerate(lines, start=first_seq):
        client.xadd(f"{prefix}:live:{game_id}", {"seq": seq, "line": line})


def game_lines(replay_dir: Path) -> list[str]:
    return (replay_dir / MARKED).read_text("utf-8").splitlines()


def test_poll_reads_only_new_entries_and_parses_the_game_so_far(replay_dir: Path) -> None:
    client = fakeredis.FakeRedis()
    lines = game_lines(replay_dir)
    publish(client, "g1", lines[:40])
    assert running(client) == [("g1", 1_700_000_000.0)]
    tail = poll(client, Tail(game_id="g1"))
    assert tail.lines == tuple(lines[:40])
    first = loaded(tail)
    publish(client, "g1", lines[40:], first_seq=40)
    tail = poll(client, tail)
    assert tail.lines == tuple(lines)
    whole = loaded(tail)
    assert whole.replay == read_replay(replay_dir / MARKED)
    assert whole.trace_steps == load(replay_dir / MARKED).trace_steps
    assert 0 < len(first.replay.events) < len(whole.replay.events)
    assert poll(client, tail) == tail


def test_workers_with_their_own_prefix_are_read_under_it(replay_dir: Path) -> None:
    client = fakeredis.FakeRedis()
    lines = game_lines(replay_dir)
    publish(client, "g3", lines, prefix="team1")
    assert running(client) == []
    assert running(client, "team1") == [("g3", 1_700_000_000.0)]
    assert poll(client, Tail(game_id="g3")).lines == ()
    tail = poll(client, Tail(game_id="g3", prefix="team1"))
    assert loaded(tail).replay == read_replay(replay_dir / MARKED)
    assert poll(client, tail).prefix == "team1"


def test_a_stream_that_is_not_a_replay_is_a_clear_error() -> None:
    client = fakeredis.FakeRedis()
    client.xadd(live_stream("bad"), {"seq": 0, "line": "hello"})
    with pytest.raises(ReplayError, match="arena:live:bad:1"):
        loaded(poll(client, Tail(game_id="bad")))
    client.xadd(live_stream("worse"), {"seq": 0})
    with pytest.raises(ValueError, match="has no line"):
        poll(client, Tail(game_id="worse"))


@pytest.fixture
def live_game(replay_dir: Path) -> Iterator[tuple[Any, str]]:
    client = redis.Redis.from_url(LIVE_URL)
    game_id = f"test-{uuid.uuid4().hex[:8]}"
    try:
        yield client, game_id
    finally:
        client.zrem(live_index(), game_id)
        client.delete(live_stream(game_id))


def live_page(replay_dir: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """The Live page on the test database (drawn once, without an exception)."""
    monkeypatch.setenv("ARENA_REPLAYS", str(replay_dir))
    monkeypatch.setenv("ARENA_REDIS_URL", LIVE_URL)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.switch_page("screens/live.py").run()
    assert not at.exception
    return at


@pytest.mark.redis
def test_live_page_follows_a_running_game_for_each_viewer(
    replay_dir: Path, live_game: tuple[Any, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, game_id = live_game
    lines = game_lines(replay_dir)
    publish(client, game_id, lines[:120])
    at = live_page(replay_dir, monkeypatch)
    at.selectbox(key="live_game").set_value(game_id).run()
    partial = loaded(Tail(game_id=game_id, lines=tuple(lines[:120])))
    steps = len(partial.replay.events)
    for view in ("public", "seat:3", "wolves"):
        at.selectbox(key="live_view_pick_en").set_value(view).run()
        assert not at.exception
        text = page_text(at)
        assert f"{steps} events" in text
        assert not leaks(text, partial, parse_viewer(view), steps)
    publish(client, game_id, lines[120:], first_seq=120)
    at.run()
    total = len(read_replay(replay_dir / MARKED).events)
    assert f"{total} events" in page_text(at)


@pytest.mark.redis
def test_the_live_page_reads_the_prefix_it_is_given(
    replay_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = redis.Redis.from_url(LIVE_URL)
    prefix, game_id = f"team-{uuid.uuid4().hex[:8]}", "g-prefixed"
    publish(client, game_id, game_lines(replay_dir)[:60], prefix=prefix)
    try:
        at = live_page(replay_dir, monkeypatch)
        assert game_id not in page_text(at)  # the default namespace has no such game
        monkeypatch.setenv("ARENA_REDIS_PREFIX", prefix)
        at = live_page(replay_dir, monkeypatch)
        assert at.selectbox(key="live_game").value == game_id
        steps = len(loaded(Tail(game_id, tuple(game_lines(replay_dir)[:60]))).replay.events)
        assert f"{steps} events" in page_text(at)
    finally:
        client.delete(f"{prefix}:live:index", f"{prefix}:live:{game_id}")


def test_the_finished_header_replaces_the_first_line(replay_dir: Path) -> None:
    client = fakeredis.FakeRedis()
    lines = game_lines(replay_dir)
    running_header = json.dumps({**json.loads(lines[0]), "result": None}, ensure_ascii=False)
    publish(client, "g2", [running_header, *lines[1:]])
    tail = poll(client, Tail(game_id="g2"))
    assert loaded(tail).replay.header.result is None
    client.xadd(live_stream("g2"), {"seq": len(lines), "line": lines[0], "lease": 1})
    tail = poll(client, tail)
    assert len(tail.lines) == len(lines)
    assert loaded(tail).replay.header.result is not None


def test_a_stream_that_skips_lines_is_refused() -> None:
    client = fakeredis.FakeRedis()
    client.xadd(live_stream("gap"), {"seq": 0, "line": "{}"})
    client.xadd(live_stream("gap"), {"seq": 5, "line": "{}"})
    with pytest.raises(ValueError, match="only 1 lines were read"):
        poll(client, Tail(game_id="gap"))


def watch(replay_dir: Path, monkeypatch: pytest.MonkeyPatch, game_id: str) -> AppTest:
    """The Live page on the test database, watching `game_id`."""
    at = live_page(replay_dir, monkeypatch)
    at.selectbox(key="live_game").set_value(game_id).run()
    return at


@pytest.mark.redis
def test_a_game_that_ends_stays_on_the_live_page_marked_finished(
    replay_dir: Path, live_game: tuple[Any, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, game_id = live_game
    lines = game_lines(replay_dir)
    running_header = json.dumps({**json.loads(lines[0]), "result": None}, ensure_ascii=False)
    publish(client, game_id, [running_header, *lines[1:100]])
    at = watch(replay_dir, monkeypatch, game_id)
    assert "● running" in [c.value for c in at.caption]
    assert not at.success
    publish(client, game_id, lines[100:], first_seq=100)
    client.xadd(live_stream(game_id), {"seq": len(lines), "line": lines[0]})
    client.zrem(live_index(), game_id)  # what the worker's COMPLETE script does
    at.run()
    assert not at.exception
    assert at.selectbox(key="live_game").value == game_id
    assert "● running" not in [c.value for c in at.caption]
    winner = read_replay(replay_dir / MARKED).header.result
    assert winner is not None
    assert at.success[0].value == f"finished: {winner.winner.value} won"
    at.sidebar.radio[0].set_value("zh-Hant").run()
    assert "已結束" in at.success[0].value


@pytest.mark.redis
@pytest.mark.parametrize("outsider", ["human", "https://agents.example/wolf", "py:mine:make"])
def test_a_running_queue_game_with_an_outsider_shows_only_the_public_view(
    replay_dir: Path,
    live_game: tuple[Any, str],
    monkeypatch: pytest.MonkeyPatch,
    outsider: str,
) -> None:
    """Issue 19 on the path through Redis: a worker's game with a person or an outside
    agent at the table opens in the public view only, whatever view the session holds,
    and in every view once its finished header is published."""
    client, game_id = live_game
    lines = game_lines(replay_dir)
    header = json.loads(lines[0])
    header["result"] = None
    header["seats"][4]["agent"] = outsider
    publish(client, game_id, [json.dumps(header, ensure_ascii=False), *lines[1:120]])
    at = watch(replay_dir, monkeypatch, game_id)
    partial = loaded(Tail(game_id=game_id, lines=tuple(lines[:120])))
    steps = len(partial.replay.events)
    for view in ("god", "wolves", "seat:5", "public"):
        at.session_state["live_view"] = view
        at.run()
        assert not at.exception
        (picker,) = [s for s in at.selectbox if s.key and s.key.startswith("live_view_pick")]
        assert len(picker.options) == 1 and at.session_state["live_view"] == "public"
        text = page_text(at)
        assert "only the public view is shown" in text
        assert f"{steps} events" in text
        assert not leaks(text, partial, parse_viewer("public"), steps), view
    publish(client, game_id, lines[120:], first_seq=120)
    finished = json.loads(lines[0])
    finished["seats"][4]["agent"] = outsider
    final = json.dumps(finished, ensure_ascii=False, separators=(",", ":"))
    client.xadd(live_stream(game_id), {"seq": len(lines), "line": final})
    client.zrem(live_index(), game_id)
    at.run()
    (picker,) = [s for s in at.selectbox if s.key and s.key.startswith("live_view_pick")]
    assert len(picker.options) > 1 and "only the public view is shown" not in page_text(at)
    at.session_state["live_view"] = "god"
    at.run()
    assert at.session_state["live_view"] == "god"
