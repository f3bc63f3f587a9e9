"""A game killed mid-way resumes from its partial file: what was recorded is never asked
again (defaults included), the open batch asks only its seats still owed, and stateless
seats play on to the very game the uninterrupted run played."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.agents.base import AgentReply
from arena.errors import ArenaError
from arena.match import resume_game
from arena.replay_check import check_replay
from arena.storage.replay_file import read_replay
from tests.match.fakes import Call, Fake, by_step, fakes, play, seat_seconds
from tests.support.virtual_time import run


def refusing_3(log: list[Call]) -> dict[int, Fake]:
    """Seat N thinks N seconds; seat 3 refuses every request."""
    agents = fakes(log, seat_seconds)
    agents[3] = Fake(log, lambda r, a: (0.0, AgentReply(action=None, error="no tool call")))
    return agents


def mid_batch_cut(path: Path) -> tuple[int, int, int]:
    """(line, step, seat): the first answer of the first batch of three or more seats
    past a third of the file, after which the cut falls."""
    lines = path.read_text("utf-8").splitlines()
    answers = [(n, json.loads(line)) for n, line in enumerate(lines) if '"type":"answer"' in line]
    sizes: dict[int, int] = {}
    for _, answer in answers:
        sizes[answer["step"]] = sizes.get(answer["step"], 0) + 1
    n, answer = next((n, a) for n, a in answers if n > len(lines) // 3 and sizes[a["step"]] >= 3)
    return n, answer["step"], answer["seat"]


@pytest.fixture
def whole(tmp_path: Path) -> Path:
    path = tmp_path / "whole.jsonl"
    play(refusing_3([]), path=path)
    return path


def test_a_game_cut_mid_batch_asks_only_the_seats_still_owed(whole: Path, tmp_path: Path) -> None:
    line, step, answered = mid_batch_cut(whole)
    lines = whole.read_text("utf-8").splitlines(keepends=True)
    partial = tmp_path / "partial.jsonl"
    partial.write_text("".join(lines[: line + 1]), "utf-8")
    kept = read_replay(partial)
    with partial.open("a", encoding="utf-8") as torn:  # a crash mid-write: dropped on resume
        torn.write(lines[line + 1][:20])
    log: list[Call] = []
    referee, _ = run(resume_game(partial, refusing_3(log)))
    first_step, *_ = by_step(log)
    assert first_step == step
    batch = {a.seat for a in read_replay(whole).answers if a.step == step}
    assert {c.seat for c in by_step(log)[step]} == batch - {answered}
    assert referee.finished
    resumed, original = read_replay(partial), read_replay(whole)
    assert resumed.events == original.events
    assert sorted(resumed.answers, key=lambda a: (a.step, a.seat)) == sorted(
        original.answers, key=lambda a: (a.step, a.seat)
    )
    assert resumed.traces[: len(kept.traces)] == kept.traces
    report = check_replay(partial)
    assert report.ok and report.finished, report.message


def test_recorded_defaults_stay_defaults(whole: Path, tmp_path: Path) -> None:
    """Seat 3 refused before the cut; resumed with a seat 3 that answers, those steps are
    neither asked again nor rewritten."""
    line, _, _ = mid_batch_cut(whole)
    partial = tmp_path / "partial.jsonl"
    partial.write_text("".join(whole.read_text("utf-8").splitlines(keepends=True)[: line + 1]))
    before = read_replay(partial).answers
    recorded = {(a.step, a.seat) for a in before}
    defaults = [a for a in before if a.defaulted is not None]
    assert defaults and all(a.seat == 3 for a in defaults)
    log: list[Call] = []
    referee, _ = run(resume_game(partial, fakes(log, seat_seconds)))
    assert not recorded & {(c.step, c.seat) for c in log}
    assert tuple(referee.answers[: len(before)]) == before


def test_resuming_with_the_wrong_seats_is_a_one_line_error(whole: Path) -> None:
    agents = fakes([])
    del agents[12]
    with pytest.raises(
        ArenaError, match=r"^agents must cover seats 1-12: missing \[12\], extra \[\]$"
    ):
        run(resume_game(whole, agents))
