"""One name for the spec file, one set of languages (issue 31, "Smaller").

The docs said `arena play --spec-file`, the flag was `--spec`, and `arena agent check`
took `--spec-file`; `agent check --lang` refused zh-Hant and zh-Hans.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.storage.replay_file import read_replay


@pytest.mark.parametrize("flag", ["--spec-file", "--spec"])
def test_play_and_check_take_one_spec_file_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str
) -> None:
    spec = tmp_path / "match.yaml"
    spec.write_text('seats: ["1-12=random"]\nlang: en\n')
    out = tmp_path / "g.jsonl"
    assert main(["play", flag, str(spec), "--seed", "2", "--out", str(out), "--quiet"]) == 0
    assert {s.agent for s in read_replay(out).header.seats} == {"random"}
    capsys.readouterr()
    assert main(["agent", "check", "random", flag, str(spec), "--games", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["conformant"]


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans", "zh", "en"])
def test_agent_check_takes_every_language_play_takes(
    capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    assert main(["agent", "check", "bot", "--lang", lang, "--games", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["conformant"]


def test_play_s_summary_counts_a_plugin_s_answers_as_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It said "0 decisions asked, 0 its own; 10 answered by the arena without asking"."""
    out = tmp_path / "g.jsonl"
    seat = "3=py:tests.support.plugins:Polite"
    assert main(["play", "--seat", seat, "--seed", "2", "--out", str(out), "--lang", "en"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("seat 3 py:"))
    mine = sum(1 for a in read_replay(out).answers if a.seat == 3)
    assert line == f"seat 3 py:tests.support.plugins:Polite: {mine} decisions asked, {mine} its own"
