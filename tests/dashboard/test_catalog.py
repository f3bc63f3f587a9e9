from __future__ import annotations

import os
import shutil
from datetime import date
from pathlib import Path

import pytest

from arena.dashboard import catalog
from arena.dashboard.catalog import Filters, HeaderIndex, select
from arena.dashboard.loading import resolve, trace_steps
from arena.errors import ArenaError
from arena.storage.replay_file import ReplayError
from tests.dashboard.conftest import MARKED


def test_scan_lists_games_newest_first_and_unreadable_files(replay_dir: Path) -> None:
    listing = HeaderIndex().scan(replay_dir)
    assert {r.file for r in listing.rows} == {MARKED, os.path.join("sub", "small.jsonl")}
    assert [r.created_at for r in listing.rows] == sorted(
        (r.created_at for r in listing.rows), reverse=True
    )
    marked = next(r for r in listing.rows if r.file == MARKED)
    assert (marked.board, marked.seats, marked.tournament) == ("wwk_guard", 12, "cup-1")
    assert marked.agents == ("marker:model-a", "marker:model-b")
    assert marked.winner in {"good", "wolves"} and marked.events > 0
    reasons = {u.file: u.reason for u in listing.unreadable}
    assert set(reasons) == {"corrupt.jsonl", "future.jsonl", "notes.txt"}
    assert all(str(replay_dir) not in reason for reason in reasons.values())


def test_scan_rereads_only_changed_files(
    replay_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "r"
    shutil.copytree(replay_dir, folder)
    index = HeaderIndex()
    index.scan(folder)
    reads: list[Path] = []
    real = catalog.read_header
    monkeypatch.setattr(catalog, "read_header", lambda p: reads.append(p) or real(p))
    assert len(index.scan(folder).rows) == 2
    assert reads == []
    (folder / "notes.txt").write_text("changed, still not a replay\n", "utf-8")
    (folder / "sub" / "small.jsonl").unlink()
    listing = index.scan(folder)
    assert reads == [folder / "notes.txt"]
    assert [r.file for r in listing.rows] == [MARKED]


def test_scan_refuses_a_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(ReplayError, match="does not exist"):
        HeaderIndex().scan(tmp_path / "nope")


def test_filters_combine(replay_dir: Path) -> None:
    rows = HeaderIndex().scan(replay_dir).rows
    started = rows[0].day
    assert started is not None
    assert len(select(rows, Filters())) == 2
    assert [r.board for r in select(rows, Filters(boards={"std9"}))] == ["std9"]
    assert select(rows, Filters(boards={"std9"}, tournaments={"cup-1"})) == []
    assert len(select(rows, Filters(since=started, until=started))) == 2
    assert select(rows, Filters(until=date(2000, 1, 1))) == []
    assert [r.file for r in select(rows, Filters(text="WWK_GUARD-3"))] == [MARKED]


def test_resolve_keeps_files_inside_the_folder(replay_dir: Path) -> None:
    assert resolve(replay_dir, MARKED) == (replay_dir / MARKED).resolve()
    for bad in ("../x.jsonl", "/etc/passwd", "", "sub"):
        with pytest.raises(ArenaError, match="replay folder|does not exist"):
            resolve(replay_dir, bad)


def test_trace_steps_count_events_before_each_trace() -> None:
    lines = [
        '{"type":"header"}',
        '{"type":"event","seq":0}',
        '{"type":"trace","record":{}}',
        '{"type":"answer"}',
        '{"type":"event","seq":1}',
        '{"type":"event","seq":2}',
        '{"type":"trace","record":{}}',
    ]
    assert trace_steps(lines) == (1, 3)
