"""Corrupt files through `arena validate`, `arena replay` and `arena leaderboard`.

Each command names the file and line in one line, never prints a traceback, and goes on:
validate checks the other files, replay shows what there is, the leaderboard rates the
rest.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.cli import main
from arena.storage.replay_file import read_replay
from tests.storage.corrupt import CORRUPTIONS, READABLE, UNREADABLE, Corruption, damaged, write_good


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_good(tmp_path_factory.mktemp("good") / "good.jsonl")


def _names(c: Corruption) -> str:
    return c.name


def _where(path: Path, line: int | None) -> str:
    return f"{path}:{line}: " if line is not None else f"{path}: "


@pytest.mark.parametrize("corruption", CORRUPTIONS, ids=_names)
def test_validate_says_bad_with_file_and_line(
    good: Path, tmp_path: Path, corruption: Corruption, capsys: pytest.CaptureFixture[str]
) -> None:
    path, line = damaged(good, corruption, tmp_path)
    assert main(["validate", str(path), str(good)]) == 1
    out, err = capsys.readouterr()
    assert err == ""
    bad, ok = out.splitlines()
    assert bad.startswith(f"BAD {_where(path, line)}") and corruption.reason in bad, bad
    assert ok.startswith(f"ok  {good}: intact")


@pytest.mark.parametrize(
    "corruption", [c for c in UNREADABLE if c.name != "torn-last-line"], ids=_names
)
def test_replay_of_an_unreadable_file_is_one_error_line(
    good: Path, tmp_path: Path, corruption: Corruption, capsys: pytest.CaptureFixture[str]
) -> None:
    path, line = damaged(good, corruption, tmp_path)
    assert main(["replay", str(path), "--lang", "en"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"arena: error: {_where(path, line)}") and corruption.reason in err


def test_replay_of_a_torn_file_shows_the_whole_lines_and_names_the_torn_one(
    good: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    torn = next(c for c in CORRUPTIONS if c.name == "torn-last-line")
    path, line = damaged(good, torn, tmp_path)
    shown = len(read_replay(path, torn_tail="drop").events)
    assert main(["replay", str(path), "--lang", "en"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "Night 1" in out
    assert out.splitlines()[-1] == (
        f"(truncated: line {line} is cut off mid-line; shown: the {shown} events before it)"
    )


@pytest.mark.parametrize("corruption", READABLE, ids=_names)
def test_replay_shows_what_there_is_and_says_when_it_is_incomplete(
    good: Path, tmp_path: Path, corruption: Corruption, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = damaged(good, corruption, tmp_path)
    assert main(["replay", str(path), "--lang", "en"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    if corruption.replay_note:
        assert corruption.replay_note in out.splitlines()[-1]
    else:
        assert "truncated" not in out and "unfinished" not in out
    if corruption.name.startswith("cut"):
        assert "Night 1" in out and "Game over" not in out


def test_replay_of_a_finished_game_adds_no_note(
    good: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(good), "--lang", "en"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert "truncated" not in last and "unfinished" not in last


def test_the_leaderboard_skips_each_bad_file_with_its_line_and_rates_the_rest(
    good: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "good.jsonl").write_bytes(good.read_bytes())
    expected = {}
    for corruption in CORRUPTIONS:
        path, line = damaged(good, corruption, folder)
        renamed = f'"game_id":"{path.stem}"'.encode()
        data = path.read_bytes().replace(b'"game_id":"good"', renamed, 1)
        path.write_bytes(data)
        expected[path] = (line, corruption.reason)
    assert main(["leaderboard", str(folder), "--bootstrap", "0", "--no-cache"]) == 0
    out, err = capsys.readouterr()
    assert "Rated 1 verified games" in out and "Traceback" not in out + err
    lines = err.splitlines()
    assert len(lines) == len(CORRUPTIONS)
    for path, (line, reason) in expected.items():
        (mine,) = [entry for entry in lines if f"{path}:" in entry or f"{path} " in entry]
        if "unfinished" in path.name:
            assert "unfinished" in mine
        else:
            assert _where(path, line) in mine and reason in mine, mine


def _unblocked(fifo: Path, run: Callable[[], object]) -> object:
    """`run()` in a thread; if it is still waiting on `fifo` after a while, fail.

    A reader that opens a FIFO waits for a writer: the hang guard opens it for writing
    so the thread ends, then fails the test.
    """
    done: list[object] = []
    thread = threading.Thread(target=lambda: done.append(run()), daemon=True)
    thread.start()
    thread.join(timeout=60)
    if thread.is_alive():
        os.close(os.open(fifo, os.O_WRONLY))  # let the blocked open return (at EOF)
        thread.join()
        pytest.fail(f"blocked opening the FIFO {fifo}")
    return done[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_validate_refuses_a_fifo_at_once_and_checks_the_rest(
    good: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    assert _unblocked(fifo, lambda: main(["validate", str(fifo), str(good)])) == 1
    out, err = capsys.readouterr()
    assert err == ""
    refused, ok = out.splitlines()
    assert refused.startswith(f"BAD {fifo}: cannot read: not a regular file (a FIFO)"), refused
    assert ok.startswith(f"ok  {good}: intact")
    assert _unblocked(fifo, lambda: main(["replay", str(fifo), "--lang", "en"])) == 2
    err = capsys.readouterr().err
    assert err == f"arena: error: {fifo}: cannot read: not a regular file (a FIFO)\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_the_leaderboard_passes_a_fifo_by(
    good: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "good.jsonl").write_bytes(good.read_bytes())
    os.mkfifo(folder / "pipe.jsonl")
    argv = ["leaderboard", str(folder), "--bootstrap", "0", "--no-cache"]
    assert _unblocked(folder / "pipe.jsonl", lambda: main(argv)) == 0
    assert "Rated 1 verified games" in capsys.readouterr().out


def test_validate_of_a_file_it_cannot_read_says_only_that(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A missing file's signature was never looked at: no "unsigned (no signature line)"."""
    missing = tmp_path / "missing.jsonl"
    assert main(["validate", str(missing)]) == 1
    assert capsys.readouterr().out == (f"BAD {missing}: cannot read: No such file or directory\n")
