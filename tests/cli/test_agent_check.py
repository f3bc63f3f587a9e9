from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from arena.cli import main
from arena.storage.replay_file import read_replay

P = "py:tests.support.plugins"


def _check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    code = main(["agent", "check", *args, "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out) if out else {}


def test_a_good_plugin_is_conformant(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, report = _check(capsys, f"{P}:Polite", "--games", "2", "--out", str(tmp_path))
    assert code == 0 and report["conformant"] and report["problems"] == []
    assert report["calls"] == report["accepted"] > 0 and report["defaulted"] == 0
    assert [g["seat"] for g in report["games"]] == [1, 2]
    assert [g["seed"] for g in report["games"]] == [1, 2]
    assert set(report["latency_ms"]) == {"p50", "p95", "max"}
    replay = read_replay(Path(report["games"][1]["replay"]))
    assert replay.header.seats[1].agent == f"{P}:Polite"
    assert {s.agent for s in replay.header.seats if s.seat != 2} == {"bot"}


def test_the_text_report_names_counts_latency_and_verdict(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["agent", "check", "random", "--games", "1", "--board", "std9"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "random on std9:"
    assert lines[-3].startswith("answers ") and "crashes 0" in lines[-3]
    assert lines[-2].startswith("latency p50 ") and "(limit 60 s)" in lines[-2]
    assert lines[-1] == "conformant"


def test_a_raising_plugin_is_not_conformant_and_stops_at_its_first_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, report = _check(capsys, f"{P}:Raising", "--games", "3", "--timeout", "5")
    assert code == 1 and not report["conformant"]
    assert report["crash"] == 3 and report["defaulted"] == 1 and len(report["games"]) == 1
    assert report["examples"] == ["crash: the agent raised KeyError: 'no such feature'"]


def test_a_hanging_plugin_is_reported_as_timeouts(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _check(capsys, f"{P}:Hanging", "--games", "1", "--timeout", "0.05")
    assert code == 1 and report["timeout"] == 3 and report["defaulted"] == 1
    assert report["examples"] == ["timeout: no answer within the time limit"]


def test_refusals_count_against_a_threshold(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _check(capsys, f"{P}:Sloppy", "--games", "1")
    assert code == 1 and report["defaulted"] == 0 and report["crash"] == 0
    assert report["refused"] == report["accepted"] and report["refused_share"] == 0.5
    assert report["problems"] == ["50.0% of answers refused or late (at most 5.0% allowed)"]
    code, report = _check(capsys, f"{P}:Sloppy", "--games", "1", "--max-refused", "0.5")
    assert code == 0 and report["conformant"]


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("py:no_such_module_xyz:make", "no module named 'no_such_module_xyz'"),
        (f"{P}:not_an_agent", "not an Agent"),
        ("human", "a person cannot be checked"),
        ("no-such-agent-xyz", "unknown agent spec 'no-such-agent-xyz'"),
    ],
)
def test_an_agent_that_cannot_be_built_is_one_line(
    capsys: pytest.CaptureFixture[str], spec: str, says: str
) -> None:
    assert main(["agent", "check", spec]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and says in captured.err


def test_the_check_tells_each_game_s_end_and_says_how_it_was_taken(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, report = _check(capsys, f"{P}:Learning", "--games", "2")
    assert code == 0 and len(report["games"]) == 2
    assert all(
        re.fullmatch(r"told \(side (good|wolf), reward [+-]1\)", g["end"]) for g in report["games"]
    )
    code, report = _check(capsys, f"{P}:SyncLearningBadly", "--games", "1")
    assert code == 0  # the end is no part of the verdict
    assert report["games"][0]["end"] == "failed: RuntimeError: no place to keep the reward"
    code, report = _check(capsys, f"{P}:Polite", "--games", "1")
    assert report["games"][0]["end"] == "not a Learner (no game_over)"
