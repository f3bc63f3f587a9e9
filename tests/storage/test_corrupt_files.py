"""Every corrupt-file fixture through every reader: one `ReplayError` naming file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.dashboard.loading import load
from arena.llm.types import ModelCallRecord, ModelReply
from arena.replay_check import check_read, check_replay
from arena.storage.jsonl import MAX_DEPTH, depth
from arena.storage.replay_file import (
    ReplayError,
    iter_lines,
    parse_replay_lines,
    read_header,
    read_replay,
    replay_status,
)
from arena.storage.replay_lines import trace_line
from tests.storage.corrupt import CORRUPTIONS, READABLE, UNREADABLE, Corruption, damaged, write_good


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_good(tmp_path_factory.mktemp("good") / "good.jsonl")


def _names(c: Corruption) -> str:
    return c.name


def _assert_names(exc: ReplayError, path: Path, line: int | None, reason: str) -> None:
    text = str(exc)
    assert "\n" not in text and len(text) < 300 + len(str(path)), text
    assert exc.source == str(path) and exc.line == line
    assert text.startswith(f"{path}:{line}: " if line is not None else f"{path}: "), text
    assert reason in exc.reason, text


@pytest.mark.parametrize("corruption", UNREADABLE, ids=_names)
def test_read_replay_names_file_and_line(
    good: Path, tmp_path: Path, corruption: Corruption
) -> None:
    path, line = damaged(good, corruption, tmp_path)
    with pytest.raises(ReplayError) as caught:
        read_replay(path)
    _assert_names(caught.value, path, line, corruption.reason)


STREAM_FAULTS = tuple(
    c for c in UNREADABLE if c.header_bad or not c.name.startswith(("extra-key-", "unknown-line"))
)
"""What `iter_lines` itself refuses: it streams JSON objects; line types and keys are
checked by `read_replay`."""


@pytest.mark.parametrize("corruption", STREAM_FAULTS, ids=_names)
def test_streaming_names_file_and_line(good: Path, tmp_path: Path, corruption: Corruption) -> None:
    path, line = damaged(good, corruption, tmp_path)
    with pytest.raises(ReplayError) as caught:
        for _ in iter_lines(path):
            pass
    _assert_names(caught.value, path, line, corruption.reason)


@pytest.mark.parametrize("corruption", UNREADABLE, ids=_names)
def test_read_header_refuses_only_a_bad_header(
    good: Path, tmp_path: Path, corruption: Corruption
) -> None:
    path, line = damaged(good, corruption, tmp_path)
    if not corruption.header_bad:
        assert read_header(path).game_id == "good"
        return
    with pytest.raises(ReplayError) as caught:
        read_header(path)
    _assert_names(caught.value, path, line, corruption.reason)


@pytest.mark.parametrize("corruption", [c for c in UNREADABLE if "utf8" not in c.name], ids=_names)
def test_live_lines_name_the_stream_and_line(
    good: Path, tmp_path: Path, corruption: Corruption
) -> None:
    """A live game's published lines are text already (no UTF-8 faults)."""
    path, line = damaged(good, corruption, tmp_path)
    lines = path.read_text(encoding="utf-8").removesuffix("\n").split("\n")
    with pytest.raises(ReplayError) as caught:
        parse_replay_lines(lines, source="stream:good")
    assert caught.value.source == "stream:good" and caught.value.line == line
    assert str(caught.value).startswith(f"stream:good:{line}: ")


@pytest.mark.parametrize("corruption", CORRUPTIONS, ids=_names)
def test_validation_rejects_with_the_line(
    good: Path, tmp_path: Path, corruption: Corruption
) -> None:
    path, line = damaged(good, corruption, tmp_path)
    report = check_replay(path)
    assert not report.ok
    assert report.line == line
    assert corruption.reason in report.message, report.message
    assert not report.message.startswith(str(path)), "the location is in `line`, not repeated"


@pytest.mark.parametrize("corruption", UNREADABLE, ids=_names)
def test_the_dashboard_loader_raises_the_same_error(
    good: Path, tmp_path: Path, corruption: Corruption
) -> None:
    path, line = damaged(good, corruption, tmp_path)
    with pytest.raises(ReplayError) as caught:
        load(path)
    assert caught.value.line == line


def test_a_good_file_is_finished_and_intact(good: Path) -> None:
    assert check_replay(good).ok
    assert replay_status(read_replay(good)).state == "finished"


@pytest.mark.parametrize("corruption", READABLE, ids=_names)
def test_incomplete_files_read_and_say_how_complete_they_are(
    good: Path, tmp_path: Path, corruption: Corruption
) -> None:
    path, _ = damaged(good, corruption, tmp_path)
    status = replay_status(read_replay(path))
    if "header-only" in corruption.name or corruption.name.startswith("cut"):
        expected = "unfinished" if "unfinished" in corruption.name else "truncated"
        assert status.state == expected
    else:
        assert status.state == "finished"  # only `arena validate` can tell it was edited


def test_a_torn_last_line_can_be_left_out_and_is_named(good: Path, tmp_path: Path) -> None:
    torn = next(c for c in CORRUPTIONS if c.name == "torn-last-line")
    path, line = damaged(good, torn, tmp_path)
    replay = read_replay(path, torn_tail="drop")
    whole = read_replay(good)
    assert replay.torn_line == line
    assert replay.events == whole.events[: len(replay.events)]
    assert len(replay.events) >= len(whole.events) - 1
    status = replay_status(replay)
    assert status.state == "truncated" and status.torn_line == line


def test_a_last_line_without_its_newline_is_still_whole(good: Path, tmp_path: Path) -> None:
    path = tmp_path / "no-final-newline.jsonl"
    path.write_bytes(good.read_bytes().removesuffix(b"\n"))
    assert check_replay(path).ok


def test_a_missing_file_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "missing.jsonl"
    with pytest.raises(ReplayError, match=r"missing\.jsonl: cannot read: No such file"):
        read_replay(path)
    report = check_replay(path)
    assert not report.ok and report.line is None and "cannot read" in report.message


def test_a_hostile_endpoints_deep_reply_is_recorded_without_it(tmp_path: Path) -> None:
    """The writer never writes a line its readers refuse."""
    raw: dict = {}
    cursor = raw
    for _ in range(MAX_DEPTH + 50):
        cursor["a"] = {}
        cursor = cursor["a"]
    record = ModelCallRecord(
        seat=1,
        step=0,
        attempt=1,
        model="m",
        prompt_id="p@1",
        messages=(),
        tools=(),
        reply=ModelReply(text="hi", raw=raw),
    )
    line = trace_line(record)
    assert depth(json.loads(line)) <= MAX_DEPTH
    assert '"text":"hi"' in line and "raw reply nested deeper" in line


@pytest.mark.parametrize("corruption", READABLE, ids=_names)
def test_checking_a_parsed_file_reports_as_checking_the_file(
    good: Path, tmp_path: Path, corruption: Corruption
) -> None:
    """`check_read` (the leaderboard's: the file is parsed once) is `check_replay`."""
    path, _ = damaged(good, corruption, tmp_path)
    assert check_read(read_replay(path), path) == check_replay(path)
    assert check_read(read_replay(good), good) == check_replay(good)
