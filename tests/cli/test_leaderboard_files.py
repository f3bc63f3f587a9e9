"""`arena leaderboard DIR` reads `*.jsonl` only, and says once how many other files it ignored.

A replay folder gathers logs and notes too: each `.txt` or `.err` file was reported as an
unreadable replay.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli import main


def test_other_files_are_ignored_and_counted_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "games"
    for seed in (1, 2):
        out = folder / f"g{seed}.jsonl"
        assert (
            main(["play", "--board", "std9", "--seed", str(seed), "--quiet", "--out", str(out)])
            == 0
        )
    (folder / "worker.err").write_text("Traceback …\n", encoding="utf-8")
    (folder / "notes.txt").write_text("seat 3 was me\n", encoding="utf-8")
    (folder / "logs").mkdir()
    (folder / "logs" / "run.txt").write_text("{}\n", encoding="utf-8")
    (folder / "broken.jsonl").write_text("not json\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["leaderboard", str(folder), "--bootstrap", "0", "--no-cache"]) == 0
    printed = capsys.readouterr()
    assert printed.err.count("ignored 3 files not named *.jsonl (not replays)") == 1
    assert "worker.err" not in printed.err + printed.out
    assert "notes.txt" not in printed.err + printed.out
    assert "broken.jsonl" in printed.err  # a replay that cannot be read is still named
    assert "Rated 2 verified games; 1 files left out: 1 unreadable" in printed.out
