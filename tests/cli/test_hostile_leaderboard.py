"""An agent label read from a replay header reaches the leaderboard table inert."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from tests.support.forgery import write_signed

LABEL = "bot\x1b[2J\x1b[H\u2028── fake ──\u202e"


def test_leaderboard_prints_header_labels_inert(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "games"
    for seed in (1, 2):
        out = folder / f"g{seed}.jsonl"
        assert (
            main(["play", "--board", "std9", "--seed", str(seed), "--quiet", "--out", str(out)])
            == 0
        )
        lines = out.read_text().split("\n")
        header = json.loads(lines[0])
        header["seats"][0]["agent"] = LABEL
        # the labels come from whoever holds the key (a hostile operator): signed again
        write_signed(out, [json.dumps(header, ensure_ascii=False), *lines[1:-1]])
    capsys.readouterr()
    assert main(["leaderboard", str(folder), "--bootstrap", "0"]) == 0
    printed = capsys.readouterr()
    for stream in (printed.out, printed.err):
        assert "\x1b" not in stream and "\u2028" not in stream and "\u202e" not in stream
    assert "bot\\x1b[2J\\x1b[H⏎── fake ──\\u202e" in printed.out
    assert not any(line.startswith("── fake") for line in printed.out.split("\n"))
