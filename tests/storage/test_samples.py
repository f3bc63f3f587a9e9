"""The sample replays shipped in replays/samples/ stay valid under the current rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.replay_check import check_replay

SAMPLES = sorted((Path(__file__).resolve().parents[2] / "replays" / "samples").glob("*.jsonl"))


def test_there_are_samples() -> None:
    assert len(SAMPLES) >= 2


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_sample_replay_is_intact(path: Path) -> None:
    report = check_replay(path)
    assert report.ok and report.finished, report.message
